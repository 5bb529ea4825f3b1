// Package roomtest helps tests of the packages built on the room store: the
// reference rooms written by the original roundtable-mcp server, and a copy
// of a room folder that a test may write to.
package roomtest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ReferenceRooms is the folder of rooms written by the original server
// through its MCP tools (room/testdata/reference-rooms): each of
// "cache-design" (closed) and "open-room" (open) is a cwd holding
// .roundtable/<name>. Copy one before writing to it.
func ReferenceRooms() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("roomtest: cannot find its own source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata", "reference-rooms")
}

// CopyTree copies a folder into a new temporary folder and returns it.
func CopyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// Encode writes v the way the room format wants JSON: two-space indent, <,
// > and & as themselves, a final newline.
func Encode(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// WriteFile writes data at path, creating the folders on the way.
func WriteFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
