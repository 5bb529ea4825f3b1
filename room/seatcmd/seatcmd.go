// Package seatcmd builds the command lines that start a room's seat server
// and register it with the coding-agent CLIs (Claude Code, Codex, Gemini
// CLI, Qwen Code, opencode) or an agent's mcpServers file.
//
// One function, Seat.Args, writes the seat server's flags; every command
// shown to a user is built from it, and cmd/roundtable tests it against the
// real flags of "roundtable serve", so renaming a flag there fails a test
// instead of silently breaking what users paste. The package knows nothing
// of terminals; it depends only on the room store's names.
package seatcmd

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// The seat server's flags, as "roundtable serve" (and bare "roundtable")
// defines them.
const (
	FlagRoom   = "room"
	FlagSeat   = "seat"
	FlagAgent  = "agent"
	FlagTopic  = "topic"
	FlagBudget = "budget"
	FlagSpec   = "spec"
	FlagCwd    = "cwd"
)

// DefaultProgram is how a command starts roundtable when the running
// binary is the one on PATH.
const DefaultProgram = "roundtable"

// Seat is one seat server to start: the room, the seat and what the server
// needs to create the room if it does not exist yet.
type Seat struct {
	// Program starts roundtable: DefaultProgram, or an absolute path (see
	// Program). Empty means DefaultProgram.
	Program string
	Room    string
	// Seat is room.SeatLead or room.SeatPeer.
	Seat string
	// Agent labels the seat for the other one; empty: left out.
	Agent string
	// Topic, Budget and Spec are used when the server creates the room;
	// empty or zero: left out. Spec is left out when it is the default.
	Topic  string
	Budget int
	Spec   string
	// Cwd is the folder holding .roundtable/ (absolute); empty: left out,
	// so the server uses its working directory.
	Cwd string
}

// Args are the seat server's arguments, each one "--flag=value" token.
// The "=" form keeps every value attached to its flag whatever parses the
// line: yargs-based CLIs (Gemini CLI, Qwen Code, opencode) read a separate
// "12" as a number, and opencode then writes it into its config as a JSON
// number, which breaks it; "--budget=12" stays a string everywhere.
func (s Seat) Args() []string {
	args := []string{flag(FlagRoom, s.Room), flag(FlagSeat, s.Seat)}
	if s.Agent != "" {
		args = append(args, flag(FlagAgent, s.Agent))
	}
	if s.Topic != "" {
		args = append(args, flag(FlagTopic, s.Topic))
	}
	if s.Budget > 0 {
		args = append(args, flag(FlagBudget, fmt.Sprint(s.Budget)))
	}
	if s.Spec != "" && s.Spec != room.DefaultSpec(s.Room) {
		args = append(args, flag(FlagSpec, s.Spec))
	}
	if s.Cwd != "" {
		args = append(args, flag(FlagCwd, s.Cwd))
	}
	return args
}

func flag(name, value string) string { return "--" + name + "=" + value }

// Command is the program and its arguments: the argv that starts the seat
// server.
func (s Seat) Command() []string {
	return append([]string{s.program()}, s.Args()...)
}

func (s Seat) program() string {
	if s.Program == "" {
		return DefaultProgram
	}
	return s.Program
}

// Server names are "roundtable-<room>-<seat>". The room and seat parts
// share maxNamePart characters (the room at most maxRoomPart), so that the
// longest tool name an agent sees, "mcp__<server>__wait_for_message",
// stays within the 64 characters Anthropic's and OpenAI's APIs allow for a
// tool name.
const (
	serverPrefix = "roundtable-"
	maxNamePart  = 29 // room part + seat part: 64 - len("mcp__roundtable-" "-" "__wait_for_message")
	maxRoomPart  = 25 // beside "lead" or "peer"
	maxSeatPart  = 12 // a council seat's part at most
	hashPart     = 4  // hex digits of a name's hash
)

// ServerName is the name the seat's server is registered under. Every
// seat gets its own name, since a second "claude mcp add" of one name in
// the same folder fails ("already exists"). Names use only ASCII letters,
// digits, '-' and '_' (Codex and Claude Code refuse anything else); a room
// or seat name that had to be changed or cut to fit keeps a short hash of
// itself, so two rooms, or two seats of a council, never share a server
// name.
func (s Seat) ServerName() string {
	seat := fitPart(s.Seat, maxSeatPart)
	return serverPrefix + fitPart(s.Room, min(maxRoomPart, maxNamePart-len(seat))) + "-" + seat
}

// fitPart is name as a server name's part of at most n characters: as it
// is when it is safe and fits, else its safe form cut, with a hash of the
// whole name.
func fitPart(name string, n int) string {
	part := serverSafe(name)
	if part == name && len(part) <= n {
		return part
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	cut := strings.TrimRight(part[:min(len(part), n-hashPart-1)], "-_")
	return fmt.Sprintf("%s-%0*x", cut, hashPart, h.Sum32()&(1<<(4*hashPart)-1))
}

// serverSafe replaces every character but ASCII letters, digits, '-' and
// '_' with '-'.
func serverSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}

// Program decides how the commands start roundtable: DefaultProgram when
// the "roundtable" that lookPath finds is the running binary (executable),
// otherwise the running binary's absolute path, since an agent CLI given
// a name that is not on PATH fails with ENOENT, and one given another
// roundtable may run another version. It reads the file system: call it
// from a command, never from a view. Pass exec.LookPath and os.Executable.
func Program(lookPath func(string) (string, error), executable func() (string, error)) string {
	exe, err := executable()
	if err != nil || exe == "" {
		return DefaultProgram
	}
	if abs, err := filepath.Abs(exe); err == nil {
		exe = abs
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	found, err := lookPath(DefaultProgram)
	if err != nil {
		return exe
	}
	a, errA := os.Stat(found)
	b, errB := os.Stat(exe)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return DefaultProgram
	}
	return exe
}

// NoRoomError refuses room name, missing under cwd (the working directory
// when empty), saying how to create it: with roundtable seed, or --topic
// on the command that was refused. It matches room.ErrNoRoom.
func NoRoomError(cwd, name string) error {
	if cwd == "" {
		cwd = "the working directory"
		if wd, err := os.Getwd(); err == nil {
			cwd = wd
		}
	}
	return &noRoomError{msg: fmt.Sprintf("no room %q under %s; create it with roundtable seed --%s %s --%s \"...\", or give --%s to create it here", name, cwd, FlagRoom, name, FlagTopic, FlagTopic)}
}

type noRoomError struct{ msg string }

func (e *noRoomError) Error() string { return e.msg }
func (e *noRoomError) Unwrap() error { return room.ErrNoRoom }
