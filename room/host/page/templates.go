package page

const pageHTML = `
{{- define "head" -}}
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="same-origin">
<meta name="generator" content="roundtable host">
{{- end}}

{{- define "room" -}}
{{template "head"}}
<title>{{.Topic}} · roundtable</title>
<style>{{.Style}}</style>
<script src="/assets/live.js" defer></script>
</head>
<body>
<div class="page live">
<header>
<h1>{{.Topic}}</h1>
<nav class="exports" aria-label="Export"><a href="{{.Opt.Markdown}}">Markdown</a><a href="{{.Opt.HTML}}">HTML</a><a href="/">All rooms</a>{{template "signout"}}</nav>
<p class="sub">{{.Mode}} <strong>{{.Room}}</strong> · <span id="state" class="state" role="status" aria-live="polite">{{.StateText}}</span> · <span id="round">Round {{.Rounds}}</span></p>
</header>
<main id="room" data-stream="{{.Opt.Stream}}" data-parts="{{.Opt.Parts}}" data-after="{{.Opt.After}}" data-seq="{{.Seq}}" data-note="{{.Note}}" data-rounds="{{.Total}}"{{if .Closed}} data-closed="1"{{end}}>
<section id="notes" class="notes" aria-label="Notes">
{{- range .Notes}}
{{.}}
{{- end -}}
</section>
{{- if gt (len .Seats) 4}}
<nav class="strip" aria-label="Seats">
{{- range .Seats}}
<a class="chip {{.Class}}" href="#col-{{.Class}}" data-class="{{.Class}}"><span class="dot {{.Class}}"></span><bdi>{{.Name}}</bdi></a>
{{- end}}
</nav>
{{- end}}
<div class="columns n{{.Columns}}">
{{- range .Seats}}
<section class="col {{.Class}}{{if index $.Empty .Name}} empty-seat{{end}}" id="col-{{.Class}}" data-seat="{{.Name}}" data-key="{{.Key}}" data-class="{{.Class}}" aria-label="{{.Name}}">
<h2 class="colhead"><span class="dot {{.Class}}"></span><bdi class="who {{.Class}}">{{.Name}}</bdi>{{if .Stance}}<span class="stance">· {{.Stance}}</span>{{end}}<span class="agent">{{.Agents}}</span><span class="speaking">speaking</span></h2>
<div class="turns">
{{- range index $.ByCol .Name}}
{{.}}
{{- end -}}
</div>
<div class="live-turn" hidden><div class="stream body"></div></div>
</section>
{{- end}}
</div>
<section id="verdict" class="verdict"{{if not .Verdict}} hidden{{end}}>
<h2>Verdict</h2>
{{- range .Verdict}}
{{.}}
{{- end}}
<div class="live-verdict live-turn" hidden><div class="stream body"></div></div>
</section>
<section id="spec" class="verdict spec"{{if not .Spec}} hidden{{end}}>
<h2>Spec <code id="spec-path">{{.SpecPath}}</code></h2>
<div class="body" id="spec-body">{{.SpecHTML}}</div>
</section>
</main>
<footer id="end" class="end {{.State}}"{{if not .Closed}} hidden{{end}}>
<p>{{.End}}</p>
</footer>
</div>
</body>
</html>
{{end}}

{{- define "signout" -}}
<form class="signout" method="post" action="/api/logout"><button type="submit">Sign out</button></form>
{{- end}}

{{- define "index" -}}
{{template "head"}}
<title>Rooms · roundtable</title>
<style>{{.Style}}</style>
<script src="/assets/index.js" defer></script>
</head>
<body>
<div class="page index">
<header>
<h1>Rooms on this host</h1>
{{template "signout"}}
<p class="sub">Open a room to follow it live. The latest activity comes first.</p>
</header>
<main>
{{- if .CanStart}}
<form id="start" class="start" data-api="/api/sessions" novalidate>
<h2>Start a debate</h2>
<label for="topic">Decision to debate</label>
<textarea id="topic" name="topic" rows="2" maxlength="{{.MaxTopic}}" required placeholder="Should we adopt GraphQL for the public API?"></textarea>
<div class="row">
<label for="rounds">Rounds</label>
<input id="rounds" name="rounds" type="number" min="{{.MinRounds}}" max="{{.MaxRounds}}" value="{{.Rounds}}" required>
</div>
<fieldset id="personas" data-max="{{.MaxPersonas}}">
<legend>Personas</legend>
{{- range .Personas}}
<label class="persona"><input type="checkbox" name="persona" checked data-name="{{.Name}}" data-persona="{{.Persona}}"> <bdi>{{.Name}}</bdi></label>
{{- end}}
<div id="custom"></div>
<button type="button" id="add-persona">Add a persona</button>
</fieldset>
<fieldset id="protocol">
<legend>Protocol</legend>
<label class="option"><input type="checkbox" id="stances" name="stances"> Stances: each persona argues for, against or stays neutral, in turn</label>
<label class="option"><input type="checkbox" id="rank" name="rank"> Peer ranking: after the last round each persona ranks the others' final turns, and the moderator reads the rankings</label>
</fieldset>
<p id="start-error" class="error" role="alert" hidden></p>
<button type="submit" id="start-debate" class="primary" disabled>Start Debate</button>
<noscript><p class="error">Starting a debate here needs JavaScript; or start one with roundtable debate in the host's folder.</p></noscript>
</form>
{{- end}}
<h2 class="rooms-title">Rooms</h2>
<p id="rooms-empty" class="empty"{{if .Rooms}} hidden{{end}}>Your token opens no room here{{if .CanStart}} yet: start a debate above{{end}}.</p>
<ul class="rooms" id="rooms" data-src="{{.Src}}">
{{- range .Rooms}}
<li data-name="{{.Name}}"><a href="{{.Href}}"><bdi class="topic">{{.Topic}}</bdi></a><span class="info"><time datetime="{{.ISO}}">{{.When}}</time> · {{.Mode}} · {{.State}} · <bdi class="name">{{.Name}}</bdi></span></li>
{{- end}}
</ul>
</main>
</div>
</body>
</html>
{{end}}

{{- define "login" -}}
{{template "head"}}
<title>Sign in · roundtable</title>
<style>{{.Style}}</style>
</head>
<body>
<div class="login">
<h1>Watch a roundtable</h1>
<p>Paste the observer token <code>roundtable host</code> printed for this room (or the host's starter token). It is kept in a cookie for this host only, never in a link.</p>
{{- if .Problem}}
<p class="error" role="alert">{{.Problem}}</p>
{{- end}}
<form method="post" action="{{.Action}}">
<input type="hidden" name="next" value="{{.Next}}">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required autofocus>
<button type="submit">Watch</button>
</form>
</div>
</body>
</html>
{{end}}
`
