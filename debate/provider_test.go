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
