package cloneset

import (
	"cmp"
	"slices"
	"strconv"
)

// NoKeyOrder says where the update order puts pods that carry none of an
// orderPriority's keys.
type NoKeyOrder uint8

const (
	// NoKeyFirst gives such a pod level -1, ahead of every pod that has a
	// key, so it is updated first. This is kruise v1.9.1
	// (docs/cloneset.md#s8-order-priority-no-key-first): the intent of
	// orderPriority is that the listed keys go first, yet unlabelled pods
	// overtake them.
	NoKeyFirst NoKeyOrder = iota
	// NoKeyLast puts such pods after every pod that has a key, as users
	// of orderPriority expect (kruise documents orderPriority as "pods
	// with the first key first"). Off by default.
	NoKeyLast
)

// String returns the mode's name, e.g. "NoKeyFirst".
func (o NoKeyOrder) String() string {
	switch o {
	case NoKeyFirst:
		return "NoKeyFirst"
	case NoKeyLast:
		return "NoKeyLast"
	}
	return "NoKeyOrder(" + strconv.Itoa(int(o)) + ")"
}

// prioritySort orders idx (indices into pods) by ps, stably: with weight
// terms, a higher summed weight first; otherwise, with order terms, a
// lower level (index of the first ordered key the pod carries) first and,
// on the same level, a larger trailing number of that label's value
// first. Pods that compare equal keep their order. A nil or empty ps
// leaves idx as it is. idx is sorted in place.
// Upstream: updatesort.prioritySort.Sort.
func prioritySort(ps *PriorityStrategy, noKey NoKeyOrder, pods []Pod, idx []int) {
	if ps == nil || (len(ps.WeightPriority) == 0 && len(ps.OrderPriority) == 0) {
		return
	}
	type item struct {
		i    int
		a, b int64
	}
	items := make([]item, len(idx))
	for n, i := range idx {
		it := item{i: i}
		if len(ps.WeightPriority) > 0 {
			// Higher weight first: sort by the negated weight.
			it.a = -weightPriority(ps.WeightPriority, pods[i].Labels)
		} else {
			level, value := orderPriority(ps.OrderPriority, pods[i].Labels)
			if level < 0 && noKey == NoKeyLast {
				level = int64(len(ps.OrderPriority))
			}
			// Lower level first, then larger value first. value is at
			// least 0, so negating it cannot overflow.
			it.a, it.b = level, -value
		}
		items[n] = it
	}
	slices.SortStableFunc(items, func(x, y item) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
	for n := range items {
		idx[n] = items[n].i
	}
}

// weightPriority is the sum of the weights of the terms whose selector
// matches labels. A term with an invalid selector (an unknown operator)
// adds nothing, as in kruise. Weights are int32, so the sum of up to 2^31
// terms fits an int64.
// Upstream: prioritySort.getPodWeightPriority.
func weightPriority(terms []WeightTerm, labels map[string]string) int64 {
	var w int64
	for i := range terms {
		if ok, valid := selectorMatches(&terms[i].MatchSelector, labels); valid && ok {
			w += int64(terms[i].Weight)
		}
	}
	return w
}

// orderPriority returns the level of the first term whose key labels
// carries, and the number its value ends in (see intSuffix); (-1, 0) when
// labels carries none.
// Upstream: prioritySort.getPodOrderPriority.
func orderPriority(terms []OrderTerm, labels map[string]string) (level, value int64) {
	for i, t := range terms {
		if v, ok := labels[t.OrderedKey]; ok {
			return int64(i), intSuffix(v)
		}
	}
	return -1, 0
}

// intSuffix returns the decimal number formed by the digits at the end of
// v ("sts-10" gives 10, "7" gives 7), or 0 when v does not end in a digit
// or the number does not fit an int64.
// Upstream: updatesort.getIntFromStringSuffix.
func intSuffix(v string) int64 {
	start := len(v)
	for start > 0 && v[start-1] >= '0' && v[start-1] <= '9' {
		start--
	}
	if start == len(v) {
		return 0
	}
	n, err := strconv.ParseInt(v[start:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// selectorMatches reports whether labels satisfy sel, as kruise's
// ValidatedLabelSelectorAsSelector builds the selector: an empty selector
// (no MatchLabels, no MatchExpressions) matches everything; otherwise
// every MatchLabels pair must be present and every requirement met (In:
// key present with one of Values; NotIn: key absent or its value not in
// Values; Exists; DoesNotExist). Keys and values are not validated, as
// kruise does not validate them here; valid is false only for an unknown
// operator, which makes kruise skip the whole term.
func selectorMatches(sel *LabelSelector, labels map[string]string) (ok, valid bool) {
	for _, r := range sel.MatchExpressions {
		switch r.Operator {
		case "In", "NotIn", "Exists", "DoesNotExist":
		default:
			return false, false
		}
	}
	for k, v := range sel.MatchLabels {
		if got, has := labels[k]; !has || got != v {
			return false, true
		}
	}
	for _, r := range sel.MatchExpressions {
		got, has := labels[r.Key]
		switch r.Operator {
		case "In":
			if !has || !slices.Contains(r.Values, got) {
				return false, true
			}
		case "NotIn":
			if has && slices.Contains(r.Values, got) {
				return false, true
			}
		case "Exists":
			if !has {
				return false, true
			}
		case "DoesNotExist":
			if has {
				return false, true
			}
		}
	}
	return true, true
}
