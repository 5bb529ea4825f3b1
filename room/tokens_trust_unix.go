//go:build unix

package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// Whoever can write tokens.json, or replace it, can let themselves into
// the room. So a host reads a room's tokens only from a file it owns that
// no one else may write, in a room folder and a .roundtable folder that
// belong to it (or to root) and that other users cannot write. A folder
// may be group-writable when its group is the host user's own (the usual
// private group under umask 002).

// checkTokensFile refuses a tokens.json fi that another user owns or may
// write.
func checkTokensFile(room, path string, fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o022 != 0 {
		return untrusted(room, path, fmt.Sprintf("can be written by other users (mode %04o)", fi.Mode().Perm()),
			"chmod go-w "+quotePath(path))
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if me := os.Geteuid(); int(st.Uid) != me {
		return untrusted(room, path,
			fmt.Sprintf("belongs to %s, not to %s who runs this host: another user may have put it there", userName(st.Uid), userName(uint32(me))),
			"if you made it yourself (with sudo, say): chown "+loginName(uint32(me))+" "+quotePath(path)+
				"; else remove it (rm "+quotePath(path)+") and host the room again, which issues new tokens for every seat")
	}
	return nil
}

// checkTokensFolders refuses a tokens.json whose room folder or
// .roundtable folder another user may write (and so replace the file).
// A folder that does not exist is no error: the room is gone, or not
// made yet, which readTokens tells apart.
func checkTokensFolders(room, path string) error {
	roomDir := filepath.Dir(path)
	for _, dir := range []string{roomDir, filepath.Dir(roomDir)} {
		fi, err := os.Stat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read the tokens of room %q: %w; check the permissions of %s", room, err, dir)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		me := uint32(os.Geteuid())
		if st.Uid != me && st.Uid != 0 {
			return untrusted(room, path,
				fmt.Sprintf("is in %s, which belongs to %s, not to %s who runs this host: its owner can replace the tokens", dir, userName(st.Uid), userName(me)),
				"host rooms from a folder of your own, or: chown "+loginName(me)+" "+quotePath(dir))
		}
		perm := fi.Mode().Perm()
		others := perm&0o002 != 0
		group := perm&0o020 != 0 && st.Gid != uint32(os.Getegid())
		if others || group {
			return untrusted(room, path,
				fmt.Sprintf("is in %s, which other users can write (mode %04o): they could replace the tokens", dir, perm),
				"chmod go-w "+quotePath(dir))
		}
	}
	return nil
}

// userName is uid's login name, with the number, or the number alone.
func userName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}

// loginName is uid's login name, or its number, as chown takes it.
func loginName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return u.Username
	}
	return id
}
