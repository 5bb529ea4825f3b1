// Package noterm says in a sentence that a screen needs a terminal, where
// Bubble Tea reports "bubbletea: error opening TTY: … /dev/tty: no such
// device or address" (a script, a pipe, a service with no terminal).
package noterm

import (
	"errors"
	"fmt"
	"io/fs"
)

// Explain replaces err with a sentence when it is Bubble Tea failing to
// open the terminal: command is what the person ran ("roundtable watch"),
// instead what does the same work without a screen. Other errors pass
// unchanged.
func Explain(err error, command, instead string) error {
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) || pe.Path != "/dev/tty" {
		return err
	}
	return fmt.Errorf("%s needs a terminal and found none (stdin is not one and %s: %v); run it in a terminal, or %s", command, pe.Path, pe.Err, instead)
}
