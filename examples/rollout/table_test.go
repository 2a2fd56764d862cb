package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func TestWriteTableFixture(t *testing.T) {
	var buf bytes.Buffer
	tr := fixtureTrace()
	tr.Now = time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	if err := writeTable(&buf, tr, "--now"); err != nil {
		t.Fatalf("writeTable(fixture) = %v, want nil", err)
	}
	want := `Deployment web: 2 replicas, RollingUpdate (maxSurge 1, maxUnavailable 0), image web:1 -> web:2
now 2026-11-26T15:00:00Z (--now): the state before sync 1; sync k runs k * -interval later

NAME    DESIRED   CURRENT   READY   AVAILABLE
# before the update: web-a runs every pod
web-a   2         2         2       2
# sync 1 (+10s) [image web:1 -> web:2]: created web-b at 1
web-b   1         1         1       1
# sync 2 (+20s): scaled down web-a from 2 to 1
web-a   1         1         1       1
# sync 3 (+30s): scaled up web-b from 1 to 2
web-b   2         2         1       1
# sync 4 (+40s): scaled down web-a from 1 to 0
web-a   0         0         0       0
web-b   2         2         2       2

Summary
  outcome:              complete after 5 syncs: 4 shown above changed something, 1 more changed nothing
  peak pods:            3 at sync 1 (ceiling R + maxSurge = 2 + 1 = 3)
  lowest availability:  2 at the start (floor R - maxUnavailable = 2 - 0 = 2)
  bounds:               maxSurge 1 pod, maxUnavailable 0 pods
`
	if got := buf.String(); got != want {
		t.Errorf("writeTable(fixture) =\n%s\nwant\n%s", got, want)
	}
}

func TestResolved(t *testing.T) {
	tests := []struct {
		value string
		r, n  int32
		round intorpercent.Rounding
		want  string
	}{
		{value: "25%", r: 10, n: 3, round: intorpercent.Up, want: "25% of 10 = 3 pods"},
		{value: "25%", r: 10, n: 2, round: intorpercent.Down, want: "25% of 10 = 2 pods"},
		{value: "1", r: 10, n: 1, round: intorpercent.Up, want: "1 pod"},
		{value: "1000", r: 10, n: 10, round: intorpercent.Down, want: "1000, clamped to R = 10 pods"},
		{value: "0", r: 10, n: 1, round: intorpercent.Down, want: "0, raised to 1 because maxSurge is also 0 = 1 pod"},
		{value: "1%", r: 10, n: 1, round: intorpercent.Down, want: "1% of 10, raised to 1 because maxSurge is also 0 = 1 pod"},
	}
	for _, tt := range tests {
		if got := resolved(tt.value, tt.r, tt.n, tt.round); got != tt.want {
			t.Errorf("resolved(%q, %d, %d, %v) = %q, want %q", tt.value, tt.r, tt.n, tt.round, got, tt.want)
		}
	}
}
