package cloneset

import (
	"encoding/json"
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
// it, or other pods, must not change that Sync, and the Sync after that
// is another one.
func TestPlannerSyncStaysValidUntilTheSecondPlanAfterIt(t *testing.T) {
	var p Planner[podTemplate]
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		// Half the inputs are a rollout the scale step leaves alone, so
		// that the update step runs and writes its candidates.
		draw := func() planInput {
			if rapid.Bool().Draw(t, "rolling") {
				return drawRollingInput(t, r1, r2)
			}
			return drawPlanInput(t, r1, r2)
		}
		in := draw()
		p.Options = in.opts
		first, err := p.Plan(in.cs, in.pods, in.revs, in.now)
		if err != nil {
			t.Skip("invalid input")
		}
		// Its encoding holds everything in it, through its slices and
		// pointers (a copy of the struct would share their memory).
		kept, err := json.Marshal(first)
		if err != nil {
			t.Fatal(err)
		}
		// The next call plans the Sync itself, as a controller's loop
		// does, or other pods: either way it must not write into the
		// Sync's memory.
		var second *Sync[podTemplate]
		if rapid.Bool().Draw(t, "next is the Sync") {
			if second, err = p.Plan(&first.CloneSet, first.Pods, first.Revisions, in.now.Add(10*time.Second)); err != nil {
				t.Fatalf("planning the Sync Plan returned: %v", err)
			}
		} else {
			other := draw()
			if second, err = p.Plan(other.cs, other.pods, other.revs, other.now); err != nil {
				t.Skip("invalid second input")
			}
		}
		if second == first {
			t.Fatalf("two Plan calls in a row returned the same *Sync")
		}
		after, err := json.Marshal(first)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(kept), string(after)); diff != "" {
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

// drawRollingInput draws a CloneSet of 1 to 12 ready pods, as many as
// its replicas, rolling from r1 to r2 (its template r2's): the scale step
// rests and the update step chooses among the pods still at r1, in an
// order that depends on their readiness times.
func drawRollingInput(t *rapid.T, r1, r2 ControllerRevision) planInput {
	n := rapid.IntRange(1, 12).Draw(t, "pods")
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: int32(n), Generation: 1, Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.MaxUnavailable = num(rapid.Int32Range(1, int32(n)).Draw(t, "maxUnavailable"))
	cs.Status.CurrentRevision = r1.Name
	pods := make([]Pod, n)
	for i := range pods {
		pods[i] = Pod{Name: "demo-" + string(rune('a'+i)), Revision: rapid.SampledFrom([]string{r1.Name, r2.Name}).Draw(t, "revision"),
			Phase: PodRunning, Ready: true, Lifecycle: Normal, CreationTime: t0.Add(-time.Hour),
			ReadySince: t0.Add(-time.Duration(rapid.IntRange(60, 600).Draw(t, "readyFor")) * time.Second)}
	}
	return planInput{cs: cs, pods: pods, revs: []ControllerRevision{r1, r2}, now: t0}
}
