package main

import (
	"strings"
	"testing"
	"time"
)

// TestBufferedLogger: info lines wait for the periodic flush or Close,
// warnings are written at once, and nothing is lost.
func TestBufferedLogger(t *testing.T) {
	var out syncBuffer
	// No periodic flush within the test: only warnings and Close write.
	logger, buf, err := newBufferedLoggerOn(newLogBuffer(&out, time.Hour), "info")
	if err != nil {
		t.Fatal(err)
	}

	logger.Info("request", "n", 1)
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	logger.Warn("slow", "n", 2)
	got := out.String()
	if !strings.Contains(got, `"msg":"request"`) || !strings.Contains(got, `"msg":"slow"`) {
		t.Fatalf("a warning did not flush the buffer: %q", got)
	}
	logger.Debug("hidden")
	logger.With("a", 1).Info("last")
	buf.Close()
	got = out.String()
	if !strings.Contains(got, `"msg":"last","a":1`) || strings.Contains(got, "hidden") {
		t.Fatalf("after Close: %q", got)
	}
	if n := strings.Count(got, "\n"); n != 3 {
		t.Fatalf("%d lines, want 3: %q", n, got)
	}

	// The periodic flush writes without a warning or Close.
	var out2 syncBuffer
	buf2 := newLogBuffer(&out2, 10*time.Millisecond)
	defer buf2.Close()
	l2, _, _ := newBufferedLoggerOn(buf2, "info")
	l2.Info("tick")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out2.String(), "tick") {
		if time.Now().After(deadline) {
			t.Fatal("the periodic flush did not write the line")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, _, err := newBufferedLogger(&out, "loud"); err == nil {
		t.Fatal("an unknown level was accepted")
	}
}
