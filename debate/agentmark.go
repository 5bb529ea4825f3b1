package debate

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// agentMarkVar is set in every agent's environment to a value of that
// agent's own. Whatever the agent starts inherits it (unless it clears its
// environment, and then its parent still leads to it), so on stop every
// such process can be found and killed, whatever process group or session
// it moved to (killMarked; Linux only).
const agentMarkVar = "ROUNDTABLE_AGENT"

var agentSeq atomic.Int64

var (
	markOnce   sync.Once
	markPrefix string
)

// newAgentMark is a value for agentMarkVar no other agent has: this
// process's pid and start time (which say whether its owner is alive), a
// count and a random part. The first one also sweeps what agents of a
// killed roundtable left running (sweepOrphanAgents).
func newAgentMark() string {
	markOnce.Do(func() {
		markPrefix = fmt.Sprintf("%d-%d-", os.Getpid(), selfStart())
		sweepOrphanAgents()
	})
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s%d-%s", markPrefix, agentSeq.Add(1), hex.EncodeToString(b[:]))
}
