package debate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrUnreachable means a provider's server did not answer before the
// debate started.
var ErrUnreachable = errors.New("provider server unreachable")

// ErrUnknownModel means the provider's server lists its models and the
// requested one is not among them.
var ErrUnknownModel = errors.New("model not served")

// preflightTimeout bounds the check: a local server answers in
// milliseconds, and a user waits for this before seeing anything.
const preflightTimeout = 5 * time.Second

// PreflightError is a provider's server failing the check before a debate
// starts (Preflight). Kind is ErrUnreachable or ErrUnknownModel; the
// message is one sentence naming the server and what to do.
type PreflightError struct {
	Kind error
	msg  string
}

// Error is the sentence.
func (e *PreflightError) Error() string { return e.msg }

// Unwrap returns Kind, for errors.Is.
func (e *PreflightError) Unwrap() error { return e.Kind }

// Preflight checks a self-hosted OpenAI-compatible server (ollama, or any
// --base-url) before a debate starts, so a server that is not running or a
// model it does not serve is one clear sentence naming the URL, not a
// failure in the middle of the first turn. It asks GET <base>/models. The
// mock, and the hosted OpenRouter and OpenAI endpoints, are not checked.
// Its errors are *PreflightError, or wrap context.Canceled when ctx was
// cancelled during the check.
func Preflight(ctx context.Context, pc ProviderConfig) error {
	if pc.Name == ProviderMock || pc.BaseURL == "" || pc.BaseURL == DefaultOpenRouterURL || pc.BaseURL == DefaultOpenAIURL {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	server := serverName(pc)
	url := strings.TrimRight(pc.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return &PreflightError{ErrUnreachable, fmt.Sprintf("%s cannot be asked for its models (%v); check the base URL", server, err)}
	}
	if pc.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+pc.APIKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(context.Cause(ctx), context.Canceled) {
			return &StoppedError{Msg: "stopped while checking whether " + server + " answers; nothing was created"}
		}
		todo := "start it, or point --base-url at one that runs, or choose another provider"
		if pc.Name == ProviderOllama {
			todo = "start it with `ollama serve`, or choose another provider"
		}
		return &PreflightError{ErrUnreachable, fmt.Sprintf("%s %s: %s", server, reachCause(err), todo)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil // no model list here; the first request will tell
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&list); err != nil {
		return nil
	}
	var served []string
	for _, m := range list.Data {
		served = append(served, m.ID)
	}
	for _, m := range list.Models {
		served = append(served, m.Name, m.Model)
	}
	if pc.Model == "" || len(served) == 0 {
		return nil
	}
	for _, s := range served {
		if s == pc.Model || strings.TrimSuffix(s, ":latest") == pc.Model {
			return nil
		}
	}
	served = unique(served)
	todo := "choose one of those as the model (--model)"
	if len(served) == 1 {
		todo = "give --model " + served[0]
	}
	if pc.Name == ProviderOllama {
		todo = fmt.Sprintf("pull it with `ollama pull %s`, or %s", pc.Model, todo)
	}
	return &PreflightError{ErrUnknownModel, fmt.Sprintf("%s does not serve model %q (it serves %s): %s",
		server, pc.Model, strings.Join(served, ", "), todo)}
}

// serverName names the server pc points at, as an error's sentence
// starts (in lower case: it follows "roundtable: " or "Could not start
// the debate: "): "Ollama at http://127.0.0.1:11434" (where `ollama
// serve` listens), or "the OpenAI-compatible server at
// http://127.0.0.1:8000/v1" (a server of the user's own, as --base-url
// names one), "the openai server at …".
func serverName(pc ProviderConfig) string {
	switch {
	case pc.Name == ProviderOllama:
		if u, err := url.Parse(pc.BaseURL); err == nil && u.Host != "" {
			return "Ollama at " + u.Scheme + "://" + u.Host
		}
		return "Ollama at " + pc.BaseURL
	case pc.Name == ProviderOpenAI && pc.BaseURL != DefaultOpenAIURL:
		return "the OpenAI-compatible server at " + pc.BaseURL
	}
	return fmt.Sprintf("the %s server at %s", pc.Name, pc.BaseURL)
}

// reachCause says why a server could not be reached, completing a
// sentence that starts with its name, in words rather than Go's error
// text.
func reachCause(err error) string {
	var dns *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "is not answering"
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("did not answer within %s", preflightTimeout)
	case errors.As(err, &dns):
		return fmt.Sprintf("cannot be found (no host named %s)", dns.Name)
	case errors.As(err, &opErr) && opErr.Err != nil:
		return fmt.Sprintf("cannot be reached (%s)", opErr.Err)
	}
	return fmt.Sprintf("cannot be reached (%s)", err)
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
