package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/roundtable-dev/roundtable/room"
)

// maxExportTries bounds the search for a free file name in Export.
const maxExportTries = 1000

// Export writes the transcript of r into the folder dir, as Markdown
// (<room>-transcript.md) or, when html is set, as an HTML page
// (<room>-transcript.html), and returns the file's path. It never
// overwrites: when the name is taken it tries <room>-transcript-2.md,
// -3, and so on, creating the file exclusively. The room's folder name
// (validated when the room was opened), not room.json's "room" field, makes
// the file name, so a hostile room.json cannot aim the file elsewhere.
func Export(r *room.Room, dir string, html bool) (string, error) {
	d, err := load(r)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	ext := ".md"
	if html {
		ext = ".html"
		if err := writeHTML(&b, d); err != nil {
			return "", err
		}
	} else {
		writeMarkdown(&b, d)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("export the transcript: %s is not an existing folder; create it or choose another", dir)
	}
	base := filepath.Base(r.Dir()) + "-transcript"
	for n := 1; n <= maxExportTries; n++ {
		name := base + ext
		if n > 1 {
			name = base + "-" + strconv.Itoa(n) + ext
		}
		path := filepath.Join(dir, name)
		err := writeNew(path, b.Bytes())
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("export the transcript to %s: %w", path, err)
		}
		return path, nil
	}
	return "", fmt.Errorf("export the transcript: %s%s and %d numbered copies already exist in %s; remove some", base, ext, maxExportTries-1, dir)
}

// writeNew creates path, failing with fs.ErrExist when it exists, and writes
// data to it; a file that could not be written whole is removed.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return err
	}
	return nil
}
