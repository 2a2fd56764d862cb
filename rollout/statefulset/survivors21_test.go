package statefulset

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Tests written for the survivors of a mutation sample (seed 21).

// TestRecordedPodsByOrdinal: Step.Pods is by ordinal, web-2 before
// web-10 (a sort by name would put web-10 first).
func TestRecordedPodsByOrdinal(t *testing.T) {
	var pods []string
	for i := range 11 {
		pods = append(pods, fmt.Sprintf("%d:r", i))
	}
	w := newWorld(11, false, pods...)
	tr, err := Simulate(&w.set, w.pods, w.revisions, Config[tmpl]{Start: t0, RecordPods: true, ReadyDelay: time.Second,
		Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "new"}}}})
	if err != nil || len(tr.Steps) == 0 {
		t.Fatalf("Simulate: %v, %d steps", err, len(tr.Steps))
	}
	var names []string
	for _, p := range tr.Steps[0].Pods {
		names = append(names, p.Name)
	}
	if got, want := strings.Join(names, " "), "web-0 web-1 web-2 web-3 web-4 web-5 web-6 web-7 web-8 web-9 web-10"; got != want {
		t.Fatalf("pods of the first step: %s, want %s", got, want)
	}
}

// TestGateOffEventTurnsTheGateOff: after a GateOff event the update step
// runs without the gate (Step.MaxUnavailable 0); before it, with it.
func TestGateOffEventTurnsTheGateOff(t *testing.T) {
	w := newWorld(6, false, "0:r", "1:r", "2:r", "3:r", "4:r", "5:r").parallel().maxUnavailable(intorpercent.FromInt(2))
	tr, err := Simulate(&w.set, w.pods, w.revisions, Config[tmpl]{Start: t0, ReadyDelay: 30 * time.Second,
		Events: []Event[tmpl]{{Sync: 1, Kind: GateOn}, {Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "new"}}, {Sync: 4, Kind: GateOff}}})
	if err != nil || tr.Outcome != OutcomeComplete {
		t.Fatalf("Simulate: %v, %v", err, tr.Outcome)
	}
	var before, after []string
	for _, s := range tr.Steps {
		line := fmt.Sprintf("sync %d maxUnavailable %d", s.Sync, s.MaxUnavailable)
		if s.Sync < 4 {
			before = append(before, line)
		} else {
			after = append(after, line)
		}
	}
	for _, l := range after {
		if !strings.HasSuffix(l, " maxUnavailable 0") {
			t.Fatalf("after GateOff: %v", after)
		}
	}
	if len(before) == 0 || strings.HasSuffix(before[0], " maxUnavailable 0") || len(after) == 0 {
		t.Fatalf("before GateOff %v, after %v: want the gate's budget 2 first, and steps after", before, after)
	}
}

// TestStepStatusLeavesOutTheCollisionCount: a Step's status has no
// collisionCount (as its doc says), even when the set has one.
func TestStepStatusLeavesOutTheCollisionCount(t *testing.T) {
	w := newWorld(2, false, "0:r", "1:r")
	cc := int32(3)
	w.set.Status.CollisionCount = &cc
	tr, err := Simulate(&w.set, w.pods, w.revisions, Config[tmpl]{Start: t0, ReadyDelay: time.Second,
		Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "new"}}}})
	if err != nil || len(tr.Steps) == 0 {
		t.Fatalf("Simulate: %v, %d steps", err, len(tr.Steps))
	}
	for _, s := range tr.Steps {
		if s.Status.CollisionCount != nil {
			t.Fatalf("sync %d: status collisionCount %d, want none", s.Sync, *s.Status.CollisionCount)
		}
	}
	if c := tr.StatefulSet.Status.CollisionCount; c == nil || *c != 3 {
		t.Fatalf("final collisionCount %v, want 3", c)
	}
}
