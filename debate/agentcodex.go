package debate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Codex (codex-acp) runs every command its model asks for in its own
// sandbox, and roundtable sets that sandbox by the tools the debate allows,
// with -c overrides put before the user's own arguments (so a user's -c
// still wins):
//
//	read-only (default), write  sandbox_mode="read-only",       approval_policy="on-request"
//	exec, write,exec            sandbox_mode="workspace-write", approval_policy="on-request"
//
// In the read-only sandbox commands run but cannot write anywhere, and
// codex asks before each edit through its patch tool, which roundtable
// allows only with write. With exec, commands and edits run in the
// workspace sandbox without asking: they may write inside --cwd (never
// outside it), so for codex exec implies writing there. Setting this on
// the command line, rather than switching the session's mode, leaves the
// user's codex configuration alone (codex-acp marks a folder trusted when
// its session is switched to its "auto" mode).
//
// It also turns off codex's unified exec (features.unified_exec=false), so
// commands go through its plain shell tool: with unified exec, a command
// that ends at once is often not reported to the client at all (5 of 20
// runs of `cat NOTES.md; touch x` with codex-acp 0.16.0; 0 of 20 with the
// plain shell tool), so its column would not show it, and a command may
// outlive its turn.
//
// On Linux the sandbox is bubblewrap (bwrap), which codex-acp's npm
// package does not ship: codex-acp looks for bwrap on PATH, and with a
// bwrap older than 0.9 (Debian 12's 0.8) it starts its inner stage by the
// name codex-linux-sandbox, found on PATH too. codex-acp puts links of
// that name on PATH itself, under $CODEX_HOME/tmp, but not when CODEX_HOME
// is under the temporary folder. So roundtable gives it a folder of its
// own, first on PATH, with codex-linux-sandbox → codex-acp's native binary
// and, when no bwrap is on PATH, bwrap → the one @openai/codex ships
// (vendor/<target>/codex-resources/bwrap). With neither, codex cannot run
// a command; the column says what to install.

// codexSandboxArgs are the -c overrides for tools.
func codexSandboxArgs(tools AgentTools) []string {
	const plainShell = "features.unified_exec=false"
	sandbox := "read-only"
	if tools&AllowExec != 0 {
		sandbox = "workspace-write"
	}
	return []string{"-c", `sandbox_mode="` + sandbox + `"`, "-c", `approval_policy="on-request"`, "-c", plainShell}
}

// codexNoSandbox is the note shown when codex's sandbox has no bubblewrap.
const codexNoSandbox = "codex cannot run commands: its sandbox needs bubblewrap (apt-get install bubblewrap, or npm i -g @openai/codex)"

// codexLaunch is how the codex preset starts: its arguments (the
// sandbox's -c overrides, then the user's), extra environment (PATH with
// the sandbox's folder first, on Linux) and a note for its column when its
// sandbox cannot run. path is codex-acp's resolved path, env the agent's
// environment so far.
func codexLaunch(path string, userArgs []string, tools AgentTools, env []string) (args, extraEnv []string, note string) {
	args = append(codexSandboxArgs(tools), userArgs...)
	if runtime.GOOS != "linux" {
		return args, nil, ""
	}
	pathList := envLookup(env, "PATH")
	links := map[string]string{}
	if native := codexNative(path); native != "" {
		links["codex-linux-sandbox"] = native
	}
	if lookPathIn("bwrap", pathList) == "" {
		bwrap := codexBundledBwrap(lookPathIn("codex", pathList))
		if bwrap == "" {
			note = codexNoSandbox
		} else {
			links["bwrap"] = bwrap
		}
	}
	if len(links) == 0 {
		return args, nil, note
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return args, nil, note
	}
	dir, err := linkFolder(filepath.Join(cache, "roundtable", "codex-sandbox"), links)
	if err != nil {
		return args, nil, note
	}
	if pathList == "" {
		return args, []string{"PATH=" + dir}, note
	}
	return args, []string{"PATH=" + dir + string(os.PathListSeparator) + pathList}, note
}

// npmPlatform is the platform suffix of codex's npm packages
// ("linux-x64"), "" where they have none.
func npmPlatform() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		return ""
	}
	return runtime.GOOS + "-" + arch
}

// codexNative is the codex-acp binary path runs: path itself when it is a
// native program, else (npm's codex-acp.js launcher) the platform
// package's binary beside or under its package; "" when not found.
func codexNative(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	if isNative(real) {
		return real
	}
	pkg := filepath.Dir(filepath.Dir(real)) // …/@zed-industries/codex-acp
	plat := "codex-acp-" + npmPlatform()
	for _, c := range []string{
		filepath.Join(filepath.Dir(pkg), plat, "bin", "codex-acp"),
		filepath.Join(pkg, "node_modules", "@zed-industries", plat, "bin", "codex-acp"),
	} {
		if isNative(c) {
			return c
		}
	}
	return ""
}

// codexBundledBwrap is the bubblewrap @openai/codex ships, found from the
// codex command's path (npm's codex.js launcher, or the native binary);
// "" when there is none.
func codexBundledBwrap(codex string) string {
	if codex == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(codex)
	if err != nil {
		return ""
	}
	var patterns []string
	if isNative(real) {
		dir := filepath.Dir(real)
		patterns = []string{filepath.Join(dir, "codex-resources", "bwrap"), filepath.Join(filepath.Dir(dir), "codex-resources", "bwrap")}
	} else {
		pkg := filepath.Dir(filepath.Dir(real)) // …/@openai/codex
		plat := "codex-" + npmPlatform()
		patterns = []string{
			filepath.Join(filepath.Dir(pkg), plat, "vendor", "*", "codex-resources", "bwrap"),
			filepath.Join(pkg, "node_modules", "@openai", plat, "vendor", "*", "codex-resources", "bwrap"),
			filepath.Join(pkg, "vendor", "*", "codex-resources", "bwrap"),
		}
	}
	for _, p := range patterns {
		ms, _ := filepath.Glob(p)
		for _, m := range ms {
			if isExecutable(m) {
				return m
			}
		}
	}
	return ""
}

// isNative reports whether path is an executable ELF or Mach-O file (not
// a script).
func isNative(path string) bool {
	if !isExecutable(path) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	if _, err := f.Read(head); err != nil {
		return false
	}
	return bytes.Equal(head, []byte("\x7fELF")) || bytes.Equal(head, []byte{0xcf, 0xfa, 0xed, 0xfe}) || bytes.Equal(head, []byte{0xca, 0xfe, 0xba, 0xbe})
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// lookPathIn is exec.LookPath against pathList rather than our own PATH;
// "" when name is not found.
func lookPathIn(name, pathList string) string {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p
		}
	}
	return ""
}

// envLookup is the value of key in env (KEY=VALUE, the last one wins, as
// exec does), else our own.
func envLookup(env []string, key string) string {
	for _, kv := range slices.Backward(env) {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return os.Getenv(key)
}

// linkFolder makes (or reuses) a folder under root holding one symlink
// per entry of links (name → target) and returns it. Its name is a hash of
// the links, so different installs never share one, and it is made whole
// under a temporary name and renamed into place, so a folder that exists
// is complete.
func linkFolder(root string, links map[string]string) (string, error) {
	names := make([]string, 0, len(links))
	for n := range links {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n + "\x00" + links[n] + "\x00"))
	}
	dir := filepath.Join(root, hex.EncodeToString(h.Sum(nil))[:16])
	if linksMatch(dir, links) {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, ".tmp-")
	if err != nil {
		return "", err
	}
	for _, n := range names {
		if err := os.Symlink(links[n], filepath.Join(tmp, n)); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another roundtable made it meanwhile, or a broken one is in the
		// way: use it if it is right, else replace it.
		if linksMatch(dir, links) {
			os.RemoveAll(tmp)
			return dir, nil
		}
		os.RemoveAll(dir)
		if err := os.Rename(tmp, dir); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	return dir, nil
}

// linksMatch reports whether dir holds exactly links.
func linksMatch(dir string, links map[string]string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != len(links) {
		return false
	}
	for n, target := range links {
		got, err := os.Readlink(filepath.Join(dir, n))
		if err != nil || got != target {
			return false
		}
	}
	return true
}
