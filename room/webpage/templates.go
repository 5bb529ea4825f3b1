package webpage

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
<nav class="exports" aria-label="Export"><a href="{{.Opt.Markdown}}">Markdown</a><a href="{{.Opt.HTML}}">HTML</a><a href="/">All rooms</a></nav>
<p class="sub">{{.Mode}} <strong>{{.Room}}</strong> · <span id="state" class="state" role="status" aria-live="polite">{{.StateText}}</span> · <span id="round">Round {{.Rounds}}</span></p>
</header>
<main id="room" data-stream="{{.Opt.Stream}}" data-parts="{{.Opt.Parts}}" data-after="{{.Opt.After}}" data-seq="{{.Seq}}" data-note="{{.Note}}" data-rounds="{{.Total}}"{{if .Closed}} data-closed="1"{{end}}>
<section id="notes" class="notes" aria-label="Notes">
{{- range .Notes}}
{{.}}
{{- end -}}
</section>
<div class="columns n{{.Columns}}">
{{- range .Seats}}
<section class="col {{.Class}}{{if index $.Empty .Name}} empty-seat{{end}}" data-seat="{{.Name}}" aria-label="{{.Name}}">
<h2 class="colhead"><span class="dot {{.Class}}"></span><span class="who {{.Class}}">{{.Name}}</span><span class="agent">{{.Agents}}</span><span class="speaking">speaking</span></h2>
<div class="turns">
{{- range index $.ByCol .Name}}
{{.}}
{{- end -}}
</div>
<div class="live-turn" hidden><p class="stream"></p></div>
</section>
{{- end}}
</div>
<section id="verdict" class="verdict"{{if not .Verdict}} hidden{{end}}>
<h2>Verdict</h2>
{{- range .Verdict}}
{{.}}
{{- end}}
<div class="live-verdict live-turn" hidden><p class="stream"></p></div>
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

{{- define "index" -}}
{{template "head"}}
<title>Rooms · roundtable</title>
<style>{{.Style}}</style>
</head>
<body>
<div class="page">
<header>
<h1>Rooms on this host</h1>
<p class="sub">Open a room to follow it live.</p>
</header>
<main>
{{- if .Rooms}}
<ul class="rooms">
{{- range .Rooms}}
<li><a href="{{.Href}}"><strong>{{.Name}}</strong></a> <span class="meta">{{.Mode}} · {{.State}}</span><br>{{.Topic}}</li>
{{- end}}
</ul>
{{- else}}
<p class="empty">Your token opens no room here.</p>
{{- end}}
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
