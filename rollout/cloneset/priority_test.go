package cloneset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Cases of kruise's TestCompare (pkg/util/updatesort): want true means
// podI goes first or the two are equal (and keep their order).
func TestPrioritySortKruiseCompare(t *testing.T) {
	w := func(terms ...WeightTerm) *PriorityStrategy { return &PriorityStrategy{WeightPriority: terms} }
	term := func(weight int32, k, v string) WeightTerm {
		return WeightTerm{Weight: weight, MatchSelector: LabelSelector{MatchLabels: map[string]string{k: v}}}
	}
	foobar := w(term(20, "key", "foo"), term(10, "key", "bar"))
	order := &PriorityStrategy{OrderPriority: []OrderTerm{{OrderedKey: "key1"}, {OrderedKey: "key2"}}}
	tests := []struct {
		strategy   *PriorityStrategy
		podI, podJ map[string]string
		want       bool
	}{
		{foobar, map[string]string{}, map[string]string{}, true},
		{foobar, map[string]string{"key": "foo"}, map[string]string{"key": "foo"}, true},
		{foobar, map[string]string{"key": "bar"}, map[string]string{"key": "foo"}, false},
		{foobar, map[string]string{}, map[string]string{"key": "bar"}, false},
		{foobar, map[string]string{}, map[string]string{"key": "foo"}, false},
		{w(term(20, "key1", "foo"), term(10, "key2", "bar"), term(15, "key3", "baz")), map[string]string{"key1": "foo"}, map[string]string{"key2": "bar", "key3": "baz"}, false},
		{w(term(20, "key1", "foo"), term(10, "key2", "bar"), term(5, "key3", "baz")), map[string]string{"key2": "bar", "key3": "baz"}, map[string]string{"key1": "foo"}, false},
		{order, map[string]string{}, map[string]string{}, true},
		{order, map[string]string{"key1": "o-10"}, map[string]string{"key1": "o-5"}, true},
		{order, map[string]string{"key1": "o-10"}, map[string]string{"key1": "o-10"}, true},
		{order, map[string]string{"key1": "o-10"}, map[string]string{"key1": "o-20"}, false},
		{order, map[string]string{"key2": "o-20"}, map[string]string{"key1": "o-10"}, false},
	}
	for n, tt := range tests {
		pods := labelled(tt.podI, tt.podJ)
		idx := []int{0, 1}
		prioritySort(tt.strategy, NoKeyFirst, pods, idx)
		if got := idx[0] == 0; got != tt.want {
			t.Errorf("case %d: %v before %v = %v, want %v", n, tt.podI, tt.podJ, got, tt.want)
		}
	}
}

func TestIntSuffix(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"sts-10", 10}, {"7", 7}, {"o-007", 7}, {"abc", 0}, {"", 0}, {"1-a", 0},
		{"x-9223372036854775807", 9223372036854775807}, {"x-9223372036854775808", 0},
	}
	for _, tt := range tests {
		if got := intSuffix(tt.in); got != tt.want {
			t.Errorf("intSuffix(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestSelectorMatches(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "front"}
	tests := []struct {
		name      string
		sel       LabelSelector
		ok, valid bool
	}{
		{"empty selects everything", LabelSelector{}, true, true},
		{"match labels", LabelSelector{MatchLabels: map[string]string{"app": "web"}}, true, true},
		{"match labels mismatch", LabelSelector{MatchLabels: map[string]string{"app": "db"}}, false, true},
		{"In", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: "In", Values: []string{"back", "front"}}}}, true, true},
		{"In without values", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: "In"}}}, false, true},
		{"NotIn absent key", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "zone", Operator: "NotIn", Values: []string{"a"}}}}, true, true},
		{"NotIn present", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "app", Operator: "NotIn", Values: []string{"web"}}}}, false, true},
		{"Exists", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "app", Operator: "Exists"}}}, true, true},
		{"DoesNotExist", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "app", Operator: "DoesNotExist"}}}, false, true},
		{"unknown operator", LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []LabelSelectorRequirement{{Key: "app", Operator: "Gt"}}}, false, false},
	}
	for _, tt := range tests {
		ok, valid := selectorMatches(&tt.sel, labels)
		if ok != tt.ok || valid != tt.valid {
			t.Errorf("%s: selectorMatches = %v, %v, want %v, %v", tt.name, ok, valid, tt.ok, tt.valid)
		}
	}
}

// TestPrioritySortIsStableByPriority: the result is ordered by priority
// and pods of equal priority keep their order.
func TestPrioritySortIsStableByPriority(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawUpdatePods(t, 30)
		s, opts := drawUpdateStrategy(t)
		if s.PriorityStrategy == nil {
			return
		}
		idx := rapid.Permutation(allIndexes(len(pods))).Draw(t, "order")
		before := append([]int(nil), idx...)
		prioritySort(s.PriorityStrategy, opts.NoKey, pods, idx)
		key := func(i int) [2]int64 {
			if len(s.PriorityStrategy.WeightPriority) > 0 {
				return [2]int64{-weightPriority(s.PriorityStrategy.WeightPriority, pods[i].Labels), 0}
			}
			l, v := orderPriority(s.PriorityStrategy.OrderPriority, pods[i].Labels)
			if l < 0 && opts.NoKey == NoKeyLast {
				l = 99
			}
			return [2]int64{l, -v}
		}
		pos := map[int]int{}
		for n, i := range before {
			pos[i] = n
		}
		for n := 1; n < len(idx); n++ {
			a, b := key(idx[n-1]), key(idx[n])
			if a[0] > b[0] || (a[0] == b[0] && a[1] > b[1]) {
				t.Fatalf("%v out of priority order", idx)
			}
			if a == b && pos[idx[n-1]] > pos[idx[n]] {
				t.Fatalf("equal-priority pods %d, %d swapped", idx[n-1], idx[n])
			}
		}
		if !cmp.Equal(len(before), len(idx)) {
			t.Fatal("length changed")
		}
	})
}
