package cloneset

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestPlannerPlanThenExplainEqualsPlanWith: on random inputs, Planner.Plan
// leaves every reason "" and gives otherwise the Sync PlanWith gives; after
// Explain the Sync (and the Actions slice Plan returned) equal PlanWith's;
// a second Explain changes nothing. One Planner serves every input in
// turn, as in a controller's loop.
func TestPlannerPlanThenExplainEqualsPlanWith(t *testing.T) {
	var p Planner[podTemplate]
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		want, wantErr := PlanWith(in.cs, in.pods, in.revs, in.now, in.opts)
		p.Options = in.opts
		got, err := p.Plan(in.cs, in.pods, in.revs, in.now)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("Planner.Plan error %v, PlanWith %v", err, wantErr)
		}
		if err != nil {
			if s := p.Explain(); s != nil {
				t.Fatalf("Explain after a failed Plan = %+v, want nil", s)
			}
			return
		}
		if got.Reason != "" {
			t.Fatalf("Planner.Plan wrote Sync.Reason %q before Explain", got.Reason)
		}
		unexplained := want
		unexplained.Reason = ""
		unexplained.Actions = make([]Action, len(want.Actions))
		for i, a := range want.Actions {
			if got.Actions[i].Reason != "" {
				t.Fatalf("Planner.Plan wrote Actions[%d].Reason %q before Explain", i, got.Actions[i].Reason)
			}
			a.Reason = ""
			unexplained.Actions[i] = a
		}
		if len(want.Actions) == 0 {
			unexplained.Actions = want.Actions
		}
		if want.Update != nil {
			u := *want.Update
			u.Actions = nil
			for _, a := range want.Update.Actions {
				a.Reason = ""
				u.Actions = append(u.Actions, a)
			}
			unexplained.Update = &u
		}
		if diff := cmp.Diff(unexplained, *got); diff != "" {
			t.Fatalf("Planner.Plan differs from PlanWith beyond the reasons (-PlanWith +Plan):\n%s", diff)
		}
		explained := p.Explain()
		if explained != got {
			t.Fatalf("Explain returned %p, want the Sync Plan returned, %p", explained, got)
		}
		if diff := cmp.Diff(want, *explained); diff != "" {
			t.Fatalf("Planner.Plan then Explain differs from PlanWith (-PlanWith +Explain):\n%s", diff)
		}
		if diff := cmp.Diff(want.Actions, got.Actions); diff != "" {
			t.Fatalf("Explain did not write the reasons into the Actions Plan returned (-PlanWith +Plan):\n%s", diff)
		}
		if diff := cmp.Diff(want, *p.Explain()); diff != "" {
			t.Fatalf("a second Explain changed the Sync (-PlanWith +Explain):\n%s", diff)
		}
	})
}

func TestPlannerExplainBeforePlanIsZero(t *testing.T) {
	var p Planner[podTemplate]
	if s := p.Explain(); s != nil {
		t.Errorf("Explain on a zero Planner = %+v, want nil", s)
	}
}

// TestPlannerSyncStaysValidUntilTheSecondPlanAfterIt: a controller's loop
// passes the Sync the Planner returned back as the next input; planning
// it must not change that Sync, and the Sync after that is another one.
func TestPlannerSyncStaysValidUntilTheSecondPlanAfterIt(t *testing.T) {
	var p Planner[podTemplate]
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		p.Options = in.opts
		first, err := p.Plan(in.cs, in.pods, in.revs, in.now)
		if err != nil {
			t.Skip("invalid input")
		}
		kept := *first
		second, err := p.Plan(&first.CloneSet, first.Pods, first.Revisions, in.now.Add(10*time.Second))
		if err != nil {
			t.Fatalf("planning the Sync Plan returned: %v", err)
		}
		if second == first {
			t.Fatalf("two Plan calls in a row returned the same *Sync")
		}
		if diff := cmp.Diff(kept, *first); diff != "" {
			t.Fatalf("the next Plan changed the Sync it was given (-before +after):\n%s", diff)
		}
	})
}

// TestPlannerTakesAnOlderSyncAsInput: the Planner writes each Sync into
// one of two memories in turn; a Sync two calls old passed back as input
// lives in the memory the call would write, so the call must plan into
// new memory: the result equals PlanWith's on copies of the inputs, and
// the older Sync's slices are left as they were.
func TestPlannerTakesAnOlderSyncAsInput(t *testing.T) {
	var p Planner[podTemplate]
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		p.Options = in.opts
		s, err := p.Plan(in.cs, in.pods, in.revs, in.now)
		if err != nil {
			t.Skip("invalid input")
		}
		first := *s // the *Sync is the Planner's to reuse; its slices stay
		cs, pods, revs := first.CloneSet, slices.Clone(first.Pods), slices.Clone(first.Revisions)
		if _, err := p.Plan(&first.CloneSet, first.Pods, first.Revisions, in.now.Add(10*time.Second)); err != nil {
			t.Fatalf("planning the Sync Plan returned: %v", err)
		}
		later := in.now.Add(20 * time.Second)
		want, err := PlanWith(&cs, pods, revs, later, in.opts)
		if err != nil {
			t.Fatalf("PlanWith on a copy of the first Sync: %v", err)
		}
		firstCS := first.CloneSet
		got, err := p.Plan(&firstCS, first.Pods, first.Revisions, later)
		if err != nil {
			t.Fatalf("Planner.Plan on the first Sync, two calls later: %v", err)
		}
		p.Explain()
		if diff := cmp.Diff(want, *got); diff != "" {
			t.Fatalf("Planner.Plan on a Sync two calls old differs from PlanWith (-PlanWith +Plan):\n%s", diff)
		}
		if diff := cmp.Diff(pods, first.Pods); diff != "" {
			t.Fatalf("Planner.Plan overwrote the pods of a Sync two calls old it was given (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(revs, first.Revisions); diff != "" {
			t.Fatalf("Planner.Plan overwrote the revisions of a Sync two calls old it was given (-before +after):\n%s", diff)
		}
	})
}

// TestPlannerTakesAnOlderSyncsPodsAsInput: as above, with only the pods
// of the Sync two calls old passed back (the revisions and the CloneSet
// are the caller's copies): the pods live in the memory the call would
// write, and the call must still plan into new memory.
func TestPlannerTakesAnOlderSyncsPodsAsInput(t *testing.T) {
	var p Planner[podTemplate]
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		p.Options = in.opts
		s, err := p.Plan(in.cs, in.pods, in.revs, in.now)
		if err != nil {
			t.Skip("invalid input")
		}
		first := *s
		own := func() (*CloneSet[podTemplate], []ControllerRevision) {
			cs := first.CloneSet
			if c := first.CloneSet.Status.CollisionCount; c != nil {
				v := *c
				cs.Status.CollisionCount = &v
			}
			return &cs, slices.Clone(first.Revisions)
		}
		pods := slices.Clone(first.Pods)
		cs, revs := own()
		if _, err := p.Plan(cs, first.Pods, revs, in.now.Add(10*time.Second)); err != nil {
			t.Fatalf("planning the Sync Plan returned: %v", err)
		}
		later := in.now.Add(20 * time.Second)
		cs, revs = own()
		want, err := PlanWith(cs, pods, revs, later, in.opts)
		if err != nil {
			t.Fatalf("PlanWith on a copy of the first Sync: %v", err)
		}
		cs, revs = own()
		got, err := p.Plan(cs, first.Pods, revs, later)
		if err != nil {
			t.Fatalf("Planner.Plan on the first Sync's pods, two calls later: %v", err)
		}
		p.Explain()
		if diff := cmp.Diff(want, *got); diff != "" {
			t.Fatalf("Planner.Plan on the pods of a Sync two calls old differs from PlanWith (-PlanWith +Plan):\n%s", diff)
		}
		if diff := cmp.Diff(pods, first.Pods); diff != "" {
			t.Fatalf("Planner.Plan overwrote the pods of a Sync two calls old it was given (-before +after):\n%s", diff)
		}
	})
}
