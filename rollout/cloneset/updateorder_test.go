package cloneset

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// ut0 is the reference time of the update-side tests.
var ut0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// labelled returns pods p0, p1, ... that are equal in every respect the
// ActivePods order reads (running, ready since the same time, created at
// the same time), with the given labels.
func labelled(labels ...map[string]string) []Pod {
	pods := make([]Pod, len(labels))
	for i, l := range labels {
		pods[i] = Pod{
			Name: fmt.Sprintf("p%02d", i), Revision: "cs-old", Labels: l,
			Phase: PodRunning, NodeName: "n1", Ready: true, ReadySince: ut0.Add(-time.Hour),
			CreationTime: ut0.Add(-2 * time.Hour),
		}
	}
	return pods
}

func allIndexes(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

func TestSortUpdateIndexes(t *testing.T) {
	running := func(name string, readyAgo time.Duration) Pod {
		return Pod{Name: name, Phase: PodRunning, NodeName: "n1", Ready: readyAgo > 0, ReadySince: ut0.Add(-readyAgo), CreationTime: ut0.Add(-time.Hour)}
	}
	tests := []struct {
		name       string
		strategy   UpdateStrategy
		opts       UpdateOrderOptions
		pods       []Pod
		candidates []int
		want       []int
		reason     string
	}{
		{
			name: "kruise TestSortUpdateIndexes",
			pods: []Pod{
				{Name: "p0", Phase: PodPending, Ready: true},
				{Name: "p1", Phase: PodPending},
				{Name: "p2", Phase: PodPending},
				{Name: "p3", Phase: PodRunning, Ready: true},
				{Name: "p4", Phase: PodRunning},
			},
			candidates: []int{0, 1, 3, 4},
			want:       []int{1, 0, 4, 3},
			reason:     "Pending before Running, not ready before ready",
		},
		{
			name: "observed: PreparingUpdate first, then unscheduled, unready, most recently ready",
			pods: []Pod{
				running("p0", 100*time.Second),
				running("p1", 0),
				running("p2", 50*time.Second),
				func() Pod { p := running("p3", 100*time.Second); p.Lifecycle = PreparingUpdate; return p }(),
				{Name: "p4", Phase: PodPending},
			},
			candidates: []int{0, 1, 2, 3, 4},
			want:       []int{3, 4, 1, 2, 0},
		},
		{
			name: "restarts, then sidecar restarts, then newer first",
			pods: []Pod{
				{Name: "a", Phase: PodRunning, NodeName: "n", CreationTime: ut0},
				{Name: "b", Phase: PodRunning, NodeName: "n", CreationTime: ut0, Restarts: 2},
				{Name: "c", Phase: PodRunning, NodeName: "n", CreationTime: ut0, Restarts: 2, SidecarRestarts: 1},
				{Name: "d", Phase: PodRunning, NodeName: "n", CreationTime: ut0.Add(time.Second)},
				{Name: "e", Phase: PodRunning, NodeName: "n"},
			},
			candidates: []int{0, 1, 2, 3, 4},
			want:       []int{2, 1, 4, 3, 0},
			reason:     "a zero creation time counts as the newest",
		},
		{
			name: "Unknown between Pending and Running; zero ready time first",
			pods: []Pod{
				{Name: "a", Phase: PodRunning, NodeName: "n", Ready: true, ReadySince: ut0},
				{Name: "b", Phase: PodUnknown, NodeName: "n"},
				{Name: "c", Phase: "", NodeName: "n"},
				{Name: "d", Phase: PodRunning, NodeName: "n", Ready: true},
			},
			candidates: []int{0, 1, 2, 3},
			want:       []int{2, 1, 3, 0},
		},
		{
			name:       "ties broken by name, not by input order",
			pods:       []Pod{{Name: "z", Phase: PodPending}, {Name: "m", Phase: PodPending}, {Name: "a", Phase: PodPending}},
			candidates: []int{0, 1, 2},
			want:       []int{2, 1, 0},
			reason:     "kruise's sort.Slice leaves equal pods in an input-dependent order",
		},
		{
			name: "observed: weight priority",
			strategy: UpdateStrategy{PriorityStrategy: &PriorityStrategy{WeightPriority: []WeightTerm{
				{Weight: 50, MatchSelector: LabelSelector{MatchLabels: map[string]string{"a": "x"}}},
				{Weight: 30, MatchSelector: LabelSelector{MatchLabels: map[string]string{"b": "x"}}},
			}}},
			pods:       labelled(map[string]string{"a": "x"}, map[string]string{"b": "x"}, map[string]string{"a": "x", "b": "x"}, nil),
			candidates: []int{0, 1, 2, 3},
			want:       []int{2, 0, 1, 3},
		},
		{
			name:     "observed: order priority, no key first (kruise, S8)",
			strategy: UpdateStrategy{PriorityStrategy: &PriorityStrategy{OrderPriority: []OrderTerm{{OrderedKey: "k"}, {OrderedKey: "k2"}}}},
			pods: labelled(map[string]string{"k": "o-3"}, nil, map[string]string{"k": "o-10"},
				map[string]string{"k2": "x-7"}, map[string]string{"k": "o-1"}),
			candidates: []int{0, 1, 2, 3, 4},
			want:       []int{1, 2, 0, 4, 3},
		},
		{
			name:       "order priority with one key",
			strategy:   UpdateStrategy{PriorityStrategy: &PriorityStrategy{OrderPriority: []OrderTerm{{OrderedKey: "k"}}}},
			pods:       labelled(map[string]string{"k": "o-3"}, map[string]string{"k": "o-10"}, map[string]string{"k": "o-1"}),
			candidates: []int{0, 1, 2},
			want:       []int{1, 0, 2},
		},
		{
			name:     "order priority with NoKeyLast",
			strategy: UpdateStrategy{PriorityStrategy: &PriorityStrategy{OrderPriority: []OrderTerm{{OrderedKey: "k"}, {OrderedKey: "k2"}}}},
			opts:     UpdateOrderOptions{NoKey: NoKeyLast},
			pods: labelled(map[string]string{"k": "o-3"}, nil, map[string]string{"k": "o-10"},
				map[string]string{"k2": "x-7"}, map[string]string{"k": "o-1"}),
			candidates: []int{0, 1, 2, 3, 4},
			want:       []int{2, 0, 4, 3, 1},
		},
		{
			name:       "kruise TestScatterPodsByRule: scatter",
			strategy:   UpdateStrategy{ScatterStrategy: []ScatterTerm{{Key: "labelA", Value: "AAA"}}},
			pods:       labelled(nil, nil, nil, nil, map[string]string{"labelA": "AAA"}, map[string]string{"labelA": "AAA"}),
			candidates: []int{0, 1, 2, 3, 4, 5},
			want:       []int{4, 0, 1, 2, 3, 5},
		},
		{
			name:     "priority, then scatter, then PreparingUpdate",
			strategy: UpdateStrategy{PriorityStrategy: &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 10, MatchSelector: LabelSelector{MatchLabels: map[string]string{"zone": "b"}}}}}, ScatterStrategy: []ScatterTerm{{Key: "zone", Value: "b"}}},
			pods: func() []Pod {
				p := labelled(nil, nil, map[string]string{"zone": "b"}, map[string]string{"zone": "b"}, nil)
				p[4].Lifecycle = PreparingUpdate
				return p
			}(),
			candidates: []int{0, 1, 2, 3, 4},
			want:       []int{4, 2, 0, 1, 3},
			reason:     "weight puts 2,3 first; scatter spreads them; PreparingUpdate 4 goes in front",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SortUpdateIndexes(tt.strategy, tt.pods, tt.candidates, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SortUpdateIndexes mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestSortUpdateIndexesErrors(t *testing.T) {
	good := []Pod{{Name: "a"}, {Name: "b"}, {Name: "t", Terminating: true}}
	tests := []struct {
		name       string
		pods       []Pod
		candidates []int
		want       string
	}{
		{"out of range", good, []int{0, 3}, "cloneset: candidates[1]: 3: out of range for 3 pods"},
		{"negative", good, []int{-1}, "cloneset: candidates[0]: -1: out of range for 3 pods"},
		{"repeated", good, []int{0, 0}, "cloneset: candidates[1]: 0: listed twice"},
		{"inactive", good, []int{2}, `cloneset: candidates[0]: 2: pod "t" is not active`},
		{"same name", []Pod{{Name: "a"}, {Name: "a"}}, []int{0}, `cloneset: pods[1].name: duplicate name "a"`},
		{"no name", []Pod{{Name: ""}}, nil, `cloneset: pods[0].name: must not be empty`},
		{"negative restarts", []Pod{{Name: "a", Restarts: -1}}, []int{0}, `cloneset: pods[0].restarts: -1: must not be negative`},
	}
	for _, tt := range tests {
		got, err := SortUpdateIndexes(UpdateStrategy{}, tt.pods, tt.candidates, UpdateOrderOptions{})
		if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) || got != nil {
			t.Errorf("%s: SortUpdateIndexes = %v, %v, want nil, %q", tt.name, got, err, tt.want)
		}
	}
}

func TestUpdateCandidates(t *testing.T) {
	grace := &InPlaceUpdateGrace{Revision: "cs-new", GraceSeconds: 10}
	pods := []Pod{
		{Name: "old", Revision: "cs-old"},
		{Name: "new", Revision: "cs-new"},
		{Name: "short-new", Revision: "new"},
		{Name: "old-predelete", Revision: "cs-old", Lifecycle: PreparingDelete},
		{Name: "old-updated", Revision: "cs-old", Lifecycle: Updated, InPlaceUpdateGrace: grace},
		{Name: "old-grace", Revision: "cs-old", Lifecycle: Updating, InPlaceUpdateGrace: grace},
		{Name: "old-specified", Revision: "cs-old", SpecifiedDelete: true},
		{Name: "old-terminating", Revision: "cs-old", Terminating: true},
		{Name: "old-failed", Revision: "cs-old", Phase: PodFailed},
		{Name: "new-predelete", Revision: "cs-new", Lifecycle: PreparingDelete},
	}
	tests := []struct {
		name      string
		updateNum int32
		want      []int
		reason    string
	}{
		{name: "forward", updateNum: 3, want: []int{0, 4, 6}, reason: "PreparingDelete, grace and inactive pods skipped; Updated kept despite grace"},
		{name: "rollback", updateNum: -1, want: []int{1, 2}, reason: "pods at the update revision, short hash included"},
		{name: "nothing to do", updateNum: 0, want: nil},
	}
	for _, tt := range tests {
		got := UpdateCandidates(pods, "cs-new", tt.updateNum)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: UpdateCandidates(updateNum %d) mismatch (-want +got) (%s):\n%s", tt.name, tt.updateNum, tt.reason, diff)
		}
	}
}

// drawUpdatePods draws uniquely named pods whose order keys often tie.
func drawUpdatePods(t *rapid.T, max int) []Pod {
	n := rapid.IntRange(0, max).Draw(t, "pods")
	pods := make([]Pod, n)
	for i := range pods {
		labels := map[string]string{}
		if rapid.Bool().Draw(t, "hasZone") {
			labels["zone"] = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "zone")
		}
		if rapid.Bool().Draw(t, "hasOrder") {
			labels[rapid.SampledFrom([]string{"k", "k2"}).Draw(t, "orderKey")] = rapid.SampledFrom([]string{"o-1", "o-10", "x", "9"}).Draw(t, "orderValue")
		}
		pods[i] = Pod{
			Name:         fmt.Sprintf("pod-%03d", i),
			Revision:     rapid.SampledFrom([]string{"cs-old", "cs-new"}).Draw(t, "revision"),
			Labels:       labels,
			Phase:        rapid.SampledFrom([]PodPhase{PodPending, PodRunning, PodUnknown, ""}).Draw(t, "phase"),
			NodeName:     rapid.SampledFrom([]string{"", "n1", "n2"}).Draw(t, "node"),
			Ready:        rapid.Bool().Draw(t, "ready"),
			ReadySince:   ut0.Add(-time.Duration(rapid.IntRange(0, 2).Draw(t, "readyAgo")) * time.Minute),
			CreationTime: ut0.Add(-time.Duration(rapid.IntRange(0, 2).Draw(t, "createdAgo")) * time.Hour),
			Restarts:     int32(rapid.IntRange(0, 1).Draw(t, "restarts")),
			Lifecycle:    rapid.SampledFrom([]LifecycleState{"", Normal, PreparingUpdate, Updated, Updating}).Draw(t, "lifecycle"),
		}
	}
	return pods
}

func drawUpdateStrategy(t *rapid.T) (UpdateStrategy, UpdateOrderOptions) {
	var s UpdateStrategy
	switch rapid.IntRange(0, 2).Draw(t, "priority") {
	case 1:
		s.PriorityStrategy = &PriorityStrategy{WeightPriority: []WeightTerm{
			{Weight: 50, MatchSelector: LabelSelector{MatchLabels: map[string]string{"zone": "a"}}},
			{Weight: 30, MatchSelector: LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "k", Operator: "Exists"}}}},
		}}
	case 2:
		s.PriorityStrategy = &PriorityStrategy{OrderPriority: []OrderTerm{{OrderedKey: "k"}, {OrderedKey: "k2"}}}
	}
	switch rapid.IntRange(0, 2).Draw(t, "scatter") {
	case 1:
		s.ScatterStrategy = []ScatterTerm{{Key: "zone", Value: "b"}}
	case 2:
		s.ScatterStrategy = []ScatterTerm{{Key: "zone", Value: "a"}, {Key: "k", Value: "o-1"}, {Key: "zone", Value: "b"}}
	}
	opts := UpdateOrderOptions{
		NoKey:   rapid.SampledFrom([]NoKeyOrder{NoKeyFirst, NoKeyLast}).Draw(t, "noKey"),
		Scatter: rapid.SampledFrom([]ScatterGrouping{ScatterRound, ScatterFloor}).Draw(t, "scatterGrouping"),
	}
	return s, opts
}

func podNames(pods []Pod, idx []int) []string {
	out := make([]string, len(idx))
	for n, i := range idx {
		out[n] = pods[i].Name
	}
	return out
}

// TestUpdateOrderIsTotalAndIndependentOfInputOrder: shuffling the pods and
// the candidates changes nothing but the indices, and the result is a
// permutation of the candidates.
func TestUpdateOrderIsTotalAndIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawUpdatePods(t, 30)
		strategy, opts := drawUpdateStrategy(t)
		cands := UpdateCandidates(pods, "cs-new", 1)
		got, err := SortUpdateIndexes(strategy, pods, cands, opts)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(cands)); !slices.Equal(a, b) {
			t.Fatalf("order %v is not a permutation of candidates %v", got, cands)
		}
		perm := rapid.Permutation(allIndexes(len(pods))).Draw(t, "permutation")
		shuffled := make([]Pod, len(pods))
		where := make([]int, len(pods))
		for n, i := range perm {
			shuffled[n] = pods[i]
			where[i] = n
		}
		var cands2 []int
		for _, i := range cands {
			cands2 = append(cands2, where[i])
		}
		cands2 = rapid.Permutation(cands2).Draw(t, "candidateOrder")
		got2, err := SortUpdateIndexes(strategy, shuffled, cands2, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(podNames(pods, got), podNames(shuffled, got2)); diff != "" {
			t.Fatalf("update order depends on input order (-original +shuffled):\n%s", diff)
		}
	})
}

// TestUpdateOrderWithoutStrategyIsSortedByActivePods: without priority or
// scatter, consecutive pods never go against the ActivePods order, apart
// from PreparingUpdate pods, which lead.
func TestUpdateOrderWithoutStrategyIsSortedByActivePods(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawUpdatePods(t, 30)
		got, err := SortUpdateIndexes(UpdateStrategy{}, pods, UpdateCandidates(pods, "cs-new", 1), UpdateOrderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n < len(got); n++ {
			a, b := &pods[got[n-1]], &pods[got[n]]
			if (a.Lifecycle == PreparingUpdate) != (b.Lifecycle == PreparingUpdate) {
				if b.Lifecycle == PreparingUpdate {
					t.Fatalf("PreparingUpdate pod %s after %s", b.Name, a.Name)
				}
				continue
			}
			if compareActive(a, b) >= 0 {
				t.Fatalf("%s before %s goes against the ActivePods order", a.Name, b.Name)
			}
		}
	})
}

// TestUpdateOrderPutsPreparingUpdateFirst holds with every strategy.
func TestUpdateOrderPutsPreparingUpdateFirst(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawUpdatePods(t, 30)
		strategy, opts := drawUpdateStrategy(t)
		got, err := SortUpdateIndexes(strategy, pods, UpdateCandidates(pods, "cs-new", 1), opts)
		if err != nil {
			t.Fatal(err)
		}
		seenOther := false
		for _, i := range got {
			if pods[i].Lifecycle != PreparingUpdate {
				seenOther = true
			} else if seenOther {
				t.Fatalf("PreparingUpdate pod %s after another pod in %v", pods[i].Name, podNames(pods, got))
			}
		}
	})
}

func TestSortUpdateIndexesDoesNotModifyInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawUpdatePods(t, 20)
		strategy, opts := drawUpdateStrategy(t)
		cands := UpdateCandidates(pods, "cs-new", 1)
		podsBefore, candsBefore := clonePods(pods), slices.Clone(cands)
		if _, err := SortUpdateIndexes(strategy, pods, cands, opts); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(podsBefore, pods); diff != "" {
			t.Fatalf("SortUpdateIndexes modified pods:\n%s", diff)
		}
		if !slices.Equal(candsBefore, cands) {
			t.Fatalf("SortUpdateIndexes modified candidates: %v, was %v", cands, candsBefore)
		}
	})
}

// clonePods copies pods deeply enough for purity checks.
func clonePods(pods []Pod) []Pod {
	out := slices.Clone(pods)
	for i := range out {
		if out[i].Labels != nil {
			l := make(map[string]string, len(out[i].Labels))
			for k, v := range out[i].Labels {
				l[k] = v
			}
			out[i].Labels = l
		}
		out[i].Finalizers = slices.Clone(out[i].Finalizers)
	}
	return out
}

func benchmarkSortUpdateIndexes(b *testing.B, n int) {
	pods := make([]Pod, n)
	for i := range pods {
		pods[i] = Pod{
			Name: fmt.Sprintf("demo-%06d", i), Revision: "cs-old", Phase: PodRunning, NodeName: fmt.Sprintf("n%d", i%50),
			Ready: i%7 != 0, ReadySince: ut0.Add(-time.Duration(i%13) * time.Minute), CreationTime: ut0.Add(-time.Duration(i%5) * time.Hour),
			Labels: map[string]string{"zone": []string{"a", "b", "c"}[i%3]},
		}
	}
	strategy := UpdateStrategy{
		PriorityStrategy: &PriorityStrategy{WeightPriority: []WeightTerm{{Weight: 10, MatchSelector: LabelSelector{MatchLabels: map[string]string{"zone": "a"}}}}},
		ScatterStrategy:  []ScatterTerm{{Key: "zone", Value: "b"}},
	}
	cands := UpdateCandidates(pods, "cs-new", 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SortUpdateIndexes(strategy, pods, cands, UpdateOrderOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSortUpdateIndexes1000(b *testing.B)   { benchmarkSortUpdateIndexes(b, 1000) }
func BenchmarkSortUpdateIndexes100000(b *testing.B) { benchmarkSortUpdateIndexes(b, 100000) }

// drawOrderTime draws a time for the ActivePods order's keys: zero (in
// UTC or another location), instants a nanosecond, a second or an hour
// apart, the same instant in another location, instants at and beyond
// the reach of int64 nanoseconds, and times carrying a monotonic clock
// reading.
func drawOrderTime(t *rapid.T, label string, mono time.Time) time.Time {
	east := time.FixedZone("east", 3*3600)
	ago := time.Duration(rapid.SampledFrom([]int64{0, 1, 2, int64(time.Second), int64(time.Hour)}).Draw(t, label+"Ago"))
	switch rapid.IntRange(0, 7).Draw(t, label) {
	case 0:
		return time.Time{}
	case 1:
		return time.Time{}.In(east)
	case 2:
		return ut0.Add(-ago).In(east)
	case 3:
		return time.Unix(-9e9, 0).Add(-ago)
	case 4:
		return time.Unix(9e9, 999999999).Add(ago)
	case 5:
		return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(ago)
	case 6:
		return mono.Add(-ago)
	}
	return ut0.Add(-ago)
}

// TestUpdateKeysOrderAsCompareActive: the integer keys the update sort
// compares put two pods in compareActive's order whenever both pods have
// keys, and the update order is compareActive's whether they do or not
// (the sort then falls back to compareActive).
func TestUpdateKeysOrderAsCompareActive(t *testing.T) {
	mono := time.Now()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "pods")
		pods := make([]Pod, n)
		for i := range pods {
			pods[i] = Pod{
				Name:            fmt.Sprintf("pod-%02d", rapid.IntRange(0, 99).Draw(t, "name")),
				Phase:           rapid.SampledFrom([]PodPhase{PodPending, PodRunning, PodUnknown, ""}).Draw(t, "phase"),
				NodeName:        rapid.SampledFrom([]string{"", "n1"}).Draw(t, "node"),
				Ready:           rapid.Bool().Draw(t, "ready"),
				ReadySince:      drawOrderTime(t, "readySince", mono),
				CreationTime:    drawOrderTime(t, "created", mono),
				Restarts:        rapid.SampledFrom([]int32{0, 1, math.MaxInt32}).Draw(t, "restarts"),
				SidecarRestarts: rapid.SampledFrom([]int32{0, 1, math.MaxInt32}).Draw(t, "sidecarRestarts"),
			}
		}
		pods = slices.CompactFunc(slices.SortedFunc(slices.Values(pods), func(a, b Pod) int { return strings.Compare(a.Name, b.Name) }),
			func(a, b Pod) bool { return a.Name == b.Name })
		for i := range pods {
			ki, okI := updateKeyOf(&pods[i], i)
			for j := range pods {
				kj, okJ := updateKeyOf(&pods[j], j)
				if !okI || !okJ {
					continue
				}
				got := compareUpdateKeys(&ki, &kj)
				if got == 0 {
					got = strings.Compare(pods[i].Name, pods[j].Name)
				}
				if want := compareActive(&pods[i], &pods[j]); sign(got) != sign(want) {
					t.Fatalf("keys of %+v and %+v compare %d, compareActive %d", pods[i], pods[j], got, want)
				}
			}
		}
		all := make([]int, len(pods))
		for i := range all {
			all[i] = i
		}
		perm := rapid.Permutation(all).Draw(t, "order")
		want := slices.SortedFunc(slices.Values(perm), func(a, b int) int { return compareActive(&pods[a], &pods[b]) })
		got, keys, _ := activeOrder(pods, perm, make([]int, len(perm)), nil)
		if !slices.Equal(got, want) {
			t.Fatalf("activeOrder = %v, compareActive's order %v", got, want)
		}
		// In place, as the update step sorts, with the last call's keys
		// as its memory, as a Planner's next sync has them.
		if got, _, _ := activeOrder(pods, perm, perm, keys); !slices.Equal(got, want) {
			t.Fatalf("activeOrder in place = %v, compareActive's order %v", got, want)
		}
	})
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// TestTimeKeyReach: the times with a key are those of any location
// without a monotonic reading within 9e9 seconds of 1970, and the zero
// time; the others send the update sort to compareActive.
func TestTimeKeyReach(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    time.Time
		want int64
		ok   bool
	}{
		{"zero", time.Time{}, math.MaxInt64, true},
		{"zero in another location", time.Time{}.In(time.FixedZone("east", 3600)), math.MaxInt64, true},
		{"1970", time.Unix(0, 0), 0, true},
		{"ut0 in another location", ut0.In(time.FixedZone("east", 3600)), ut0.UnixNano(), true},
		{"a nanosecond after 1970", time.Unix(0, 1), 1, true},
		{"the earliest", time.Unix(-9e9, 0), -9e18, true},
		{"the latest", time.Unix(9e9, 999999999), 9e18 + 999999999, true},
		{"beyond the earliest", time.Unix(-9e9-1, 999999999), 0, false},
		{"beyond the latest", time.Unix(9e9+1, 0), 0, false},
		{"year 1 plus a nanosecond", time.Time{}.Add(1), 0, false},
		{"a monotonic reading", time.Now(), 0, false},
	} {
		if got, ok := timeKey(tt.t); got != tt.want || ok != tt.ok {
			t.Errorf("timeKey(%s: %v) = %d, %v; want %d, %v", tt.name, tt.t, got, ok, tt.want, tt.ok)
		}
	}
}

// TestUpdateCandidatesInOnePass: the update step's one-pass candidates
// are UpdateCandidates'.
func TestUpdateCandidatesInOnePass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawUpdatePods(t, 20)
		for i := range pods {
			pods[i].Terminating = rapid.IntRange(0, 4).Draw(t, "terminating") == 0
			if rapid.IntRange(0, 4).Draw(t, "held") == 0 {
				pods[i].InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: "cs-new", GraceSeconds: 1}
			}
		}
		num := rapid.Int32Range(-2, 2).Draw(t, "updateNum")
		if got, want := updateCandidates(pods, "cs-new", num, nil), UpdateCandidates(pods, "cs-new", num); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("updateCandidates = %v, UpdateCandidates %v", got, want)
		}
	})
}
