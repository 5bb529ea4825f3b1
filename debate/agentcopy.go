package debate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"

	"github.com/roundtable-dev/roundtable/room"
)

// needsCopy reports whether the agent works on a disposable copy of the
// session's folder: when it may not write (no --allow-agent-tools write)
// and nothing of its own holds it to reading, so a write it makes without
// asking lands in the copy.
func needsCopy(spec AgentSpec, tools AgentTools) bool {
	return tools&AllowWrite == 0 && !agentHeld(spec, tools)
}

// copyNote is the activity line an agent working on a copy shows first.
const copyNote = "working on a copy of the folder (it may not change your files)"

// The most a copy holds: beyond that, starting every agent would take
// too long, and the error says what to do instead.
const (
	maxCopyFiles = 100_000
	maxCopyBytes = 2 << 30
)

// skippedDirs are not copied outside git (in a git checkout, what its
// ignore rules leave out is not copied): dependencies and caches that are
// large, rebuilt by tools, and rarely what a debate is about.
var skippedDirs = []string{"node_modules", ".venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", ".gradle", ".next"}

// folderCopy is a disposable copy of a session's folder. Its temporary
// folder holds a lock while it is in use, so a later roundtable can tell a
// copy left by one that was killed and remove it.
type folderCopy struct {
	root string       // the temporary folder, removed with everything in it
	dir  string       // the copy of the session's folder: the agent's cwd
	lock *flock.Flock // held while the copy is in use
}

// copyPrefix starts the name of every copy's temporary folder.
const copyPrefix = "roundtable-copy-"

var sweepOnce sync.Once

// copyFolder copies src for an agent to work in. In a git checkout it
// copies the checkout's files as they are on disk (committed, changed,
// staged, and untracked ones not ignored; deleted ones stay deleted), and
// gives the copy a git repository of its own at HEAD with the user's
// index, reading the user's objects in place: nothing under the user's
// .git is written, then or later. Outside git it copies the folder,
// leaving out skippedDirs. Symbolic links are copied as links when they
// point inside the folder and left out when they point outside it, so
// nothing outside is read or written through the copy.
func copyFolder(ctx context.Context, src string) (_ *folderCopy, err error) {
	sweepOnce.Do(sweepCopies)
	if src == "" {
		if src, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if src, err = filepath.Abs(src); err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(src); err == nil {
		src = real
	}
	root, err := os.MkdirTemp("", copyPrefix)
	if err != nil {
		return nil, fmt.Errorf("make a copy of %s for the agent: %w; free some space in %s, or let the agent work in place with --allow-agent-tools write", src, err, os.TempDir())
	}
	c := &folderCopy{root: root, lock: flock.New(filepath.Join(root, ".lock"))}
	if ok, lerr := c.lock.TryLock(); !ok || lerr != nil {
		c.remove()
		return nil, fmt.Errorf("make a copy of %s for the agent: cannot lock %s: %v", src, root, lerr)
	}
	defer func() {
		if err != nil {
			c.remove()
		}
	}()
	g, isGit := gitCheckout(src)
	top := src
	var entries []string
	if isGit {
		top = g.top
		entries, err = g.files()
		if err == nil && !holds(entries, top, src) {
			// The folder is one git ignores (a build folder): copy it
			// as a plain folder.
			isGit, top = false, src
		}
	}
	if err == nil && !isGit {
		entries, err = walkFiles(top)
	}
	dst := filepath.Join(root, filepath.Base(top))
	if merr := os.Mkdir(dst, 0o755); merr != nil {
		return nil, merr
	}
	if err == nil {
		err = copyEntries(ctx, top, dst, entries)
	}
	if err == nil && isGit {
		err = g.repoIn(dst)
	}
	if err != nil {
		if errors.Is(err, errCopyTooBig) {
			return nil, fmt.Errorf("%w: %s is too big to copy for an agent that may only read (over %d files or %d GiB); roundtable copies it so the agent cannot change your files: point --cwd at a smaller folder, use an agent that holds itself to reading (acp:claude, acp:codex, acp:qwen, acp:opencode), or let it work in place with --allow-agent-tools write",
				ErrBadConfig, top, maxCopyFiles, maxCopyBytes>>30)
		}
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("make a copy of %s for the agent: %w; let the agent work in place with --allow-agent-tools write if it cannot be copied", src, err)
	}
	c.dir = dst
	if rel, rerr := filepath.Rel(top, src); rerr == nil && rel != "." {
		c.dir = filepath.Join(dst, rel)
	}
	return c, nil
}

// holds reports whether one of the entries (relative to top) is in dir.
func holds(entries []string, top, dir string) bool {
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == "." {
		return true
	}
	prefix := rel + string(filepath.Separator)
	for _, e := range entries {
		if strings.HasPrefix(e, prefix) {
			return true
		}
	}
	return false
}

// remove deletes the copy and everything the agent left in it.
func (c *folderCopy) remove() {
	if c == nil {
		return
	}
	_ = c.lock.Unlock()
	if os.RemoveAll(c.root) != nil {
		// The agent may have taken write permission off a folder.
		_ = filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o700)
			}
			return nil
		})
		_ = os.RemoveAll(c.root)
	}
}

// sweepCopies removes the copies a roundtable left when it was killed:
// those whose lock nobody holds, made more than a minute ago (a copy
// being made has not taken its lock yet).
func sweepCopies() {
	ms, _ := filepath.Glob(filepath.Join(os.TempDir(), copyPrefix+"*"))
	for _, m := range ms {
		fi, err := os.Stat(m)
		if err != nil || !fi.IsDir() || time.Since(fi.ModTime()) < time.Minute {
			continue
		}
		l := flock.New(filepath.Join(m, ".lock"))
		if ok, err := l.TryLock(); ok && err == nil {
			(&folderCopy{root: m, lock: l}).remove()
		} else {
			_ = l.Close()
		}
	}
}

var errCopyTooBig = errors.New("too big to copy")

// gitRepo is the git checkout a session's folder is in.
type gitRepo struct {
	top    string // the checkout's top folder
	gitDir string // its git folder (a worktree's own, for its index)
	common string // the folder holding objects (the main one's, for a worktree)
	format string // object format: sha1 or sha256
	head   string // HEAD's commit; "" before the first commit
}

// gitCheckout finds the checkout src is in, if git is installed and src
// is in one (its working tree, not its .git).
func gitCheckout(src string) (gitRepo, bool) {
	out, err := gitRun(src, "rev-parse", "--show-toplevel", "--git-dir", "--git-common-dir", "--show-object-format")
	if err != nil {
		return gitRepo{}, false
	}
	f := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(f) != 4 || f[0] == "" {
		return gitRepo{}, false
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(src, p)
	}
	g := gitRepo{top: f[0], gitDir: abs(f[1]), common: abs(f[2]), format: f[3]}
	if real, err := filepath.EvalSymlinks(g.top); err == nil {
		g.top = real
	}
	if h, err := gitRun(src, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err == nil {
		g.head = strings.TrimSpace(string(h))
	}
	return g, true
}

// gitRun runs git in dir and returns its stdout. It reads only: no
// optional locks (git status would otherwise refresh the user's index),
// and no GIT_* variables of ours pointing it elsewhere.
func gitRun(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	env := []string{"GIT_OPTIONAL_LOCKS=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// files lists the checkout's files as git sees them: tracked (whether or
// not changed; deleted ones are skipped when copied) and untracked ones
// its ignore rules keep.
func (g gitRepo) files() ([]string, error) {
	out, err := gitRun(g.top, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, filepath.FromSlash(f))
		}
	}
	slices.Sort(files)
	files = slices.Compact(files) // a conflicted file is listed once per side
	if len(files) > maxCopyFiles {
		return nil, errCopyTooBig
	}
	return files, nil
}

// repoIn makes dst a git repository at the user's HEAD, detached, with a
// copy of the user's index (so staged changes stay staged), borrowing the
// user's objects through an alternate: the agent's git commands work, and
// what it commits goes to the copy.
func (g gitRepo) repoIn(dst string) error {
	args := []string{"init", "-q", "--template="}
	if g.format != "" && g.format != "sha1" {
		args = append(args, "--object-format="+g.format)
	}
	if _, err := gitRun(dst, args...); err != nil {
		return err
	}
	dotGit := filepath.Join(dst, ".git")
	objects := filepath.Join(g.common, "objects")
	if err := os.MkdirAll(filepath.Join(dotGit, "objects", "info"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dotGit, "objects", "info", "alternates"), []byte(objects+"\n"), 0o644); err != nil {
		return err
	}
	if g.head != "" {
		if err := os.WriteFile(filepath.Join(dotGit, "HEAD"), []byte(g.head+"\n"), 0o644); err != nil {
			return err
		}
	}
	// The index, and a split index's shared part.
	idx, _ := filepath.Glob(filepath.Join(g.gitDir, "sharedindex.*"))
	idx = append(idx, filepath.Join(g.gitDir, "index"))
	for _, p := range idx {
		if err := copyFile(p, filepath.Join(dotGit, filepath.Base(p)), 0o644); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// walkFiles lists the files, links and empty folders under top, outside
// git: everything but skippedDirs.
func walkFiles(top string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == top {
				return err
			}
			return nil // unreadable: left out, as the agent could not read it either
		}
		if p == top {
			return nil
		}
		rel, _ := filepath.Rel(top, p)
		if d.IsDir() {
			if slices.Contains(skippedDirs, d.Name()) {
				return filepath.SkipDir
			}
			if empty, _ := isEmptyDir(p); !empty {
				return nil
			}
		}
		out = append(out, rel)
		if len(out) > maxCopyFiles {
			return errCopyTooBig
		}
		return nil
	})
	return out, err
}

func isEmptyDir(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return errors.Is(err, io.EOF), nil
}

// copyEntries copies the entries (paths relative to src) into dst, a few
// at a time. A missing entry (a tracked file the user deleted) is skipped.
func copyEntries(ctx context.Context, src, dst string, entries []string) error {
	entries = slices.DeleteFunc(slices.Clone(entries), inRoomStore)
	var (
		bytes    atomic.Int64
		mu       sync.Mutex
		firstErr error
		made     sync.Map // folders already made under dst
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return firstErr != nil
	}
	mkdir := func(dir string) error {
		if _, ok := made.Load(dir); ok {
			return nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		made.Store(dir, true)
		return nil
	}
	workers := min(8, max(2, 2*runtime.NumCPU()))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(entries) || failed() {
					return
				}
				if ctx.Err() != nil {
					fail(ctx.Err())
					return
				}
				n, err := copyEntry(src, dst, entries[i], mkdir)
				if err != nil {
					fail(err)
					return
				}
				if bytes.Add(n) > maxCopyBytes {
					fail(errCopyTooBig)
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// inRoomStore reports whether rel (relative to the folder copied) is in
// roundtable's own room store, .roundtable: the debates' rooms, not the
// project, and written while the copy is made (a persona's draft comes
// and goes 30 times a second).
func inRoomStore(rel string) bool {
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return first == room.Folder
}

// copyEntry copies one entry and returns the bytes it copied. Folders (a
// submodule, an empty folder) are copied whole, without their .git.
func copyEntry(src, dst, rel string, mkdir func(string) error) (int64, error) {
	from, to := filepath.Join(src, rel), filepath.Join(dst, rel)
	fi, err := os.Lstat(from)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return 0, nil // deleted, or unreadable to the agent as well
		}
		return 0, err
	}
	if err := mkdir(filepath.Dir(to)); err != nil {
		return 0, err
	}
	switch {
	case fi.Mode().IsRegular():
		if err := copyFile(from, to, fi.Mode().Perm()); err != nil {
			if errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) {
				return 0, nil // unreadable to the agent too, or deleted since listed
			}
			return 0, err
		}
		return fi.Size(), nil
	case fi.Mode()&fs.ModeSymlink != 0:
		return 0, copyLink(src, dst, rel)
	case fi.IsDir():
		if err := mkdir(to); err != nil {
			return 0, err
		}
		var n int64
		err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == from {
				return nil
			}
			if d.Name() == ".git" {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			r, _ := filepath.Rel(src, p)
			if d.IsDir() {
				return mkdir(filepath.Join(dst, r))
			}
			m, err := copyEntry(src, dst, r, mkdir)
			n += m
			return err
		})
		return n, err
	default: // a socket, a pipe, a device: nothing an agent reads
		return 0, nil
	}
}

// copyLink copies the symbolic link rel when it points inside src (an
// absolute target is moved into dst); a link pointing outside is left
// out, so the agent cannot reach outside files through the copy.
func copyLink(src, dst, rel string) error {
	target, err := os.Readlink(filepath.Join(src, rel))
	if err != nil {
		return nil
	}
	resolved := target
	if !filepath.IsAbs(target) {
		resolved = filepath.Join(src, filepath.Dir(rel), target)
	}
	in, err := filepath.Rel(src, filepath.Clean(resolved))
	if err != nil || in == ".." || strings.HasPrefix(in, ".."+string(filepath.Separator)) {
		return nil
	}
	if filepath.IsAbs(target) {
		target = filepath.Join(dst, in)
	}
	return os.Symlink(target, filepath.Join(dst, rel))
}

// copyFile copies a regular file's bytes (the kernel copies them where it
// can) with mode perm.
func copyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
