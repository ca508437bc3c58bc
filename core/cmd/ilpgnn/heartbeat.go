package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// heartbeatPeriod is how often a long command says it is alive on a
// stderr that is not a terminal.
const heartbeatPeriod = 10 * time.Second

// heartbeat keeps a long command visibly alive when stderr is not a
// terminal (a log file, a pipe), where the terminal's self-overwriting
// progress line would be noise: it prints each phase as it starts
// ("reading cora…"), then every period the phase again with the seconds it
// has run and its latest status (the last epoch's numbers), so per-epoch
// lines come at most once a period however fast the epochs are.
type heartbeat struct {
	w      io.Writer // shared with the command, which writes through it too
	period time.Duration

	mu     sync.Mutex
	label  string
	status string
	start  time.Time // of the phase
	last   time.Time // of the last line printed

	stop chan struct{}
	done chan struct{}
}

// startHeartbeat starts a heartbeat on w that ticks every period. w must
// be the writer every other line of the command goes through (a
// lockedWriter), since the heartbeat writes from its own goroutine.
func startHeartbeat(w io.Writer, period time.Duration) *heartbeat {
	h := &heartbeat{w: w, period: period, stop: make(chan struct{}), done: make(chan struct{})}
	go h.loop()
	return h
}

func (h *heartbeat) loop() {
	defer close(h.done)
	t := time.NewTicker(h.period)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
			h.mu.Lock()
			// A phase named moments ago needs no tick yet.
			if h.label != "" && time.Since(h.last) >= h.period/2 {
				h.last = time.Now()
				line := fmt.Sprintf("%s… %d s", h.label, int(time.Since(h.start).Seconds()))
				if h.status != "" {
					line += ": " + h.status
				}
				fmt.Fprintln(h.w, line)
			}
			h.mu.Unlock()
		}
	}
}

// phase starts a phase named label, printing it at once; a nil heartbeat
// does nothing.
func (h *heartbeat) phase(label string) { h.update(label, "") }

// update sets the status of the phase named label, starting it (and
// printing its name) if it is not the current phase. The status is printed
// at the next tick.
func (h *heartbeat) update(label, status string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if label != h.label {
		h.label, h.start, h.last = label, time.Now(), time.Now()
		fmt.Fprintf(h.w, "%s…\n", label)
	}
	h.status = status
}

// close stops the heartbeat; nothing is printed once it returns. A nil
// heartbeat does nothing.
func (h *heartbeat) close() {
	if h == nil {
		return
	}
	close(h.stop)
	<-h.done
}

// lockedWriter serialises the writes of several goroutines to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
