package cloneset

import (
	"errors"
	"math/rand"
	"slices"
	"strconv"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

// TestNameIndex: every pod is found at its index, a name no pod has is
// not, and a second pod of a name reports the first; over sizes that
// fill the table to its limit, so that probes wrap and collide.
func TestNameIndex(t *testing.T) {
	var x nameIndex
	for _, n := range []int{0, 1, 3, 4, 5, 100, 1000} {
		pods := make([]Pod, n)
		for i := range pods {
			pods[i].Name = "web-" + strconv.Itoa(i)
		}
		x.reset(pods) // reused memory: the entries of the last size are gone
		for i := range pods {
			if j, dup := x.add(i); dup || j != -1 {
				t.Fatalf("%d pods: add(%d) = %d, %v, want -1, false", n, i, j, dup)
			}
		}
		for i := range pods {
			if j, ok := x.lookup(pods[i].Name); !ok || j != i {
				t.Fatalf("%d pods: lookup(%q) = %d, %v, want %d, true", n, pods[i].Name, j, ok, i)
			}
		}
		if j, ok := x.lookup("web-" + strconv.Itoa(n)); ok || j != -1 {
			t.Fatalf("%d pods: lookup of a missing name = %d, %v, want -1, false", n, j, ok)
		}
		if n > 1 {
			pods = append(pods, Pod{Name: pods[n/2].Name})
			x.reset(pods)
			for i := range n {
				x.add(i)
			}
			if j, dup := x.add(n); !dup || j != n/2 {
				t.Fatalf("%d pods: add of a duplicate = %d, %v, want %d, true", n, j, dup, n/2)
			}
		}
	}
	var empty nameIndex
	if j, ok := empty.lookup("web-0"); ok || j != -1 {
		t.Fatalf("zero nameIndex: lookup = %d, %v, want -1, false", j, ok)
	}
}

// TestPlanDuplicateNameLarge: the duplicate check of Plan finds a
// repeated name among many pods, and names the second one.
func TestPlanDuplicateNameLarge(t *testing.T) {
	var pods []Pod
	for i := range 5000 {
		pods = append(pods, Pod{Name: "demo-" + strconv.Itoa(i), Phase: PodRunning, Ready: true, CreationTime: t0, ReadySince: t0})
	}
	pods = slices.Insert(pods, 4000, Pod{Name: "demo-17"})
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 5000, Template: templateOf("nginx:1.25")}
	_, err := Plan(cs, pods, nil, t0)
	const want = `cloneset: pods[4000].name: duplicate name "demo-17"`
	if err == nil || err.Error() != want || !errors.Is(err, field.ErrDuplicate) {
		t.Fatalf("Plan: %v, want %s", err, want)
	}
}

// TestPreparingUpdateFirst: the stable partition gives the order a
// stable sort by "in PreparingUpdate first" gives.
func TestPreparingUpdateFirst(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	states := []LifecycleState{Normal, PreparingUpdate, Updated, "", PreparingNormal}
	for range 200 {
		n := rng.Intn(40)
		pods := make([]Pod, n)
		for i := range pods {
			pods[i].Lifecycle = states[rng.Intn(len(states))]
		}
		idx := rng.Perm(n)
		want := slices.Clone(idx)
		slices.SortStableFunc(want, func(a, b int) int {
			pa, pb := pods[a].Lifecycle == PreparingUpdate, pods[b].Lifecycle == PreparingUpdate
			switch {
			case pa == pb:
				return 0
			case pa:
				return -1
			}
			return 1
		})
		preparingUpdateFirst(pods, idx)
		if !slices.Equal(idx, want) {
			t.Fatalf("preparingUpdateFirst = %v, want %v", idx, want)
		}
	}
}

// TestSameShortHash: the shortcut agrees with comparing shortHash, on
// names with and without a '-', empty ones and ones ending in '-'.
func TestSameShortHash(t *testing.T) {
	names := []string{"", "-", "a-", "web-", "web-1", "web-2", "demo-1", "x1", "1", "web-abc", "api-abc", "abc", "web-7f9c", "-7f9c", "web-7f9d"}
	for _, a := range names {
		for _, b := range names {
			if got, want := sameShortHash(a, b), shortHash(a) == shortHash(b); got != want {
				t.Errorf("sameShortHash(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}
