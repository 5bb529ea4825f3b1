package room

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// VerdictPath is where a verdict on the room is saved, relative to the
// cwd: beside the spec the room names (SpecFor), its name ending
// ".verdict.md" instead of ".md" ("SPEC-cache-design.verdict.md").
func VerdictPath(cfg Config, closed *Closed) string {
	spec := SpecFor(cfg, closed)
	return strings.TrimSuffix(spec, filepath.Ext(spec)) + ".verdict.md"
}

// WriteVerdict saves text as the room's verdict (VerdictPath), atomically,
// replacing an earlier one, ending with a newline; it refuses a path that
// leaves the cwd, also through symbolic links, and returns the file's
// path.
func (r *Room) WriteVerdict(text string, closed *Closed) (string, error) {
	if strings.TrimSpace(text) == "" {
		return "", &EmptyError{What: "verdict"}
	}
	rel := VerdictPath(r.cfg, closed)
	path := filepath.Join(r.cwd, filepath.FromSlash(rel))
	if !insideDir(r.cwd, path) {
		return "", fmt.Errorf("%w: the verdict's path %s leaves %s", ErrUnsafePath, rel, r.cwd)
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return "", fmt.Errorf("create the folder for the verdict %s: %w", rel, err)
	}
	if !insideDir(r.cwd, path) {
		return "", fmt.Errorf("%w: the verdict's path %s leaves %s", ErrUnsafePath, rel, r.cwd)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if err := writeAtomic(path, []byte(text)); err != nil {
		return "", fmt.Errorf("write the verdict %s: %w", rel, err)
	}
	return path, nil
}
