package cloneset

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func orderNames(t interface {
	Helper()
	Fatalf(string, ...any)
}, pods []Pod, minReady int32) []string {
	t.Helper()
	idx, err := DeletionOrder(pods, minReady, t0)
	if err != nil {
		t.Fatalf("DeletionOrder: %v", err)
	}
	names := make([]string, len(idx))
	for i, j := range idx {
		names[i] = pods[j].Name
	}
	return names
}

func TestDeletionOrderSpecCases(t *testing.T) {
	base := func(name, node string, cost string) Pod {
		return Pod{Name: name, NodeName: node, Phase: PodRunning, Ready: true, ReadySince: t0.Add(-time.Hour), CreationTime: t0.Add(-2 * time.Hour), Lifecycle: Normal, DeletionCost: cost}
	}
	// Observed by running kruise (docs/cloneset.md#deletion-order): a(cost 5) b(-1) c(none)
	// d(unready, cost -100) e(Pending, unscheduled) f("+3" reads 0, newest).
	a, b, c := base("a", "n1", "5"), base("b", "n2", "-1"), base("c", "n3", "")
	d := base("d", "n4", "-100")
	d.Ready = false
	e := Pod{Name: "e", Phase: PodPending, CreationTime: t0.Add(-2 * time.Hour), Lifecycle: PreparingNormal}
	f := base("f", "n6", "+3")
	f.CreationTime = t0.Add(-time.Hour)
	pods := []Pod{a, b, c, d, e, f}
	want := []string{"e", "d", "b", "f", "c", "a"}
	if got := orderNames(t, pods, 0); !slices.Equal(got, want) {
		t.Errorf("DeletionOrder(a to f) = %v, want %v", got, want)
	}

	// Observed by running kruise: p0, p1 on n1, p2 on n2, p3 on n3, created in that order:
	// p1 has same-node rank 1 and goes first, then the newest, p3.
	var ranked []Pod
	for i, node := range []string{"n1", "n1", "n2", "n3"} {
		p := base("p"+strconv.Itoa(i), node, "")
		p.CreationTime = t0.Add(time.Duration(i-10) * time.Minute)
		ranked = append(ranked, p)
	}
	want = []string{"p1", "p3", "p2", "p0"}
	if got := orderNames(t, ranked, 0); !slices.Equal(got, want) {
		t.Errorf("DeletionOrder(same-node pods) = %v, want %v", got, want)
	}
}

func TestDeletionOrderRules(t *testing.T) {
	mk := func(name string, f func(*Pod)) Pod {
		p := Pod{Name: name, NodeName: "n-" + name, Phase: PodRunning, Ready: true, ReadySince: t0.Add(-time.Hour), CreationTime: t0.Add(-2 * time.Hour), Lifecycle: Normal}
		f(&p)
		return p
	}
	tests := []struct {
		name     string
		first    Pod
		second   Pod
		minReady int32
	}{
		{"unscheduled first", mk("x", func(p *Pod) { p.NodeName = "" }), mk("y", func(p *Pod) { p.Phase = PodPending; p.Ready = false }), 0},
		{"Pending before Unknown", mk("x", func(p *Pod) { p.Phase = PodPending }), mk("y", func(p *Pod) { p.Phase = PodUnknown }), 0},
		{"empty phase with Pending", mk("x", func(p *Pod) { p.Phase = "" }), mk("y", func(p *Pod) { p.Phase = PodUnknown }), 0},
		{"Unknown before Running", mk("x", func(p *Pod) { p.Phase = PodUnknown }), mk("y", func(*Pod) {}), 0},
		{"unavailable (lifecycle) before available", mk("x", func(p *Pod) { p.Lifecycle = Updated; p.DeletionCost = "100" }), mk("y", func(*Pod) {}), 0},
		{"unavailable (minReady) before available", mk("x", func(p *Pod) { p.ReadySince = t0.Add(-5 * time.Second) }), mk("y", func(p *Pod) { p.DeletionCost = "-100" }), 10},
		{"not ready before ready, both unavailable", mk("x", func(p *Pod) { p.Ready = false; p.Lifecycle = Updated }), mk("y", func(p *Pod) { p.Lifecycle = Updated; p.DeletionCost = "-9" }), 0},
		{"lower cost first", mk("x", func(p *Pod) { p.DeletionCost = "-1" }), mk("y", func(*Pod) {}), 0},
		{"junk cost is 0", mk("x", func(p *Pod) { p.DeletionCost = "007" }), mk("y", func(p *Pod) { p.DeletionCost = "1" }), 0},
		{"later ready first", mk("x", func(p *Pod) { p.ReadySince = t0.Add(-time.Minute) }), mk("y", func(*Pod) {}), 0},
		{"zero ready time first", mk("x", func(p *Pod) { p.ReadySince = time.Time{} }), mk("y", func(*Pod) {}), 0},
		{"more restarts first", mk("x", func(p *Pod) { p.Restarts = 2 }), mk("y", func(p *Pod) { p.Restarts = 1; p.SidecarRestarts = 9 }), 0},
		{"newer first", mk("x", func(p *Pod) { p.CreationTime = t0.Add(-time.Minute) }), mk("y", func(*Pod) {}), 0},
		{"zero creation first", mk("x", func(p *Pod) { p.CreationTime = time.Time{} }), mk("y", func(*Pod) {}), 0},
		{"then by name", mk("x", func(*Pod) {}), mk("y", func(*Pod) {}), 0},
	}
	for _, tt := range tests {
		for _, pods := range [][]Pod{{tt.first, tt.second}, {tt.second, tt.first}} {
			if got := orderNames(t, pods, tt.minReady); !slices.Equal(got, []string{tt.first.Name, tt.second.Name}) {
				t.Errorf("%s: DeletionOrder = %v, want %s first", tt.name, got, tt.first.Name)
			}
		}
	}
}

func TestDeletionOrderSkipsInactivePodsAndRejectsBadInput(t *testing.T) {
	pods := []Pod{{Name: "a", Phase: PodRunning}, {Name: "b", Phase: PodFailed}, {Name: "c", Terminating: true}}
	if got := orderNames(t, pods, 0); !slices.Equal(got, []string{"a"}) {
		t.Errorf("DeletionOrder = %v, want [a]", got)
	}
	if idx, err := DeletionOrder([]Pod{{Name: "a"}, {Name: "a"}}, 0, t0); err == nil || idx != nil {
		t.Errorf("DeletionOrder(duplicate names) = %v, %v, want an error", idx, err)
	}
	if idx, err := DeletionOrder(nil, 0, t0); err != nil || len(idx) != 0 {
		t.Errorf("DeletionOrder(nil) = %v, %v, want empty", idx, err)
	}
}

// refRanks is the same-node ranker written plainly: for each node, count
// the node's pods that compare after p by refOnNode; a pod is ranked by
// how many of its node's pods are more valuable, except the most valuable
// which keeps 0.
func refRanks(pods []Pod) map[string]int {
	ranks := map[string]int{}
	for i := range pods {
		p := &pods[i]
		if p.NodeName == "" {
			continue
		}
		after, on := 0, 0
		for j := range pods {
			q := &pods[j]
			if q.NodeName != p.NodeName {
				continue
			}
			on++
			if refLess(p, q, nil, 0) {
				after++
			}
		}
		if on >= 2 {
			ranks[p.Name] = after // the most valuable pod has nothing after it: rank 0
		}
	}
	return ranks
}

// refLess is kruise's ActivePodsWithRanks.Less written from
// docs/cloneset.md#deletion-order, plus the name rule. ranks nil means no ranker and no availability.
func refLess(a, b *Pod, ranks map[string]int, minReady int32) bool {
	if (a.NodeName == "") != (b.NodeName == "") {
		return a.NodeName == ""
	}
	ord := map[PodPhase]int{PodPending: 0, PodUnknown: 1, PodRunning: 2}
	if ord[a.Phase] != ord[b.Phase] {
		return ord[a.Phase] < ord[b.Phase]
	}
	if ranks != nil {
		aa, ba := IsPodAvailable(a, minReady, t0), IsPodAvailable(b, minReady, t0)
		if aa != ba {
			return !aa
		}
	}
	if a.Ready != b.Ready {
		return !a.Ready
	}
	ca, _ := ParseDeletionCost(a.DeletionCost)
	cb, _ := ParseDeletionCost(b.DeletionCost)
	if ca != cb {
		return ca < cb
	}
	if ranks != nil && ranks[a.Name] != ranks[b.Name] {
		return ranks[a.Name] > ranks[b.Name]
	}
	if a.Ready && b.Ready && !a.ReadySince.Equal(b.ReadySince) {
		if a.ReadySince.IsZero() || b.ReadySince.IsZero() {
			return a.ReadySince.IsZero()
		}
		return a.ReadySince.After(b.ReadySince)
	}
	if a.Restarts != b.Restarts {
		return a.Restarts > b.Restarts
	}
	if !a.CreationTime.Equal(b.CreationTime) {
		if a.CreationTime.IsZero() || b.CreationTime.IsZero() {
			return a.CreationTime.IsZero()
		}
		return a.CreationTime.After(b.CreationTime)
	}
	return a.Name < b.Name
}

func drawActivePods(t *rapid.T, max int) []Pod {
	pods := drawPods(t, max)
	out := pods[:0]
	for _, p := range pods {
		if IsPodActive(&p) {
			out = append(out, p)
		}
	}
	return out
}

func TestDeletionOrderAgreesWithReferenceLess(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawActivePods(t, 30)
		minReady := rapid.SampledFrom([]int32{0, 30}).Draw(t, "minReadySeconds")
		idx, err := DeletionOrder(pods, minReady, t0)
		if err != nil {
			t.Fatal(err)
		}
		if len(idx) != len(pods) {
			t.Fatalf("DeletionOrder returned %d of %d active pods", len(idx), len(pods))
		}
		ranks := refRanks(pods)
		for i := range idx {
			for j := i + 1; j < len(idx); j++ {
				a, b := &pods[idx[i]], &pods[idx[j]]
				if refLess(b, a, ranks, minReady) {
					t.Fatalf("%s is before %s, but the reference deletes %s first (ranks %v)", a.Name, b.Name, b.Name, ranks)
				}
			}
		}
	})
}

func TestDeletionOrderIsTotalAndIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawPods(t, 40)
		want := orderNames(t, pods, 10)
		if len(slices.Compact(slices.Sorted(slices.Values(want)))) != len(want) {
			t.Fatalf("DeletionOrder repeats a pod: %v", want)
		}
		perm := rapid.Permutation(pods).Draw(t, "order")
		if got := orderNames(t, perm, 10); !slices.Equal(got, want) {
			t.Fatalf("DeletionOrder depends on input order:\n%v\n%v", want, got)
		}
	})
}

func TestDeletionOrderDoesNotModifyPods(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawPods(t, 20)
		before := slices.Clone(pods)
		orderNames(t, pods, 0)
		if !slices.EqualFunc(before, pods, func(a, b Pod) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
			t.Fatal("DeletionOrder modified its input")
		}
	})
}

func benchPods(n int) []Pod {
	pods := make([]Pod, n)
	for i := range pods {
		pods[i] = Pod{
			Name: "web-" + strconv.Itoa(i), Revision: "web-1", Phase: PodRunning, NodeName: "node-" + strconv.Itoa(i%(n/3+1)),
			Ready: i%17 != 0, ReadySince: t0.Add(-time.Duration(i%600) * time.Second), CreationTime: t0.Add(-time.Duration(i) * time.Second),
			Lifecycle: Normal, Restarts: int32(i % 3), DeletionCost: []string{"", "", "5", "-1"}[i%4],
		}
	}
	return pods
}

func BenchmarkDeletionOrder(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		pods := benchPods(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DeletionOrder(pods, 10, t0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDeletionOrderKruiseSortingCases holds kruise v1.9.1's
// TestSortingActivePods (pkg/controller/cloneset/utils): each pod equals
// itself, and each pair's lesser pod is deleted first whatever the input
// order. Kruise's test has no availability function; with minReadySeconds
// 0 and no lifecycle label availability coincides with Running and Ready,
// so rule 3 orders these pairs the same way.
func TestDeletionOrderKruiseSortingCases(t *testing.T) {
	then := t0.AddDate(0, -1, 0)
	pod := func(name, node string, phase PodPhase, ready bool, restarts int32, readySince, created time.Time, cost string) Pod {
		p := Pod{Name: name, NodeName: node, Phase: phase, Ready: ready, CreationTime: created, DeletionCost: cost}
		if ready {
			p.ReadySince, p.Restarts = readySince, restarts
		}
		return p
	}
	var zero time.Time
	unscheduled := pod("unscheduled", "", PodPending, false, 0, zero, zero, "")
	pending := pod("pending", "node", PodPending, false, 0, zero, zero, "")
	unknown := pod("unknown-phase", "node", PodUnknown, false, 0, zero, zero, "")
	notReady := pod("not-ready", "node", PodRunning, false, 0, zero, zero, "")
	readyNoLTT := pod("ready-no-last-transition-time", "node", PodRunning, true, 0, zero, zero, "")
	readyNow := pod("ready-now", "node", PodRunning, true, 0, t0, t0, "")
	readyThen := pod("ready-then", "node", PodRunning, true, 0, then, then, "")
	highRestarts := pod("ready-high-restarts", "node", PodRunning, true, 9001, t0, t0, "")
	createdThen := pod("ready-now-created-then", "node", PodRunning, true, 0, t0, then, "")
	lowCost := pod("low-deletion-cost", "node", PodRunning, true, 0, t0, then, "10")
	highCost := pod("high-deletion-cost", "node", PodRunning, true, 0, t0, then, "100")

	for _, p := range []Pod{unscheduled, pending, unknown, notReady, createdThen, readyNow, readyThen, highRestarts} {
		k := deletionKeys([]Pod{p}, nil, 0, t0)[0]
		if c := compareForDeletion(k, k); c != 0 {
			t.Errorf("%s compares %d with itself, want 0", p.Name, c)
		}
	}
	for _, tc := range []struct{ lesser, greater Pod }{
		{unscheduled, pending}, {pending, unknown}, {unknown, notReady}, {notReady, readyNoLTT},
		{readyNoLTT, readyNow}, {readyNow, readyThen}, {highRestarts, readyNow}, {readyNow, createdThen}, {lowCost, highCost},
	} {
		// Different nodes so that no same-node rank interferes, as in
		// kruise's test, which has no ranker.
		tc.lesser.NodeName, tc.greater.NodeName = nodeOr(tc.lesser.NodeName, "n1"), nodeOr(tc.greater.NodeName, "n2")
		for _, pods := range [][]Pod{{tc.lesser, tc.greater}, {tc.greater, tc.lesser}} {
			if got := orderNames(t, pods, 0); got[0] != tc.lesser.Name {
				t.Errorf("DeletionOrder(%s, %s) = %v, want %s first", pods[0].Name, pods[1].Name, got, tc.lesser.Name)
			}
		}
	}
}

func nodeOr(node, other string) string {
	if node == "" {
		return ""
	}
	return other
}

// TestSameNodeRankerKruiseCase holds kruise v1.9.1's TestSameNodeRanker:
// eleven identical pods, on nodes a: 0, 4, 10; b: 3, 6; c: 5; d: 7, 8, 9;
// 1 and 2 unscheduled. Kruise's ranks follow the listing order (its
// insertion sort is stable for so few pods): 0 -> 2, 4 -> 1, 3 -> 1,
// 7 -> 2, 8 -> 1. Ours follow the names, so pods named in listing order
// get kruise's ranks; named otherwise they get the ranks of their names.
func TestSameNodeRankerKruiseCase(t *testing.T) {
	nodes := []string{"a", "", "", "b", "a", "c", "b", "d", "d", "d", "a"}
	ranks := func(name func(i int) string) map[string]int32 {
		pods := make([]Pod, len(nodes))
		for i, n := range nodes {
			pods[i] = Pod{Name: name(i), NodeName: n}
		}
		got := map[string]int32{}
		for _, k := range deletionKeys(pods, nil, 0, t0) {
			if k.rank != 0 {
				got[k.name] = k.rank
			}
		}
		return got
	}
	padded := func(i int) string { return fmt.Sprintf("%02d", i) }
	want := map[string]int32{"00": 2, "04": 1, "03": 1, "07": 2, "08": 1}
	if got := ranks(padded); !maps.Equal(got, want) {
		t.Errorf("ranks = %v, want kruise's %v", got, want)
	}
	// Unpadded, "10" sorts between "0" and "4" on node a.
	want = map[string]int32{"0": 2, "10": 1, "3": 1, "7": 2, "8": 1}
	if got := ranks(strconv.Itoa); !maps.Equal(got, want) {
		t.Errorf("ranks = %v, want %v (ties broken by name)", got, want)
	}
}
