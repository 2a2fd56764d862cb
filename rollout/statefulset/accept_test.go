package statefulset

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// TestAcceptance holds the pod-write cases of the StatefulSet
// acceptance list, each named after its case; the status cases follow
// in TestAcceptanceStatus.
func TestAcceptance(t *testing.T) {
	pct := intorpercent.FromString
	n := intorpercent.FromInt
	tests := []struct {
		name string
		w    *world
		want string
	}{
		{"S1 OR no pods creates 0 only", newWorld(3, false), "create 0@o"},
		{"S2 Par no pods creates all", newWorld(3, false).parallel(), "create 0@o, create 1@o, create 2@o"},
		{"S3 OR 0 unready waits", newWorld(3, false, "0:u"), "nothing"},
		{"S3 OR 0 ready creates 1", newWorld(3, false, "0:r"), "create 1@o"},
		{"S4 OR gap filled in order", newWorld(3, false, "0:r", "2:r"), "create 1@o"},
		{"S6 OR scale-down one per sync", newWorld(3, false, "0:r", "1:r", "2:r", "3:r", "4:r"), "delete 4"},
		{"S7 OR 3 unready: 4 deleted", newWorld(3, false, "0:r", "1:r", "2:r", "3:u", "4:r"), "delete 4"},
		{"S7 OR 3 and 4 unready: nothing", newWorld(3, false, "0:r", "1:r", "2:r", "3:u", "4:u"), "nothing"},
		{"S7 OR 4 unready: 4 deleted", newWorld(3, false, "0:r", "1:r", "2:r", "3:r", "4:u"), "delete 4"},
		{"S7 OR 1 unready: nothing", newWorld(3, false, "0:r", "1:u", "2:r", "3:r", "4:r"), "nothing"},
		{"S7 OR 4 terminating: nothing", newWorld(3, false, "0:r", "1:r", "2:r", "3:r", "4:t"), "nothing"},
		{"S8 Par 1 and 4 unready", newWorld(3, false, "0:r", "1:u", "2:r", "3:r", "4:u").parallel(), "delete 4, delete 3"},
		{"S8 Par 4 terminating", newWorld(3, false, "0:r", "1:r", "2:r", "3:r", "4:t").parallel(), "delete 3"},
		{"S9 OR failed pod deleted", newWorld(3, false, "0:r", "1:f", "2:r"), "delete 1"},
		{"S9 Par failed deleted and missing created", newWorld(3, false, "0:r", "1:f").parallel(), "delete 1, create 2@o"},
		{"S10 OR update deletes top", newWorld(3, true, "0:o:r", "1:o:r", "2:o:r"), "delete 2"},
		{"S11 OR 2 updated ready: delete 1", newWorld(3, true, "0:o:r", "1:o:r", "2:n:r"), "delete 1"},
		{"S11 OR 2 updated unready: nothing", newWorld(3, true, "0:o:r", "1:o:r", "2:n:u"), "nothing"},
		{"S11 OR 2 missing: create at n", newWorld(3, true, "0:o:r", "1:o:r"), "create 2@n"},
		{"S12 OR P2 creates 1 at o", newWorld(3, true, "0:o:r", "2:n:r").partition(2), "create 1@o"},
		{"S12 OR P5 nothing", newWorld(3, true, "0:o:r", "1:o:r", "2:o:r").partition(5), "nothing"},
		{"S13 Par 2 updated unready: nothing", newWorld(3, true, "0:o:r", "1:o:r", "2:n:u").parallel(), "nothing"},
		{"S13 Par 0 unready: delete 2", newWorld(3, true, "0:o:u", "1:o:r", "2:o:r").parallel(), "delete 2"},
		{"S13 Par 1 unready old: delete 1", newWorld(3, true, "0:o:r", "1:o:u", "2:n:r").parallel(), "delete 1"},
		{"S14 OR revert stuck", newWorld(3, true, "0:o:r", "1:o:r", "2:x:u"), "nothing"},
		{"S14 Par revert replaces", newWorld(3, true, "0:o:r", "1:o:r", "2:x:u").parallel(), "delete 2"},
		{"S16 Par terminating top blocks", newWorld(3, true, "0:o:r", "1:o:r", "2:o:t").parallel(), "nothing"},
		{"S17 gate off Par mu 2 ignored", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().maxUnavailable(n(2)), "delete 4"},
		{"S18 gate on Par mu 2", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(n(2)), "delete 4, delete 3"},
		{"S18 gate on OR mu 2", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").gate().maxUnavailable(n(2)), "delete 4, delete 3"},
		{"S19 gate on Par 0 unready", newWorld(5, true, "0:o:u", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(n(2)), "delete 4"},
		{"S19 gate on Par P3 0 terminating", newWorld(5, true, "0:o:t", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(n(2)).partition(3), "delete 4"},
		{"S20 gate on Par old broken use budget", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:u", "4:o:u").parallel().gate().maxUnavailable(n(2)), "nothing"},
		{"S21 gate on Par 4 updated unready", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:n:u").parallel().gate().maxUnavailable(n(2)), "delete 3"},
		{"S21 gate on Par 4 updated ready", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:n:r").parallel().gate().maxUnavailable(n(2)), "delete 3, delete 2"},
		{"S21 gate on Par 3 and 4 updated unready", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:n:u", "4:n:u").parallel().gate().maxUnavailable(n(2)), "nothing"},
		{"S21 gate on Par 3 updated unready 4 old", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:n:u", "4:o:r").parallel().gate().maxUnavailable(n(2)), "delete 4"},
		{"S22 gate on Par 4 missing", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r").parallel().gate().maxUnavailable(n(2)), "create 4@n, delete 3"},
		{"S23 gate on Par 40%", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(pct("40%")), "delete 4, delete 3"},
		{"S23 gate on Par 10%", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(pct("10%")), "delete 4"},
		{"S23 gate on Par nil", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().partition(0), "delete 4"},
		{"S23 gate on Par 100%", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(pct("100%")), "delete 4, delete 3, delete 2, delete 1, delete 0"},
		{"S23 gate on Par mu 3 P3", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:o:r").parallel().gate().maxUnavailable(n(3)).partition(3), "delete 4, delete 3"},
		{"S24 gate on OR 4 updated unready", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r", "4:n:u").gate().maxUnavailable(n(2)), "nothing"},
		{"S25 gate on Par condemned outside budget", newWorld(3, true, "0:o:r", "1:o:r", "2:o:r", "4:o:u").parallel().gate().maxUnavailable(n(2)), "delete 4, delete 2, delete 1"},
		{"S28 OnDelete scale-down", newWorld(2, true, "0:o:r", "1:o:r", "2:o:r").onDelete(), "delete 2"},
		{"S27 OnDelete all old: nothing", newWorld(3, true, "0:o:r", "1:o:r", "2:o:r").onDelete(), "nothing"},
		{"S27 OnDelete missing created at n", newWorld(3, true, "0:o:r", "2:o:r").onDelete(), "create 1@n"},
		{"S34 OR one condemned per sync", newWorld(3, false, "0:r", "1:r", "2:r", "3:r"), "delete 3"},
		{"S34 Par condemned and update", newWorld(3, true, "0:o:r", "1:o:r", "2:o:r", "3:o:r").parallel(), "delete 3, delete 2"},
		{"S35 OR scale-up and update creates at n", newWorld(5, true, "0:o:r", "1:o:r", "2:o:r"), "create 3@n"},
		{"S36 Par all updated plus condemned", newWorld(3, true, "0:n:r", "1:n:r", "2:n:r", "3:n:r").parallel(), "delete 3"},
		{"S33 OR third revision", newWorld(3, true, "0:x:r", "1:x:r", "2:x:r"), "delete 2"},
		{"S15 OR minReady updated not available", newWorld(3, true, "0:o:r", "1:o:r", "2:n:y").minReady(30), "nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.w.plan(t)
			if got := podWrites(s); got != tt.want {
				t.Errorf("pod writes = %s, want %s\nreason: %s", got, tt.want, s.Reason)
			}
		})
	}
}

func (w *world) onDelete() *world {
	w.set.UpdateStrategy = UpdateStrategy{Type: OnDelete}
	return w
}

func (w *world) minReady(s int32) *world { w.set.MinReadySeconds = s; return w }
