//go:build !unix

package debate

import "time"

// processCPU is not measured here: the CPU benchmark reports 0.
func processCPU() time.Duration { return 0 }
