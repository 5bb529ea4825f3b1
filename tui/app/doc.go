// Package app is roundtable's terminal app: the root model that routes
// between the home screen, the two forms, the debate screen and the watch
// screen, and Run, which shows it in a full window.
//
// Every screen keeps its own state and keys; the root only switches
// between them on their messages (home.OpenMsg, forms.StartMsg,
// debateview.BackMsg, ...), hands them the terminal's size and background,
// and, when the program ends however it ends, stops any debate still
// running so that it is saved.
package app
