package room

import (
	"path/filepath"
	"sync"
)

// journalCap bounds the names a journal holds between two reads; past it
// the journal is lost and the next read lists the folders.
const journalCap = 4096

// journal is the names that arrived in a room's messages and notes
// folders, as the kernel's events told them, between two reads of the
// room's state: the store parses just those instead of listing folders
// that grow by a file a turn (a wake in a room of 2,400 messages listed
// them all, once per seat woken). When events may have been missed (an
// overflow, a rescan that saw a change, a folder that appeared, no inotify
// at all) the journal is lost, and the next read lists both folders as
// before. Only the Room the Notifier is attached to takes it.
type journal struct {
	msgs, notes string // the two folders

	mu    sync.Mutex
	lost  bool
	names []journalName
}

// journalName is a file that arrived: in notes/ when note, else in
// messages/.
type journalName struct {
	name string
	note bool
}

func newJournal(msgs, notes string) *journal {
	return &journal{msgs: msgs, notes: notes, lost: true}
}

// add records a file created or moved into one of the folders; other
// paths are not the journal's.
func (j *journal) add(path string) {
	dir, name := filepath.Split(path)
	dir = filepath.Clean(dir)
	if dir != j.msgs && dir != j.notes {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lost {
		return // the next read lists the folders anyway
	}
	if len(j.names) >= journalCap {
		j.lost, j.names = true, nil
		return
	}
	j.names = append(j.names, journalName{name: name, note: dir == j.notes})
}

// lose marks the journal incomplete: the next read lists the folders.
func (j *journal) lose() {
	j.mu.Lock()
	j.lost, j.names = true, nil
	j.mu.Unlock()
}

// take returns the names recorded since the last take and starts anew;
// complete is false when they may not be all (list the folders). Take it
// before reading, so a file that arrives meanwhile is in the next take.
func (j *journal) take() (names []journalName, complete bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	names, complete = j.names, !j.lost
	j.names, j.lost = nil, false
	return names, complete
}
