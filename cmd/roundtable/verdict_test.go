package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerdictCommand runs `roundtable verdict` on a room the original
// server wrote: the verdict streams to stdout in the debate's structure
// and is saved beside the spec; a persona debate, a missing room and a
// room with no message are refused with a sentence.
func TestVerdictCommand(t *testing.T) {
	cwd := t.TempDir()
	src := filepath.Join("..", "..", "room", "testdata", "reference-rooms", "cache-design") // the original server's room
	if out, err := exec.Command("cp", "-r", src+"/.", cwd).CombinedOutput(); err != nil {
		t.Fatalf("copy the reference room: %v\n%s", err, out)
	}
	_ = exec.Command("chmod", "-R", "u+w", cwd).Run()
	stdout, stderr, code := runBin(t, "", "verdict", "--room", "cache-design", "--cwd", cwd, "--fast")
	if code != 0 {
		t.Fatalf("verdict: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"**Decision:**", "**Confidence:**", "### Dissent", "### Next steps"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the verdict lacks %s:\n%s", want, stdout)
		}
	}
	saved, err := os.ReadFile(filepath.Join(cwd, "SPEC-cache-design.verdict.md"))
	if err != nil {
		t.Fatalf("the verdict was not saved beside the spec: %v (stderr %s)", err, stderr)
	}
	if strings.TrimSpace(string(saved)) != strings.TrimSpace(stdout) {
		t.Errorf("the saved verdict differs from what streamed")
	}
	if !strings.Contains(stderr, "saved in SPEC-cache-design.verdict.md") {
		t.Errorf("stderr does not say where the verdict is: %q", stderr)
	}

	if _, stderr, code := runBin(t, "", "verdict", "--room", "nope", "--cwd", cwd); code != 2 || !strings.Contains(stderr, `no room "nope"`) {
		t.Errorf("a missing room: exit %d, %q", code, stderr)
	}
	if _, _, code := runBin(t, "", "seed", "--room", "empty", "--cwd", cwd, "--topic", "Nothing said yet"); code != 0 {
		t.Fatal("seed failed")
	}
	if _, stderr, code := runBin(t, "", "verdict", "--room", "empty", "--cwd", cwd); code != 2 || !strings.Contains(stderr, "no message yet") {
		t.Errorf("a room with no message: exit %d, %q", code, stderr)
	}
	if _, _, code := runBin(t, "", "debate", "--topic", "Tabs?", "--rounds", "1", "--room", "tabs", "--cwd", cwd, "--fast"); code != 0 {
		t.Fatal("debate failed")
	}
	if _, stderr, code := runBin(t, "", "verdict", "--room", "tabs", "--cwd", cwd); code != 2 || !strings.Contains(stderr, "persona debate") {
		t.Errorf("a persona debate: exit %d, %q", code, stderr)
	}
}
