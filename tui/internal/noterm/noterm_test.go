package noterm

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestExplain(t *testing.T) {
	tty := fmt.Errorf("bubbletea: error opening TTY: %w", fmt.Errorf("bubbletea: could not open TTY: %w", &fs.PathError{Op: "open", Path: "/dev/tty", Err: syscall.ENXIO}))
	got := Explain(tty, "roundtable watch", "read the room with roundtable transcript --room R")
	want := "roundtable watch needs a terminal and found none (stdin is not one and /dev/tty: no such device or address); run it in a terminal, or read the room with roundtable transcript --room R"
	if got == nil || got.Error() != want {
		t.Fatalf("got %v, want %q", got, want)
	}
	other := errors.New("room gone")
	if Explain(other, "x", "y") != other || Explain(nil, "x", "y") != nil {
		t.Fatal("another error was changed")
	}
}
