package cloneset

import (
	"slices"
	"testing"
)

// TestPlanPodsCopiedOnWrite: a sync that changes no pod returns the input
// pods clipped (appending the created pods leaves the caller's array
// alone); one that changes a pod returns a copy and leaves the input as
// it was.
func TestPlanPodsCopiedOnWrite(t *testing.T) {
	cs, pods, revs := planBenchState(t, 30)
	backing := make([]Pod, len(pods), len(pods)+5) // room after the input
	copy(backing, pods)
	in := backing[:len(pods)]
	s, err := Plan(cs, in, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Scale.Branch != ScaleOut || len(s.Pods) != len(in) || &s.Pods[0] != &in[0] || cap(s.Pods) != len(in) {
		t.Fatalf("scale-out: branch %v, Pods len %d cap %d, shared %v; want ScaleOut and the input clipped", s.Scale.Branch, len(s.Pods), cap(s.Pods), &s.Pods[0] == &in[0])
	}
	all, err := s.AppendCreatedPods(s.Pods)
	if err != nil || len(all) != len(in)+1 || backing[:len(in)+1][len(in)].Name != "" {
		t.Fatalf("AppendCreatedPods: %d pods, %v; the caller's array after the input holds %q, want it untouched", len(all), err, backing[:len(in)+1][len(in)].Name)
	}

	cs, pods, revs = planUpdateState(t, 30)
	before := slices.Clone(pods)
	s, err = Plan(cs, pods, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Update == nil || len(s.Update.Actions) == 0 || &s.Pods[0] == &pods[0] {
		t.Fatalf("update: %d update actions, Pods shared with the input: %v; want actions and a copy", len(s.Update.Actions), &s.Pods[0] == &pods[0])
	}
	if !slices.EqualFunc(pods, before, func(a, b Pod) bool {
		return a.Name == b.Name && a.SpecifiedDelete == b.SpecifiedDelete && a.Lifecycle == b.Lifecycle
	}) {
		t.Fatal("Plan modified its input pods")
	}
	if marked := slices.IndexFunc(s.Pods, func(p Pod) bool { return p.SpecifiedDelete }); marked < 0 {
		t.Fatal("update: no pod in Sync.Pods marked for recreation")
	}
}
