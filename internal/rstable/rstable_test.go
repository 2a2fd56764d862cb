package rstable

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/capacity"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name   string
		table  Table
		want   string
		reason string
	}{
		{
			name: "rolling update with a saturated ceiling and a wide count",
			table: Table{
				Heading: "Deployment web: 2 replicas, RollingUpdate (maxSurge 2147483647, maxUnavailable 1), image web:1 -> web:2",
				Steps: []Step{
					{Comment: "before the update: one ReplicaSet", Rows: []Row{{Name: "web-a", Desired: 2, Current: 2, Ready: 2, Available: 2}},
						Pods: 2, Available: 2, Replicas: 2, MaxSurge: 2147483647, MaxUnavailable: 1, Ceiling: 2147483649, Floor: 1},
					{Sync: 1, Comment: "sync 1 (+10s): created web-b", Rows: []Row{{Name: "web-b", Desired: 123456789, Current: 2}},
						Pods: 4, Available: 2, Replicas: 2, MaxSurge: 2147483647, MaxUnavailable: 1, Ceiling: 2147483649, Floor: 1},
					{Sync: 2, Comment: "sync 2 (+20s): scaled down web-a", Rows: []Row{{Name: "web-a", Desired: 1, Current: 1, Ready: 1, Available: 1}},
						Pods: 3, Available: 1, Replicas: 2, MaxSurge: 2147483647, MaxUnavailable: 1, Ceiling: 2147483649, Floor: 1},
				},
				Outcome: "paused", Syncs: 3, Bounds: "maxSurge 2147483647 pods, maxUnavailable 1 pod",
			},
			want: `Deployment web: 2 replicas, RollingUpdate (maxSurge 2147483647, maxUnavailable 1), image web:1 -> web:2

NAME    DESIRED     CURRENT   READY   AVAILABLE
# before the update: one ReplicaSet
web-a   2           2         2       2
# sync 1 (+10s): created web-b
web-b   123456789   2         0       0
# sync 2 (+20s): scaled down web-a
web-a   1           1         1       1

Summary
  outcome:              paused after 3 syncs: 2 shown above changed something, 1 more changed nothing
  peak pods:            4 at sync 1 (ceiling R + maxSurge = 2 + 2147483647 = 2147483649, saturated at 2147483647)
  lowest availability:  1 at sync 2 (floor R - maxUnavailable = 2 - 1 = 1)
  bounds:               maxSurge 2147483647 pods, maxUnavailable 1 pod
`,
			reason: "DESIRED widens to the 9-digit count plus three spaces",
		},
		{
			name: "recreate without a bounds line",
			table: Table{
				Heading: "Deployment web: 2 replicas, Recreate, image web:1",
				Steps: []Step{
					{Comment: "at the start: one ReplicaSet", Rows: []Row{{Name: "web-a", Desired: 2, Current: 2, Ready: 2, Available: 2}},
						Pods: 2, Available: 2, Replicas: 2, Ceiling: 2},
					{Sync: 1, Comment: "sync 1 (+10s): scaled down web-a", Rows: []Row{{Name: "web-a"}}, Replicas: 2, Ceiling: 2},
				},
				Outcome: "complete", Syncs: 1, Recreate: true,
			},
			want: `Deployment web: 2 replicas, Recreate, image web:1

NAME    DESIRED   CURRENT   READY   AVAILABLE
# at the start: one ReplicaSet
web-a   2         2         2       2
# sync 1 (+10s): scaled down web-a
web-a   0         0         0       0

Summary
  outcome:              complete after 1 sync, all shown above
  peak pods:            2 at the start (ceiling R = 2)
  lowest availability:  0 at sync 1 (Recreate keeps no pods available while it replaces them)
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, &tt.table); err != nil {
				t.Fatalf("Write(%s) = %v, want nil", tt.name, err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("Write(%s) wrote\n%s\nwant\n%s(%s)", tt.name, got, tt.want, tt.reason)
			}
		})
	}
}

func TestWriteCapacity(t *testing.T) {
	steps := []Step{
		{Comment: "before the update", Rows: []Row{{Name: "web-a", Desired: 2, Current: 2}}, Pods: 2, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2},
		{Sync: 1, Comment: "sync 1 (+10s): created web-b", Rows: []Row{{Name: "web-b", Desired: 1, Current: 1}}, Pods: 3, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2},
	}
	tests := []struct {
		name string
		rep  capacity.Report
		want string
	}{
		{
			name: "cpu and memory requested",
			rep: capacity.Report{PodRequests: capacity.NewAmount(capacity.Resources{MilliCPU: 1500, Memory: 384 << 20}),
				PeakExtraPods: capacity.PodsPeak{Pods: 1, Sync: 1}, PeakExtraCPU: capacity.CPUPeak{MilliCPU: 1500, CPU: "1500m", Sync: 1},
				PeakExtraMemory: capacity.MemoryPeak{Memory: 384 << 20, MemoryText: "384Mi", Sync: 1}},
			want: `  peak extra pods:      1 at sync 1 (3 pods for R = 2)
  peak extra cpu:       1500m at sync 1 (1500m per pod)
  peak extra memory:    384Mi (402653184 bytes) at sync 1 (384Mi per pod)
`,
		},
		{
			name: "nothing requested, never above R",
			rep: capacity.Report{PodRequests: capacity.NewAmount(capacity.Resources{MilliCPU: 100}),
				PeakExtraCPU: capacity.CPUPeak{CPU: "0"}, PeakExtraMemory: capacity.MemoryPeak{MemoryText: "0"}},
			want: `  peak extra pods:      0: never above R
  peak extra cpu:       0: never above the steady state
  peak extra memory:    0: the pod template requests no memory
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, &Table{Steps: steps, Outcome: "complete", Syncs: 1, Capacity: &tt.rep}); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			if i := strings.Index(got, "  peak extra pods:"); i < 0 || got[i:] != tt.want {
				t.Errorf("Write(%+v) summary ends\n%s\nwant\n%s", tt.rep, got, tt.want)
			}
		})
	}
}

func TestStrategy(t *testing.T) {
	if got, want := Strategy(false, "25%", "0"), "RollingUpdate (maxSurge 25%, maxUnavailable 0)"; got != want {
		t.Errorf("Strategy(false, 25%%, 0) = %q, want %q", got, want)
	}
	if got, want := Strategy(true, "25%", "0"), "Recreate"; got != want {
		t.Errorf("Strategy(true, 25%%, 0) = %q, want %q", got, want)
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
	if err := Write(&failingWriter{}, &Table{Steps: []Step{{}}}); err == nil {
		t.Errorf("Write(failing writer) = nil, want the write error")
	}
}
