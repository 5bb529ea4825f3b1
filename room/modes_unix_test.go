//go:build unix

package room

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// umaskHelperEnv, when set, makes TestFileModesFollowUmask run as the
// helper: set the umask it names, then write a room through every writer
// the store has. A umask is process-wide, so it is set in a process of its
// own.
const umaskHelperEnv = "ROOM_UMASK_HELPER"

func writeEveryFile(cwd string) error {
	r, _, err := Create(cwd, "shared", CreateOptions{Topic: "t", Budget: 3, Spec: "docs/spec.md"})
	if err != nil {
		return err
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Text: "brief"}); err != nil {
		return err
	}
	if err := r.Log("connect", F("seat", "lead")); err != nil {
		return err
	}
	if _, err := r.WriteSpec("# Decision\n"); err != nil {
		return err
	}
	if _, err := Seed(cwd, "seeded", CreateOptions{Topic: "t", Budget: 2}); err != nil {
		return err
	}
	_, err = r.Close(CloseOptions{Reason: "done", RequireSpec: true})
	return err
}

// TestFileModesFollowUmask: rooms are written 0666 &^ umask and folders
// 0777 &^ umask, as the original server writes them, so another user or a
// container can read a room (0644 under the usual 022), and a user who
// wants rooms private gets them private (077).
func TestFileModesFollowUmask(t *testing.T) {
	if mask := os.Getenv(umaskHelperEnv); mask != "" {
		m, err := strconv.ParseUint(mask, 8, 32)
		if err != nil {
			t.Fatal(err)
		}
		syscall.Umask(int(m))
		if err := writeEveryFile(os.Getenv("ROOM_UMASK_CWD")); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, mask := range []fs.FileMode{0o022, 0o002, 0o077} {
		t.Run(fmt.Sprintf("umask %03o", mask), func(t *testing.T) {
			cwd := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestFileModesFollowUmask$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%03o", umaskHelperEnv, mask), "ROOM_UMASK_CWD="+cwd)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			files, dirs := 0, 0
			err := filepath.WalkDir(cwd, func(p string, d fs.DirEntry, err error) error {
				if err != nil || p == cwd {
					return err
				}
				fi, err := d.Info()
				if err != nil {
					return err
				}
				want := 0o666 &^ mask
				if d.IsDir() {
					want, dirs = 0o777&^mask, dirs+1
				} else {
					files++
				}
				if got := fi.Mode().Perm(); got != want {
					t.Errorf("%s: mode %04o, want %04o", p, got, want)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// .gitignore, room.json x2, a message, server.log, the spec,
			// closed.json, lead.md, peer.md; .roundtable, two rooms with
			// their messages folders, docs.
			if files < 9 || dirs < 6 {
				t.Fatalf("the helper wrote %d files and %d folders, want at least 9 and 6", files, dirs)
			}
		})
	}
}
