package statefulset

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// drawWorld draws a set with its pods and revisions in any state the
// controller can meet: any policy, strategy, partition, maxUnavailable,
// start ordinal and minReadySeconds; pods in and beyond the slots at
// the current, update or a third revision, in every phase, ready or
// not, terminating or not; options and gate.
func drawWorld(t *rapid.T) *world {
	r := rapid.Int32Range(0, 8).Draw(t, "replicas")
	changed := rapid.Bool().Draw(t, "changed")
	w := newWorld(r, changed)
	w.set.Ordinals.Start = rapid.Int32Range(0, 3).Draw(t, "start")
	if rapid.Bool().Draw(t, "parallel") {
		w.set.PodManagementPolicy = Parallel
	}
	w.set.MinReadySeconds = rapid.SampledFrom([]int32{0, 30}).Draw(t, "minReadySeconds")
	switch rapid.IntRange(0, 5).Draw(t, "strategy") {
	case 0:
		w.set.UpdateStrategy = UpdateStrategy{Type: OnDelete}
	case 1:
		w.set.UpdateStrategy = UpdateStrategy{Type: RollingUpdate}
	default:
		w.partition(rapid.Int32Range(0, r+1).Draw(t, "partition"))
		switch rapid.IntRange(0, 2).Draw(t, "maxUnavailableKind") {
		case 1:
			w.maxUnavailable(intorpercent.FromInt(rapid.Int32Range(1, 4).Draw(t, "maxUnavailable")))
		case 2:
			w.maxUnavailable(intorpercent.FromString(fmt.Sprintf("%d%%", rapid.IntRange(1, 100).Draw(t, "maxUnavailablePercent"))))
		}
	}
	w.opts.Gates.MaxUnavailableStatefulSet = rapid.Bool().Draw(t, "gate")
	w.opts.Budget = BudgetPolicy(rapid.IntRange(0, 1).Draw(t, "budget"))
	w.opts.CurrentReplicas = CurrentReplicasPolicy(rapid.IntRange(0, 1).Draw(t, "currentReplicasPolicy"))
	w.opts.ZeroReplicas = ZeroReplicasPolicy(rapid.IntRange(0, 1).Draw(t, "zeroReplicas"))
	end := int(w.set.Ordinals.Start + r + 2)
	for ord := 0; ord < end; ord++ {
		// Mostly present and ready, so that syncs often reach the update
		// step; every other state still comes up.
		if rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("present%d", ord)) < 2 {
			continue
		}
		rv := rapid.SampledFrom([]string{"o", "o", "n", "x"}).Draw(t, fmt.Sprintf("rev%d", ord))
		st := rapid.SampledFrom([]string{"r", "r", "r", "r", "r", "r", "y", "u", "p", "t", "f", "s"}).Draw(t, fmt.Sprintf("state%d", ord))
		w.pods = append(w.pods, pod(fmt.Sprintf("%d:%s:%s", ord, rv, st)))
	}
	// A plausible last status: the counts of a sync over these pods.
	st := ComputeStatus(w.pods, w.set.MinReadySeconds, w.set.Status.CurrentRevision, w.set.Status.UpdateRevision, t0)
	st.ObservedGeneration = 1
	if rapid.Bool().Draw(t, "freshStatus") {
		w.set.Status = Status{}
	} else {
		w.set.Status = st
	}
	return w
}

// syncInput is one sync: its input and its result.
type syncInput struct {
	set  *StatefulSet[tmpl]
	pods []Pod
	opts Options
	now  time.Time
	s    *Sync[tmpl]
}

// bySlot maps slot index to the input pod in it.
func (in syncInput) bySlot() map[int64]*Pod {
	start := int64(in.set.Ordinals.Start)
	m := map[int64]*Pod{}
	for i := range in.pods {
		if parent, ord := ParseOrdinal(in.pods[i].Name); parent == in.set.Name && ord >= 0 {
			m[int64(ord)-start] = &in.pods[i]
		}
	}
	return m
}

// invariant is a rule every sync keeps, named as its test.
type invariant struct {
	name  string
	check func(t *rapid.T, in syncInput)
}

// invariants are checked on random snapshots and after every sync of
// random simulated rollouts, each by the test of its name.
var invariants = []invariant{
	// OrderedReady makes at most one pod creation or deletion per sync
	// outside the update step, none when it updates, and creates slot k
	// only when every lower slot holds a pod that is Running, Ready,
	// available and not terminating.
	{"OrderedReadyNeverHasTwoPodsInFlight", func(t *rapid.T, in syncInput) {
		if in.set.PodManagementPolicy == Parallel {
			return
		}
		slots := in.bySlot()
		writes := 0
		for _, a := range in.s.Actions {
			if (a.Kind == CreatePod || a.Kind == DeletePod) && a.Stage != StageUpdate {
				writes++
			}
			if a.Kind != CreatePod {
				continue
			}
			k := int64(a.Ordinal) - int64(in.set.Ordinals.Start)
			for j := int64(0); j < k; j++ {
				p := slots[j]
				if p == nil || p.Terminating || !IsRunningAndReady(p) || !IsAvailable(p, in.set.MinReadySeconds, in.now) {
					t.Fatalf("OrderedReady created slot %d while slot %d is %+v", k, j, p)
				}
			}
		}
		if writes > 1 {
			t.Fatalf("OrderedReady made %d pod creations and deletions in one sync", writes)
		}
		if writes > 0 && slices.ContainsFunc(in.s.Actions, func(a Action) bool { return a.Stage == StageUpdate }) {
			t.Fatalf("OrderedReady created or deleted a pod and updated in the same sync")
		}
	}},
	// Update deletions go from the highest slot down; with
	// BudgetReplaceUnavailableFirst under Parallel and the gate on, the
	// unavailable pods first, then the others, each from the top down.
	{"UpdatesGoDescendingOrdinal", func(t *rapid.T, in syncInput) {
		slots := in.bySlot()
		twoPhases := in.opts.Gates.MaxUnavailableStatefulSet && in.opts.Budget == BudgetReplaceUnavailableFirst && in.set.PodManagementPolicy == Parallel
		phase2, last := false, int64(1<<40)
		for _, a := range in.s.Actions {
			if a.Kind != DeletePod || a.Stage != StageUpdate {
				continue
			}
			k := int64(a.Ordinal) - int64(in.set.Ordinals.Start)
			if twoPhases && !phase2 && !IsUnavailable(slots[k], in.set.MinReadySeconds, in.now) {
				phase2, last = true, 1<<40
			}
			if k >= last {
				t.Fatalf("update deletions not descending: slot %d after %d", k, last)
			}
			last = k
		}
	}},
	// With the gate off, at most one update deletion per sync.
	{"GateOffDeletesOnePodPerSync", func(t *rapid.T, in syncInput) {
		if in.opts.Gates.MaxUnavailableStatefulSet {
			return
		}
		n := 0
		for _, a := range in.s.Actions {
			if a.Kind == DeletePod && a.Stage == StageUpdate {
				n++
			}
		}
		if n > 1 {
			t.Fatalf("gate off: %d update deletions in one sync", n)
		}
	}},
	// With a rollingUpdate block, no update deletion reaches below the
	// partition, and pods created below it are at the current revision;
	// OnDelete never deletes for an update.
	{"PartitionKeepsBelowPartitionAtCurrentRevision", func(t *rapid.T, in syncInput) {
		strat := readStrategy(in.set.UpdateStrategy)
		for _, a := range in.s.Actions {
			k := int64(a.Ordinal) - int64(in.set.Ordinals.Start)
			switch {
			case a.Kind == DeletePod && a.Stage == StageUpdate && strat.typ == OnDelete:
				t.Fatalf("OnDelete made an update deletion of %s", a.Pod)
			case a.Kind == DeletePod && a.Stage == StageUpdate && !strat.ruNil && k < int64(strat.partition):
				t.Fatalf("update deleted slot %d below partition %d", k, strat.partition)
			case a.Kind == CreatePod && strat.typ == RollingUpdate && !strat.ruNil && k < int64(strat.partition) && a.Revision != in.s.CurrentRevision:
				t.Fatalf("slot %d below partition %d created at %s, want the current revision %s", k, strat.partition, a.Revision, in.s.CurrentRevision)
			}
		}
	}},
	// The set as the sync leaves it passes Validate; a status write is
	// refused only for upstream's negative currentReplicas.
	{"PlanWritesValidObjects", func(t *rapid.T, in syncInput) {
		if errs := Validate(&in.s.StatefulSet); len(errs) > 0 {
			t.Fatalf("the set as the sync leaves it is invalid: %v", errs)
		}
		for _, a := range in.s.Actions {
			if a.Kind == WriteStatus && a.Rejected != "" && (in.opts.CurrentReplicas != CurrentReplicasUpstream || in.s.Status.CurrentReplicas >= 0) {
				t.Fatalf("status rejected (%s) other than for upstream's negative currentReplicas", a.Rejected)
			}
		}
	}},
}

// checkSync checks every invariant.
func checkSync(t *rapid.T, set *StatefulSet[tmpl], pods []Pod, opts Options, now time.Time, s *Sync[tmpl]) {
	for _, inv := range invariants {
		inv.check(t, syncInput{set, pods, opts, now, s})
	}
}

// checkInvariant checks the invariant named name on random snapshots
// and after every sync of random simulated rollouts.
func checkInvariant(t *testing.T, name string) {
	i := slices.IndexFunc(invariants, func(inv invariant) bool { return inv.name == name })
	if i < 0 {
		t.Fatalf("no invariant %s", name)
	}
	inv := invariants[i]
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		s, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		inv.check(t, syncInput{&w.set, w.pods, w.opts, t0, &s})
	})
	rapid.Check(t, func(t *rapid.T) {
		w, cfg, _ := drawRollout(t)
		check := func(k int, set *StatefulSet[tmpl], pods []Pod, revs []ControllerRevision, now time.Time, opts Options, s *Sync[tmpl]) {
			inv.check(t, syncInput{set, pods, opts, now, s})
		}
		if _, err := simulate(&w.set, w.pods, w.revisions, cfg, check); err != nil {
			t.Fatalf("Simulate: %v", err)
		}
	})
}

func TestOrderedReadyNeverHasTwoPodsInFlight(t *testing.T) {
	checkInvariant(t, "OrderedReadyNeverHasTwoPodsInFlight")
}
func TestUpdatesGoDescendingOrdinal(t *testing.T)  { checkInvariant(t, "UpdatesGoDescendingOrdinal") }
func TestGateOffDeletesOnePodPerSync(t *testing.T) { checkInvariant(t, "GateOffDeletesOnePodPerSync") }
func TestPartitionKeepsBelowPartitionAtCurrentRevision(t *testing.T) {
	checkInvariant(t, "PartitionKeepsBelowPartitionAtCurrentRevision")
}
func TestPlanWritesValidObjects(t *testing.T) { checkInvariant(t, "PlanWritesValidObjects") }

// deepCopy copies a world so that a later comparison sees any change.
func deepCopy(w *world) *world {
	c := *w
	c.pods = slices.Clone(w.pods)
	c.revisions = slices.Clone(w.revisions)
	for i := range c.revisions {
		c.revisions[i].Data = slices.Clone(w.revisions[i].Data)
	}
	c.set.UpdateStrategy.RollingUpdate = cloneRU(w.set.UpdateStrategy.RollingUpdate)
	return &c
}

func TestPlanIsPure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		before := deepCopy(w)
		a, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		if !reflect.DeepEqual(before.set, w.set) || !reflect.DeepEqual(before.pods, w.pods) || !reflect.DeepEqual(before.revisions, w.revisions) {
			t.Fatalf("PlanWith modified its input")
		}
		b, _ := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two PlanWith calls differ:\n%+v\n%+v", a, b)
		}
	})
}

func TestPlanIgnoresInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		a, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		pods := rapid.Permutation(w.pods).Draw(t, "pods")
		revs := rapid.Permutation(w.revisions).Draw(t, "revisions")
		b, err := PlanWith(&w.set, pods, revs, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith (permuted): %v", err)
		}
		byName := func(x, y Pod) int { return strings.Compare(x.Name, y.Name) }
		slices.SortFunc(a.Pods, byName)
		slices.SortFunc(b.Pods, byName)
		revByName := func(x, y ControllerRevision) int { return strings.Compare(x.Name, y.Name) }
		slices.SortFunc(a.Revisions, revByName)
		slices.SortFunc(b.Revisions, revByName)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("the result depends on the input order:\n%+v\n%+v", a, b)
		}
	})
}

// TestPlannerEqualsPlanWith: a reused Planner gives PlanWith's result.
func TestPlannerEqualsPlanWith(t *testing.T) {
	var p Planner[tmpl]
	gen := int64(1)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		gen++
		w.set.Generation = gen // the Planner's contract: a new template comes with a new generation
		want, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		p.Options = w.opts
		got, err := p.Plan(&w.set, w.pods, w.revisions, t0)
		if err != nil {
			t.Fatalf("Planner.Plan: %v", err)
		}
		p.Explain()
		if !reflect.DeepEqual(want, *got) {
			t.Fatalf("Planner.Plan differs from PlanWith:\n%+v\n%+v", want, *got)
		}
	})
}

// TestParallelCreatesEveryEmptySlot: under Parallel a sync creates a pod
// for exactly the empty slots SplitPods finds, and deletes every
// non-terminating condemned pod.
func TestParallelCreatesEveryEmptySlot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t).parallel()
		slots, condemned, err := SplitPods(&w.set, w.pods)
		if err != nil {
			t.Fatalf("SplitPods: %v", err)
		}
		s, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		var wantCreate, gotCreate, wantDelete, gotDelete []int32
		for k, i := range slots {
			if i < 0 {
				wantCreate = append(wantCreate, w.set.Ordinals.Start+int32(k))
			}
		}
		for _, i := range condemned {
			if !w.pods[i].Terminating {
				_, ord := ParseOrdinal(w.pods[i].Name)
				wantDelete = append(wantDelete, ord)
			}
		}
		for _, a := range s.Actions {
			switch {
			case a.Kind == CreatePod:
				gotCreate = append(gotCreate, a.Ordinal)
			case a.Kind == DeletePod && a.Stage == StageCondemned:
				gotDelete = append(gotDelete, a.Ordinal)
			}
		}
		if !slices.Equal(wantCreate, gotCreate) || !slices.Equal(wantDelete, gotDelete) {
			t.Fatalf("created %v, deleted %v; want %v and %v", gotCreate, gotDelete, wantCreate, wantDelete)
		}
	})
}
