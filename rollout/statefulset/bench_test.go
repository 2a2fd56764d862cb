package statefulset

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/ownership"
)

// settled returns a set of n replicas whose pods are all Running, Ready
// and at the update revision, with the status a sync over them writes,
// so that a sync changes nothing; half-way through a rollout when
// rolling is set (pods below n/2 at o, the rest at n, partition n/2).
func settled(n int, rolling bool) *world {
	w := newWorld(int32(n), rolling)
	w.set.Selector = &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}
	w.set.TemplateLabels = map[string]string{"app": "web"}
	if rolling {
		w.partition(int32(n / 2))
	}
	labels := map[string]string{"app": "web"}
	for k := 0; k < n; k++ {
		r := "n"
		if !rolling || k < n/2 {
			r = "o"
		}
		p := pod(fmt.Sprintf("%d:%s:r", k, r))
		p.Labels = labels
		w.pods = append(w.pods, p)
	}
	s, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
	if err != nil {
		panic(err)
	}
	w.set.Status = s.StatefulSet.Status
	return w
}

func TestPlannerDoesNotAllocateInSteadyState(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	for _, rolling := range []bool{false, true} {
		w := settled(100, rolling)
		var p Planner[tmpl]
		sync, err := p.Plan(&w.set, w.pods, w.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		if len(sync.Actions) != 0 {
			t.Fatalf("rolling %v: the settled set is not settled: %+v", rolling, sync.Actions)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = p.Plan(&w.set, w.pods, w.revisions, t0) }); n != 0 {
			t.Errorf("rolling %v: Planner.Plan allocates %v times per steady sync, want 0", rolling, n)
		}
	}
}

// TestPlannerDoesNotAllocateWhileWaiting: an OrderedReady sync that
// waits for a pod (status written, requeue after minReadySeconds) does
// not allocate either.
func TestPlannerDoesNotAllocateWhileWaiting(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	w := settled(100, true)
	w.set.MinReadySeconds = 30
	w.pods[40].ReadySince = t0.Add(-5 * time.Second) // ready, not yet available
	w.set.Status.ObservedGeneration = 0              // so that every sync writes the status
	var p Planner[tmpl]
	sync, err := p.Plan(&w.set, w.pods, w.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if sync.Blocker != BlockNotAvailable || !sync.Requeue || len(sync.Actions) != 1 {
		t.Fatalf("the sync does not wait as intended: %+v, %v", sync.Actions, sync.Blocker)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = p.Plan(&w.set, w.pods, w.revisions, t0) }); n != 0 {
		t.Errorf("Planner.Plan allocates %v times per waiting sync, want 0", n)
	}
}

func BenchmarkPlan(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		w := settled(n, true)
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPlanner(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		w := settled(n, true)
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			var p Planner[tmpl]
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Plan(&w.set, w.pods, w.revisions, t0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
