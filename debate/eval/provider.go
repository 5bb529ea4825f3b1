package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
)

// ResolveProvider is debate.ResolveProvider (where a base URL given with
// no provider named means an OpenAI-compatible server: `roundtable eval
// --base-url URL` reaches any such server), but with models (--models) and
// no model named, the first of models is the provider's model.
func ResolveProvider(flags debate.ProviderConfig, models []string, getenv func(string) string) (debate.ProviderConfig, error) {
	if strings.TrimSpace(flags.Model) == "" && strings.TrimSpace(getenv("ROUNDTABLE_MODEL")) == "" && len(models) > 0 {
		flags.Model = models[0]
	}
	return debate.ResolveProvider(flags, getenv)
}

// SplitModels reads --models: names separated by commas, blanks dropped.
func SplitModels(s string) []string {
	var out []string
	for m := range strings.SplitSeq(s, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// ErrModelUnknown marks a server that, asked for its models because none
// was named, lists none or several. A command line exits 2 on it.
var ErrModelUnknown = errors.New("no model named")

// NeedsModel says pc reaches a server of the user's own (--base-url) with
// no model named by flag, environment or models: the eval then asks the
// server which model it serves (ServedModel).
func NeedsModel(flags debate.ProviderConfig, models []string, pc debate.ProviderConfig, getenv func(string) string) bool {
	return strings.TrimSpace(flags.Model) == "" && strings.TrimSpace(getenv("ROUNDTABLE_MODEL")) == "" && len(models) == 0 &&
		pc.Name == debate.ProviderOpenAI && pc.BaseURL != "" && pc.BaseURL != debate.DefaultOpenAIURL
}

// ServedModel is the one model pc's server lists at GET <base>/models.
// A server listing none or several is ErrModelUnknown, naming them; a
// server that cannot be asked is another error.
func ServedModel(ctx context.Context, pc debate.ProviderConfig) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	url := strings.TrimRight(pc.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	if pc.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+pc.APIKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%w: %s answered HTTP %d for its model list; name the model with --model", ErrModelUnknown, url, resp.StatusCode)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&list); err != nil {
		return "", fmt.Errorf("%w: %s is not a model list (%v); name the model with --model", ErrModelUnknown, url, err)
	}
	var served []string
	for _, m := range list.Data {
		if id := strings.TrimSpace(m.ID); id != "" && !slices.Contains(served, id) {
			served = append(served, id)
		}
	}
	switch len(served) {
	case 1:
		return served[0], nil
	case 0:
		return "", fmt.Errorf("%w: the server at %s lists no model; name one with --model", ErrModelUnknown, pc.BaseURL)
	}
	return "", fmt.Errorf("%w: the server at %s serves %d models (%s); choose one with --model, or several with --models",
		ErrModelUnknown, pc.BaseURL, len(served), strings.Join(served, ", "))
}
