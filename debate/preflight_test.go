package debate

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPreflight(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"tiny","object":"model"}]}`))
	}))
	defer srv.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	ctx := context.Background()
	cases := []struct {
		name string
		pc   ProviderConfig
		want error
		says string
	}{
		{"served", ProviderConfig{Name: ProviderOllama, BaseURL: srv.URL + "/v1", Model: "tiny"}, nil, ""},
		{"unknown model", ProviderConfig{Name: ProviderOllama, BaseURL: srv.URL + "/v1", Model: "llama9"}, ErrUnknownModel, "it serves tiny"},
		{"no list", ProviderConfig{Name: ProviderOpenAI, BaseURL: srv.URL + "/other", Model: "x"}, nil, ""},
		{"not running", ProviderConfig{Name: ProviderOllama, BaseURL: deadURL + "/v1", Model: "tiny"}, ErrUnreachable, deadURL + "/v1"},
		{"mock", ProviderConfig{Name: ProviderMock}, nil, ""},
		{"hosted", ProviderConfig{Name: ProviderOpenRouter, BaseURL: DefaultOpenRouterURL}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Preflight(ctx, c.pc)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("Preflight = %v, want %v", err, c.want)
			}
			if err != nil && !strings.Contains(err.Error(), c.says) {
				t.Fatalf("%q does not say %q", err, c.says)
			}
		})
	}
}
