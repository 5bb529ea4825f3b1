package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Listing is a room as the rooms command lists it: its summary, and
// whether it is an open debate that no process runs any more.
type Listing struct {
	Summary
	// Abandoned: an open debate whose run lock is free, the process that
	// ran it gone (killed, or its machine down). Nothing will write to it
	// until it is resumed.
	Abandoned bool
}

// ListRooms is List with each open debate's run lock read (RunHolder):
// the rooms under cwd/.roundtable, newest activity first.
func ListRooms(cwd string) ([]Listing, error) {
	sums, err := List(cwd)
	if err != nil {
		return nil, err
	}
	out := make([]Listing, len(sums))
	for i, s := range sums {
		out[i].Summary = s
		if s.Debate && !s.Closed && s.Err == nil {
			out[i].Abandoned = !RunHolder(Dir(cwd, s.Name)).Live
		}
	}
	return out, nil
}

// ListWidth is the width the rooms table fits in.
const ListWidth = 80

// Widths of the table's columns that are cut or capped.
const (
	listStateMax = 21 // "closed: " and a reason cut to fit ("closed: budget spent", "closed: output closed" whole)
	listNameMin  = 12 // the name column never gets narrower
	listGap      = "  "
	listIndent   = "  " // before a room's topic, on the line under its row
)

// listHeader names the table's columns; the topic has a line of its own.
var listHeader = [...]string{"NAME", "KIND", "STATE", "ROUNDS", "MSGS", "LAST"}

// listTableMin is the narrowest terminal the table fits: the name column
// at its least, the others at their usual widths.
const listTableMin = 74

// WriteList writes rooms for a terminal width columns wide (0: unknown,
// as in a pipe): as a table that fits ListWidth columns, or, on a
// terminal narrower than the table, each room as a block of lines
// (writeListBlocks). In the table a room is a row (name, kind, state,
// rounds used of planned, messages, last activity in now's location) and
// its topic on the line under it, indented and cut with an ellipsis to
// fit. A name too long for its column has a line of its own, the rest of
// its row under it. A room that could not be read has its error under its
// topic. Text from the rooms' files is shown on one line with its control
// characters made visible, so none acts on the terminal. No rooms writes
// nothing.
func WriteList(w io.Writer, rooms []Listing, now time.Time, width int) error {
	if len(rooms) == 0 {
		return nil
	}
	if width > 0 && width < listTableMin {
		return writeListBlocks(w, rooms, now, width)
	}
	type row struct {
		cells      [len(listHeader)]string
		topic, err string
	}
	rows := make([]row, len(rooms))
	var widths [len(listHeader)]int
	for i, h := range listHeader {
		widths[i] = len(h)
	}
	for i, r := range rooms {
		rows[i] = row{
			cells: [...]string{r.Name, listKind(r), cut(listState(r), listStateMax), listRounds(r), listMessages(r), listTime(r.Last, now)},
			topic: plainLine(r.Topic),
			err:   listError(r),
		}
		for c, s := range rows[i].cells {
			widths[c] = max(widths[c], ansi.StringWidth(s))
		}
	}
	// The name column gives way: a longer name goes on its own line.
	rest := 0
	for _, wd := range widths[1:] {
		rest += len(listGap) + wd
	}
	widths[0] = min(widths[0], max(listNameMin, ListWidth-rest))

	var b strings.Builder
	line := func(cells [len(listHeader)]string) {
		var l strings.Builder
		for c, s := range cells {
			if c > 0 {
				l.WriteString(listGap)
			}
			pad := strings.Repeat(" ", max(widths[c]-ansi.StringWidth(s), 0))
			switch c {
			case 3, 4: // numbers align right
				l.WriteString(pad + s)
			default:
				l.WriteString(s + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	under := func(text string) {
		if text != "" {
			b.WriteString(listIndent + cut(text, ListWidth-len(listIndent)) + "\n")
		}
	}
	line(listHeader)
	under("TOPIC")
	for _, r := range rows {
		if len(r.cells[0]) > widths[0] {
			b.WriteString(r.cells[0] + "\n")
			r.cells[0] = ""
		}
		line(r.cells)
		under(r.topic)
		for _, l := range WrapWords(r.err, ListWidth-2*len(listIndent)) {
			b.WriteString(listIndent + listIndent + l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeListBlocks writes each room as a block for a narrow terminal: its
// name, then its kind, state, rounds, messages and last activity on one
// line (wrapped at the separators), its topic cut to the width, and why
// it could not be read.
func writeListBlocks(w io.Writer, rooms []Listing, now time.Time, width int) error {
	width = max(width, 20)
	var b strings.Builder
	for _, r := range rooms {
		b.WriteString(r.Name + "\n")
		facts := []string{listKind(r), listState(r)} // a line of its own: the state whole
		if n := listRounds(r); n != "-" {
			facts = append(facts, n+" rounds")
		}
		if n := listMessages(r); n != "-" {
			facts = append(facts, n+" messages")
		}
		if t := listTime(r.Last, now); t != "-" {
			facts = append(facts, t)
		}
		for _, l := range wrapFacts(facts, width-len(listIndent)) {
			b.WriteString(listIndent + l + "\n")
		}
		if t := plainLine(r.Topic); t != "" {
			b.WriteString(listIndent + cut(t, width-len(listIndent)) + "\n")
		}
		for _, l := range WrapWords(listError(r), width-2*len(listIndent)) {
			b.WriteString(listIndent + listIndent + l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// listKind is the kind column: "debate" or "MCP room".
func listKind(r Listing) string {
	switch {
	case r.Err != nil && r.Topic == "" && r.Budget == 0:
		return "?"
	case r.Debate:
		return "debate"
	}
	return "MCP room"
}

// listState is a room's state: open, paused or closed with its reason
// up to its first colon; "not running" for an abandoned debate;
// unreadable. The table's column cuts it to listStateMax.
func listState(r Listing) string {
	state := "open"
	switch {
	case r.Err != nil:
		return "unreadable"
	case r.Closed:
		reason, _, _ := strings.Cut(plainLine(r.Reason), ":")
		if reason = strings.TrimSpace(reason); reason == "" {
			return "closed"
		}
		return "closed: " + reason
	case r.Paused:
		state = "paused"
	}
	if r.Abandoned {
		state += ": not running"
	}
	return state
}

// listRounds is rounds used of planned: "2/3", "-" when unknown.
func listRounds(r Listing) string {
	if r.Budget == 0 && r.Used == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", r.Used, r.Budget)
}

// listMessages is the messages column: "-" when the room could not be
// read and none were.
func listMessages(r Listing) string {
	if r.Err != nil && r.Messages == 0 {
		return "-"
	}
	return strconv.Itoa(r.Messages)
}

// listTime is t in now's location as a date and time of day ("Mar 04
// 15:04"), with the year in place of the time when it is not now's
// ("Mar 04  2025"); "-" when unknown.
func listTime(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	t = t.In(now.Location())
	if t.Year() != now.Year() {
		return t.Format("Jan 02  2006")
	}
	return t.Format("Jan 02 15:04")
}

// listError is why the room could not be read (whole or in part); "" when
// it could.
func listError(r Listing) string {
	switch {
	case r.Err != nil:
		return "cannot read it: " + plainLine(r.Err.Error())
	case r.Skipped == 1:
		return "1 message file could not be read"
	case r.Skipped > 1:
		return fmt.Sprintf("%d message files could not be read", r.Skipped)
	}
	return ""
}

// listJSON is one room of WriteListJSON. Its keys are a stable interface
// for scripts: add, never rename.
type listJSON struct {
	Name      string `json:"name"`
	Mode      string `json:"mode"` // "debate" or "mcp"
	Closed    bool   `json:"closed"`
	Reason    string `json:"reason"`
	Paused    bool   `json:"paused"`
	Abandoned bool   `json:"abandoned"`
	Used      int    `json:"used"`
	Budget    int    `json:"budget"`
	Messages  int    `json:"messages"`
	Last      string `json:"last"` // RFC 3339, UTC; "" when unknown
	Topic     string `json:"topic"`
	Error     string `json:"error"` // "" when the room was read whole
}

// WriteListJSON writes rooms as JSON lines, one object a room, in their
// order, with every key present: name, mode ("debate" or "mcp"), closed,
// reason, paused, abandoned, used, budget, messages, last (RFC 3339, ""
// when unknown), topic and error ("" when the room was read whole).
func WriteListJSON(w io.Writer, rooms []Listing) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rooms {
		j := listJSON{
			Name: r.Name, Mode: "mcp", Closed: r.Closed, Reason: r.Reason, Paused: r.Paused,
			Abandoned: r.Abandoned, Used: r.Used, Budget: r.Budget, Messages: r.Messages, Topic: r.Topic,
		}
		if r.Debate {
			j.Mode = ModeDebate
		}
		if !r.Last.IsZero() {
			j.Last = r.Last.UTC().Format(time.RFC3339)
		}
		switch {
		case r.Err != nil:
			j.Error = r.Err.Error()
		case r.Skipped > 0:
			j.Error = listError(r)
		}
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return nil
}

// InUseError says why a room should not be moved now: seats still
// connected to it, or a live process running its debate.
type InUseError struct {
	Room  string
	Seats []SeatInfo // the seats LiveSeats reports
	// RunPID is the process its run lock names, alive; 0 when none.
	RunPID int
}

func (e *InUseError) Error() string {
	var what []string
	if len(e.Seats) > 0 {
		var who []string
		for _, s := range e.Seats {
			// Seat and agent are server.log's words, from other processes.
			w := "the " + plainLine(s.Seat) + " seat"
			if s.Agent != "" {
				w += " (" + plainLine(s.Agent) + ")"
			}
			who = append(who, w)
		}
		verb := "is"
		if len(who) > 1 {
			verb = "are"
		}
		what = append(what, strings.Join(who, " and ")+" "+verb+" still connected")
	}
	if e.RunPID > 0 {
		what = append(what, fmt.Sprintf("process %d still runs its debate", e.RunPID))
	}
	return fmt.Sprintf("room %q is in use: %s", e.Room, strings.Join(what, ", and "))
}

// Is makes errors.Is hold for ErrSeatsConnected when a seat is connected
// and for ErrRunning when a process runs the debate.
func (e *InUseError) Is(target error) bool {
	return (target == ErrSeatsConnected && len(e.Seats) > 0) || (target == ErrRunning && e.RunPID > 0)
}

// InUse reports whether room name under cwd is in use: an *InUseError
// when a seat is still connected (LiveSeats) or a live process holds its
// run lock (RunHolder), whose work moving the folder would pull from under
// it; nil when neither. An unreadable server.log is an error too, since
// then nobody can tell. A room that is not there is not in use.
func InUse(cwd, name string) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	dir := Dir(cwd, name)
	live, err := LiveSeats(dir)
	if err != nil {
		return fmt.Errorf("cannot tell whether a seat of room %q is still connected: %w", name, err)
	}
	e := &InUseError{Room: name, Seats: live}
	if h := RunHolder(dir); h.Live && h.PID > 0 {
		e.RunPID = h.PID
	}
	if len(e.Seats) == 0 && e.RunPID == 0 {
		return nil
	}
	return e
}

// TrashedRoom is a room folder in the trash (Trash).
type TrashedRoom struct {
	Name string    // the room's name when it was trashed
	Path string    // the folder, under cwd/.roundtable/.trash
	At   time.Time // when it was trashed, to the second
	n    int       // 1, or N of a "-N" folder trashed in the same second
}

// trashedRE parses a trash folder's name: <room>-<UTC stamp>[-N]. The
// room part is greedy, so a room whose own name ends in a stamp parses
// whole.
var trashedRE = regexp.MustCompile(`^(.+)-(\d{8}T\d{6}Z)(?:-(\d+))?$`)

// Trashed lists the rooms in the trash under cwd, newest first (by the
// time in their folder's name). Folders of other names are left out. No
// trash is an empty list.
func Trashed(cwd string) ([]TrashedRoom, error) {
	trash := filepath.Join(cwd, Folder, TrashFolder)
	entries, err := os.ReadDir(trash)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the trash %s: %w", trash, err)
	}
	var out []TrashedRoom
	for _, e := range entries {
		m := trashedRE.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil || ValidateName(m[1]) != nil {
			continue
		}
		at, err := time.Parse(trashStamp, m[2])
		if err != nil {
			continue
		}
		n := 1
		if m[3] != "" {
			if n, err = strconv.Atoi(m[3]); err != nil {
				continue
			}
		}
		out = append(out, TrashedRoom{Name: m[1], Path: filepath.Join(trash, e.Name()), At: at, n: n})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.After(out[j].At)
		}
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// NotTrashedError refuses to restore a room the trash holds no copy of.
type NotTrashedError struct {
	Name  string
	Trash string   // the trash folder
	Names []string // the rooms it does hold, sorted, each once
}

func (e *NotTrashedError) Error() string {
	s := fmt.Sprintf("no deleted room %q in the trash %s", e.Name, e.Trash)
	if len(e.Names) == 0 {
		return s + ", which is empty"
	}
	return s + "; it holds " + strings.Join(e.Names, ", ")
}

// Unwrap makes errors.Is(err, ErrNoRoom) hold.
func (e *NotTrashedError) Unwrap() error { return ErrNoRoom }

// LatestTrashed is the newest folder in the trash under cwd of room name,
// for Restore; a *NotTrashedError when there is none.
func LatestTrashed(cwd, name string) (TrashedRoom, error) {
	if err := ValidateName(name); err != nil {
		return TrashedRoom{}, err
	}
	all, err := Trashed(cwd)
	if err != nil {
		return TrashedRoom{}, err
	}
	seen := map[string]bool{}
	var names []string
	for _, t := range all {
		if t.Name == name {
			return t, nil
		}
		if !seen[t.Name] {
			seen[t.Name] = true
			names = append(names, t.Name)
		}
	}
	sort.Strings(names)
	return TrashedRoom{}, &NotTrashedError{Name: name, Trash: filepath.Join(cwd, Folder, TrashFolder), Names: names}
}

// plainLine is s on one line for a terminal: white space runs become one
// space, and control characters that would act (ESC, BEL, C1 controls,
// bidirectional overrides) and bytes that are not UTF-8 are replaced by
// visible ones.
func plainLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // its control picture: ESC is ␛
		case r == 0x7f:
			b.WriteRune('\u2421')
		case (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// cut is s cut to width cells, an ellipsis in place of what was left out
// (after the last whole character, not after a space).
func cut(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	return strings.TrimRight(ansi.Truncate(s, width-1, ""), " ") + "…"
}

// wrapFacts joins facts with " · " into lines of at most width cells,
// breaking between facts; a fact wider than a line is wrapped by words.
func wrapFacts(facts []string, width int) []string {
	var lines []string
	cur := ""
	for _, f := range facts {
		switch {
		case cur == "":
		case ansi.StringWidth(cur)+3+ansi.StringWidth(f) <= width:
			cur += " · " + f
			continue
		default:
			lines = append(lines, cur)
		}
		parts := WrapWords(f, width)
		if len(parts) == 0 {
			continue
		}
		lines = append(lines, parts[:len(parts)-1]...)
		cur = parts[len(parts)-1]
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// WrapWords breaks s into lines of at most width cells between words,
// never inside one (flag names, paths and links stay whole); a word wider
// than width has a line of its own.
func WrapWords(s string, width int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = word
		case ansi.StringWidth(cur)+1+ansi.StringWidth(word) <= width:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
