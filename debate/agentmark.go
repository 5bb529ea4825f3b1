package debate

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync/atomic"
)

// agentMarkVar is set in every agent's environment to a value of that
// agent's own. Whatever the agent starts inherits it (unless it clears its
// environment, and then its parent still leads to it), so on stop every
// such process can be found and killed, whatever process group or session
// it moved to (killMarked; Linux only).
const agentMarkVar = "ROUNDTABLE_AGENT"

var agentSeq atomic.Int64

// newAgentMark is a value for agentMarkVar no other agent has: this
// process's pid, a count and a random part.
func newAgentMark() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%d-%d-%s", os.Getpid(), agentSeq.Add(1), hex.EncodeToString(b[:]))
}
