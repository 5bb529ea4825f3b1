package debate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Sentinel errors. Match them with errors.Is; the wrapped message says what
// to do.
var (
	// ErrBadConfig marks debate settings that cannot run (no topic, rounds
	// out of range...). A command line should exit 2.
	ErrBadConfig = errors.New("bad debate settings")
	// ErrBadProvider marks an unknown provider or a malformed base URL.
	ErrBadProvider = errors.New("bad provider settings")
	// ErrMissingKey means the chosen provider needs an API key and none is set.
	ErrMissingKey = errors.New("missing API key")
	// ErrTurnTimeout means a provider sent no token for Config.TurnTimeout.
	ErrTurnTimeout = errors.New("turn timeout")
	// ErrBadStream means a provider's stream broke its protocol: a
	// malformed chunk, or an end without a finish reason.
	ErrBadStream = errors.New("bad stream")
	// ErrSave means the debate ran but could not be saved as a room.
	ErrSave = errors.New("could not save the debate")
)

// StoppedError is a debate stopped by its context (ctrl+c) before it
// ended: its message is the one line to show, and errors.Is(err,
// context.Canceled) holds.
type StoppedError struct{ Msg string }

// Error is the line to show.
func (e *StoppedError) Error() string { return e.Msg }

// Unwrap is context.Canceled.
func (e *StoppedError) Unwrap() error { return context.Canceled }

// TopicError says why a debate's topic cannot be debated. It comes wrapped
// with ErrBadConfig; a form finds it with errors.As to point at its topic
// field.
type TopicError struct {
	Reason string
	Empty  bool // there is no topic at all
}

// Error is the reason.
func (e *TopicError) Error() string { return e.Reason }

// IsUsage reports whether err comes from settings a user gave (flags,
// persona files, form fields) rather than from running the debate: a
// command line exits 2 on it.
func IsUsage(err error) bool {
	return errors.Is(err, ErrBadConfig) || errors.Is(err, ErrBadPersona) || errors.Is(err, ErrBadProvider)
}

// TurnError is the cause of an error event when a provider failed during a
// turn (or the moderator's verdict): which provider, whose turn, and why.
type TurnError struct {
	Provider string
	Agent    string
	Round    int
	Err      error
}

// Error says which provider failed during whose turn, and why.
func (e *TurnError) Error() string {
	return fmt.Sprintf("%s failed during %s's turn (round %d): %v", e.Provider, e.Agent, e.Round, e.Err)
}

// Unwrap returns the cause.
func (e *TurnError) Unwrap() error { return e.Err }

// StatusError is an HTTP error status from a provider's server.
type StatusError struct {
	StatusCode int
	Message    string        // the server's own explanation, when it gave one
	RetryAfter time.Duration // from Retry-After; valid when HasRetryAfter
	// HasRetryAfter reports whether the server sent a usable Retry-After.
	HasRetryAfter bool
	Attempts      int // requests made, retries included
}

// Error gives the status, the server's message and a hint.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return s + hint(e.StatusCode)
}

func hint(code int) string {
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return "; check the API key"
	case code == http.StatusNotFound:
		return "; check the model name and the base URL"
	case code == http.StatusTooManyRequests:
		return "; wait a little or use another model"
	case code >= 500:
		return "; the server is failing, try again later"
	}
	return ""
}

// retryable reports whether a request that got this status may be retried.
func (e *StatusError) retryable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout || e.StatusCode >= 500
}
