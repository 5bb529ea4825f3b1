package mcpserver_test

import (
	"testing"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestMain builds the roundtable binary once for the tests in this package.
func TestMain(m *testing.M) { hosttest.Main(m) }
