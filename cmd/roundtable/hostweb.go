package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/web"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/mcpserver"
)

// webFace is a host's web API (debate/web) and what starts its debates.
type webFace struct {
	srv        *web.Server
	starter    *web.Starter // nil when the provider settings cannot run a debate
	starterSum [sha256.Size]byte
	limits     web.Limits
	once       sync.Once
}

// newWebFace builds the host's web API and its starter token. A provider
// setup that cannot run (a missing key) leaves the host serving its rooms
// without starting debates, said on stderr.
func newWebFace(ctx context.Context, cmd *cobra.Command, o hostOptions) (*webFace, string, error) {
	f := &webFace{}
	prov, perr := debate.ResolveProvider(o.provider, os.Getenv)
	opt := web.Options{Provider: prov.Name, Heartbeat: o.heartbeat}
	var token string
	if perr != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "roundtable host: the web API starts no debates: %v\n", perr)
	} else {
		exe, err := os.Executable()
		if err != nil {
			return nil, "", fmt.Errorf("find the roundtable binary to run debates with: %w", err)
		}
		var args []string
		for _, name := range hostDebateFlags {
			if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
				args = append(args, "--"+name+"="+fl.Value.String())
			}
		}
		cwd, err := room.ResolveDir(o.cwd)
		if err != nil {
			return nil, "", fmt.Errorf("the host's folder %s: %w", cmpOr(o.cwd, "."), err)
		}
		if f.limits, err = webLimits(o, prov); err != nil {
			return nil, "", err
		}
		opt.Limits = f.limits
		f.starter = &web.Starter{Exe: exe, Cwd: cwd, Args: args}
		opt.Starter = f.starter
		token, f.starterSum, err = mcpserver.NewStarterToken()
		if err != nil {
			return nil, "", err
		}
		if o.starterFile != "" {
			if err := writeSecret(o.starterFile, token); err != nil {
				return nil, "", err
			}
		}
	}
	f.srv = web.New(ctx, opt)
	return f, token, nil
}

// webLimits are the caps of the debates the web API starts, from the
// host's flags: a cost cap is refused when the provider counts no cost
// (it would refuse every debate), but for the mock, which costs nothing.
func webLimits(o hostOptions, prov debate.ProviderConfig) (web.Limits, error) {
	l := web.Limits{
		MaxTokensTotal: o.debateBudget.MaxTokensTotal, MaxCost: o.debateBudget.MaxCost,
		StartsPerMinute: o.startsPerMinute, Model: prov.Model,
	}
	for _, m := range o.allowModels {
		if m = strings.TrimSpace(m); m != "" {
			l.AllowModels = append(l.AllowModels, m)
		}
	}
	for _, a := range o.allowAgents {
		preset := strings.TrimPrefix(strings.TrimSpace(a), "acp:")
		if preset == "" {
			continue
		}
		if !slices.Contains(debate.AgentPresets(), preset) {
			return l, usageError("--allow-agents: %q is no coding agent preset; give some of %s", a, strings.Join(debate.AgentPresets(), ", "))
		}
		l.AllowAgents = append(l.AllowAgents, preset)
	}
	// Whether the provider counts a cost: CheckCostSource with a cap.
	var nc *debate.NoCostError
	l.CostCounted = !errors.As(debate.CheckCostSource(debate.Config{MaxCost: 1}, prov), &nc)
	l.CostFree = prov.Name == debate.ProviderMock
	if l.MaxCost > 0 && !l.CostCounted && !l.CostFree {
		return l, usageError("--max-cost needs a cost to count, and the %s provider reports none (only OpenRouter does; the mock costs nothing); leave --max-cost out: --max-tokens-total caps every debate of the web API (%d tokens now)", nc.Provider, l.MaxTokensTotal)
	}
	return l, nil
}

// writeSecret writes token to path, mode 0600, replacing what was there.
func writeSecret(path, token string) error {
	_ = os.Remove(path) // a file of another mode is not reused
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write the starter token to %s: %w; give --starter-token-file a path you can write", path, err)
	}
	if _, err := io.WriteString(fh, token+"\n"); err != nil {
		fh.Close()
		return fmt.Errorf("write the starter token to %s: %w", path, err)
	}
	return fh.Close()
}

// serve connects the web API to the host h serving at url.
func (f *webFace) serve(ctx context.Context, h *mcpserver.Host, url string, tokens *room.TokenSet, out io.Writer) {
	f.srv.SetHost(h)
	if f.starter != nil {
		f.starter.Serve = func(_ context.Context, r *room.Room) error {
			return mcpserver.ServeNew(ctx, h, r, url, tokens, out)
		}
	}
}

// close stops the debates the web API started (once).
func (f *webFace) close() {
	f.once.Do(func() {
		if f.starter != nil {
			f.starter.Close()
		}
	})
}
