package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/webengine"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host"
	"github.com/roundtable-dev/roundtable/room/host/web"
)

// webFace is a host's web API (room/host/web) and what starts its debates,
// as the host mounts it (host.Web).
type webFace struct {
	*web.Server
	starter *web.Starter // nil when the provider settings cannot run a debate
	limits  web.Limits
	once    sync.Once
}

// newWebFace builds the host's web API. A provider setup that cannot run
// (a missing key) leaves the host serving its rooms without starting
// debates, said on stderr.
func newWebFace(ctx context.Context, cmd *cobra.Command, o hostOptions) (host.Web, error) {
	f := &webFace{}
	prov, perr := debate.ResolveProvider(o.provider, os.Getenv)
	opt := web.Options{Provider: prov.Name, Heartbeat: o.heartbeat, Engine: webengine.New()}
	if perr != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "roundtable host: the web API starts no debates: %v\n", perr)
	} else {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find the roundtable binary to run debates with: %w", err)
		}
		var args []string
		for _, name := range hostDebateFlags {
			if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
				args = append(args, "--"+name+"="+fl.Value.String())
			}
		}
		cwd, err := room.ResolveDir(o.cwd)
		if err != nil {
			return nil, fmt.Errorf("the host's folder %s: %w", cmpOr(o.cwd, "."), err)
		}
		if f.limits, err = webLimits(o, prov); err != nil {
			return nil, err
		}
		opt.Limits = f.limits
		f.starter = &web.Starter{Exe: exe, Cwd: cwd, Args: args}
		opt.Starter = f.starter
	}
	f.Server = web.New(ctx, opt)
	return f, nil
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

// Starts reports whether the face starts debates.
func (f *webFace) Starts() bool { return f.starter != nil }

// Caps says what a debate the face starts may spend.
func (f *webFace) Caps() string { return f.limits.Describe() }

// Attach connects the web API to the host h; serveNew serves the rooms of
// the debates it starts.
func (f *webFace) Attach(h *host.Host, serveNew func(context.Context, *room.Room) error) {
	f.SetHost(h)
	if f.starter != nil {
		f.starter.Serve = serveNew
	}
}

// Close stops the debates the web API started (once).
func (f *webFace) Close() {
	f.once.Do(func() {
		if f.starter != nil {
			f.starter.Close()
		}
	})
}
