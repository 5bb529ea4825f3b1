package home

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind (the
// folder watch of a screen that was closed).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
