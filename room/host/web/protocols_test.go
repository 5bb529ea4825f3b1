package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestProtocolsThroughTheAPI: a debate started through POST /api/sessions
// with "rank" and "stances" follows both peer protocols, as roundtable
// debate --rank --stances does: its room records the ranking and the
// stances, and holds each persona's ranking before the verdict. A body
// giving them as other than true or false is refused (nothing started).
func TestProtocolsThroughTheAPI(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--fast")
	defer h.stop()
	if code, body := h.do(http.MethodPost, "/api/sessions", h.starter, `{"topic":"x","rank":"yes"}`, nil); code < 400 || code >= 500 {
		t.Fatalf("rank \"yes\": HTTP %d %s", code, body)
	}
	id := h.create(`{"topic":"Should we adopt GraphQL","rounds":1,"rank":true,"stances":true}`)
	if closed := waitClosed(t, cwd, id); !strings.Contains(closed, `"complete"`) {
		t.Fatalf("the debate closed with %s", closed)
	}
	r, err := room.Open(cwd, id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := r.Config()
	stances := map[string]bool{}
	for _, p := range cfg.Personas {
		stances[p.Stance] = true
	}
	if !cfg.Rank || !stances["for"] || !stances["against"] || !stances["neutral"] {
		t.Errorf("room.json: rank %v, personas %+v", cfg.Rank, cfg.Personas)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range st.Messages {
		kinds = append(kinds, m.Kind)
	}
	if got := strings.Join(kinds, " "); !strings.HasSuffix(got, "ranking ranking ranking summary") {
		t.Errorf("the room holds %s; want the three rankings before the verdict", got)
	}
}
