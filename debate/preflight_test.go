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
		{
			"unknown model",
			ProviderConfig{Name: ProviderOllama, BaseURL: srv.URL + "/v1", Model: "llama9"},
			ErrUnknownModel,
			"Ollama at " + srv.URL + ` does not serve model "llama9" (it serves tiny): pull it with ` + "`ollama pull llama9`, or give --model tiny",
		},
		{
			"unknown model elsewhere",
			ProviderConfig{Name: ProviderOpenAI, BaseURL: srv.URL + "/v1", Model: "big"},
			ErrUnknownModel,
			"the OpenAI-compatible server at " + srv.URL + `/v1 does not serve model "big" (it serves tiny): give --model tiny`,
		},
		{"no list", ProviderConfig{Name: ProviderOpenAI, BaseURL: srv.URL + "/other", Model: "x"}, nil, ""},
		{
			"not running",
			ProviderConfig{Name: ProviderOllama, BaseURL: deadURL + "/v1", Model: "tiny"},
			ErrUnreachable,
			"Ollama at " + deadURL + " is not answering: start it with `ollama serve`, or choose another provider",
		},
		{
			"not running elsewhere",
			ProviderConfig{Name: ProviderOpenAI, BaseURL: deadURL + "/v1", Model: "tiny"},
			ErrUnreachable,
			"the OpenAI-compatible server at " + deadURL + "/v1 is not answering: start it, or point --base-url at one that runs, or choose another provider",
		},
		{
			"no such host",
			ProviderConfig{Name: ProviderOllama, BaseURL: "http://no-such-host.invalid:11434/v1", Model: "tiny"},
			ErrUnreachable,
			"Ollama at http://no-such-host.invalid:11434 cannot be found (no host named no-such-host.invalid)",
		},
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
			// One sentence for a person: no Go error text.
			for _, raw := range []string{"dial tcp", "Get \"", "connect:", "lookup "} {
				if err != nil && strings.Contains(err.Error(), raw) {
					t.Errorf("%q carries raw Go error text %q", err, raw)
				}
			}
		})
	}
}

// TestPreflightStopped: cancelling during the check is a cancellation, not
// an unreachable server.
func TestPreflightStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Preflight(ctx, ProviderConfig{Name: ProviderOllama, BaseURL: "http://127.0.0.1:9/v1"})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("Preflight after cancel = %v", err)
	}
}
