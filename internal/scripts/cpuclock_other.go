//go:build !linux

package scripts

import "time"

// threadClock reports that this platform has no thread CPU clock: the CPU
// budget is then measured as time spent inside the engine.
func threadClock() (cpuClock, bool) { return 0, false }

type cpuClock int32

func (cpuClock) now() (time.Duration, bool) { return 0, false }
