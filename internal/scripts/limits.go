package scripts

import "time"

// Limits bound one run of a script. A zero field takes its value from
// DefaultLimits, so Limits{CPUTime: time.Second} changes only the CPU bound.
type Limits struct {
	// CPUTime bounds the time spent running JavaScript (and the host
	// functions it calls) in one run, summed over every entry into the engine.
	CPUTime time.Duration
	// Memory bounds the engine's heap in bytes; the engine's allocator
	// refuses allocations past it and the script sees "out of memory".
	Memory int64
	// WallTime bounds a whole run, waiting on fetches and timers included.
	WallTime time.Duration
	// MaxLogs bounds the console lines kept in Result.Logs; later lines are
	// counted and reported in one final line.
	MaxLogs int
	// MaxLogLine bounds one console line in bytes; longer lines are cut.
	MaxLogLine int
	// MaxResponse bounds the body of the Response the script returns.
	MaxResponse int64
	// MaxFetches bounds the outbound requests (fetch calls) of one run.
	MaxFetches int
	// MaxFetchBody bounds the body of each response fetch reads.
	MaxFetchBody int64
	// MaxConcurrentFetches bounds the fetches of one run in flight at once;
	// further ones wait for a slot.
	MaxConcurrentFetches int
	// MaxScript bounds the size of a script's source in bytes.
	MaxScript int
	// MaxConcurrent bounds the runs a Runner executes at once; Run waits for
	// a slot (or for its context). It bounds the memory of all runs together
	// to about MaxConcurrent × Memory.
	MaxConcurrent int
}

// DefaultLimits returns the limits Folio uses unless configured otherwise:
// 2 s of CPU, 64 MiB of memory, 30 s of wall time, 200 log lines of at most
// 8 KiB, a 5 MiB response, 50 fetches of at most 10 MiB each (6 at once),
// 10 MiB of script and 4 runs at once.
func DefaultLimits() Limits {
	return Limits{
		CPUTime:              2 * time.Second,
		Memory:               64 << 20,
		WallTime:             30 * time.Second,
		MaxLogs:              200,
		MaxLogLine:           8 << 10,
		MaxResponse:          5 << 20,
		MaxFetches:           50,
		MaxFetchBody:         10 << 20,
		MaxConcurrentFetches: 6,
		MaxScript:            10 << 20,
		MaxConcurrent:        4,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.CPUTime <= 0 {
		l.CPUTime = d.CPUTime
	}
	if l.Memory <= 0 {
		l.Memory = d.Memory
	}
	if l.WallTime <= 0 {
		l.WallTime = d.WallTime
	}
	if l.MaxLogs <= 0 {
		l.MaxLogs = d.MaxLogs
	}
	if l.MaxLogLine <= 0 {
		l.MaxLogLine = d.MaxLogLine
	}
	if l.MaxResponse <= 0 {
		l.MaxResponse = d.MaxResponse
	}
	if l.MaxFetches <= 0 {
		l.MaxFetches = d.MaxFetches
	}
	if l.MaxFetchBody <= 0 {
		l.MaxFetchBody = d.MaxFetchBody
	}
	if l.MaxConcurrentFetches <= 0 {
		l.MaxConcurrentFetches = d.MaxConcurrentFetches
	}
	if l.MaxScript <= 0 {
		l.MaxScript = d.MaxScript
	}
	if l.MaxConcurrent <= 0 {
		l.MaxConcurrent = d.MaxConcurrent
	}
	return l
}
