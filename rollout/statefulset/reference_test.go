package statefulset

import (
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// refSync is a slow reference for one sync's pod writes and status,
// written the way the controller's updateStatefulSet is: pointers to
// pods, placeholders with an empty phase, a runForAll loop that stops on
// the first "exit" under OrderedReady, the status counted again at each
// exit. It shares no code with the planner but ChooseRevisions and the
// pod predicates. The writes are "create web-3@<rev>", "delete web-4",
// "update web-1".
func refSync(set *StatefulSet[tmpl], pods []Pod, revisions []ControllerRevision, now time.Time, opts Options) ([]string, Status) {
	data := mustData(set.Template)
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	revs, err := ChooseRevisions(set.Name, revisions, data, set.Status.CurrentRevision, cc)
	if err != nil {
		panic(err)
	}
	current, update := revs.Current, revs.Update.Name
	var claimed []*Pod
	for i := range pods {
		if parent, _ := ParseOrdinal(pods[i].Name); parent == set.Name && pods[i].ControllerUID == set.UID {
			claimed = append(claimed, &pods[i])
		}
	}
	min := set.MinReadySeconds
	count := func(lists ...[]*Pod) Status {
		st := Status{CurrentRevision: current, UpdateRevision: update}
		for _, l := range lists {
			for _, p := range l {
				if p.Phase != "" {
					st.Replicas++
				}
				if p.Phase == PodRunning && p.Ready {
					st.ReadyReplicas++
					if IsAvailable(p, min, now) {
						st.AvailableReplicas++
					}
				}
				if p.Phase != "" && !p.Terminating {
					if p.Revision == current {
						st.CurrentReplicas++
					}
					if p.Revision == update {
						st.UpdatedReplicas++
					}
				}
			}
		}
		return st
	}
	var writes []string
	status := count(claimed)
	finish := func() ([]string, Status) {
		typ := set.UpdateStrategy.Type
		if typ == "" {
			typ = RollingUpdate
		}
		r := set.Replicas
		if typ == RollingUpdate && status.UpdatedReplicas == r && status.ReadyReplicas == r && status.Replicas == r {
			status.CurrentReplicas, status.CurrentRevision = status.UpdatedReplicas, status.UpdateRevision
		}
		return writes, status
	}
	start := int(set.Ordinals.Start)
	replicas := make([]*Pod, set.Replicas)
	var condemned []*Pod
	ord := func(p *Pod) int { _, o := ParseOrdinal(p.Name); return int(o) }
	for _, p := range claimed {
		if o := ord(p); o >= start && o < start+len(replicas) {
			replicas[o-start] = p
		} else if o >= 0 {
			condemned = append(condemned, p)
		}
	}
	ru := set.UpdateStrategy.RollingUpdate
	typ := set.UpdateStrategy.Type
	if typ == "" {
		typ = RollingUpdate
		if ru == nil {
			ru = &RollingUpdateStrategy{}
		}
	}
	for k := range replicas {
		if replicas[k] == nil {
			o := start + k
			rev := update
			if (typ == RollingUpdate && ru == nil && o < start+int(set.Status.CurrentReplicas)) || (ru != nil && o < start+int(ru.Partition)) {
				rev = current
			}
			name := fmt.Sprintf("%s-%d", set.Name, o)
			replicas[k] = &Pod{Name: name, Revision: rev, PodNameLabel: name}
		}
	}
	sort.SliceStable(condemned, func(a, b int) bool { return ord(condemned[a]) > ord(condemned[b]) })
	unavailable := func(p *Pod) bool { return !IsAvailable(p, min, now) || p.Terminating }
	var first *Pod
	for _, p := range replicas {
		if unavailable(p) {
			first = p
			break
		}
	}
	if first == nil {
		for i := len(condemned) - 1; i >= 0; i-- {
			if unavailable(condemned[i]) {
				first = condemned[i]
				break
			}
		}
	}
	if set.Deleting {
		return finish()
	}
	monotonic := set.PodManagementPolicy != Parallel
	runForAll := func(list []*Pod, fn func(p *Pod) bool) bool {
		for _, p := range list {
			if fn(p) && monotonic {
				return true
			}
		}
		return false
	}
	processReplica := func(p *Pod) bool {
		if p.Phase == PodFailed || p.Phase == PodSucceeded {
			if !p.Terminating {
				writes = append(writes, "delete "+p.Name)
			}
			return true
		}
		if p.Phase == "" {
			writes = append(writes, "create "+p.Name+"@"+p.Revision)
			if monotonic {
				return true
			}
		}
		if p.Terminating && monotonic {
			return true
		}
		if !(p.Phase == PodRunning && p.Ready) && monotonic {
			return true
		}
		if !IsAvailable(p, min, now) && monotonic {
			return true
		}
		if p.Phase != "" && p.PodNameLabel != p.Name {
			writes = append(writes, "update "+p.Name)
		}
		return false
	}
	if runForAll(replicas, processReplica) {
		status = count(replicas, condemned)
		return finish()
	}
	processCondemned := func(p *Pod) bool {
		if p.Terminating {
			return monotonic
		}
		if !(p.Phase == PodRunning && p.Ready) && monotonic && p != first {
			return true
		}
		if !IsAvailable(p, min, now) && monotonic && p != first {
			return true
		}
		writes = append(writes, "delete "+p.Name)
		return true
	}
	if runForAll(condemned, processCondemned) {
		status = count(replicas, condemned)
		return finish()
	}
	status = count(replicas, condemned)
	if typ == OnDelete {
		return finish()
	}
	updateMin := 0
	if ru != nil {
		updateMin = int(ru.Partition)
	}
	if !opts.Gates.MaxUnavailableStatefulSet {
		for target := len(replicas) - 1; target >= updateMin; target-- {
			if replicas[target].Revision != update && !replicas[target].Terminating {
				writes = append(writes, "delete "+replicas[target].Name)
				status.CurrentReplicas--
				return finish()
			}
			if unavailable(replicas[target]) {
				return finish()
			}
		}
		return finish()
	}
	mu := 1
	if ru != nil {
		n, _ := MaxUnavailable(ru.MaxUnavailable, set.Replicas)
		mu = int(n)
	}
	u := 0
	for _, p := range replicas {
		if unavailable(p) {
			u++
		}
	}
	if u >= mu {
		return finish()
	}
	deleted := 0
	for target := len(replicas) - 1; target >= updateMin && deleted < mu-u; target-- {
		if replicas[target].Revision != update && !replicas[target].Terminating {
			writes = append(writes, "delete "+replicas[target].Name)
			deleted++
			status.CurrentReplicas--
		}
	}
	return finish()
}

func mustData(t tmpl) []byte {
	b := []byte(`{"image":` + fmt.Sprintf("%q", t.Image) + `}`)
	data, err := RevisionData(b)
	if err != nil {
		panic(err)
	}
	return data
}

// TestPlanMatchesReference: on random snapshots with upstream's options,
// Plan makes the reference's pod writes in the same order and computes
// the same status counters.
func TestPlanMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		w.opts = Options{Gates: w.opts.Gates}
		w.set.Deleting = rapid.IntRange(0, 9).Draw(t, "deleting") == 0
		if rapid.Bool().Draw(t, "wrongLabel") && len(w.pods) > 0 {
			w.pods[0].PodNameLabel = "other"
		}
		wantWrites, wantStatus := refSync(&w.set, w.pods, w.revisions, t0, w.opts)
		s, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
		if err != nil {
			t.Fatalf("PlanWith: %v", err)
		}
		var got []string
		for _, a := range s.Actions {
			switch a.Kind {
			case CreatePod:
				got = append(got, "create "+a.Pod+"@"+a.Revision)
			case DeletePod:
				got = append(got, "delete "+a.Pod)
			case UpdatePod:
				got = append(got, "update "+a.Pod)
			}
		}
		if !slices.Equal(got, wantWrites) {
			t.Fatalf("Plan writes %v\nreference  %v", got, wantWrites)
		}
		gotStatus := s.Status
		gotStatus.ObservedGeneration, gotStatus.CollisionCount = 0, nil
		if gotStatus != wantStatus {
			t.Fatalf("Plan status %+v\nreference   %+v", gotStatus, wantStatus)
		}
	})
}
