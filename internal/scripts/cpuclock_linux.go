package scripts

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock returns the CPU clock of the calling OS thread, which any
// thread may read, so that a watchdog can see what the engine's thread
// has used. The caller must be locked to its thread (runtime.LockOSThread).
// Linux encodes a thread's CPU clock as its negated thread id shifted past
// three flag bits: per-thread (4) and the scheduler's clock (2), as
// pthread_getcpuclockid does.
func threadClock() (cpuClock, bool) {
	id := int32(^(int32(unix.Gettid()) << 3) | 6)
	c := cpuClock(id)
	if _, ok := c.now(); !ok {
		return 0, false
	}
	return c, true
}

// cpuClock is a CPU-time clock of the kernel.
type cpuClock int32

// now reads the clock.
func (c cpuClock) now() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32(c), &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
