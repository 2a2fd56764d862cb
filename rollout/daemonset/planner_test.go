package daemonset

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// converged returns a DaemonSet whose rollout is over on n nodes, with
// its status already written.
func converged(t tb, n int) *fixture {
	f := newFixture(t, num(1), nil).layout(t, strings.TrimSpace(strings.Repeat("n:r ", n)))
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	ds := s.DaemonSet
	f.ds = &ds
	return f
}

func TestPlannerSteadyStateDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	f := converged(t, 50)
	var p Planner[spec]
	for range 3 {
		s, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Actions) != 0 {
			t.Fatalf("steady state writes %+v", s.Actions)
		}
	}
	n := testing.AllocsPerRun(100, func() {
		if _, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("Planner.Plan allocates %v times per steady-state sync, want 0", n)
	}
}

func TestPlannerMatchesPlanWith(t *testing.T) {
	f := newFixture(t, num(2), nil).layout(t, "o:r o:u (empty) n:r,o:r ns:o:r ne:o:r")
	want, err := PlanWith(f.ds, f.nodes, f.pods, f.revisions, t0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var p Planner[spec]
	got, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got.Actions {
		if a.Reason != "" {
			t.Fatalf("Planner.Plan wrote reason %q before Explain", a.Reason)
		}
	}
	if diff := cmp.Diff(want, *p.Explain()); diff != "" {
		t.Errorf("Planner.Plan + Explain differs from PlanWith (-want +got):\n%s", diff)
	}
	// The Sync stays valid across the next call.
	keep := *got
	keepActions := append([]Action(nil), got.Actions...)
	if _, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(keepActions, keep.Actions); diff != "" {
		t.Errorf("the next Plan changed the previous Sync (-before +after):\n%s", diff)
	}
}
