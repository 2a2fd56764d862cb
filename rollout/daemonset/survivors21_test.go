package daemonset

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Tests written for the survivors of a mutation sample (seed 21).

// TestPlannerForgetsTheLastRequeue: a Planner whose earlier sync asked to
// requeue (a pod not yet available for minReadySeconds) and was
// explained gives, for a DaemonSet at rest, Plan's answer: no requeue,
// and no reason until Explain.
func TestPlannerForgetsTheLastRequeue(t *testing.T) {
	waiting := newFixture(t, num(1), nil).layout(t, "n:y n:r")
	waiting.ds.MinReadySeconds = 30
	rest := converged(t, 2)
	want, err := Plan(rest.ds, rest.nodes, rest.pods, rest.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	want.Reason = ""
	var p Planner[spec]
	s, err := p.Plan(waiting.ds, waiting.nodes, waiting.pods, waiting.revisions, t0)
	if err != nil || !s.Requeue || s.RequeueAfter == 0 {
		t.Fatalf("setup: requeue %v after %v, %v; want a requeue", s.Requeue, s.RequeueAfter, err)
	}
	p.Explain()
	for range 2 { // whichever memory the Planner writes next
		got, err := p.Plan(rest.ds, rest.nodes, rest.pods, rest.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, *got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Planner after a requeueing sync differs from Plan (-Plan +Planner):\n%s", diff)
		}
	}
}

// TestEventKindNames: every EventKind has its name, as text and JSON.
func TestEventKindNames(t *testing.T) {
	var names []string
	for k := SetTemplate; k <= SetMaxUnavailable; k++ {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back EventKind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Fatalf("UnmarshalText(%s) = %v, %v", b, back, err)
		}
		names = append(names, string(b))
	}
	if got, want := strings.Join(names, " "), "SetTemplate AddNodes RemoveNodes UpdateNodes SetMaxSurge SetMaxUnavailable"; got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
}

// TestConstructHistoryKeepsTheLastByNameAmongEqualNumbers: two current
// revisions numbered alike: the last by name is kept (ConstructHistory's
// doc), the other is a duplicate.
func TestConstructHistoryKeepsTheLastByNameAmongEqualNumbers(t *testing.T) {
	f := newFixture(t, num(1), nil)
	var cur ControllerRevision
	for _, r := range f.revisions {
		if r.Hash == f.newHash {
			cur = r
		}
	}
	b, a := cur, cur
	b.Name, a.Name = "agent-b", "agent-a"
	revs := []ControllerRevision{b, a}
	h, err := ConstructHistory("agent", revs, cur.Data, f.newHash)
	if err != nil {
		t.Fatal(err)
	}
	if h.Existing != 0 || len(h.Duplicates) != 1 || h.Duplicates[0] != 1 {
		t.Fatalf("kept %d, duplicates %v; want agent-b (0) kept, agent-a (1) a duplicate", h.Existing, h.Duplicates)
	}
}

// TestSetMaxSurgeEventText: a SetMaxSurge event is described with its
// value in the step it comes before.
func TestSetMaxSurgeEventText(t *testing.T) {
	f := newFixture(t, num(0), num(1)).layout(t, "o:r o:r o:r")
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, Config[spec]{Start: t0,
		Events: []Event[spec]{{Sync: 1, Kind: SetMaxSurge, Value: num(2)}}})
	if err != nil || len(tr.Steps) == 0 {
		t.Fatalf("Simulate: %v, %d steps", err, len(tr.Steps))
	}
	if got := strings.Join(tr.Steps[0].Events, "; "); got != "maxSurge set to 2" {
		t.Fatalf("events of the first step: %q, want %q", got, "maxSurge set to 2")
	}
}

// TestReasonAtRestSaysNoWait: a DaemonSet whose pods are all updated
// has nothing to wait for; its sync's reason says so by not mentioning
// the rolling update.
func TestReasonAtRestSaysNoWait(t *testing.T) {
	f := converged(t, 3)
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.RollingUpdate == nil || strings.Contains(s.Reason, "rolling update") {
		t.Fatalf("rolling update step %v, reason %q; want the step run and no rolling update in the reason", s.RollingUpdate != nil, s.Reason)
	}
}
