package watch

import (
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: the
// screen's Notifier, folder watches and waiting commands must all stop on
// Close.
//
// Clock times on screen (a closed room's) are read in UTC, as the golden
// files show them.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	goleak.VerifyTestMain(m,
		// teatest waits for SIGINT for the whole life of the test binary.
		goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2"),
		goleak.IgnoreTopFunction("os/signal.signal_recv"),
		goleak.IgnoreTopFunction("os/signal.loop"),
		// Chroma (Glamour's code highlighter) times its regular
		// expressions with regexp2's clock, a goroutine of that library
		// that ends on its own a moment after the last match.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
	)
}
