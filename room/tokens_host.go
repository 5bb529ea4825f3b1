package room

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"time"
)

// HostFile records where `roundtable host` last served the room: the URL
// its printed lines gave the agents, so that `roundtable host --rotate`
// prints lines with the port the host really listens on.
//
//	{"url":"http://127.0.0.1:8765/mcp","at":"<RFC 3339>"}
//
// It is written atomically with mode 0600, like tokens.json.
const HostFile = "host.json"

// maxHostFile bounds what is read of host.json.
const maxHostFile = 4 << 10

type hostDoc struct {
	URL string `json:"url"`
	At  string `json:"at"`
}

// RecordHost saves url as where the room is served.
func (r *Room) RecordHost(u string) error {
	data, err := encodeJSON(hostDoc{URL: u, At: formatTime(time.Now())})
	if err != nil {
		return err
	}
	path := filepath.Join(r.dir, HostFile)
	if err := writeAtomicMode(path, data, tokensMode); err != nil {
		return fmt.Errorf("record where room %q is served in %s: %w", r.cfg.Room, path, err)
	}
	return nil
}

// HostURL is the URL RecordHost saved last, if host.json holds an http or
// https URL; ok is false when there is none.
func (r *Room) HostURL() (string, bool) {
	f, err := OpenNoFollow(filepath.Join(r.dir, HostFile))
	if err != nil {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHostFile+1))
	if err != nil || len(data) > maxHostFile {
		return "", false
	}
	var doc hostDoc
	if json.Unmarshal(data, &doc) != nil {
		return "", false
	}
	u, err := url.Parse(doc.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	return doc.URL, true
}
