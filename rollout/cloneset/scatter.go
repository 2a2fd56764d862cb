package cloneset

import (
	"math"
	"slices"
	"strconv"
)

// ScatterGrouping says how the scatter strategy sizes the groups it
// interleaves.
type ScatterGrouping uint8

const (
	// ScatterRound sizes groups with math.Round, as kruise v1.9.1 does.
	// With more matching than non-matching pods the rounding makes runs of
	// matching pods adjacent (kruise issue #1226,
	// docs/cloneset.md#s2-scatter-round-clumping):
	// candidates [-,-,A,A,A,A] are ordered [2,3,0,4,1,5].
	ScatterRound ScatterGrouping = iota
	// ScatterFloor sizes groups by rounding down, as kruise PRs #2321 and
	// #2322 (both closed unmerged) proposed for issue #1226: the same
	// candidates are ordered [2,0,3,1,4,5]. Off by default.
	ScatterFloor
)

// String returns the mode's name, e.g. "ScatterRound".
func (g ScatterGrouping) String() string {
	switch g {
	case ScatterRound:
		return "ScatterRound"
	case ScatterFloor:
		return "ScatterFloor"
	}
	return "ScatterGrouping(" + strconv.Itoa(int(g)) + ")"
}

// scatterSort spreads the candidates idx (indices into pods, every one an
// active pod) that match the scatter terms through the order, and returns
// the new order. idx is not modified.
//
// With one term, that term is applied. With several, only the terms that
// at least one candidate carries (key present with the value) are
// applied, the term most candidates carry first, ties in spec order.
// Each term rearranges the order left by the previous one
// (scatterByTerm). Totals count every active pod in pods, candidates or
// not.
// Upstream: updatesort.scatterSort.Sort.
func scatterSort(terms []ScatterTerm, grouping ScatterGrouping, pods []Pod, idx []int) []int {
	out := slices.Clone(idx)
	if len(terms) == 0 || len(out) <= 1 {
		return out
	}
	for _, t := range scatterTerms(terms, pods, out) {
		out = scatterByTerm(t, grouping, pods, out)
	}
	return out
}

// scatterTerms returns the terms to apply, in the order to apply them.
// Upstream: scatterSort.getScatterTerms.
func scatterTerms(terms []ScatterTerm, pods []Pod, idx []int) []ScatterTerm {
	if len(terms) == 1 {
		return terms
	}
	var used []ScatterTerm
	counts := map[ScatterTerm]int{}
	for _, t := range terms {
		for _, i := range idx {
			if v, ok := pods[i].Labels[t.Key]; ok && v == t.Value {
				if _, seen := counts[t]; !seen {
					used = append(used, t)
				}
				counts[t]++
			}
		}
	}
	slices.SortStableFunc(used, func(a, b ScatterTerm) int {
		return counts[b] - counts[a]
	})
	return used
}

// scatterByTerm interleaves the candidates that match t (label t.Key
// equal to t.Value; a missing label reads as "", so a term with an empty
// value matches pods without the key) with those that do not, keeping
// the relative order within each group. Fewer than two of either leaves
// the order as it is. The last matching candidate is always put last;
// the others are cut into groups sized from the candidate counts, or from
// the counts over all active pods when the candidates hold proportionally
// more matching pods than the whole CloneSet (then a run of non-matching
// candidates leads). See docs/cloneset.md#scatter for the arithmetic.
// Upstream: scatterSort.scatterPodsByRule.
func scatterByTerm(t ScatterTerm, grouping ScatterGrouping, pods []Pod, idx []int) []int {
	var matched, unmatched []int
	for _, i := range idx {
		if pods[i].Labels[t.Key] == t.Value {
			matched = append(matched, i)
		} else {
			unmatched = append(unmatched, i)
		}
	}
	if len(matched) <= 1 || len(unmatched) <= 1 {
		return idx
	}
	var totalMatched, totalUnmatched int
	for i := range pods {
		if !IsPodActive(&pods[i]) {
			continue
		}
		if pods[i].Labels[t.Key] == t.Value {
			totalMatched++
		} else {
			totalUnmatched++
		}
	}
	last := matched[len(matched)-1]
	matched = matched[:len(matched)-1]
	totalMatched--

	g := scatterDensity(grouping, totalMatched, totalUnmatched, len(matched), len(unmatched))
	out := make([]int, 0, len(idx))
	out = append(out, unmatched[:g.remainder]...)
	unmatched = unmatched[g.remainder:]
	for range g.groups {
		n := min(g.matchedSize, len(matched))
		out = append(out, matched[:n]...)
		matched = matched[n:]
		n = min(g.unmatchedSize, len(unmatched))
		out = append(out, unmatched[:n]...)
		unmatched = unmatched[n:]
	}
	out = append(out, matched...)
	out = append(out, unmatched...)
	return append(out, last)
}

// scatterGroup is how scatterByTerm cuts the candidates: remainder
// non-matching candidates first, then groups times a run of matchedSize
// matching and unmatchedSize non-matching ones.
type scatterGroup struct {
	groups, matchedSize, unmatchedSize, remainder int
}

// newScatterGroup cuts matched and unmatched pods into min(matched,
// unmatched) groups, each group's share rounded as grouping says. Both
// counts are at least 1 where it is called.
// Upstream: updatesort.newScatterGroup.
func newScatterGroup(grouping ScatterGrouping, matched, unmatched int) scatterGroup {
	g := scatterGroup{groups: min(matched, unmatched)}
	round := math.Round
	if grouping == ScatterFloor {
		round = math.Floor
	}
	g.matchedSize = int(round(float64(matched) / float64(g.groups)))
	g.unmatchedSize = int(round(float64(unmatched) / float64(g.groups)))
	return g
}

// scatterDensity chooses the groups from the candidate counts when the
// CloneSet's ratio of non-matching to matching pods (compared in float32,
// as kruise does) is at least the candidates' ratio, and otherwise from
// the totals, with as many groups as the candidates can fill.
// Upstream: updatesort.calculateGroupByDensity.
func scatterDensity(grouping ScatterGrouping, totalMatched, totalUnmatched, matched, unmatched int) scatterGroup {
	total := newScatterGroup(grouping, totalMatched, totalUnmatched)
	update := newScatterGroup(grouping, matched, unmatched)
	if float32(totalUnmatched)/float32(totalMatched) >= float32(unmatched)/float32(matched) {
		return update
	}
	g := scatterGroup{matchedSize: total.matchedSize, unmatchedSize: total.unmatchedSize}
	g.groups = min(matched/g.matchedSize, unmatched/g.unmatchedSize)
	g.remainder = unmatched - g.groups*g.unmatchedSize
	return g
}
