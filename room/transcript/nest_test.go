package transcript

import "testing"

func TestNestMarkdown(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"headings move down", "# One\n## Two\ntext", "#### One\n##### Two\ntext"},
		{"capped at six", "##### Five\n###### Six", "###### Five\n###### Six"},
		{"indented heading", "   ## Two", "   ##### Two"},
		{"not headings", "#hashtag\n    # code\n####### seven", "#hashtag\n    # code\n####### seven"},
		{"empty heading", "#", "####"},
		{"fenced code is left alone", "```\n# not a heading\n<div>\n```\n# after", "```\n# not a heading\n<div>\n```\n#### after"},
		{"tilde fence with longer closer", "~~~\n# in\n~~~~\n# out", "~~~\n# in\n~~~~\n#### out"},
		{"shorter closer does not close", "````\n```\n# in\n````", "````\n```\n# in\n````"},
		{"closer with text does not close", "```\n``` x\n# in", "```\n``` x\n# in\n```"},
		{"open fence is closed", "```go\nfunc f() {", "```go\nfunc f() {\n```"},
		{"open fence with trailing newline", "~~~~\nx\n\n", "~~~~\nx\n~~~~"},
		{"backtick info with backtick is not a fence", "``` a`b\n# h", "``` a`b\n#### h"},
		{"HTML block start is escaped", "<!-- hide\nthe rest", "\\<!-- hide\nthe rest"},
		{"indented HTML block start", "  <script>", "  \\<script>"},
		{"inline HTML stays", "a <b>bold</b>", "a <b>bold</b>"},
		{"autolink at line start stays", "<https://example.com/a?b=c> is the doc", "<https://example.com/a?b=c> is the doc"},
		{"e-mail autolink stays", "<ops@example.com>", "<ops@example.com>"},
		{"a tag with a colon is still escaped", "<a href=x:y>", "\\<a href=x:y>"},
		{"no change", "plain text\n\n- list", "plain text\n\n- list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nestMarkdown(tt.in, 3); got != tt.want {
				t.Errorf("nestMarkdown(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
