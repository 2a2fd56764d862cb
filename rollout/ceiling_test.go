package rollout

import (
	"math"
	"testing"
)

func TestCeilingSum(t *testing.T) {
	tests := []struct {
		name              string
		replicas, surge   int32
		wantSum, wantNote string
	}{
		{name: "fits in int32", replicas: 10, surge: 3, wantSum: "10 + maxSurge 3", wantNote: ""},
		{name: "exactly MaxInt32", replicas: math.MaxInt32 - 1, surge: 1, wantSum: "2147483646 + maxSurge 1", wantNote: ""},
		{name: "saturated", replicas: math.MaxInt32, surge: 536870912,
			wantSum:  "2147483647 + maxSurge 536870912 = 2684354559, saturated at 2147483647",
			wantNote: ", saturated from 2684354559"},
	}
	for _, tt := range tests {
		d := dep(tt.replicas, num(tt.surge), num(0))
		if got := ceilingSum(d); got != tt.wantSum {
			t.Errorf("%s: ceilingSum(R %d, maxSurge %d) = %q, want %q", tt.name, tt.replicas, tt.surge, got, tt.wantSum)
		}
		if got := ceilingNote(d); got != tt.wantNote {
			t.Errorf("%s: ceilingNote(R %d, maxSurge %d) = %q, want %q", tt.name, tt.replicas, tt.surge, got, tt.wantNote)
		}
	}
}

// TestPlanReasonSaysCeilingSaturated checks that a reason quoting a
// saturated ceiling says so, instead of a sum that does not add up.
func TestPlanReasonSaysCeilingSaturated(t *testing.T) {
	d, rss := rolled(math.MaxInt32, "nginx:2")
	d.MaxSurge = num(1)
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := "created new ReplicaSet " + s.ReplicaSets[s.NewReplicaSet].Name +
		" (revision 2) at 0: 2147483647 pods allowed (2147483647 + maxSurge 1 = 2147483648, saturated at 2147483647), 2147483647 in other ReplicaSets"
	if len(s.Actions) == 0 || s.Actions[0].Reason != want {
		t.Errorf("Plan(R MaxInt32, maxSurge 1) first action = %+v, want reason %q", s.Actions, want)
	}
}
