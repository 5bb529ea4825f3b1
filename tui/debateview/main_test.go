package debateview

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: a
// debate, a reader or a timer of a screen that was closed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// Chroma (Glamour's code highlighter) times its regular
		// expressions with regexp2's clock, a goroutine of that library
		// that ends on its own a moment after the last match.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
	)
}
