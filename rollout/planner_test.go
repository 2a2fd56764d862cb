package rollout

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
)

// planWithCopy is PlanWith on deep copies of the inputs, so that nothing
// the Planner does to shared memory can reach the reference.
func planWithCopy(d *Deployment[tmpl], rss []ReplicaSet[tmpl], now time.Time, opts Options) (Sync[tmpl], error) {
	dc := deepCopyDeployment(d)
	return PlanWith(&dc, deepCopyRSs(rss), now, opts)
}

// explained runs one Planner call and writes its reasons.
func explained(p *Planner[tmpl], d *Deployment[tmpl], rss []ReplicaSet[tmpl], now time.Time, newRS string) (*Sync[tmpl], error) {
	s, err := p.Plan(d, rss, now, newRS)
	if err != nil {
		return nil, err
	}
	if e := p.Explain(); e != s {
		return nil, fmt.Errorf("Explain returned %p, not the Sync Plan returned (%p)", e, s)
	}
	return s, nil
}

// TestPlannerMatchesPlanWithAcrossReusedMemory reuses one Planner for a
// run of random states, each followed by a few syncs that take the
// previous Sync (the Planner's own memory) as input, as a controller's
// loop and Simulate do. Every Sync, once explained, equals PlanWith's on
// copies of the same input, and the inputs are never modified.
func TestPlannerMatchesPlanWithAcrossReusedMemory(t *testing.T) {
	rapid.Check(t, plannerMatchesPlanWith)
}

// FuzzPlanner runs the same property under the fuzzer:
// go test -fuzz FuzzPlanner ./rollout/.
func FuzzPlanner(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(plannerMatchesPlanWith))
}

func plannerMatchesPlanWith(t *rapid.T) {
	var p Planner[tmpl]
	for state := range rapid.IntRange(1, 4).Draw(t, "states") {
		st := drawSyncState(t, state == 0)
		p.Options = st.opts
		d, rss, now := st.d, st.rss, st.now
		var older *Sync[tmpl] // the Sync before the last one
		for k := range rapid.IntRange(1, 4).Draw(t, "syncs") {
			dBefore, rssBefore := deepCopyDeployment(d), deepCopyRSs(rss)
			want, wantErr := planWithCopy(d, rss, now, st.opts)
			got, err := explained(&p, d, rss, now, "")
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("state %d sync %d: Planner.Plan error %v, PlanWith error %v", state, k, err, wantErr)
			}
			if !reflect.DeepEqual(dBefore, *d) || !reflect.DeepEqual(rssBefore, rss) {
				t.Fatalf("state %d sync %d: Planner.Plan modified its inputs:\n%s\n%s", state, k,
					cmp.Diff(dBefore, *d, cmp.AllowUnexported(intorpercent.Value{})), cmp.Diff(rssBefore, rss))
			}
			if err != nil {
				break
			}
			if diff := cmp.Diff(want, *got, cmp.AllowUnexported(intorpercent.Value{})); diff != "" {
				t.Fatalf("state %d sync %d (%v): Planner.Plan differs from PlanWith (-PlanWith +Planner):\n%s", state, k, got.Path, diff)
			}
			// The next sync reads this one's result in place, or now
			// and then the one before it, whose memory the next call
			// writes.
			if older != nil && rapid.IntRange(0, 3).Draw(t, "twoBack") == 0 {
				d, rss = &older.Deployment, older.ReplicaSets
			} else {
				d, rss = &got.Deployment, got.ReplicaSets
			}
			older, now = got, now.Add(10*time.Second)
		}
	}
}

// TestPlannerGivesTheSameSyncWithTheNewReplicaSetNamed: naming the
// ReplicaSet that revision.FindNew finds gives the very Sync that leaving
// it to Plan gives, on every path.
func TestPlannerGivesTheSameSyncWithTheNewReplicaSetNamed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := drawSyncState(t, false)
		i, ok := revision.FindNew(&st.d.Template, st.rss)
		if !ok {
			t.Skip("no ReplicaSet matches the template")
		}
		var found, named Planner[tmpl]
		found.Options, named.Options = st.opts, st.opts
		a, errA := explained(&found, st.d, st.rss, st.now, "")
		b, errB := explained(&named, st.d, st.rss, st.now, st.rss[i].Name)
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("errors differ: found %v, named %v", errA, errB)
		}
		if errA != nil {
			return
		}
		if diff := cmp.Diff(*a, *b, cmp.AllowUnexported(intorpercent.Value{})); diff != "" {
			t.Fatalf("naming %s changed the Sync (-found +named):\n%s", st.rss[i].Name, diff)
		}
	})
}

func TestPlannerRejectsAnUnknownNewReplicaSet(t *testing.T) {
	d, rss := midRollout(10, 3)
	var p Planner[tmpl]
	s, err := p.Plan(d, rss, t0, "web-missing")
	if !errors.Is(err, field.ErrInvalid) || s != nil {
		t.Fatalf("Plan(newRS %q) = %v, %v; want nil and an error wrapping field.ErrInvalid", "web-missing", s, err)
	}
	if want := `rollout: newRS: the new ReplicaSet named "web-missing" is not among the deployment's ReplicaSets`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if p.Explain() != nil {
		t.Errorf("Explain after a failed Plan is not nil")
	}
}

// TestPlannerLeavesReasonsUnwrittenUntilExplain: Plan writes no reason;
// Explain writes exactly PlanWith's.
func TestPlannerLeavesReasonsUnwrittenUntilExplain(t *testing.T) {
	d, rss := midRollout(100, 10)
	want, err := PlanWith(d, rss, t0, Options{})
	if err != nil || len(want.Actions) == 0 {
		t.Fatalf("PlanWith = %d actions, %v; want a sync that writes", len(want.Actions), err)
	}
	var p Planner[tmpl]
	s, err := p.Plan(d, rss, t0, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range s.Actions {
		if a.Reason != "" {
			t.Errorf("Plan wrote Actions[%d].Reason = %q before Explain", i, a.Reason)
		}
	}
	if s.Reason != "" {
		t.Errorf("Plan wrote Reason = %q before Explain", s.Reason)
	}
	p.Explain()
	if diff := cmp.Diff(want, *s, cmp.AllowUnexported(intorpercent.Value{})); diff != "" {
		t.Errorf("explained Sync differs from PlanWith (-PlanWith +Planner):\n%s", diff)
	}
}

// TestPlannerSteadyStateAllocations holds the allocation budget of a
// Planner's sync once its memory has grown: none, for a deployment whose
// rollout is complete and for one mid-rollout whose sync scales a
// ReplicaSet without changing R (its annotations are written as they
// are, so not copied).
func TestPlannerSteadyStateAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	for _, tt := range []struct {
		name string
		d    *Deployment[tmpl]
		rss  []ReplicaSet[tmpl]
		max  float64
	}{
		{name: "complete", max: 0},
		{name: "mid-rollout, one ReplicaSet scaled", max: 0},
	} {
		if tt.name == "complete" {
			tt.d, tt.rss = settled10()
		} else {
			tt.d, tt.rss = midRolloutWritten(100, 10)
		}
		var p Planner[tmpl]
		newRS := tt.rss[len(tt.rss)-1].Name
		run := func() {
			if _, err := p.Plan(tt.d, tt.rss, t0, newRS); err != nil {
				t.Fatal(err)
			}
		}
		run()
		run()
		if got := testing.AllocsPerRun(50, run); got > tt.max {
			t.Errorf("%s: Planner.Plan allocates %v times per sync, want at most %v", tt.name, got, tt.max)
		}
	}
}

// settled10 is a 10-replica deployment at rest after nine rollouts: ten
// ReplicaSets, the newest with every pod, its status written.
func settled10() (*Deployment[tmpl], []ReplicaSet[tmpl]) {
	d, rss := midRollout(10, 10)
	for i := range rss {
		rss[i].Replicas, rss[i].StatusReplicas, rss[i].ReadyReplicas, rss[i].AvailableReplicas = 0, 0, 0, 0
		rss[i].Annotations[revision.DesiredReplicasAnnotation] = "10"
		rss[i].Annotations[revision.MaxReplicasAnnotation] = itoa(int64(maxTotal(d)))
	}
	n := &rss[len(rss)-1]
	n.Replicas, n.StatusReplicas, n.ReadyReplicas, n.AvailableReplicas = 10, 10, 10, 10
	d.Status = CalculateStatus(d, rss, len(rss)-1, t0)
	s, err := PlanWith(d, rss, t0, Options{})
	if err != nil {
		panic(err)
	}
	return &s.Deployment, s.ReplicaSets
}

func BenchmarkPlanner(b *testing.B) {
	for _, n := range []int{2, 10, 100} {
		b.Run(fmt.Sprintf("ReplicaSets=%d", n), func(b *testing.B) {
			d, rss := midRolloutWritten(100, n)
			var p Planner[tmpl]
			newRS := rss[len(rss)-1].Name
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Plan(d, rss, t0, newRS); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// midRolloutWritten is midRollout with the status the previous sync wrote
// (its Progressing condition among others), as a controller finds a
// deployment mid-rollout: the sync scales and rewrites the status.
func midRolloutWritten(r int32, n int) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
	d, rss := midRollout(r, n)
	s, err := PlanWith(d, rss, t0.Add(-10*time.Second), Options{})
	if err != nil {
		panic(err)
	}
	d.Status = s.Deployment.Status
	return d, rss
}

// TestAnnotationsKeptOnlyWhenNewAnnotationsChangesNothing: the steady
// state's shortcut never skips a change revision.NewAnnotations would
// make to the new ReplicaSet's annotations.
func TestAnnotationsKeptOnlyWhenNewAnnotationsChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := []string{revision.RevisionAnnotation, revision.RevisionHistoryAnnotation, revision.DesiredReplicasAnnotation, "team", "owner"}
		values := []string{"", "1", "2", "3", "10", "x", "+2", "blue", "02"}
		dep := rapid.MapOf(rapid.SampledFrom(keys), rapid.SampledFrom(values)).Draw(t, "deployment")
		// The ReplicaSet usually carries the deployment's annotations
		// already (the steady state), with a few edits.
		rs := maps.Clone(dep)
		if rs == nil {
			rs = map[string]string{}
		}
		for _, k := range rapid.SliceOfN(rapid.SampledFrom(keys), 0, 3).Draw(t, "edited") {
			if v := rapid.SampledFrom(append(values, "(deleted)")).Draw(t, "value of "+k); v == "(deleted)" {
				delete(rs, k)
			} else {
				rs[k] = v
			}
		}
		rs[revision.RevisionAnnotation] = rapid.SampledFrom([]string{"1", "2", "3", "10", "12", "02", "+3", "x", ""}).Draw(t, "revision")
		next := rapid.Int64Range(1, 4).Draw(t, "next")
		if !annotationsKept(dep, rs, next) {
			return
		}
		ann, changed := revision.NewAnnotations(revision.AnnotationsInput{Deployment: dep, ReplicaSet: rs, Revision: itoa(next), Exists: true})
		if changed || !reflect.DeepEqual(ann, rs) {
			t.Fatalf("annotationsKept(%v, %v, %d) is true, but NewAnnotations gives %v, changed %v", dep, rs, next, ann, changed)
		}
	})
}
