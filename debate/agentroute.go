package debate

import (
	"context"
	"fmt"
	"sync"
)

// routedProvider speaks for each persona through its agent when it has one
// (Persona.Agent), and through the debate's model provider otherwise. The
// engine sees one provider; labels and errors name the one that spoke.
type routedProvider struct {
	model  Provider
	agents map[string]*AgentProvider // by persona name, the moderator's too
}

var _ personaRouter = (*routedProvider)(nil)

// Name is the model provider's name: the debate's provider.
func (r *routedProvider) Name() string { return r.model.Name() }

// Model is the model provider's model.
func (r *routedProvider) Model() string { return r.model.Model() }

func (r *routedProvider) providerFor(p Persona) Provider {
	if a := r.agents[p.Name]; a != nil {
		return a
	}
	return r.model
}

// Stream sends req to the provider of the persona speaking.
func (r *routedProvider) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	return r.providerFor(req.Info.Speaker).Stream(ctx, req, onDelta)
}

// close stops every agent, at once.
func (r *routedProvider) close() {
	var wg sync.WaitGroup
	for _, a := range r.agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = a.Close()
		}()
	}
	wg.Wait()
}

// usesModel reports whether any speaker is spoken by the model provider.
func (r *routedProvider) usesModel(cfg Config) bool {
	for _, p := range append(append([]Persona{}, cfg.Personas...), cfg.Moderator) {
		if r.agents[p.Name] == nil {
			return true
		}
	}
	return false
}

// agentSpecs checks every agent of cfg (personas and moderator): each
// parses, and its command is installed.
func agentSpecs(cfg Config) (map[string]AgentSpec, error) {
	specs := map[string]AgentSpec{}
	for i, p := range append(append([]Persona{}, cfg.Personas...), cfg.Moderator) {
		spec, ok, err := p.AgentSpec()
		if err != nil {
			if i == len(cfg.Personas) {
				return nil, fmt.Errorf("the moderator's agent: %w", err)
			}
			return nil, err
		}
		if !ok {
			continue
		}
		if _, err := spec.Check(); err != nil {
			return nil, err
		}
		specs[p.Name] = spec
	}
	return specs, nil
}
