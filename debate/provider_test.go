package debate

import (
	"errors"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolveProvider(t *testing.T) {
	tests := []struct {
		name  string
		flags ProviderConfig
		env   map[string]string
		want  ProviderConfig
		err   error
	}{
		{
			name: "default is the mock",
			want: ProviderConfig{Name: "mock", Model: "mock", MaxTokens: DefaultMaxTokens},
		},
		{
			name: "openrouter from the environment",
			env:  map[string]string{"ROUNDTABLE_PROVIDER": "OpenRouter", "OPENROUTER_API_KEY": "or-key"},
			want: ProviderConfig{Name: "openrouter", Model: DefaultOpenRouterModel, BaseURL: DefaultOpenRouterURL, APIKey: "or-key", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENROUTER_API_KEY"},
		},
		{
			name: "OPENROUTER_MODEL, and ROUNDTABLE_MODEL over it",
			env:  map[string]string{"ROUNDTABLE_PROVIDER": "openrouter", "OPENROUTER_API_KEY": "k", "OPENROUTER_MODEL": "meta/llama"},
			want: ProviderConfig{Name: "openrouter", Model: "meta/llama", BaseURL: DefaultOpenRouterURL, APIKey: "k", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENROUTER_API_KEY"},
		},
		{
			name:  "a flag wins over its variable",
			flags: ProviderConfig{Name: "openai", Model: "gpt-x", MaxTokens: 99},
			env:   map[string]string{"ROUNDTABLE_PROVIDER": "openrouter", "ROUNDTABLE_MODEL": "other", "OPENAI_API_KEY": "sk"},
			want:  ProviderConfig{Name: "openai", Model: "gpt-x", BaseURL: DefaultOpenAIURL, APIKey: "sk", MaxTokens: 99, KeyEnv: "OPENAI_API_KEY"},
		},
		{
			name: "OPENAI_BASE_URL needs no key",
			env:  map[string]string{"ROUNDTABLE_PROVIDER": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:1234/v1"},
			want: ProviderConfig{Name: "openai", Model: DefaultOpenAIModel, BaseURL: "http://127.0.0.1:1234/v1", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENAI_API_KEY"},
		},
		{
			name:  "--base-url needs no key",
			flags: ProviderConfig{Name: "openrouter", BaseURL: "http://localhost:8080/v1"},
			want:  ProviderConfig{Name: "openrouter", Model: DefaultOpenRouterModel, BaseURL: "http://localhost:8080/v1", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENROUTER_API_KEY"},
		},
		{
			name: "ROUNDTABLE_BASE_URL needs no key",
			env:  map[string]string{"ROUNDTABLE_PROVIDER": "openai", "ROUNDTABLE_BASE_URL": "http://vllm:8000/v1", "ROUNDTABLE_MODEL": "qwen"},
			want: ProviderConfig{Name: "openai", Model: "qwen", BaseURL: "http://vllm:8000/v1", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENAI_API_KEY"},
		},
		{
			// A server named with no provider is an OpenAI-compatible
			// one, not the mock answering in its place.
			name:  "--base-url alone is an OpenAI-compatible server",
			flags: ProviderConfig{BaseURL: "http://127.0.0.1:8080/v1", Model: "local"},
			want:  ProviderConfig{Name: "openai", Model: "local", BaseURL: "http://127.0.0.1:8080/v1", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENAI_API_KEY"},
		},
		{
			name: "ROUNDTABLE_BASE_URL alone too",
			env:  map[string]string{"ROUNDTABLE_BASE_URL": "http://vllm:8000/v1"},
			want: ProviderConfig{Name: "openai", Model: DefaultOpenAIModel, BaseURL: "http://vllm:8000/v1", MaxTokens: DefaultMaxTokens, KeyEnv: "OPENAI_API_KEY"},
		},
		{
			name:  "the mock named keeps the mock",
			flags: ProviderConfig{Name: "mock", BaseURL: "http://127.0.0.1:8080/v1"},
			want:  ProviderConfig{Name: "mock", Model: "mock", MaxTokens: DefaultMaxTokens},
		},
		{
			name:  "ollama needs no key",
			flags: ProviderConfig{Name: "ollama"},
			want:  ProviderConfig{Name: "ollama", Model: DefaultOllamaModel, BaseURL: DefaultOllamaURL, MaxTokens: DefaultMaxTokens},
		},
		{name: "openrouter without a key", flags: ProviderConfig{Name: "openrouter"}, err: ErrMissingKey},
		{name: "openai without a key", flags: ProviderConfig{Name: "openai"}, err: ErrMissingKey},
		{name: "unknown provider", flags: ProviderConfig{Name: "claude"}, err: ErrBadProvider},
		{name: "bad base URL", flags: ProviderConfig{Name: "ollama", BaseURL: "localhost:11434"}, err: ErrBadProvider},
		{name: "negative max tokens", flags: ProviderConfig{MaxTokens: -1}, err: ErrBadProvider},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveProvider(tt.flags, envOf(tt.env))
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got  %+v\nwant %+v", got, tt.want)
			}
			if _, err := NewProvider(got); err != nil {
				t.Fatalf("NewProvider: %v", err)
			}
		})
	}
}

func TestMissingKeyIsOneSentenceNamingTheVariable(t *testing.T) {
	for name, env := range map[string]string{"openrouter": "OPENROUTER_API_KEY", "openai": "OPENAI_API_KEY"} {
		_, err := ResolveProvider(ProviderConfig{Name: name}, envOf(nil))
		msg := err.Error()
		if !strings.Contains(msg, env) || strings.Count(msg, ". ") > 0 || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q should be one sentence naming %s", name, msg, env)
		}
		if IsUsage(err) {
			t.Errorf("%s: a missing key is not a command-line mistake", name)
		}
	}
}

func TestModelLabel(t *testing.T) {
	p, err := NewOpenAICompatible(ProviderConfig{Name: "openai", Model: "gpt-4o-mini", BaseURL: DefaultOpenAIURL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ModelLabel(p, Persona{Name: "A"}); got != "gpt-4o-mini" {
		t.Errorf("default label %q", got)
	}
	if got := ModelLabel(p, Persona{Name: "A", Model: "claude"}); got != "claude" {
		t.Errorf("per-persona label %q", got)
	}
	if got := ModelLabel(NewMock(0), Persona{Name: "A", Model: "claude"}); got != "mock" {
		t.Errorf("the mock ignores per-persona models, label %q", got)
	}
}

// TestPerPersonaModelIsSent: one debate, two models.
func TestPerPersonaModelIsSent(t *testing.T) {
	var models []string
	p := &script{reply: func(req Request) string {
		models = append(models, req.Model)
		return "ok"
	}}
	ps := DefaultPersonas()[:2]
	ps[1].Model = "big-model"
	eng, err := New(Config{Topic: "t", Personas: ps, Rounds: 1, Moderator: Persona{Model: "judge-model"}}, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(t.Context()))
	want := []string{"", "big-model", "judge-model"}
	if strings.Join(models, ",") != strings.Join(want, ",") {
		t.Fatalf("models sent %q, want %q", models, want)
	}
	for _, ev := range evs {
		if ev.Type == EventTurnStart && ev.Agent == ps[1].Name && ev.Model != "big-model" {
			t.Errorf("turn_start model %q", ev.Model)
		}
	}
}

// TestBaseURLIsChecked: a base URL no request could reach is refused in a
// sentence naming where it came from, whichever provider is chosen.
func TestBaseURLIsChecked(t *testing.T) {
	tests := []struct {
		flags ProviderConfig
		env   map[string]string
		says  string // "" : accepted
	}{
		{ProviderConfig{Name: "openai", BaseURL: "http://127.0.0.1:/v1"}, nil, `--base-url "http://127.0.0.1:/v1" has a colon after the host but no port`},
		{ProviderConfig{Name: "mock", BaseURL: "http://127.0.0.1:/v1"}, nil, "has a colon after the host but no port"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://[::1]:/v1"}, nil, "has a colon after the host but no port"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://127.0.0.1:abc/v1"}, nil, "has a port that is not a number"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://127.0.0.1:0/v1"}, nil, "has port 0; a port is a number from 1 to 65535"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://127.0.0.1:70000/v1"}, nil, "has port 70000"},
		{ProviderConfig{Name: "ollama", BaseURL: "localhost:11434"}, nil, "does not start with http:// or https://"},
		{ProviderConfig{Name: "ollama", BaseURL: "ftp://host/v1"}, nil, "does not start with http:// or https://"},
		{ProviderConfig{Name: "ollama", BaseURL: "http:///v1"}, nil, "has no host"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://:8080/v1"}, nil, "has no host"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://user:pw@host/v1"}, nil, "carries a user name or password"},
		{ProviderConfig{Name: "ollama", BaseURL: "http://my host/v1"}, nil, "has a space in it"},
		{ProviderConfig{Name: "openai"}, map[string]string{"OPENAI_BASE_URL": "http://h:/v1"}, `OPENAI_BASE_URL "http://h:/v1" has a colon`},
		{ProviderConfig{Name: "ollama"}, map[string]string{"ROUNDTABLE_BASE_URL": "http://h:/v1"}, `ROUNDTABLE_BASE_URL "http://h:/v1" has a colon`},
		{ProviderConfig{Name: "ollama", BaseURL: "http://[::1]:11434/v1"}, nil, ""},
		{ProviderConfig{Name: "ollama", BaseURL: "https://gpu.example.com/v1"}, nil, ""},
		{ProviderConfig{Name: "ollama", BaseURL: "http://127.0.0.1:65535"}, nil, ""},
	}
	for _, tt := range tests {
		_, err := ResolveProvider(tt.flags, envOf(tt.env))
		switch {
		case tt.says == "" && err != nil:
			t.Errorf("%+v: refused: %v", tt.flags, err)
		case tt.says == "":
		case !errors.Is(err, ErrBadProvider) || !IsUsage(err):
			t.Errorf("%+v %v: err %v, want a usage error", tt.flags, tt.env, err)
		case !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "write it like http://"):
			t.Errorf("%+v %v: %q does not say %q and how to write it", tt.flags, tt.env, err, tt.says)
		}
	}
}
