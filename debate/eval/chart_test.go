package eval_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/roundtable-dev/roundtable/debate/eval"
)

// chartFixture is a report of five arms over 14 questions, in this order:
// single (100 tokens a question, 0 right: the bottom left corner), vote:5
// (500, 7 right), vote:3 (300, 4 right), the debate (1,280, all right:
// the top right corner) and vote:9, which finished nothing.
func chartFixture(models []string) *eval.Report {
	arm := func(name string, tokens float64, correct, items int) eval.ArmResult {
		a := eval.ArmResult{Name: name, Models: models, Items: items, Correct: correct, TokensPerItem: tokens, Tokens: int(tokens) * items, Results: []eval.Item{}}
		if items > 0 {
			a.Accuracy = float64(correct) / float64(items)
		}
		a.CILow, a.CIHigh = eval.Wilson(correct, items)
		return a
	}
	arms := []eval.ArmResult{arm("single", 100, 0, 14), arm("vote:5", 500, 7, 14), arm("vote:3", 300, 4, 14), arm("debate", 1280, 14, 14), arm("vote:9", 0, 0, 0)}
	return &eval.Report{
		Questions: 14, Personas: 3, Rounds: 2, Arms: arms, Pairs: eval.Pairs(arms),
		Debates: []eval.Debate{{
			Arm: "debate", Kind: "debate", Items: 14, Oracle: 14, Moderator: 14, LastMajority: 13, OracleAccuracy: 1,
			Rounds:  []eval.RoundStat{{Round: 1, Right: 30, MajorityRight: 12}, {Round: 2, Right: 40, MajorityRight: 13, WrongToRight: 10, Changed: 10, ToMajority: 9, Conformity: 0.9}},
			Changed: 10, ToMajority: 9, Conformity: 0.9,
		}},
		Budgets: []eval.Budget{{Arm: "debate", DebateTokens: 1280, DebateAccuracy: 1, Curve: []eval.Point{{Arm: "single", Tokens: 100}, {Arm: "vote:3", Tokens: 300, Accuracy: 4.0 / 14}, {Arm: "vote:5", Tokens: 500, Accuracy: 0.5}}}},
	}
}

// TestEvalTextChart: the fixture's chart, character for character. The
// columns run from 100 to 1,280 tokens, (tokens - 100) / 20 each; the rows
// from 0 to 100 %, 14 steps: single sits on the bottom left corner of the
// frame, the debate on the top right, vote:3 at column 10 row 4 from the
// bottom (4/14), vote:5 at column 20 row 7; dots join single, vote:3 and
// vote:5 (the order of K, not the report's); vote:9 is in the legend only.
func TestEvalTextChart(t *testing.T) {
	const want = `accuracy against tokens per question
100 % +----------------------------------------------------------D
      |                                                          |
      |                                                          |
      |                                                          |
      |                                                          |
      |                                                          |
      |                                                          |
 50 % |                  .B                                      |
      |              ....                                        |
      |           ...                                            |
      |        .C.                                               |
      |      ..                                                  |
      |   ...                                                    |
      | ..                                                       |
  0 % A.---------------------------------------------------------+
      100.0               tokens per question               1280.0
  A  single   100.0 tokens per question, 0.0 % right
  B  vote:5   500.0 tokens per question, 50.0 % right
  C  vote:3   300.0 tokens per question, 28.6 % right
  D  debate  1280.0 tokens per question, 100.0 % right
  E  vote:9  no question finished: not drawn
  .  the vote curve, by K: single, vote:3, vote:5
`
	rep := chartFixture([]string{"m1"})
	if got := rep.TextChart(); got != want {
		t.Errorf("the chart:\n%s\nwant\n%s", got, want)
	}
	// A report read back from its JSON draws the same.
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back eval.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.TextChart(); got != want {
		t.Errorf("the chart of the report read back:\n%s", got)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\n## Accuracy against tokens\n\n```text\n"+want+"```\n") {
		t.Errorf("the Markdown report lacks the chart:\n%s", md.String())
	}
}

// TestEvalTextChartEdges: one arm runs the axis from 0 to its tokens and
// lands on the top right corner; two arms in one cell (the bottom right
// corner) show *, the vote curve from single (column 0, 50 %) reaching
// the bottom edge four columns before it; a report with no arm that
// finished a question has no chart.
func TestEvalTextChartEdges(t *testing.T) {
	one := &eval.Report{Arms: []eval.ArmResult{{Name: "single", Items: 2, Correct: 2, Accuracy: 1, TokensPerItem: 50}}}
	lines := strings.Split(one.TextChart(), "\n")
	if len(lines) < 17 || lines[1] != "100 % +"+strings.Repeat("-", eval.ChartWidth-2)+"A" ||
		lines[15] != "  0 % +"+strings.Repeat("-", eval.ChartWidth-2)+"+" || !strings.HasPrefix(lines[16], "      0.0 ") || !strings.HasSuffix(lines[16], " 50.0") {
		t.Errorf("one arm:\n%s", strings.Join(lines, "\n"))
	}
	two := &eval.Report{Arms: []eval.ArmResult{
		{Name: "vote:3", Items: 2, TokensPerItem: 10},
		{Name: "debate", Items: 2, TokensPerItem: 10},
		{Name: "single", Items: 2, Correct: 1, Accuracy: 0.5, TokensPerItem: 5},
	}}
	chart := two.TextChart()
	if lines := strings.Split(chart, "\n"); !strings.HasSuffix(lines[15], "-....*") ||
		!strings.HasPrefix(lines[8], " 50 % C.") || !strings.Contains(chart, "  *  arms in one place\n") ||
		!strings.Contains(chart, "  .  the vote curve, by K: single, vote:3\n") {
		t.Errorf("two arms in one place:\n%s", chart)
	}
	none := &eval.Report{Arms: []eval.ArmResult{{Name: "single"}}}
	if got := none.TextChart(); got != "" {
		t.Errorf("no arm finished: %q", got)
	}
}

// TestEvalHTMLReport: report.html is one page that loads and runs
// nothing, shows the tables and the sentences of the Markdown report, and
// draws an SVG with a point per arm that finished a question and the vote
// curve through single, vote:3 and vote:5; a model's name and the reason
// the run stopped are escaped.
func TestEvalHTMLReport(t *testing.T) {
	const hostile = `<script>alert("m")</script>`
	rep := chartFixture([]string{hostile, "m&2"})
	rep.Stopped = "the server said <b>no</b>"
	page := string(htmlReport(t, rep))
	if strings.Contains(page, "<script") || strings.Contains(page, "<b>") || !strings.Contains(page, "&lt;script&gt;alert(&#34;m&#34;)&lt;/script&gt;, m&amp;2") {
		t.Errorf("the hostile texts are not escaped:\n%s", page)
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var (
		svgs, tables, xTicks, yTicks int
		points, curves               []string
		texts                        strings.Builder
	)
	var walk func(n *html.Node, inSVG bool)
	walk = func(n *html.Node, inSVG bool) {
		if n.Type == html.TextNode {
			texts.WriteString(n.Data + "\n")
		}
		if n.Type == html.ElementNode {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
				if a.Key == "src" || a.Key == "href" || strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s %s=%q>: the page loads or runs something", n.Data, a.Key, a.Val)
				}
			}
			switch n.Data {
			case "script", "link", "img", "iframe", "object", "embed", "image", "use":
				t.Errorf("a <%s> element", n.Data)
			case "svg":
				svgs++
				inSVG = true
			case "table":
				tables++
			case "circle":
				if inSVG && strings.Contains(attr["class"], "point") {
					points = append(points, attr["data-arm"])
				}
			case "polyline":
				if inSVG {
					curves = append(curves, attr["points"])
				}
			case "text":
				switch attr["class"] {
				case "xlabel":
					xTicks++
				case "ylabel":
					yTicks++
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inSVG)
		}
	}
	walk(doc, false)
	if svgs != 1 || strings.Join(points, " ") != "single vote:5 vote:3 debate" || xTicks < 3 || yTicks != 6 {
		t.Errorf("%d <svg>, points %q, %d and %d ticks; want one, single vote:5 vote:3 debate, ticks on both axes", svgs, points, xTicks, yTicks)
	}
	if len(curves) != 1 || len(strings.Fields(curves[0])) != 3 {
		t.Errorf("the vote curve: %q; want one line through three points", curves)
	}
	if tables != 3 {
		t.Errorf("%d tables; want the arms, the paired tests, the debate's rounds", tables)
	}
	for _, s := range []string{
		hostile + ", m&2",
		"the server said <b>no</b>",
		"Oracle (some persona right in round 1): 14/14 = 100.0 %.",
		"Conformity (changed answers that moved to the majority just read): 9/10 = 90.0 %.",
		"The debate arm's 1280.0 tokens per question fall outside the vote arms' range (100.0 to 500.0)",
		"vote:3 28.6 %",
		"tokens per question",
	} {
		if !strings.Contains(texts.String(), s) {
			t.Errorf("the page's text lacks %q:\n%s", s, texts.String())
		}
	}
}

// TestEvalHTMLLabelsApart: arms at one spot of the chart (three at 0 %
// and nearly the same tokens, two at one point) get their labels on lines
// of their own, none printed over another, all inside the plot.
func TestEvalHTMLLabelsApart(t *testing.T) {
	arm := func(name string, tokens float64, correct int) eval.ArmResult {
		return eval.ArmResult{Name: name, Items: 4, Correct: correct, Accuracy: float64(correct) / 4, TokensPerItem: tokens, Results: []eval.Item{}}
	}
	rep := &eval.Report{Questions: 4, Arms: []eval.ArmResult{
		arm("single", 100, 0), arm("vote:3", 110, 0), arm("vote:5", 120, 0),
		arm("debate", 900, 2), arm("rank", 900, 2), arm("stances", 905, 2),
	}}
	doc, err := html.Parse(bytes.NewReader(htmlReport(t, rep)))
	if err != nil {
		t.Fatal(err)
	}
	type box struct {
		label            string
		x0, x1, top, bot float64
	}
	var boxes []box
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "text" && n.FirstChild != nil {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
			}
			if cls := attr["class"]; cls == "" || cls == "end" {
				var x, y float64
				if _, err := fmt.Sscan(attr["x"], &x); err != nil {
					t.Fatalf("x=%q", attr["x"])
				}
				if _, err := fmt.Sscan(attr["y"], &y); err != nil {
					t.Fatalf("y=%q", attr["y"])
				}
				label := n.FirstChild.Data
				w := 7 * float64(len([]rune(label)))
				b := box{label: label, x0: x, x1: x + w, top: y - 14, bot: y}
				if cls == "end" {
					b.x0, b.x1 = x-w, x
				}
				boxes = append(boxes, b)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if len(boxes) != len(rep.Arms) {
		t.Fatalf("%d point labels, want %d: %+v", len(boxes), len(rep.Arms), boxes)
	}
	for i, a := range boxes {
		if a.top < 0 || a.bot > 400 {
			t.Errorf("%q is outside the picture: %+v", a.label, a)
		}
		for _, b := range boxes[i+1:] {
			if a.x0 < b.x1 && b.x0 < a.x1 && a.top < b.bot && b.top < a.bot {
				t.Errorf("%q and %q overlap: %+v %+v", a.label, b.label, a, b)
			}
		}
	}
}

// htmlReport is report.html as an --out folder gets it for rep.
func htmlReport(t *testing.T, rep *eval.Report) []byte {
	t.Helper()
	dir := t.TempDir()
	out, _, err := eval.OpenOut(dir, eval.Config{Provider: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := out.WriteReports(rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, eval.ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestEvalTextChartIn: for a terminal narrower than the chart, its frame
// narrows so that the frame and its axis fit, down to ChartMinWidth; the same arms
// land at the frame's ends; a wide terminal, or none, gets TextChart.
// Before, at 60 columns every line of the chart wrapped.
func TestEvalTextChartIn(t *testing.T) {
	rep := chartFixture([]string{"m1"})
	for _, cols := range []int{59, 50} {
		chart := rep.TextChartIn(cols)
		lines := strings.Split(chart, "\n")
		for _, l := range lines[:17] { // the frame and its axis; the legend's lines are as long as its names
			if utf8.RuneCountInString(l) > cols {
				t.Errorf("at %d columns, a line of %d: %q", cols, utf8.RuneCountInString(l), l)
			}
		}
		frame := cols - 6
		if lines[1] != "100 % +"+strings.Repeat("-", frame-2)+"D" || !strings.HasPrefix(lines[15], "  0 % A") || !strings.HasSuffix(lines[16], " 1280.0") ||
			!strings.Contains(chart, "  D  debate  1280.0 tokens per question, 100.0 % right\n") {
			t.Errorf("at %d columns:\n%s", cols, chart)
		}
	}
	if got := rep.TextChartIn(30); strings.Split(got, "\n")[1] != "100 % +"+strings.Repeat("-", eval.ChartMinWidth-2)+"D" {
		t.Errorf("at 30 columns the frame is not ChartMinWidth:\n%s", got)
	}
	for _, cols := range []int{0, 66, 200} {
		if rep.TextChartIn(cols) != rep.TextChart() {
			t.Errorf("at %d columns the chart is not TextChart's", cols)
		}
	}
}
