package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
)

// ErrOutChanged marks an --out folder that holds the results of a run
// under another configuration: its results cannot be reused. A command
// line exits 2 on it.
var ErrOutChanged = errors.New("the results folder belongs to another configuration")

// Files of an --out folder.
const (
	ReportJSON = "report.json" // the report, as JSON
	ReportMD   = "report.md"   // the report, as Markdown
	ReportHTML = "report.html" // the report as a page, its chart in SVG
	ItemsFile  = "items.jsonl" // each item's result, a line each, as it lands
	ConfigFile = "eval.json"   // the configuration the items were made under
)

// Config is what a run's results depend on. An --out folder's items are
// reused only by a run under the same Config. Concurrency and the token
// budget are not in it: they change how a run goes, not its results.
type Config struct {
	Questions string   `json:"questions_sha256"` // HashQuestions
	Arms      []string `json:"arms"`
	Personas  int      `json:"personas"`
	Rounds    int      `json:"rounds"`
	Models    []string `json:"models"`
	Provider  string   `json:"provider"`
	Model     string   `json:"model"`
	BaseURL   string   `json:"base_url,omitempty"`
	MaxTokens int      `json:"max_tokens,omitempty"` // a call's
	Seed      int64    `json:"seed"`
}

// HashQuestions is the SHA-256 of the questions as read (ids, texts,
// answers, choices), so reformatting the file changes nothing and editing
// a question does.
func HashQuestions(qs []Question) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, q := range qs {
		_ = enc.Encode(q) // a struct of strings: cannot fail
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Record is one line of items.jsonl: an item and its arm.
type Record struct {
	Arm string `json:"arm"`
	Item
}

// Out is an --out folder: the items of a run saved as they land, and the
// reports.
type Out struct {
	dir   string
	mu    sync.Mutex
	items *os.File
}

// OpenOut opens dir as the results folder of a run under cfg, creating it
// when it does not exist, and returns the items already saved there. A
// folder holding the results of another configuration is refused with
// ErrOutChanged, naming what differs. A last line cut short (a run killed
// while writing it) is dropped.
func OpenOut(dir string, cfg Config) (*Out, []Record, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	cfgPath, itemsPath := filepath.Join(dir, ConfigFile), filepath.Join(dir, ItemsFile)
	data, err := os.ReadFile(cfgPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(itemsPath); err == nil {
			return nil, nil, fmt.Errorf("%w: %s has %s but no %s; give a new folder", ErrOutChanged, dir, ItemsFile, ConfigFile)
		}
		b, _ := json.MarshalIndent(cfg, "", "  ")
		if err := os.WriteFile(cfgPath, append(b, '\n'), 0o644); err != nil {
			return nil, nil, err
		}
	case err != nil:
		return nil, nil, err
	default:
		var was Config
		if err := json.Unmarshal(data, &was); err != nil {
			return nil, nil, fmt.Errorf("%w: %s is not readable (%v); give a new folder", ErrOutChanged, cfgPath, err)
		}
		if diff := configDiff(was, cfg); diff != "" {
			return nil, nil, fmt.Errorf("%w: %s was run with another %s; rerun with the same, or give a new folder", ErrOutChanged, dir, diff)
		}
	}
	done, err := readItems(itemsPath)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(itemsPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &Out{dir: dir, items: f}, done, nil
}

// configDiff names the fields where a and b differ, "" when none.
func configDiff(a, b Config) string {
	var diff []string
	va, vb, t := reflect.ValueOf(a), reflect.ValueOf(b), reflect.TypeFor[Config]()
	for i := range t.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			diff = append(diff, fmt.Sprintf("%s (%v, now %v)", name, va.Field(i).Interface(), vb.Field(i).Interface()))
		}
	}
	return strings.Join(diff, ", ")
}

// readItems reads items.jsonl, dropping (and cutting off the file) a last
// line with no newline: the run writing it was stopped midway.
func readItems(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
		if err := os.Truncate(path, int64(len(data))); err != nil {
			return nil, err
		}
	}
	var out []Record
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Append saves an item of arm as one whole line.
func (o *Out) Append(arm string, it Item) error {
	b, err := json.Marshal(Record{Arm: arm, Item: it})
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, err = o.items.Write(append(b, '\n'))
	return err
}

// WriteReports writes report.json, report.md and report.html, each whole
// (written aside, then renamed over the old).
func (o *Out) WriteReports(rep *Report) error {
	var j, md, page bytes.Buffer
	if err := rep.WriteJSON(&j); err != nil {
		return err
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		return err
	}
	if err := rep.WriteHTML(&page); err != nil {
		return err
	}
	for name, b := range map[string][]byte{ReportJSON: j.Bytes(), ReportMD: md.Bytes(), ReportHTML: page.Bytes()} {
		path := filepath.Join(o.dir, name)
		if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
			return err
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the items file.
func (o *Out) Close() error { return o.items.Close() }
