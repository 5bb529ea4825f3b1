package debate

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestCodexSandboxArgs: codex's sandbox follows the tools allowed:
// read-only (asking before edits) unless exec is, then the workspace;
// commands always go through its plain shell tool.
func TestCodexSandboxArgs(t *testing.T) {
	for _, tc := range []struct {
		tools             AgentTools
		sandbox, approval string
	}{
		{0, "read-only", "on-request"},
		{AllowWrite, "read-only", "on-request"},
		{AllowExec, "workspace-write", "on-request"},
		{AllowWrite | AllowExec, "workspace-write", "on-request"},
	} {
		want := []string{"-c", `sandbox_mode="` + tc.sandbox + `"`, "-c", `approval_policy="` + tc.approval + `"`, "-c", "features.unified_exec=false"}
		if got := codexSandboxArgs(tc.tools); !slices.Equal(got, want) {
			t.Errorf("tools %q: %q, want %q", tc.tools, got, want)
		}
	}
}

// fakeCodexInstall lays out what npm installs for @zed-industries/codex-acp
// and @openai/codex under root (launcher scripts in .bin, native binaries
// in the platform packages, codex's bundled bwrap) and returns the .bin
// folder, codex-acp's native binary and the bundled bwrap. nested puts the
// platform packages under their parents' node_modules instead of beside
// them; withCodex false leaves @openai/codex out.
func fakeCodexInstall(t *testing.T, root string, nested, withCodex bool) (bin, native, bwrap string) {
	t.Helper()
	plat := npmPlatform()
	if plat == "" {
		t.Skipf("codex ships no npm package for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	nm := filepath.Join(root, "node_modules")
	bin = filepath.Join(nm, ".bin")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(nm, "@zed-industries", "codex-acp", "bin", "codex-acp.js"), "#!/usr/bin/env node\n")
	native = filepath.Join(nm, "@zed-industries", "codex-acp-"+plat, "bin", "codex-acp")
	if nested {
		native = filepath.Join(nm, "@zed-industries", "codex-acp", "node_modules", "@zed-industries", "codex-acp-"+plat, "bin", "codex-acp")
	}
	write(native, "\x7fELF fake")
	link("../@zed-industries/codex-acp/bin/codex-acp.js", "codex-acp")
	if withCodex {
		write(filepath.Join(nm, "@openai", "codex", "bin", "codex.js"), "#!/usr/bin/env node\n")
		bwrap = filepath.Join(nm, "@openai", "codex-"+plat, "vendor", "x86_64-unknown-linux-musl", "codex-resources", "bwrap")
		if nested {
			bwrap = filepath.Join(nm, "@openai", "codex", "node_modules", "@openai", "codex-"+plat, "vendor", "x86_64-unknown-linux-musl", "codex-resources", "bwrap")
		}
		write(bwrap, "\x7fELF fake")
		link("../@openai/codex/bin/codex.js", "codex")
	}
	return bin, native, bwrap
}

// readLinks lists the symlinks in dir as name → target.
func readLinks(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("%s is not a link: %v", e.Name(), err)
		}
		out[e.Name()] = target
	}
	return out
}

// TestCodexLaunchGivesTheSandboxWhatItNeeds: on Linux the codex preset
// gets a folder first on PATH with codex-linux-sandbox → codex-acp's
// native binary and, when no bwrap is on PATH, bwrap → the one
// @openai/codex ships; with a bwrap on PATH that one is used; with
// neither, the column is told what to install. The folder is made once
// and a broken one is replaced.
func TestCodexLaunchGivesTheSandboxWhatItNeeds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("codex's bubblewrap sandbox is Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	user := []string{"-c", `model="tiny"`}
	for _, tc := range []struct {
		name          string
		nested, codex bool
		systemBwrap   bool
		wantBwrapLink bool
		wantNote      bool
		tools         AgentTools
		wantFirstArgs string
	}{
		{name: "npm beside", codex: true, wantBwrapLink: true, wantFirstArgs: `sandbox_mode="read-only"`},
		{name: "npm nested", nested: true, codex: true, wantBwrapLink: true, tools: AllowExec, wantFirstArgs: `sandbox_mode="workspace-write"`},
		{name: "system bwrap", codex: true, systemBwrap: true, wantFirstArgs: `sandbox_mode="read-only"`},
		{name: "no bwrap at all", wantNote: true, wantFirstArgs: `sandbox_mode="read-only"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin, native, bwrap := fakeCodexInstall(t, t.TempDir(), tc.nested, tc.codex)
			pathList := bin + string(os.PathListSeparator) + filepath.Join(t.TempDir(), "nothing-here")
			if tc.systemBwrap {
				sys := t.TempDir()
				if err := os.WriteFile(filepath.Join(sys, "bwrap"), []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				pathList += string(os.PathListSeparator) + sys
			}
			args, extra, note := codexLaunch(filepath.Join(bin, "codex-acp"), user, tc.tools, []string{"PATH=/ignored", "PATH=" + pathList})
			if len(args) != 8 || args[1] != tc.wantFirstArgs || !slices.Equal(args[6:], user) {
				t.Errorf("args %q: want the sandbox's -c overrides (%s first), then the user's %q", args, tc.wantFirstArgs, user)
			}
			if (note != "") != tc.wantNote || (tc.wantNote && !strings.Contains(note, "apt-get install bubblewrap")) {
				t.Errorf("note %q, want one: %v", note, tc.wantNote)
			}
			if len(extra) != 1 || !strings.HasPrefix(extra[0], "PATH=") {
				t.Fatalf("extra env %q, want PATH", extra)
			}
			dir, rest, _ := strings.Cut(strings.TrimPrefix(extra[0], "PATH="), string(os.PathListSeparator))
			if rest != pathList {
				t.Errorf("PATH %q does not keep the agent's PATH %q after the folder", extra[0], pathList)
			}
			want := map[string]string{"codex-linux-sandbox": native}
			if tc.wantBwrapLink {
				want["bwrap"] = bwrap
			}
			if got := readLinks(t, dir); !mapsEqual(got, want) {
				t.Errorf("folder %s holds %v, want %v", dir, got, want)
			}

			// Again: the same folder. Broken: replaced.
			_, again, _ := codexLaunch(filepath.Join(bin, "codex-acp"), nil, tc.tools, []string{"PATH=" + pathList})
			if len(again) != 1 || again[0] != extra[0] {
				t.Errorf("a second start made %q, want %q again", again, extra)
			}
			if err := os.Remove(filepath.Join(dir, "codex-linux-sandbox")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/nowhere", filepath.Join(dir, "codex-linux-sandbox")); err != nil {
				t.Fatal(err)
			}
			codexLaunch(filepath.Join(bin, "codex-acp"), nil, tc.tools, []string{"PATH=" + pathList})
			if got := readLinks(t, dir); !mapsEqual(got, want) {
				t.Errorf("a broken folder was kept: %v, want %v", got, want)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
