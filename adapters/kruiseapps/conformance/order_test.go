package conformance

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	clonesetcore "github.com/openkruise/kruise/pkg/controller/cloneset/core"
	clonesetsync "github.com/openkruise/kruise/pkg/controller/cloneset/sync"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// orderPods draws the state's pods with a few labels the priority and
// scatter strategies read, and now and then phase Unknown.
func orderPods(t *rapid.T, maxPods int) *state {
	s := genState(maxPods).Draw(t, "state")
	for i, p := range s.pods {
		if rapid.IntRange(0, 5).Draw(t, fmt.Sprint("unknown", i)) == 0 {
			p.Status.Phase = corev1.PodUnknown
		}
		p.Labels["zone"] = rapid.SampledFrom([]string{"a", "a", "b", "c"}).Draw(t, fmt.Sprint("zone", i))
		if v := rapid.SampledFrom([]string{"", "1", "2", "v10", "x-3", "abc", "07"}).Draw(t, fmt.Sprint("tier", i)); v != "" {
			p.Labels["tier"] = v
		}
		if v := rapid.SampledFrom([]string{"", "5", "p12"}).Draw(t, fmt.Sprint("rank", i)); v != "" {
			p.Labels["rank"] = v
		}
	}
	return s
}

// TestIsPodAvailableMatchesKruise compares IsPodAvailable and
// IsPodUpdateReady with kruise's sync.IsPodAvailable and the core
// control's IsPodUpdateReady, pod by pod.
func TestIsPodAvailableMatchesKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := orderPods(t, 4)
		cc := clonesetcore.New(s.cs)
		for _, p := range s.pods {
			if rapid.IntRange(0, 6).Draw(t, "inactivePhase") == 0 {
				p.Status.Phase = rapid.SampledFrom([]corev1.PodPhase{corev1.PodSucceeded, corev1.PodFailed, ""}).Draw(t, "phase")
			}
			minReady := s.cs.Spec.MinReadySeconds
			op := ourPod(p)
			if got, want := cloneset.IsPodAvailable(&op, minReady, s.now), clonesetsync.IsPodAvailable(cc, p, minReady); got != want {
				t.Fatalf("IsPodAvailable(%+v, %d) = %v, kruise %v", op, minReady, got, want)
			}
			if got, want := cloneset.IsPodUpdateReady(&op, minReady, s.now), cc.IsPodUpdateReady(p, minReady); got != want {
				t.Fatalf("IsPodUpdateReady(%+v, %d) = %v, kruise %v", op, minReady, got, want)
			}
			count("sync.IsPodAvailable, IsPodUpdateReady (pods)", "agree")
		}
	})
}

// kruiseDeletionOrder sorts pods as kruise's choosePodsToDelete does when
// it picks some of a group: sort.Sort over ActivePodsWithRanks with the
// same-node ranker and availability at minReadySeconds.
func kruiseDeletionOrder(cs *appsv1alpha1.CloneSet, pods []*corev1.Pod) ([]*corev1.Pod, clonesetutils.ActivePodsWithRanks) {
	cc := clonesetcore.New(cs)
	sorted := slices.Clone(pods)
	byRank := clonesetutils.ActivePodsWithRanks{
		Pods:   sorted,
		Ranker: clonesetutils.NewSameNodeRanker(sorted),
		AvailableFunc: func(p *corev1.Pod) bool {
			return clonesetsync.IsPodAvailable(cc, p, cs.Spec.MinReadySeconds)
		},
	}
	sort.Sort(byRank)
	return sorted, byRank
}

// TestDeletionOrderMatchesKruise compares DeletionOrder with kruise's
// ActivePodsWithRanks sort, in order. Kruise's order among pods that tie
// on every rule is sort.Sort's: with at most 12 pods listed by name,
// sort.Sort is an insertion sort, so kruise breaks ties by list order,
// that is by name, as we do. Above 12 pods, sort.Sort is unstable (and so
// is the same-node ranker's own sort, so ties even change ranks); there the
// generated pods get distinct creation times, which makes kruise's order
// total, and the two orders must still be identical.
func TestDeletionOrderMatchesKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		many := rapid.IntRange(0, 3).Draw(t, "many") == 0
		maxPods := 10
		if many {
			maxPods = 30
		}
		s := orderPods(t, maxPods)
		if many {
			ages := rapid.Permutation(seq(len(s.pods))).Draw(t, "ages")
			for i, p := range s.pods {
				p.CreationTimestamp = metav1.NewTime(at(s.now, -ages[i]))
			}
		}
		want, _ := kruiseDeletionOrder(s.cs, s.pods)
		idx, err := cloneset.DeletionOrder(ourPods(s.pods), s.cs.Spec.MinReadySeconds, s.now)
		if err != nil {
			t.Fatalf("DeletionOrder: %v", err)
		}
		got := make([]*corev1.Pod, len(idx))
		for i, j := range idx {
			got[i] = s.pods[j]
		}
		if !slices.Equal(names(got), names(want)) {
			t.Fatalf("DeletionOrder = %v, kruise %v\n%s", names(got), names(want), s)
		}
		if len(s.pods) > 12 {
			count("ActivePodsWithRanks + NewSameNodeRanker (13-32 pods, distinct creation times)", "agree")
		} else {
			count("ActivePodsWithRanks + NewSameNodeRanker (0-12 pods)", "agree")
		}
	})
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func names(pods []*corev1.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = p.Name
	}
	return out
}

// priorityStrategy draws an update priority strategy: weight terms
// selecting on labels, or order terms naming label keys, or none.
func priorityStrategy(t *rapid.T) *appspub.UpdatePriorityStrategy {
	switch rapid.IntRange(0, 2).Draw(t, "priorityKind") {
	case 1:
		ps := &appspub.UpdatePriorityStrategy{}
		for i := rapid.IntRange(1, 3).Draw(t, "weightTerms"); i > 0; i-- {
			sel := metav1.LabelSelector{}
			if rapid.Bool().Draw(t, "byLabel") {
				sel.MatchLabels = map[string]string{"zone": rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "zone")}
			} else {
				sel.MatchExpressions = []metav1.LabelSelectorRequirement{{
					Key:      rapid.SampledFrom([]string{"tier", "rank", "zone"}).Draw(t, "exprKey"),
					Operator: rapid.SampledFrom([]metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn, metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist}).Draw(t, "op"),
				}}
				if op := sel.MatchExpressions[0].Operator; op == metav1.LabelSelectorOpIn || op == metav1.LabelSelectorOpNotIn {
					sel.MatchExpressions[0].Values = []string{rapid.SampledFrom([]string{"a", "1", "5", "v10"}).Draw(t, "value")}
				}
			}
			ps.WeightPriority = append(ps.WeightPriority, appspub.UpdatePriorityWeightTerm{Weight: rapid.Int32Range(0, 100).Draw(t, "weight"), MatchSelector: sel})
		}
		return ps
	case 2:
		ps := &appspub.UpdatePriorityStrategy{}
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"tier", "rank", "missing"}), 1, 3, rapid.ID[string]).Draw(t, "orderKeys") {
			ps.OrderPriority = append(ps.OrderPriority, appspub.UpdatePriorityOrderTerm{OrderedKey: k})
		}
		return ps
	}
	return nil
}

// TestSortUpdateIndexesMatchesKruise compares SortUpdateIndexes with
// kruise's sync.SortUpdateIndexes (ActivePods order, priority, scatter,
// PreparingUpdate first) on candidate sets of at most 12 pods listed by
// name, where kruise's sort.Slice is an insertion sort and so breaks ties
// by list order, that is by name, as we do.
func TestSortUpdateIndexesMatchesKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := orderPods(t, 10)
		strategy := s.cs.Spec.UpdateStrategy
		strategy.PriorityStrategy = priorityStrategy(t)
		if rapid.Bool().Draw(t, "hasScatter") {
			terms := rapid.SliceOfNDistinct(rapid.SampledFrom([]appsv1alpha1.UpdateScatterTerm{{Key: "zone", Value: "a"}, {Key: "zone", Value: "b"}, {Key: "tier", Value: "1"}}), 1, 2, func(t appsv1alpha1.UpdateScatterTerm) string { return t.Key + "=" + t.Value }).Draw(t, "scatter")
			strategy.ScatterStrategy = terms
		}
		var candidates []int
		for i := range s.pods {
			if rapid.IntRange(0, 3).Draw(t, "candidate") != 0 {
				candidates = append(candidates, i)
			}
		}
		cs := s.cs.DeepCopy()
		cs.Spec.UpdateStrategy = strategy
		want := clonesetsync.SortUpdateIndexes(clonesetcore.New(cs), strategy, s.pods, slices.Clone(candidates))
		got, err := cloneset.SortUpdateIndexes(ourCloneSet(cs).UpdateStrategy, ourPods(s.pods), candidates, cloneset.UpdateOrderOptions{})
		if err != nil {
			t.Fatalf("SortUpdateIndexes: %v", err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("SortUpdateIndexes(%v) = %v, kruise %v\npriority %+v scatter %+v\n%s", candidates, got, want, strategy.PriorityStrategy, strategy.ScatterStrategy, s)
		}
		class := "agree"
		fn := "sync.SortUpdateIndexes"
		switch {
		case strategy.PriorityStrategy != nil && strategy.ScatterStrategy != nil:
			fn += " (priority and scatter)"
		case strategy.PriorityStrategy != nil:
			fn += " (priority)"
		case strategy.ScatterStrategy != nil:
			fn += " (scatter)"
		default:
			fn += " (default order)"
		}
		count(fn, class)
	})
}
