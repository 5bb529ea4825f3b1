//go:build unix

package debate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchRepo makes a git checkout of n files of about 2 KiB in folders of
// 100, committed, with a few changed and a few untracked, and a plain
// folder holding the same files without .git.
func benchRepo(b *testing.B, n int) (repo, plain string) {
	b.Helper()
	repo = filepath.Join(b.TempDir(), "repo")
	plain = filepath.Join(b.TempDir(), "plain")
	line := strings.Repeat("func f() { return } // padding\n", 64)
	for _, dir := range []string{repo, plain} {
		for i := range n {
			write(b, filepath.Join(dir, fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%05d.go", i)), fmt.Sprintf("package p%d\n%s", i, line))
		}
	}
	git(b, filepath.Dir(repo), "init", "-q", repo)
	git(b, repo, "add", "-A")
	git(b, repo, "commit", "-q", "-m", "files")
	for i := range 10 {
		write(b, filepath.Join(repo, fmt.Sprintf("pkg000/file%05d.go", i)), "changed")
		write(b, filepath.Join(repo, fmt.Sprintf("new%d.go", i)), "untracked")
	}
	return repo, plain
}

// BenchmarkFolderCopy10k measures the start-up cost of an agent's
// disposable copy of a 10,000-file folder: in a git checkout (git
// rev-parse and ls-files, the copy, a repository for it), outside git,
// and as peers in the same run `cp -a` of the plain folder and `git
// worktree add --detach` (which writes under the user's .git, so
// roundtable does not use it). remove-ms is the removal on stop.
func BenchmarkFolderCopy10k(b *testing.B) {
	repo, plain := benchRepo(b, 10_000)
	ctx := context.Background()
	timed := func(b *testing.B, mk func() (remove func())) {
		var removing time.Duration
		for b.Loop() {
			rm := mk()
			b.StopTimer()
			t := time.Now()
			rm()
			removing += time.Since(t)
			b.StartTimer()
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
		b.ReportMetric(float64(removing.Milliseconds())/float64(b.N), "remove-ms/op")
	}
	ours := func(src string) func() func() {
		return func() func() {
			c, err := copyFolder(ctx, src)
			if err != nil {
				b.Fatal(err)
			}
			return c.remove
		}
	}
	b.Run("git", func(b *testing.B) { timed(b, ours(repo)) })
	b.Run("plain", func(b *testing.B) { timed(b, ours(plain)) })
	b.Run("peer-cp-a", func(b *testing.B) {
		timed(b, func() func() {
			dst := filepath.Join(b.TempDir(), "cp")
			if out, err := exec.Command("cp", "-a", plain, dst).CombinedOutput(); err != nil {
				b.Fatalf("cp: %v %s", err, out)
			}
			return func() { _ = os.RemoveAll(dst) }
		})
	})
	b.Run("peer-git-worktree", func(b *testing.B) {
		timed(b, func() func() {
			dst := filepath.Join(b.TempDir(), "wt")
			git(b, repo, "worktree", "add", "-q", "--detach", dst)
			return func() { git(b, repo, "worktree", "remove", "--force", dst) }
		})
	})
}
