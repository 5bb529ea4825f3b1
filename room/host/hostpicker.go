package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// roomPicker is what `roundtable host --all` runs beside the server: it
// watches the rooms' folder (.roundtable under --cwd) and serves each room
// created there while the host runs, as the rooms found at start-up
// are served: its tokens issued and printed with the lines that connect,
// then "roundtable host: now also serving ROOM". A folder that is not a
// room yet (no room.json) is looked at again when it changes; a room that
// cannot be served (a bad tokens.json) is reported on stderr once and
// tried again when its files change. A persona debate is served to
// observers only, as at start-up (room.Config.HostGrants): its observer
// token is the one printed.
type roomPicker struct {
	cwd, top string
	url      string
	host     *Host
	tokens   *room.TokenSet
	// hostCtx bounds the notifiers of the rooms picked up, as it bounds
	// the start-up rooms': the host's, not the picker's, which stop ends
	// before the host shuts down.
	hostCtx context.Context
	out     io.Writer // the tokens and "now also serving" lines
	errOut  io.Writer // why a room is not served

	young    map[string]bool   // folders whose room.json may be half written
	reported map[string]string // the error last reported for a folder
	topErr   string            // the error last reported for top
}

// settle is how long a room.json that cannot be read is given to be
// finished before the host reports it.
const settle = 2 * time.Second

// PickUpRooms serves on h each room created under cwd from now on
// (`roundtable host --all`), printing its tokens to out and why a room
// cannot be served to errOut; the returned stop ends it and waits for it,
// so nothing is printed after stop returns.
func PickUpRooms(ctx context.Context, cwd, url string, h *Host, tokens *room.TokenSet, out, errOut io.Writer) (stop func(), err error) {
	cwd, err = room.ResolveDir(cwd)
	if err != nil {
		return nil, err
	}
	p := &roomPicker{
		cwd: cwd, top: filepath.Join(cwd, room.Folder), url: url, host: h, tokens: tokens, out: out, errOut: errOut,
		hostCtx: ctx, young: map[string]bool{}, reported: map[string]string{},
	}
	ctx, cancel := context.WithCancel(ctx)
	w := room.WatchDirs(ctx, p.paths, p.match, p.sig)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer w.Close()
		p.run(ctx, w)
	}()
	return func() { cancel(); wg.Wait() }, nil
}

// run scans after every change the watch sees (and once at first, for a
// room made between the start-up listing and the watch) until ctx ends.
func (p *roomPicker) run(ctx context.Context, w *room.DirWatch) {
	for {
		changed := w.Changed()
		p.scan(ctx)
		var again <-chan time.Time
		if len(p.young) > 0 {
			again = time.After(settle / 2)
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-again:
		}
	}
}

// pending lists the folders under top that may become rooms to serve:
// those with a valid room name the host does not serve yet.
func (p *roomPicker) pending() []string {
	entries, _ := os.ReadDir(p.top)
	var out []string
	for _, e := range entries {
		if e.IsDir() && room.ValidateName(e.Name()) == nil && !p.host.Serves(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// paths are the folders watched: the cwd (until .roundtable appears),
// .roundtable (a room folder made or removed) and each pending folder (its
// room.json or tokens.json written).
func (p *roomPicker) paths() []string {
	out := []string{p.cwd, p.top}
	for _, name := range p.pending() {
		out = append(out, filepath.Join(p.top, name))
	}
	return out
}

func (p *roomPicker) match(path string) bool {
	dir := filepath.Dir(path)
	if path == p.top || dir == p.top {
		return true
	}
	base := filepath.Base(path)
	return filepath.Dir(dir) == p.top && (base == "room.json" || base == room.TokensFile)
}

// sig is what the periodic rescan compares, in case events are lost or
// inotify is unavailable: the pending folders and their files.
func (p *roomPicker) sig() string {
	var b strings.Builder
	for _, name := range p.pending() {
		dir := filepath.Join(p.top, name)
		b.WriteString(name + ":" + room.StatSig(filepath.Join(dir, "room.json"), filepath.Join(dir, room.TokensFile)))
		// A folder made private (chmod go-w) after its tokens were
		// refused for it is tried again.
		if fi, err := os.Stat(dir); err == nil {
			b.WriteString(fi.Mode().String() + ";")
		}
	}
	if fi, err := os.Stat(p.top); err == nil {
		b.WriteString(fi.Mode().String())
	}
	return b.String()
}

// scan serves the rooms under top that became ready.
func (p *roomPicker) scan(ctx context.Context) {
	entries, err := os.ReadDir(p.top)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && err.Error() != p.topErr {
			p.topErr = err.Error()
			fmt.Fprintf(p.errOut, "roundtable host: cannot look for new rooms in %s: %v; check its permissions (rooms created there are not served until it can be read)\n", p.top, err)
		}
		return
	}
	p.topErr = ""
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		name := e.Name()
		if ctx.Err() != nil {
			return
		}
		if !e.IsDir() || room.ValidateName(name) != nil {
			continue
		}
		seen[name] = true
		if p.host.Serves(name) {
			continue
		}
		p.try(name)
	}
	for name := range p.young {
		if !seen[name] {
			delete(p.young, name)
		}
	}
	for name := range p.reported {
		if !seen[name] {
			delete(p.reported, name)
		}
	}
}

// try serves the room in folder name if it is complete.
func (p *roomPicker) try(name string) {
	r, err := room.Open(p.cwd, name)
	if errors.Is(err, room.ErrNoRoom) {
		return // not a room yet: its room.json comes later
	}
	delete(p.young, name)
	if err != nil {
		// A room.json being written by a program that does not write
		// atomically reads as broken JSON for a moment: it is looked at
		// again before it is reported.
		if fi, serr := os.Stat(filepath.Join(p.top, name, "room.json")); serr == nil && time.Since(fi.ModTime()) < settle {
			p.young[name] = true
			return
		}
		p.report(name, err)
		return
	}
	added, err := p.host.AddRoom(p.hostCtx, r)
	if errors.Is(err, ErrHostStopping) || !added && err == nil {
		return
	}
	if err != nil {
		p.report(name, err)
		return
	}
	delete(p.reported, name)
	printMu.Lock()
	defer printMu.Unlock()
	if err := PrintTokens(p.out, p.url, []*room.Room{r}); err != nil {
		fmt.Fprintf(p.errOut, "roundtable host: %v; fix the room's folder, then run: %s\n", err, rotateHint(r.Config()))
	}
	p.tokens.Refresh()
	fmt.Fprintf(p.out, "roundtable host: now also serving %s\n", name)
}

// report says once on stderr why the room in folder name is not served.
func (p *roomPicker) report(name string, err error) {
	msg := err.Error()
	if p.reported[name] == msg {
		return
	}
	p.reported[name] = msg
	fmt.Fprintf(p.errOut, "roundtable host: room %s is not served: %s; it is tried again when its files change\n", name, msg)
}

// printMu keeps the lines printed for one room together when rooms are
// added at once (the room picker, ServeNew).
var printMu sync.Mutex

// ServeNew serves r, a room created while the host runs (a debate its web
// face started), as the room picker serves one it finds: added, its
// tokens issued and printed on out with url, then a line saying so. ctx
// bounds the room's notifier, as AddRoom's does. When the host serves it
// already (the picker was first) nothing more happens.
func ServeNew(ctx context.Context, h *Host, r *room.Room, url string, tokens *room.TokenSet, out io.Writer) error {
	added, err := h.AddRoom(ctx, r)
	if err != nil || !added {
		return err
	}
	printMu.Lock()
	defer printMu.Unlock()
	if err := PrintTokens(out, url, []*room.Room{r}); err != nil {
		return err
	}
	tokens.Refresh()
	fmt.Fprintf(out, "roundtable host: now also serving %s\n", r.Config().Room)
	return nil
}
