package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// Config is what `roundtable host` was asked: cmd/roundtable maps its
// flags onto it and calls Run.
type Config struct {
	// Rooms are the rooms to host; All hosts every room under Cwd, and
	// those created there while the host runs.
	Rooms []string
	All   bool
	Cwd   string
	// Listen is host:port; ListenGiven says the user gave it (a rotated
	// token's lines then name it rather than the room's last host).
	Listen      string
	ListenGiven bool
	// TLSCert and TLSKey serve https; Insecure allows a non-local Listen
	// without them.
	TLSCert, TLSKey string
	Insecure        bool
	// Rotate replaces the token of this grant in the rooms, prints it and
	// returns.
	Rotate string
	// Topic, Budget and Spec create a room given in Rooms that does not
	// exist; without Topic such a room is refused.
	Topic, Spec string
	Budget      int
	// PublicURL is the URL agents reach the host at; "" is from Listen.
	PublicURL    string
	Rate         int
	AllowOrigins []string
	// StarterFile, when set, also receives the starter token (mode 0600).
	StarterFile string
	Version     string
	// Web builds the web face mounted beside /mcp (nil: none); ctx bounds
	// what it follows.
	Web    func(ctx context.Context) (Web, error)
	Stdout io.Writer
	Stderr io.Writer
}

// Web is a web face the host mounts beside /mcp, behind its checks: seed
// 002's API and the live pages (room/host/web, wired by cmd/roundtable).
type Web interface {
	http.Handler
	// Starts reports whether the face starts debates: the host then draws
	// a starter token for it and prints it.
	Starts() bool
	// Attach tells the face its host once it is made, and serveNew, which
	// serves a room the face created and prints its tokens.
	Attach(h *Host, serveNew func(ctx context.Context, r *room.Room) error)
	// Caps is the line printed under the starter token: what a debate
	// the face starts may spend.
	Caps() string
	// Close stops what the face started (its debates), before the host
	// stops; more than once is fine.
	Close()
}

// A UsageError is a mistake on the command line (roundtable exits 2).
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usage(format string, a ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, a...)}
}

// Run serves cfg's rooms until ctx ends (Ctrl-C, SIGTERM), then stops
// gracefully: parked waits return idle, posts in flight finish, the
// debates the web face started write their end. With cfg.Rotate it
// replaces a token instead, prints it and returns.
func Run(ctx context.Context, cfg Config) error {
	out, errOut := cfg.Stdout, cfg.Stderr
	if len(cfg.Rooms) == 0 && !cfg.All {
		return usage("say which rooms to host: --room NAME (repeatable) or --all for every room under --cwd")
	}
	if (cfg.TLSCert == "") != (cfg.TLSKey == "") {
		return usage("--tls-cert and --tls-key go together: give both files, or neither")
	}
	if cfg.Rotate != "" && room.ValidateGrant(cfg.Rotate) != nil {
		return usage("--rotate takes lead, peer, observer or a council's seat, not %q", cfg.Rotate)
	}
	for _, origin := range cfg.AllowOrigins {
		if _, err := ParseOrigin(origin); err != nil {
			return usage("--allow-origin: %v", err)
		}
	}
	addr, err := checkListen(cfg.Listen)
	if err != nil {
		return err
	}
	tls := cfg.TLSCert != ""
	if !loopback(addr) && !tls && !cfg.Insecure {
		return usage("--listen %s is reachable from other machines and tokens would cross the network unencrypted: give --tls-cert and --tls-key, or --insecure if a VPN or tunnel encrypts the link", cfg.Listen)
	}
	if tls && cfg.Rotate == "" {
		if err := CheckTLSFiles(cfg.TLSCert, cfg.TLSKey); err != nil {
			return err
		}
	}
	if !loopback(addr) && !tls && cfg.Insecure && cfg.Rotate == "" {
		fmt.Fprintf(errOut, "roundtable host: warning: --insecure on %s: the tokens and the rooms' messages cross the network in clear text; anyone on the path can read them and take a seat. Use it only when a VPN or an SSH tunnel encrypts the link; else give --tls-cert and --tls-key.\n", cfg.Listen)
	}
	rooms, err := openRooms(cfg)
	if err != nil {
		return err
	}
	url := cfg.PublicURL
	if cfg.Rotate != "" {
		return rotate(cfg, rooms, tls)
	}
	tokens, rooms, err := Tokens(rooms, cfg.All, errOut)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w; pick another --listen address or stop what holds it", cfg.Listen, err)
	}
	defer ln.Close()
	if url == "" {
		url = hostURL(ln.Addr().String(), tls)
	}
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var face Web
	if cfg.Web != nil {
		if face, err = cfg.Web(sctx); err != nil {
			return err
		}
		defer face.Close()
	}
	var starterToken string
	opt := Options{
		Rooms: rooms, Tokens: tokens, Version: cfg.Version, Rate: float64(cfg.Rate), Burst: 2 * cfg.Rate,
		AllowOrigins: cfg.AllowOrigins, PublicURL: url,
	}
	if face != nil {
		opt.Web = face
		if face.Starts() {
			if starterToken, opt.StarterSHA256, err = NewStarterToken(); err != nil {
				return err
			}
			if cfg.StarterFile != "" {
				if err := writeSecret(cfg.StarterFile, starterToken); err != nil {
					return err
				}
			}
		}
	}
	h, err := NewHost(sctx, opt)
	if err != nil {
		return err
	}
	if face != nil {
		face.Attach(h, func(_ context.Context, r *room.Room) error {
			return ServeNew(sctx, h, r, url, tokens, out)
		})
	}
	if err := PrintTokens(out, url, rooms); err != nil {
		return err
	}
	if starterToken != "" {
		PrintStarter(out, url, starterToken, cfg.StarterFile)
		fmt.Fprintf(out, "Web API debates: %s.\n", face.Caps())
	}
	tokens.Refresh() // hold the hashes just issued (a room deleted later is told apart)
	// Last, so a script that waits for this line has the tokens too.
	serving := strings.Join(h.Rooms(), ", ")
	if serving == "" {
		serving = "no rooms yet (each room created under " + cmpOr(cfg.Cwd, "the working directory") + " is served as it appears)"
	}
	fmt.Fprintf(out, "roundtable host: serving %s at %s (Ctrl-C or SIGTERM stops it)\n", serving, url)
	served := make(chan error, 1)
	go func() { served <- h.Serve(sctx, ln, cfg.TLSCert, cfg.TLSKey) }()
	stopPicker := func() {}
	if cfg.All { // rooms created under Cwd from now on are served too
		if stopPicker, err = PickUpRooms(sctx, cfg.Cwd, url, h, tokens, out, errOut); err != nil {
			return fmt.Errorf("watch %s for new rooms: %w", cmpOr(cfg.Cwd, "the working directory"), err)
		}
	}
	defer stopPicker()
	select {
	case err := <-served:
		return fmt.Errorf("serve %s: %w", url, err)
	case <-ctx.Done():
	}
	stopPicker()
	if face != nil {
		face.Close() // the debates it started write their end before the host stops
	}
	gctx, gcancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer gcancel()
	if err := h.Shutdown(gctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("stop the host: %w", err)
	}
	if err := <-served; err != nil {
		return fmt.Errorf("serve %s: %w", url, err)
	}
	fmt.Fprintln(out, "roundtable host: stopped")
	return nil
}

// rotate replaces cfg.Rotate's token in rooms and prints the new one with
// the lines that use it.
func rotate(cfg Config, rooms []*room.Room, tls bool) error {
	for _, r := range rooms {
		tok, err := r.RotateToken(cfg.Rotate)
		if err != nil {
			return fmt.Errorf("rotate the %s token of room %q: %w", cfg.Rotate, r.Config().Room, err)
		}
		// The lines name the URL the room's host gave its agents, unless
		// --url or --listen says otherwise.
		at := cfg.PublicURL
		if at == "" {
			if u, ok := r.HostURL(); ok && !cfg.ListenGiven {
				at = u
			} else {
				at = hostURL(cfg.Listen, tls)
			}
		}
		fmt.Fprintf(cfg.Stdout, "Room %s: the old %s token no longer works, also in a running host. The new one:\n", r.Config().Room, cfg.Rotate)
		RoomInstructions(cfg.Stdout, at, r.Config(), map[string]string{cfg.Rotate: tok})
	}
	return nil
}

// openRooms opens (or creates) the rooms cfg names, or every room under
// cfg.Cwd with cfg.All.
func openRooms(cfg Config) ([]*room.Room, error) {
	var rooms []*room.Room
	names := cfg.Rooms
	if cfg.All {
		list, err := room.List(cfg.Cwd)
		if err != nil {
			return nil, fmt.Errorf("list the rooms under %s: %w", cmpOr(cfg.Cwd, "."), err)
		}
		for _, s := range list {
			names = append(names, s.Name)
		}
		if len(names) == 0 && cfg.Rotate != "" {
			return nil, fmt.Errorf("there are no rooms under %s to rotate a token of", cmpOr(cfg.Cwd, "the working directory"))
		}
		// With none yet, the host starts anyway: the room picker serves
		// each one as it is created.
	}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if err := room.ValidateName(name); err != nil {
			return nil, &UsageError{msg: err.Error()}
		}
		var r *room.Room
		var err error
		if cfg.Rotate != "" {
			r, err = room.Open(cfg.Cwd, name) // rotating never creates a room
			if errors.Is(err, room.ErrNoRoom) {
				return nil, fmt.Errorf("%w: %q under %s (start one with roundtable seed or a seat server)", room.ErrNoRoom, name, workingDir(cfg.Cwd))
			}
			if err != nil {
				return nil, err
			}
		} else if r, err = openRoom(cfg, name); err != nil {
			return nil, err
		}
		if cfg.Rotate != "" && !slices.Contains(r.Config().HostGrants(), cfg.Rotate) {
			if cfg.All && !slices.Contains(cfg.Rooms, name) {
				continue // --all: the debates have no seat's token to rotate
			}
			return nil, &UsageError{msg: room.NoGrantError(r.Config(), cfg.Rotate).Error()}
		}
		rooms = append(rooms, r)
	}
	return rooms, nil
}

// openRoom opens room name, creating it only when cfg.Topic says what it
// is about: a mistyped name is refused, as a seat refuses it, rather than
// given tokens as a new room.
func openRoom(cfg Config, name string) (*room.Room, error) {
	r, err := room.Open(cfg.Cwd, name)
	if errors.Is(err, room.ErrNoRoom) && cfg.Topic != "" {
		r, _, err = room.Create(cfg.Cwd, name, room.CreateOptions{Topic: cfg.Topic, Budget: cfg.Budget, Spec: cfg.Spec})
	}
	switch {
	case errors.Is(err, room.ErrNoRoom):
		return nil, seatcmd.NoRoomError(cfg.Cwd, name)
	case err != nil:
		return nil, fmt.Errorf("open room %q: %w", name, err)
	}
	return r, nil
}

// workingDir names the folder cwd gives: the working directory when it
// is empty.
func workingDir(cwd string) string {
	if cwd != "" {
		return cwd
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "the working directory"
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkListen checks --listen: host:port with a port from 0 to 65535 (0:
// any free port). It returns the host.
func checkListen(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", usage("--listen %q is not host:port (%v); for example 127.0.0.1:8765", listen, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", usage("--listen %q has port %q, which is not a number from 0 to 65535 (0 picks a free one); for example 127.0.0.1:8765", listen, port)
	}
	return host, nil
}

func hostURL(addr string, tls bool) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	return scheme + "://" + addr + EndpointPath
}

// writeSecret writes token to path, mode 0600, replacing what was there.
func writeSecret(path, token string) error {
	_ = os.Remove(path) // a file of another mode is not reused
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write the starter token to %s: %w; give --starter-token-file a path you can write", path, err)
	}
	if _, err := io.WriteString(fh, token+"\n"); err != nil {
		fh.Close()
		return fmt.Errorf("write the starter token to %s: %w", path, err)
	}
	return fh.Close()
}
