package argo

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// Tests written for the survivors of a mutation sample (seed 21).

// TestScaleDownOldNewestRevisionFirst: with room to scale down one pod,
// the older ReplicaSet of the higher revision goes first, although the
// other was created later (a rollback renumbers a ReplicaSet without
// recreating it).
func TestScaleDownOldNewestRevisionFirst(t *testing.T) {
	ro := synced(basic(4, 0, ioi(1), ioi(0)))
	rss := steady(4, rs("web-stable", "stable", 4, 3), rs("web-a", "a", 1, 1), rs("web-b", "b", 1, 1), rs("web-new", "new", 0, 0))
	rss[0].Revision, rss[1].Revision, rss[2].Revision, rss[3].Revision = 1, 3, 2, 5
	rss[1].CreationTime, rss[2].CreationTime = t0, t0.Add(time.Hour)
	actions, _, err := ScaleDownOldReplicaSets(ro, rss, t0.Add(2*time.Hour), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var scaled []string
	for _, a := range actions {
		if a.Kind == ScaleReplicaSet {
			scaled = append(scaled, a.ReplicaSet)
		}
	}
	if len(scaled) != 1 || scaled[0] != "web-a" {
		t.Fatalf("scaled %v, want [web-a] (revision 3 before revision 2, budget 1 pod)\n%+v", scaled, actions)
	}
}

// TestTemplateChangeClearsPauseAndAbort: a new template resets the
// status (resetRolloutStatus): the pause conditions of the old rollout
// and its abort go.
func TestTemplateChangeClearsPauseAndAbort(t *testing.T) {
	ro := synced(basic(4, 50, nil, nil))
	ro.Strategy.Canary.Steps = []CanaryStep{setWeight(50), pauseFor("")}
	ro.Status = Status{StableRS: "stable", CurrentPodHash: "older", CurrentStepIndex: i32(1), Abort: true,
		PauseConditions: []PauseCondition{{Reason: PauseCanaryStep, StartTime: t0}}}
	s, err := Plan(ro, steady(4, rs("web-stable", "stable", 4, 4), rs("web-older", "older", 2, 2), rs("web-new", "new", 0, 0)), t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Rollout.Status; len(st.PauseConditions) != 0 || st.Abort {
		t.Fatalf("after the template changed: pause conditions %+v, abort %v; want none and false", st.PauseConditions, st.Abort)
	}
}

// TestWeightOnAbortOrRollbackBranches: the rule's branches, on 10
// replicas with steps 20 and 60 (WeightOnAbortOrRollback's doc comment).
func TestWeightOnAbortOrRollbackBranches(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		recorded             *Weights
		stableAvail, canaryN int32
		want                 int32
	}{
		// d = 20 (2 pods < max(10-4, 6)), e = 100 - 40 = 60.
		{"nothing recorded: max(e, d)", nil, 4, 6, 60},
		// d = 20, e = 0.
		{"nothing recorded, stable back: max(e, d)", nil, 10, 6, 20},
		// d = 0 (no step has fewer pods than max(10-8, 2) = 2), e = 20.
		{"d 0: min(e, recorded)", &Weights{Canary: WeightDestination{Weight: 60}}, 8, 2, 20},
		// d = 20, stable's share 40 < 100 - 20: held.
		{"stable short: recorded held", &Weights{Canary: WeightDestination{Weight: 60}}, 4, 6, 60},
		// d = 20, stable's share 80, not below 80: min(d, recorded).
		{"stable enough: min(d, recorded)", &Weights{Canary: WeightDestination{Weight: 60}}, 8, 6, 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ro := routed(10, setWeight(20), setWeight(60))
			ro.Strategy.Canary.DynamicStableScale = true
			ro.Status.Abort = true
			ro.Status.Canary.Weights = tt.recorded
			stable, canary := rs("web-stable", "stable", 10, tt.stableAvail), rs("web-new", "new", tt.canaryN, tt.canaryN)
			if got := WeightOnAbortOrRollback(ro, canary, stable); got != tt.want {
				t.Fatalf("WeightOnAbortOrRollback = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestSimulateRefusesWhatPlanRefuses: Simulate checks its input as Plan
// does, with Plan's error.
func TestSimulateRefusesWhatPlanRefuses(t *testing.T) {
	bad := basic(4, 20, nil, nil)
	bad.Replicas = i32(-1)
	for _, tt := range []struct {
		name string
		ro   *Rollout[tmpl]
	}{{"nil", nil}, {"negative replicas", bad}} {
		t.Run(tt.name, func(t *testing.T) {
			_, planErr := Plan(tt.ro, nil, t0)
			_, simErr := Simulate(tt.ro, nil, Config[tmpl]{Start: t0})
			if planErr == nil || simErr == nil || simErr.Error() != planErr.Error() || !errors.Is(simErr, field.ErrInvalid) {
				t.Fatalf("Simulate: %v; Plan: %v; want Plan's error", simErr, planErr)
			}
		})
	}
}

// TestSplitReasonKeepsAPodOnEachSide: at setWeight 20 on 3 replicas the
// exact canary count is 0.6; the reason says why the split is 1 and 3.
func TestSplitReasonKeepsAPodOnEachSide(t *testing.T) {
	ro := synced(basic(3, 20, nil, nil))
	s, err := Plan(ro, steady(3, rs("web-stable", "stable", 3, 3), rs("web-new", "new", 0, 0)), t0)
	if err != nil {
		t.Fatal(err)
	}
	const want = "weight 20% of 3 is 0.6; 1/4 = 25% is the closest split that keeps a pod on each side"
	for _, a := range s.Actions {
		if a.Kind == ScaleReplicaSet && strings.Contains(a.Reason, want) {
			return
		}
	}
	t.Fatalf("no ScaleReplicaSet reason says %q:\n%s", want, dump(s))
}
