package debate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
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

// Preflight checks a self-hosted OpenAI-compatible server (ollama, or any
// --base-url) before a debate starts, so a server that is not running or a
// model it does not serve is one clear sentence naming the URL, not a
// failure in the middle of the first turn. It asks GET <base>/models. The
// mock, and the hosted OpenRouter and OpenAI endpoints, are not checked.
func Preflight(ctx context.Context, pc ProviderConfig) error {
	if pc.Name == ProviderMock || pc.BaseURL == "" || pc.BaseURL == DefaultOpenRouterURL || pc.BaseURL == DefaultOpenAIURL {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	url := strings.TrimRight(pc.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrUnreachable, pc.BaseURL, err)
	}
	if pc.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+pc.APIKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%w: cannot reach the %s server at %s (%s); start it, or point --base-url at a running one",
			ErrUnreachable, pc.Name, pc.BaseURL, reachCause(err))
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
	return fmt.Errorf("%w: %s does not serve model %q; it serves %s; pick one with --model",
		ErrUnknownModel, pc.BaseURL, pc.Model, strings.Join(unique(served), ", "))
}

func reachCause(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused: nothing listens there"
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", preflightTimeout)
	default:
		return err.Error()
	}
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
