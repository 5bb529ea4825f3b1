package eval

import (
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
)

// ResolveProvider is debate.ResolveProvider, but a base URL given with no
// provider named (by flag or ROUNDTABLE_PROVIDER) means an
// OpenAI-compatible server, not the mock: `roundtable eval --base-url URL`
// reaches any such server. With models (--models) and no model named, the
// first of models is the provider's model.
func ResolveProvider(flags debate.ProviderConfig, models []string, getenv func(string) string) (debate.ProviderConfig, error) {
	if strings.TrimSpace(flags.Model) == "" && strings.TrimSpace(getenv("ROUNDTABLE_MODEL")) == "" && len(models) > 0 {
		flags.Model = models[0]
	}
	if strings.TrimSpace(flags.Name) == "" && strings.TrimSpace(getenv("ROUNDTABLE_PROVIDER")) == "" &&
		(strings.TrimSpace(flags.BaseURL) != "" || strings.TrimSpace(getenv("ROUNDTABLE_BASE_URL")) != "") {
		flags.Name = debate.ProviderOpenAI
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
