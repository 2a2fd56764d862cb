package rstable

import (
	"bytes"
	"errors"
	"testing"
)

func TestStepsPadsColumnsToTheWidestValue(t *testing.T) {
	var buf bytes.Buffer
	p := NewPrinter(&buf)
	p.Steps([]Step{
		{Comment: "before the update: one ReplicaSet", Rows: []Row{{Name: "web-a", Desired: 2, Current: 2, Ready: 2, Available: 2}}},
		{Comment: "sync 1 (+10s): scaled up web-b", Rows: []Row{{Name: "web-b", Desired: 123456789, Current: 1, Ready: 0, Available: 0}}},
	})
	want := `NAME    DESIRED     CURRENT   READY   AVAILABLE
# before the update: one ReplicaSet
web-a   2           2         2       2
# sync 1 (+10s): scaled up web-b
web-b   123456789   1         0       0
`
	if got := buf.String(); got != want || p.Err() != nil {
		t.Errorf("Steps() wrote\n%s(err %v)\nwant\n%s", got, p.Err(), want)
	}
}

func TestSummary(t *testing.T) {
	points := []Point{
		{Sync: 0, Pods: 2, Available: 2, Replicas: 2, MaxSurge: 2147483647, Ceiling: 2147483649, Floor: 2},
		{Sync: 1, Pods: 4, Available: 2, Replicas: 2, MaxSurge: 2147483647, Ceiling: 2147483649, Floor: 2},
		{Sync: 2, Pods: 4, Available: 1, Replicas: 2, MaxSurge: 2147483647, MaxUnavailable: 1, Ceiling: 2147483649, Floor: 1},
	}
	var buf bytes.Buffer
	NewPrinter(&buf).Summary("complete", 3, false, points)
	want := `Summary
  outcome:              complete after 3 syncs (2 of them changed something)
  peak pods:            4 at sync 1 (ceiling R + maxSurge = 2 + 2147483647 = 2147483649, saturated at 2147483647)
  lowest availability:  1 at sync 2 (floor R - maxUnavailable = 2 - 1 = 1)
`
	if got := buf.String(); got != want {
		t.Errorf("Summary(rolling) wrote\n%s\nwant\n%s", got, want)
	}
	buf.Reset()
	NewPrinter(&buf).Summary("complete", 3, true, []Point{{Pods: 2, Available: 2, Replicas: 2, Ceiling: 2}, {Sync: 1, Replicas: 2, Ceiling: 2}})
	want = `Summary
  outcome:              complete after 3 syncs (1 of them changed something)
  peak pods:            2 at the start (ceiling R = 2)
  lowest availability:  0 at sync 1 (Recreate keeps no pods available while it replaces them)
`
	if got := buf.String(); got != want {
		t.Errorf("Summary(recreate) wrote\n%s\nwant\n%s", got, want)
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(b []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestPrinterKeepsTheFirstError(t *testing.T) {
	w := &failingWriter{}
	p := NewPrinter(w)
	p.Printf("a")
	p.Printf("b")
	if p.Err() == nil || w.n != 1 {
		t.Errorf("after two failing prints: Err() = %v, writes = %d; want the error and 1 write", p.Err(), w.n)
	}
}
