package eval

import (
	"html/template"
	"io"
)

// htmlPage is what report.html shows: the Markdown report's tables and
// sentences, and the chart as SVG.
type htmlPage struct {
	Summary, Stopped string
	Unfinished       string // unfinishedNote, when calls of unfinished items spent tokens
	Arms, Pairs      *table
	Chart            *svgChart
	Debates          []htmlDebate
	Budgets          []string
}

// htmlDebate is a debate arm's section of the page.
type htmlDebate struct {
	Title  string
	Lines  []string
	Rounds *table
}

// htmlReport is report.html's template. html/template escapes every text
// put in it: model names, error messages. The page loads nothing and runs
// nothing: its style is inline, its chart an inline SVG.
var htmlReport = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Eval</title>
<style>
body { font-family: system-ui, sans-serif; color: #222; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: left; }
th { background: #f3f3f3; }
.stopped { background: #fff4d6; padding: 0.5rem; }
svg.chart { max-width: 100%; height: auto; font-size: 12px; }
.chart .axis { stroke: #333; }
.chart .grid { stroke: #eee; }
.chart .vote-curve { fill: none; stroke: #3366cc; stroke-width: 2; }
.chart circle.vote { fill: #3366cc; }
.chart circle.debate { fill: #cc3333; }
.chart text { fill: #333; }
.chart .xlabel { text-anchor: middle; }
.chart .ylabel { text-anchor: end; dominant-baseline: middle; }
.chart .title { text-anchor: middle; font-weight: bold; }
.chart .end { text-anchor: end; }
</style>
</head>
<body>
<h1>Eval</h1>
<p>{{.Summary}}</p>
{{- if .Stopped}}
<p class="stopped"><strong>Stopped before the end</strong> ({{.Stopped}}): the figures cover the questions each arm finished.</p>
{{- end}}
{{- if .Unfinished}}
<p>{{.Unfinished}}</p>
{{- end}}
<h2>Arms</h2>
{{template "table" .Arms}}
{{- with .Chart}}
<h2>Accuracy against tokens</h2>
<svg class="chart" viewBox="0 0 {{.W}} {{.H}}" width="{{.W}}" height="{{.H}}" role="img" aria-label="accuracy against tokens per question">
{{- range .XTicks}}
<line class="grid" x1="{{.X1}}" y1="{{.GY}}" x2="{{.X1}}" y2="{{.Y1}}"/>
<line class="axis" x1="{{.X1}}" y1="{{.Y1}}" x2="{{.X2}}" y2="{{.Y2}}"/>
<text class="xlabel" x="{{.TX}}" y="{{.TY}}">{{.Label}}</text>
{{- end}}
{{- range .YTicks}}
<line class="grid" x1="{{.X2}}" y1="{{.Y1}}" x2="{{.GX}}" y2="{{.Y1}}"/>
<line class="axis" x1="{{.X1}}" y1="{{.Y1}}" x2="{{.X2}}" y2="{{.Y2}}"/>
<text class="ylabel" x="{{.TX}}" y="{{.TY}}">{{.Label}}</text>
{{- end}}
<line class="axis" x1="{{.Left}}" y1="{{.Bottom}}" x2="{{.Right}}" y2="{{.Bottom}}"/>
<line class="axis" x1="{{.Left}}" y1="{{.Top}}" x2="{{.Left}}" y2="{{.Bottom}}"/>
<text class="title" x="{{.XTitleX}}" y="{{.XTitleY}}">tokens per question</text>
<text class="title" transform="rotate(-90)" x="{{.YTitleX}}" y="{{.YTitleY}}">accuracy</text>
{{- if .Curve}}
<polyline class="vote-curve" points="{{.Curve}}"/>
{{- end}}
{{- range .Points}}
<circle class="{{.Class}}" data-arm="{{.Name}}" cx="{{.X}}" cy="{{.Y}}" r="5"/>
<text class="{{.LabelClass}}" x="{{.TX}}" y="{{.TY}}">{{.Label}}</text>
{{- end}}
</svg>
<p>Blue: single and the vote:K arms, the line joining them in order of K (the vote curve); red: the debate arms.</p>
{{- end}}
{{- with .Pairs}}
<h2>Paired tests (exact McNemar)</h2>
{{template "table" .}}
{{- end}}
{{- range .Debates}}
<h2>{{.Title}}</h2>
{{- range .Lines}}
<p>{{.}}</p>
{{- end}}
{{with .Rounds}}{{template "table" .}}{{end}}
{{- end}}
{{- with .Budgets}}
<h2>Equal budget</h2>
{{- range .}}
<p>{{.}}</p>
{{- end}}
{{- end}}
</body>
</html>
{{define "table"}}<table>
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>{{end}}`))

// WriteHTML writes rep as one self-contained HTML page: the tables and
// sentences of the Markdown report, and the chart of accuracy against
// tokens as an inline SVG (a point per arm that finished a question, the
// vote curve as a line). Every text from the run is escaped.
func (rep *Report) WriteHTML(w io.Writer) error {
	p := htmlPage{Summary: rep.summary(), Stopped: rep.Stopped, Arms: rep.armsTable(), Chart: svgChartOf(rep)}
	if rep.UnfinishedTokens > 0 {
		p.Unfinished = rep.unfinishedNote()
	}
	if len(rep.Pairs) > 0 {
		p.Pairs = rep.pairsTable()
	}
	for i := range rep.Debates {
		d := &rep.Debates[i]
		p.Debates = append(p.Debates, htmlDebate{Title: d.title(), Lines: d.lines(), Rounds: d.roundsTable()})
	}
	for _, b := range rep.Budgets {
		p.Budgets = append(p.Budgets, b.line())
	}
	return htmlReport.Execute(w, p)
}
