package proportion

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// Mode selects how [Scale] splits a change over two or more active
// ReplicaSets. The zero Mode is Upstream.
type Mode uint8

const (
	// Upstream splits exactly as kube-controller-manager v1.36 does:
	// each ReplicaSet in turn gets Share(rs, d, toAdd, added), and the
	// rounding leftover goes to the first one visited, clamped at 0. The
	// targets then sum to Allowed unless that clamp fires (see Result.Clamped).
	Upstream Mode = iota
	// Conserving splits Allowed in proportion to the current sizes by
	// largest remainder (Hamilton's method):
	//
	//	share(i)  = Allowed * rss[i].Replicas / S   (S = Σ active Replicas)
	//	target(i) = floor(share(i)), plus 1 for the Allowed - Σ floor
	//	            ReplicaSets with the largest remainders, ties broken
	//	            by BySizeNewer when growing and BySizeOlder when
	//	            shrinking
	//
	// so Σ targets == Allowed, every target >= 0 and
	// |target(i) - share(i)| < 1. It ignores the max-replicas annotations
	// and status.replicas. It changes only the proportional step; the
	// shortcuts before it are upstream's.
	Conserving
)

// String returns "Upstream", "Conserving", or "Mode(n)" for other values.
func (m Mode) String() string {
	switch m {
	case Upstream:
		return "Upstream"
	case Conserving:
		return "Conserving"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Rule names the path of upstream's scale() that decided a [Result].
// The zero Rule is not a path; it comes only with an error.
type Rule uint8

const (
	// RuleNoReplicaSets: rss is empty, so there is nothing to scale.
	// (Upstream falls through to the proportional step with an empty
	// list.)
	RuleNoReplicaSets Rule = iota + 1
	// RuleActiveOrLatest: at most one ReplicaSet is active; the one
	// ActiveOrLatest picks is set to R and the others are left alone.
	RuleActiveOrLatest
	// RuleSaturated: the new ReplicaSet is saturated (IsSaturated); every
	// active old ReplicaSet is set to 0.
	RuleSaturated
	// RuleNotRollingUpdate: two or more ReplicaSets are active but the
	// strategy is Recreate; upstream changes nothing, so the
	// desired-replicas annotations stay stale and IsScalingEvent stays
	// true until the Recreate rollout scales the old ones to 0.
	RuleNotRollingUpdate
	// RuleProportional: two or more ReplicaSets are active and the
	// strategy is RollingUpdate; Allowed is split over the active ones
	// according to the Mode.
	RuleProportional
)

// String returns the constant's name without the "Rule" prefix
// ("Proportional"), or "Rule(n)" for other values.
func (r Rule) String() string {
	switch r {
	case RuleNoReplicaSets:
		return "NoReplicaSets"
	case RuleActiveOrLatest:
		return "ActiveOrLatest"
	case RuleSaturated:
		return "Saturated"
	case RuleNotRollingUpdate:
		return "NotRollingUpdate"
	case RuleProportional:
		return "Proportional"
	}
	return "Rule(" + strconv.Itoa(int(r)) + ")"
}

// Target is what one sync does to one ReplicaSet.
type Target struct {
	// Replicas is the new spec.replicas, in [0, MaxInt32]. It equals the
	// input's Replicas for a ReplicaSet the sync leaves alone.
	Replicas int32
	// Annotate says whether the sync updates the ReplicaSet and writes
	// Result.DesiredReplicas and Result.MaxReplicas to its
	// desired-replicas and max-replicas annotations. The shortcut rules
	// update a ReplicaSet only when its size changes; the proportional
	// rule updates every active one whose size or annotations
	// ([AnnotationsNeedUpdate]) differ.
	Annotate bool
}

// Result is what [Scale] decided.
type Result struct {
	// Targets has one entry per input ReplicaSet, in input order.
	Targets []Target
	// Order holds the indices of the ReplicaSets the rule visited, in
	// the order upstream visits them: the chosen one for
	// RuleActiveOrLatest; the active old ones, newest first, for
	// RuleSaturated; the active ones for RuleProportional, sorted by
	// BySizeNewer when growing, BySizeOlder when shrinking, and old
	// newest-first then new when the total does not change. Upstream's
	// leftover goes to Order[0]. In Conserving mode, when the total
	// changes, Order is sorted by descending remainder instead (ties as
	// above): the first Allowed - Σ floor(share) got the extra replica.
	// Empty for RuleNoReplicaSets and RuleNotRollingUpdate.
	Order []int
	// DesiredReplicas and MaxReplicas are the annotation values this
	// sync writes: R and d.MaxReplicas() (R + maxSurge saturated at
	// MaxInt32; upstream wraps). Render them with FormatReplicas.
	DesiredReplicas, MaxReplicas int32
	// Allowed is the total the proportional split aims at:
	// d.Allowed() (0 when R is 0, else MaxReplicas).
	Allowed int32
	// Rule is the path that decided.
	Rule Rule
	// Clamped is set in Upstream mode when the leftover would have made
	// Targets[Order[0]] negative and it was set to 0 instead.
	// For RuleProportional, Σ Targets == Allowed without a clamp and
	// Σ Targets >= Allowed with one (strictly greater unless a tampered
	// max-replicas annotation also saturated a target at MaxInt32).
	// Always false in Conserving mode.
	Clamped bool
}

// Scale is upstream's scale(): the target size of every ReplicaSet when
// d is resized while its ReplicaSets rss are as given. newRS is the index
// of the new ReplicaSet in rss, or -1 when there is none. The steps, in
// order:
//
//  1. At most one active ReplicaSet: the one ActiveOrLatest picks is set
//     to R (RuleActiveOrLatest).
//  2. The new ReplicaSet IsSaturated: active old ones go to 0
//     (RuleSaturated).
//  3. Not RollingUpdate: nothing changes (RuleNotRollingUpdate).
//  4. Otherwise the active ReplicaSets share Allowed = (R > 0 ? R +
//     maxSurge : 0), split according to mode (RuleProportional):
//     with toAdd = Allowed - S, where S = Σ active Replicas, Upstream
//     gives Targets[i] = Replicas + Share(...) in Order and adds toAdd -
//     added to Targets[Order[0]], clamped at 0.
//
// Post-conditions, for RuleProportional: every target is in [0,
// MaxInt32]; ReplicaSets with Replicas == 0 keep 0; Σ Targets == Allowed
// in Conserving mode, and in Upstream mode unless Clamped; if all active
// ReplicaSets carry max-replicas == S (consistent annotations), toAdd > 0
// never shrinks a ReplicaSet and toAdd < 0 never grows one. The result
// does not depend on the order of rss (Order and Targets follow the
// permutation).
//
// Sums are int64 and R + maxSurge saturates at MaxInt32, so a huge
// maxSurge cannot wrap as it does upstream; on inputs where
// upstream does not overflow the Upstream result is upstream's.
//
// Bad input returns a [*field.Error] and the zero Result: a negative
// count in d or rss ([field.ErrNegative]), newRS outside [-1, len(rss))
// ([field.ErrIndex]), two ReplicaSets with the same name
// ([field.ErrDuplicate]), an unknown mode ([field.ErrUnsupported]). Scale never modifies or sorts rss and
// allocates only Result.Targets and Result.Order; [ScaleInto] reuses
// them.
// Upstream: scale (deployment controller, sync.go).
func Scale(d Deployment, rss []ReplicaSet, newRS int, mode Mode) (Result, error) {
	return ScaleInto(Result{}, d, rss, newRS, mode)
}

// ScaleInto is [Scale] writing into the slices of dst, like append: when
// their capacity is at least len(rss) it allocates nothing, and the
// returned Result shares their backing arrays with dst. Pass the previous
// Result to reuse it across syncs.
func ScaleInto(dst Result, d Deployment, rss []ReplicaSet, newRS int, mode Mode) (Result, error) {
	n := len(rss)
	targets := resize(dst.Targets, n)
	order := resize(dst.Order, n)
	if err := check(d, rss, newRS, mode, order); err != nil {
		return Result{}, err
	}
	for i := range rss {
		targets[i] = Target{Replicas: rss[i].Replicas}
	}
	res := Result{
		Targets:         targets,
		DesiredReplicas: d.Replicas,
		MaxReplicas:     d.MaxReplicas(),
		Allowed:         d.Allowed(),
	}

	// Step 1: at most one active ReplicaSet.
	if n == 0 {
		res.Rule, res.Order = RuleNoReplicaSets, order[:0]
		return res, nil
	}
	if a, ok := activeOrLatest(rss, newRS); ok {
		res.Rule, res.Order = RuleActiveOrLatest, append(order[:0], a)
		if rss[a].Replicas != d.Replicas {
			targets[a] = Target{Replicas: d.Replicas, Annotate: true}
		}
		return res, nil
	}

	// Step 2: a saturated new ReplicaSet takes everything.
	if newRS >= 0 && IsSaturated(d, rss[newRS]) {
		res.Rule, res.Order = RuleSaturated, oldNewestFirst(order, rss, newRS, false)
		for _, i := range res.Order {
			targets[i] = Target{Replicas: 0, Annotate: true}
		}
		return res, nil
	}

	// Step 3: Recreate does not split.
	if !d.RollingUpdate {
		res.Rule, res.Order = RuleNotRollingUpdate, order[:0]
		return res, nil
	}

	// Step 4: split Allowed over the active ReplicaSets.
	res.Rule = RuleProportional
	var sum int64
	for i := range rss {
		sum += int64(rss[i].Replicas)
	}
	toAdd := int64(res.Allowed) - sum
	switch {
	case toAdd == 0:
		res.Order = oldNewestFirst(order, rss, newRS, true)
	case mode == Conserving:
		res.Order = conserve(targets, active(order, rss), rss, int64(res.Allowed), sum, toAdd > 0)
	default:
		res.Order = active(order, rss)
		res.Clamped = split(targets, res.Order, rss, d, toAdd)
	}
	for _, i := range res.Order {
		targets[i].Annotate = targets[i].Replicas != rss[i].Replicas ||
			AnnotationsNeedUpdate(rss[i], res.DesiredReplicas, res.MaxReplicas)
	}
	return res, nil
}

// resize returns s with length n, reusing its backing array when the
// capacity allows and allocating one otherwise (nil for n == 0).
func resize[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]E, n)
}

// check validates every argument of Scale; scratch has len(rss) elements.
func check(d Deployment, rss []ReplicaSet, newRS int, mode Mode, scratch []int) error {
	switch {
	case d.Replicas < 0:
		return negative("d.Replicas", d.Replicas)
	case d.MaxSurge < 0:
		return negative("d.MaxSurge", d.MaxSurge)
	case d.StatusReplicas < 0:
		return negative("d.StatusReplicas", d.StatusReplicas)
	case mode != Upstream && mode != Conserving:
		return inputError("mode", mode.String()+" is neither Upstream nor Conserving", field.ErrUnsupported)
	}
	return checkReplicaSets(rss, newRS, scratch)
}

// active fills order with the indices of the active ReplicaSets, in input
// order, and returns it.
func active(order []int, rss []ReplicaSet) []int {
	order = order[:0]
	for i := range rss {
		if rss[i].Replicas > 0 {
			order = append(order, i)
		}
	}
	return order
}

// oldNewestFirst fills order with the active old ReplicaSets, newest
// first by ByCreation (ties: larger name first), followed by the new one
// if withNew and it is active: the order upstream's lists have after
// FindActiveOrLatest sorted oldRSs in place.
func oldNewestFirst(order []int, rss []ReplicaSet, newRS int, withNew bool) []int {
	order = order[:0]
	for i := range rss {
		if rss[i].Replicas > 0 && i != newRS {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return byCreation(&rss[b], &rss[a]) })
	if withNew && newRS >= 0 && rss[newRS].Replicas > 0 {
		order = append(order, newRS)
	}
	return order
}

// split is upstream's proportional loop over the active ReplicaSets in
// order (toAdd != 0). It sorts order, writes the targets and reports
// whether the leftover clamp fired.
func split(targets []Target, order []int, rss []ReplicaSet, d Deployment, toAdd int64) (clamped bool) {
	if toAdd > 0 {
		slices.SortFunc(order, func(a, b int) int { return bySizeNewer(&rss[a], &rss[b]) })
	} else {
		slices.SortFunc(order, func(a, b int) int { return bySizeOlder(&rss[a], &rss[b]) })
	}
	var added, first int64
	for k, i := range order {
		p := of(rss[i], d, toAdd, added)
		added += p
		size := int64(rss[i].Replicas) + p
		if k == 0 {
			first = size // gets the leftover below, before it is clamped
			continue
		}
		targets[i].Replicas = clampSize(size)
	}
	first += toAdd - added
	if first < 0 {
		first, clamped = 0, true
	}
	targets[order[0]].Replicas = clampSize(first)
	return clamped
}

// conserve is the largest-remainder split of total over the active
// ReplicaSets in order, whose sizes sum to sum > 0. It sorts order by
// descending remainder, ties by direction, writes the targets and returns
// order.
func conserve(targets []Target, order []int, rss []ReplicaSet, total, sum int64, grow bool) []int {
	var given int64
	for _, i := range order {
		q := total * int64(rss[i].Replicas) / sum // total, Replicas <= MaxInt32: no overflow
		targets[i].Replicas = int32(q)            // q <= total
		given += q
	}
	rem := func(i int) int64 { return total * int64(rss[i].Replicas) % sum }
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(rem(b), rem(a)); c != 0 {
			return c
		}
		if grow {
			return bySizeNewer(&rss[a], &rss[b])
		}
		return bySizeOlder(&rss[a], &rss[b])
	})
	for _, i := range order[:total-given] { // total-given < len(order)
		targets[i].Replicas++
	}
	return order
}

// clampSize limits a ReplicaSet size to [0, MaxInt32].
func clampSize(v int64) int32 {
	return int32(min(max(v, 0), math.MaxInt32))
}
