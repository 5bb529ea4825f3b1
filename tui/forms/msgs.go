package forms

import "github.com/roundtable-dev/roundtable/debate"

// StartMsg asks the parent to start the debate the form describes, with
// debate.Start; the parent calls DebateForm.StartFailed when it cannot.
type StartMsg struct {
	Settings debate.Settings
}

// BackMsg asks the parent to leave the form.
type BackMsg struct{}

// WatchMsg asks the parent to open the room the room form created in the
// watch screen.
type WatchMsg struct {
	Room string
	// Take is the seat the user chose to play at the keyboard: the watch
	// screen opens with it taken. "" for none.
	Take string
}

// seededMsg: the room form's room was created (or already existed) and its
// prompts written; the prompts' text comes along for copying.
type seededMsg struct {
	id      int64
	res     seedResult
	existed bool
	err     error
}
