//go:build unix

package debate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// treeHash is every file, folder and link under dir (.git included):
// path, mode, and content or target, as one string to compare.
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %v", rel, fi.Mode())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			tg, _ := os.Readlink(p)
			fmt.Fprintf(&b, " -> %s", tg)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			fmt.Fprintf(&b, " %s", hex.EncodeToString(sum[:]))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// git runs git in dir for a test, as a fixed author.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitFixture is a checkout with every kind of change: committed, changed,
// staged, staged then changed again, deleted, untracked, ignored, links
// inside and outside, an executable, a subfolder.
func gitFixture(t *testing.T) (top, outside string) {
	t.Helper()
	top = filepath.Join(t.TempDir(), "proj")
	outside = filepath.Join(t.TempDir(), "secret.txt")
	write(t, outside, "outside")
	git(t, filepath.Dir(top), "init", "-q", top)
	for name, data := range map[string]string{
		"committed.txt": "c", "changed.txt": "old", "staged.txt": "old", "twice.txt": "old",
		"deleted.txt": "d", "sub/deep.txt": "deep", ".gitignore": "*.log\nbuild/\n",
	} {
		write(t, filepath.Join(top, name), data)
	}
	if err := os.WriteFile(filepath.Join(top, "run.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, top, "add", "-A")
	git(t, top, "commit", "-q", "-m", "first")
	write(t, filepath.Join(top, "changed.txt"), "new")
	write(t, filepath.Join(top, "staged.txt"), "new")
	git(t, top, "add", "staged.txt")
	write(t, filepath.Join(top, "twice.txt"), "staged")
	git(t, top, "add", "twice.txt")
	write(t, filepath.Join(top, "twice.txt"), "again")
	write(t, filepath.Join(top, "added.txt"), "added")
	git(t, top, "add", "added.txt")
	if err := os.Remove(filepath.Join(top, "deleted.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(top, "untracked.txt"), "u")
	write(t, filepath.Join(top, "debug.log"), "ignored")
	write(t, filepath.Join(top, "build/out.bin"), "ignored")
	for name, target := range map[string]string{
		"link-in": "committed.txt", "link-up": "sub/../changed.txt", "link-abs-in": filepath.Join(top, "sub", "deep.txt"),
		"link-out": outside, "link-rel-out": "../../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt",
		"sub/link-escape": "../../x",
	} {
		if err := os.Symlink(target, filepath.Join(top, name)); err != nil {
			t.Fatal(err)
		}
	}
	return top, outside
}

func TestCopyFolderGit(t *testing.T) {
	top, _ := gitFixture(t)
	before := treeHash(t, top)
	c, err := copyFolder(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	if treeHash(t, top) != before {
		t.Fatal("copying changed the user's tree or .git")
	}
	if filepath.Base(c.dir) != "proj" || strings.HasPrefix(c.dir, top) {
		t.Fatalf("copy at %s", c.dir)
	}
	for name, want := range map[string]string{
		"committed.txt": "c", "changed.txt": "new", "staged.txt": "new", "twice.txt": "again",
		"added.txt": "added", "untracked.txt": "u", "sub/deep.txt": "deep", "link-in": "c", "link-up": "new",
		"link-abs-in": "deep", ".gitignore": "*.log\nbuild/\n",
	} {
		data, err := os.ReadFile(filepath.Join(c.dir, name))
		if err != nil || string(data) != want {
			t.Errorf("%s in the copy: %q, %v; want %q", name, data, err, want)
		}
	}
	for _, name := range []string{"deleted.txt", "debug.log", "build", "link-out", "link-rel-out", "sub/link-escape"} {
		if _, err := os.Lstat(filepath.Join(c.dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is in the copy (%v)", name, err)
		}
	}
	if tg, _ := os.Readlink(filepath.Join(c.dir, "link-abs-in")); tg != filepath.Join(c.dir, "sub", "deep.txt") {
		t.Errorf("an absolute link inside the folder points to %q, not into the copy", tg)
	}
	if tg, _ := os.Readlink(filepath.Join(c.dir, "link-in")); tg != "committed.txt" {
		t.Errorf("a relative link became %q", tg)
	}
	if fi, err := os.Stat(filepath.Join(c.dir, "run.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v %v", fi, err)
	}
	// The copy is a repository at the user's HEAD with the user's staged
	// changes staged; the unstaged ones are unstaged.
	if got, want := git(t, c.dir, "rev-parse", "HEAD"), git(t, top, "rev-parse", "HEAD"); got != want {
		t.Errorf("copy's HEAD %s, user's %s", got, want)
	}
	if got := git(t, c.dir, "diff", "--cached", "--name-status"); got != "A\tadded.txt\nM\tstaged.txt\nM\ttwice.txt\n" {
		t.Errorf("staged in the copy:\n%s", got)
	}
	if got := git(t, c.dir, "diff", "--name-status"); got != "M\tchanged.txt\nD\tdeleted.txt\nM\ttwice.txt\n" {
		t.Errorf("unstaged in the copy:\n%s", got)
	}
	// What the agent does in the copy stays there, commits included.
	write(t, filepath.Join(c.dir, "committed.txt"), "agent")
	git(t, c.dir, "commit", "-q", "-am", "agent")
	if treeHash(t, top) != before {
		t.Fatal("working in the copy changed the user's tree or .git")
	}
	c.remove()
	if _, err := os.Stat(c.root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the copy is still there after remove: %v", err)
	}
	if treeHash(t, top) != before {
		t.Fatal("removing the copy changed the user's tree or .git")
	}
}

func TestCopyFolderGitSubfolder(t *testing.T) {
	top, _ := gitFixture(t)
	c, err := copyFolder(context.Background(), filepath.Join(top, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.remove()
	if filepath.Base(c.dir) != "sub" || filepath.Base(filepath.Dir(c.dir)) != "proj" {
		t.Fatalf("agent's folder %s, want proj/sub in the copy", c.dir)
	}
	if data, err := os.ReadFile(filepath.Join(c.dir, "..", "changed.txt")); err != nil || string(data) != "new" {
		t.Errorf("the rest of the checkout is not in the copy: %q %v", data, err)
	}
}

// TestCopyFolderIgnoredSubfolder: a session in a folder git ignores (a
// build folder) gets that folder, copied as a plain one.
func TestCopyFolderIgnoredSubfolder(t *testing.T) {
	top, _ := gitFixture(t)
	c, err := copyFolder(context.Background(), filepath.Join(top, "build"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.remove()
	if data, err := os.ReadFile(filepath.Join(c.dir, "out.bin")); err != nil || string(data) != "ignored" {
		t.Errorf("out.bin in the copy of the ignored folder: %q %v", data, err)
	}
}

func TestCopyFolderUnbornGit(t *testing.T) {
	top := filepath.Join(t.TempDir(), "fresh")
	git(t, filepath.Dir(top), "init", "-q", top)
	write(t, filepath.Join(top, "a.txt"), "a")
	before := treeHash(t, top)
	c, err := copyFolder(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	defer c.remove()
	if data, _ := os.ReadFile(filepath.Join(c.dir, "a.txt")); string(data) != "a" {
		t.Errorf("a.txt in the copy: %q", data)
	}
	if got := git(t, c.dir, "status", "--porcelain"); got != "?? a.txt\n" {
		t.Errorf("status in the copy: %q", got)
	}
	if treeHash(t, top) != before {
		t.Fatal("copying changed the user's tree")
	}
}

func TestCopyFolderPlain(t *testing.T) {
	top := filepath.Join(t.TempDir(), "notes")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	write(t, outside, "outside")
	write(t, filepath.Join(top, "a.txt"), "a")
	write(t, filepath.Join(top, "d/b.txt"), "b")
	write(t, filepath.Join(top, ".git/config"), "not a repository, only a folder named .git")
	write(t, filepath.Join(top, "node_modules/x/index.js"), "dependency")
	write(t, filepath.Join(top, ".roundtable/live/drafts/gemma-1234abcd.json"), "a draft, come and gone")
	if err := os.MkdirAll(filepath.Join(top, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(top, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(top, "d-link")); err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, top)
	c, err := copyFolder(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(c.dir, "d-link", "b.txt")); string(data) != "b" {
		t.Errorf("d-link/b.txt in the copy: %q", data)
	}
	for name, want := range map[string]bool{"a.txt": true, "d/b.txt": true, "empty": true, ".git/config": true, "node_modules": false, "out": false, ".roundtable": false} {
		_, err := os.Lstat(filepath.Join(c.dir, name))
		if (err == nil) != want {
			t.Errorf("%s in the copy: %v, want present %v", name, err, want)
		}
	}
	// An agent that takes write permission off a folder does not keep
	// the copy from going.
	if err := os.Chmod(filepath.Join(c.dir, "d"), 0o500); err != nil {
		t.Fatal(err)
	}
	c.remove()
	if _, err := os.Stat(c.root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the copy is still there after remove: %v", err)
	}
	if treeHash(t, top) != before {
		t.Fatal("the user's folder changed")
	}
}

// TestCopyFolderSweepsLeftovers: a copy whose roundtable was killed (its
// lock free) is removed by the next copy; one in use (locked) stays.
func TestCopyFolderSweepsLeftovers(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	old := time.Now().Add(-time.Hour)
	mk := func(name string) string {
		d := filepath.Join(os.TempDir(), name)
		write(t, filepath.Join(d, "proj", "f"), "x")
		write(t, filepath.Join(d, ".lock"), "")
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
		return d
	}
	dead, live := mk(copyPrefix+"dead"), mk(copyPrefix+"live")
	l := flock.New(filepath.Join(live, ".lock"))
	if ok, err := l.TryLock(); !ok || err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	sweepCopies()
	if _, err := os.Stat(dead); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a left-over copy is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(live, "proj", "f")); err != nil {
		t.Errorf("a copy in use was removed: %v", err)
	}
}

func TestNeedsCopy(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		tools AgentTools
		want  bool
	}{
		{"acp:claude", 0, false},
		{"acp:codex", 0, false},
		{"acp:qwen", 0, false},
		{"acp:opencode", 0, false},
		{"acp:gemini", 0, true},
		{"acp:my-agent --acp", 0, true},
		{"acp:my-agent", AllowExec, true},
		{"acp:gemini", AllowWrite, false},
		{"acp:my-agent", AllowWrite | AllowExec, false},
	} {
		spec, err := ParseAgent(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := needsCopy(spec, tc.tools); got != tc.want {
			t.Errorf("needsCopy(%s, %q) = %v, want %v", tc.spec, tc.tools, got, tc.want)
		}
	}
}
