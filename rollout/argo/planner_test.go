package argo

import (
	"testing"
	"time"
)

// steadyCanary returns a basic canary of 10 replicas held at step 1
// (an indefinite pause) with its ReplicaSets settled: a sync writes
// nothing.
func steadyCanary(t testing.TB) (*Rollout[tmpl], []ReplicaSet[tmpl]) {
	ro := &Rollout[tmpl]{Name: "web", Generation: 2, Replicas: i32(10), Template: tmpl{Image: "v2"},
		Strategy: Strategy{Canary: &Canary{Steps: []CanaryStep{setWeight(20), pauseFor("")}}}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0, Events: []Event[tmpl]{{Sync: 5, Kind: SetTemplate, Template: tmpl{Image: "v3"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomePaused {
		t.Fatalf("setup: outcome %v, want Paused\n%s", tr.Outcome, tr.String())
	}
	return &tr.Rollout, tr.ReplicaSets
}

// TestPlannerSteadyStateDoesNotAllocate: a Planner planning a sync that
// writes nothing allocates nothing.
func TestPlannerSteadyStateDoesNotAllocate(t *testing.T) {
	ro, rss := steadyCanary(t)
	now := t0.Add(time.Hour)
	var p Planner[tmpl]
	s, err := p.Plan(ro, rss, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) != 0 {
		t.Fatalf("setup: the sync writes %d things, want none:\n%s", len(s.Actions), dump(*p.Explain()))
	}
	n := testing.AllocsPerRun(100, func() {
		if _, err := p.Plan(ro, rss, now); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("Planner.Plan in a steady state allocates %v times per call, want 0", n)
	}
}

// TestScalarFunctionsDoNotAllocate: the step functions do not allocate.
func TestScalarFunctionsDoNotAllocate(t *testing.T) {
	ro := basic(10, 20, ios("25%"), nil)
	newRS, stable := rs("web-new", "new", 1, 1), rs("web-stable", "stable", 10, 10)
	others := []*ReplicaSet[tmpl]{rs("web-old", "old", 0, 0)}
	all := []*ReplicaSet[tmpl]{newRS, stable, others[0]}
	tro := routed(10, setWeight(20))
	w := &Weights{Canary: WeightDestination{Weight: 10}, Stable: WeightDestination{Weight: 90}}
	var sink int32
	n := testing.AllocsPerRun(100, func() {
		c, s := SplitForWeight(10, 20, 100, 3)
		a, b := BasicCanaryCounts(ro, newRS, stable, others)
		x, y := TrafficRoutedCanaryCounts(tro, newRS, stable, w)
		sink += c + s + a + b + x + y + NewReplicas(ro, all, newRS, nil) + MaxSurge(ro) + MaxUnavailable(ro) + CurrentSetWeight(ro)
		if AtDesiredReplicaCountsForCanary(ro, newRS, stable, others, nil) {
			sink++
		}
	})
	if n != 0 {
		t.Errorf("step functions allocate %v times per call, want 0", n)
	}
	_ = sink
}
