package debate

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// Permission requests alone do not keep an agent from writing: several
// agents edit, or run commands, without asking. So each agent is also held
// by every restraint it offers itself, loosened only as far as
// --allow-agent-tools says:
//
//   - every agent: a read-only session mode when it offers one over ACP
//     ("read-only", or "plan"), through a legacy session mode or a "mode"
//     config option; with some tools allowed, an auto-approving mode
//     (auto, yolo, auto-edit, acceptEdits, bypassPermissions) is switched
//     to the agent's asking one ("default"), so roundtable's permission
//     answers decide;
//   - qwen: --approval-mode plan (read-only) or default;
//   - gemini: --approval-mode default (it asks before every edit and
//     command, and roundtable refuses what is not allowed);
//   - opencode: its own permission settings through OPENCODE_PERMISSION,
//     which it merges over the user's configuration: edit and bash denied
//     unless allowed; and unless commands are allowed, GIT_DIR pointing
//     nowhere, since opencode writes its project id into .git/opencode of
//     any repository it opens (it then sees a plain folder);
//   - claude: its dontAsk mode when read-only (edits and commands are
//     denied without asking; its plan mode let them run in our test);
//     with tools allowed, default: it asks, and roundtable answers;
//   - codex: its sandbox, read-only unless tools are allowed, set by -c
//     overrides on its command line (agentcodex.go), and its read-only
//     mode.
//
// Such an agent is held. Gemini speaks only Google's API, so what it does
// under these restraints has not been seen here; it is not counted as
// held, and like an unknown acp:<command> it runs on a copy of the working
// tree unless writes are allowed.

// agentHeld reports whether the agent is held to tools by its own
// restraints (above) and roundtable's permission answers, so it may work
// in the user's tree. Any agent allowed to write works there.
func agentHeld(spec AgentSpec, tools AgentTools) bool {
	if tools&AllowWrite != 0 {
		return true
	}
	switch spec.Preset {
	case "claude", "codex", "qwen", "opencode":
		return true
	}
	return false
}

// restraintArgs are the arguments added to a preset's command line.
// Nothing is added where the user's own arguments already choose an
// approval mode (the session mode below still applies).
func restraintArgs(spec AgentSpec, tools AgentTools) []string {
	if tools == AllowWrite|AllowExec {
		return nil
	}
	user := spec.Command[1:]
	for _, a := range user {
		if a == "--approval-mode" || strings.HasPrefix(a, "--approval-mode=") || a == "--yolo" || a == "-y" {
			return nil
		}
	}
	switch spec.Preset {
	case "qwen":
		if tools == 0 {
			return []string{"--approval-mode", "plan"}
		}
		return []string{"--approval-mode", "default"}
	case "gemini":
		return []string{"--approval-mode", "default"}
	}
	return nil
}

// opencodePermission is the environment variable opencode merges, last,
// over the permission settings of every configuration it read.
const opencodePermission = "OPENCODE_PERMISSION"

// noGitDir is a GIT_DIR that cannot exist (/dev/null is not a folder): git
// run with it finds no repository.
const noGitDir = "/dev/null/roundtable-no-git"

// restraintEnv is the environment added for the agent: for opencode,
// OPENCODE_PERMISSION denying edit and bash unless allowed, merged over a
// value the user set (theirs is in environ, the process's environment
// followed by the agent options' Env), and GIT_DIR unless commands are
// allowed.
func restraintEnv(spec AgentSpec, tools AgentTools, environ []string) []string {
	if spec.Preset != "opencode" || tools == AllowWrite|AllowExec {
		return nil
	}
	perm := map[string]any{}
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, opencodePermission+"="); ok {
			var user map[string]any
			if json.Unmarshal([]byte(v), &user) == nil {
				perm = user
			}
		}
	}
	if tools&AllowWrite == 0 {
		perm["edit"] = "deny"
	}
	if tools&AllowExec == 0 {
		perm["bash"] = "deny"
	}
	b, _ := json.Marshal(perm)
	env := []string{opencodePermission + "=" + string(b)}
	if tools&AllowExec == 0 {
		env = append(env, "GIT_DIR="+noGitDir)
	}
	return env
}

// Session modes by what they let an agent do.
var (
	readOnlyModes   = []string{"read-only", "read_only", "readonly", "dontask", "plan"}
	askingModes     = []string{"default"}
	autoApproveMode = []string{"auto", "yolo", "auto-edit", "auto_edit", "autoedit", "acceptedits", "bypasspermissions", "full-access"}
)

// sessionMode is the mode the session should be switched to, given the
// modes offered and the current one: "" to leave it.
func sessionMode(offered []string, current string, tools AgentTools) string {
	find := func(want []string) string {
		for _, w := range want {
			for _, m := range offered {
				if strings.EqualFold(m, w) {
					return m
				}
			}
		}
		return ""
	}
	switch {
	case tools == AllowWrite|AllowExec:
		return ""
	case tools == 0:
		if m := find(readOnlyModes); m != "" && m != current {
			return m
		}
	case slices.Contains(autoApproveMode, strings.ToLower(current)):
		if m := find(askingModes); m != "" {
			return m
		}
	}
	return ""
}

// restrain switches a new session to the mode sessionMode picks, through
// the agent's "mode" config option when it offers one (opencode offers
// only that), else its legacy session modes (codex-acp). An agent that
// refuses the switch keeps its mode; its other restraints and the
// permission rules still apply.
func (a *agentProc) restrain(ctx context.Context, tools AgentTools, sres acp.NewSessionResponse) {
	for _, o := range sres.ConfigOptions {
		sel := o.Select
		if sel == nil || (sel.Id != "mode" && (sel.Category == nil || *sel.Category != "mode")) {
			continue
		}
		var offered []string
		if sel.Options.Ungrouped != nil {
			for _, v := range *sel.Options.Ungrouped {
				offered = append(offered, string(v.Value))
			}
		}
		if sel.Options.Grouped != nil {
			for _, g := range *sel.Options.Grouped {
				for _, v := range g.Options {
					offered = append(offered, string(v.Value))
				}
			}
		}
		m := sessionMode(offered, string(sel.CurrentValue), tools)
		if m == "" {
			return
		}
		_, err := a.conn.SetSessionConfigOption(ctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
			SessionId: a.session, ConfigId: sel.Id, Value: acp.SessionConfigValueId(m),
		}})
		if err == nil || sres.Modes == nil {
			return
		}
		break
	}
	if sres.Modes == nil {
		return
	}
	var offered []string
	for _, m := range sres.Modes.AvailableModes {
		offered = append(offered, string(m.Id))
	}
	if m := sessionMode(offered, string(sres.Modes.CurrentModeId), tools); m != "" {
		_, _ = a.conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: a.session, ModeId: acp.SessionModeId(m)})
	}
}
