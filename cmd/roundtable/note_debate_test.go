package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNoteToARunningDebate: `roundtable note` on a persona debate that a
// headless `roundtable debate` runs in another process writes the note
// into its room; the debate hands it to the next persona to speak (the
// mock answers it), and its output shows the note after the turn that was
// being spoken, never inside it.
func TestNoteToARunningDebate(t *testing.T) {
	bin := builtBinary(t)
	cwd := t.TempDir()
	deb := exec.Command(bin, "debate", "--cwd", cwd, "--room", "panel", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--format", "jsonl")
	var out, errb bytes.Buffer
	deb.Stdout, deb.Stderr = &out, &errb
	if err := deb.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		done <- deb.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = deb.Process.Kill()
		<-exited
	})
	// Wait for the first turn to be spoken: its draft is in the room.
	drafts := filepath.Join(cwd, ".roundtable", "panel", "drafts")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if entries, _ := os.ReadDir(drafts); len(entries) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no turn began in 20 s; stderr: %s", errb.String())
		}
	}
	stdout, stderr, code := runBin(t, "", "note", "--cwd", cwd, "--room", "panel", "Mind the mobile clients")
	if code != 0 || !strings.Contains(stdout, "sent to debate panel") {
		t.Fatalf("note: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the debate failed: %v\n%s", err, errb.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the debate did not end in 60 s; stderr: %s", errb.String())
	}
	var types []string
	noteAt, answeredAt := -1, -1
	inTurn := false
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				Text     string `json:"text"`
				From     string `json:"from"`
				FullText string `json:"full_text"`
			} `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		types = append(types, ev.Event)
		switch ev.Event {
		case "turn_start":
			inTurn = true
		case "turn_end":
			inTurn = false
			if noteAt >= 0 && answeredAt < 0 && strings.Contains(ev.Data.FullText, "Mind the mobile clients") {
				answeredAt = len(types) - 1
			}
		case "note":
			if inTurn {
				t.Errorf("the note came inside a turn (event %d)", len(types)-1)
			}
			if ev.Data.Text != "Mind the mobile clients" || ev.Data.From != "user" {
				t.Errorf("note event %+v", ev.Data)
			}
			noteAt = len(types) - 1
		}
	}
	if noteAt < 0 || answeredAt < 0 {
		t.Fatalf("the note (at %d) was not answered by a later turn (at %d); events %v", noteAt, answeredAt, types)
	}
}
