package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LogFile is the name of the room's diagnostic log.
const LogFile = "server.log"

// Field is one key=value pair of a server.log line.
type Field struct{ Key, Value string }

// F builds a Field.
func F(key string, value any) Field { return Field{Key: key, Value: fmt.Sprint(value)} }

// Log appends one line to server.log: the time, the event and its fields.
// Values are untrusted (agent labels, file names): anything but plain
// characters is written as a Go-quoted string, so a newline or a control
// character cannot forge a second line. One write call per line keeps
// concurrent appenders from interleaving.
//
// A room whose room.json is gone is being deleted: Log then writes
// nothing, so a seat woken by the deletion does not put server.log back
// into a folder that `rm -rf` is emptying (which would make it fail with
// "directory not empty").
func (r *Room) Log(event string, fields ...Field) error {
	if _, err := os.Lstat(filepath.Join(r.dir, "room.json")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return AppendLog(r.dir, time.Now(), event, fields...)
}

// AppendLog is Log for a room folder.
func AppendLog(dir string, at time.Time, event string, fields ...Field) error {
	var b strings.Builder
	b.WriteString(formatTime(at))
	b.WriteByte(' ')
	b.WriteString(logValue(event))
	for _, f := range fields {
		b.WriteByte(' ')
		b.WriteString(logKey(f.Key))
		b.WriteByte('=')
		b.WriteString(logValue(f.Value))
	}
	b.WriteByte('\n')
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, fileMode)
	if err != nil {
		return err
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func plain(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && !strings.ContainsRune("._-:/@+,()", c) {
			return false
		}
	}
	return true
}

func logValue(s string) string {
	if plain(s) {
		return s
	}
	return strconv.QuoteToASCII(s)
}

func logKey(s string) string {
	if plain(s) && !strings.ContainsAny(s, "=") {
		return s
	}
	return "key"
}

// LogLine is a parsed server.log line.
type LogLine struct {
	At     time.Time
	Event  string
	Fields map[string]string
}

// ParseLogLine parses one server.log line; ok is false for lines that are not
// in the format.
func ParseLogLine(line string) (LogLine, bool) {
	ts, rest, found := strings.Cut(line, " ")
	if !found {
		return LogLine{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return LogLine{}, false
	}
	toks := SplitLogTokens(rest)
	if len(toks) == 0 {
		return LogLine{}, false
	}
	ll := LogLine{At: at, Event: unquoteLog(toks[0]), Fields: map[string]string{}}
	for _, t := range toks[1:] {
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		ll.Fields[k] = unquoteLog(v)
	}
	return ll, true
}

// SplitLogTokens splits a server.log line on the spaces outside
// double-quoted values (AppendLog's format: a quoted value is a Go string
// literal), each token a slice of line.
func SplitLogTokens(line string) []string {
	var toks []string
	start, inQuote, esc := 0, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case esc:
			esc = false
		case inQuote && c == '\\':
			esc = true
		case c == '"':
			inQuote = !inQuote
		case c == ' ' && !inQuote:
			if i > start {
				toks = append(toks, line[start:i])
			}
			start = i + 1
		}
	}
	if start < len(line) {
		toks = append(toks, line[start:])
	}
	return toks
}

func unquoteLog(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
