package cloneset

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// UpdateOrderOptions are the named deviations from kruise v1.9.1 in the
// update order. The zero value is kruise's order.
type UpdateOrderOptions struct {
	// NoKey says where orderPriority puts pods carrying none of its keys:
	// NoKeyFirst (kruise) or NoKeyLast.
	NoKey NoKeyOrder `json:"noKey,omitempty"`
	// Scatter says how the scatter strategy sizes its groups:
	// ScatterRound (kruise) or ScatterFloor.
	Scatter ScatterGrouping `json:"scatter,omitempty"`
}

// UpdateCandidates returns the indices in pods of the pods an update step
// may move, in input order: with updateNum > 0 (pods to move to the
// update revision) the active pods not at updateRevision, with
// updateNum < 0 (a partition rollback, pods to move back to the current
// revision) the active pods at it, and none when updateNum is 0.
// updateNum is Diffs.UpdateNum of the update step.
//
// Among those, a pod in PreparingDelete is skipped; a pod in Updated is a
// candidate; any other pod is skipped while it holds an in-place update
// waiting for its grace period (InPlaceUpdateGrace set). Pods specified
// for deletion are still candidates. Revisions match as
// [IsPodAtRevision] says. pods is not modified; the result is a new
// slice (nil when there is no candidate).
// Upstream: step 3 of sync.realControl.Update.
func UpdateCandidates(pods []Pod, updateRevision string, updateNum int32) []int {
	if updateNum == 0 {
		return nil
	}
	// Two passes: counting the candidates first allocates the result
	// once, at its size.
	n := 0
	for i := range pods {
		if isUpdateCandidate(&pods[i], updateRevision, updateNum) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]int, 0, n)
	for i := range pods {
		if isUpdateCandidate(&pods[i], updateRevision, updateNum) {
			out = append(out, i)
		}
	}
	return out
}

// updateCandidates is UpdateCandidates in one pass, in buf's memory, or
// else in a new slice with room for every pod from the first candidate
// on (the update step sorts it in place); nil for none.
func updateCandidates(pods []Pod, updateRevision string, updateNum int32, buf []int) []int {
	if updateNum == 0 {
		return nil
	}
	out := buf[:0]
	for i := range pods {
		if isUpdateCandidate(&pods[i], updateRevision, updateNum) {
			if cap(out) == 0 {
				out = make([]int, 0, len(pods)-i)
			}
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// isUpdateCandidate is UpdateCandidates' test of one pod.
func isUpdateCandidate(p *Pod, updateRevision string, updateNum int32) bool {
	if !IsPodActive(p) || IsPodAtRevision(p, updateRevision) != (updateNum < 0) {
		return false
	}
	switch p.Lifecycle {
	case PreparingDelete:
		return false
	case Updated:
		return true
	}
	return p.InPlaceUpdateGrace == nil
}

// SortUpdateIndexes returns candidates (indices into pods) in the order
// kruise updates them, as a new slice; pods and candidates are not
// modified.
//
// The order is built in four passes, each one stable over the previous:
//
//  1. Kubernetes' ActivePods order: a pod without a node first; then by
//     phase, Pending (and "") before Unknown before Running; a pod that is
//     not Ready first; of two Ready pods, the one Ready more recently
//     first (a zero ReadySince first); more Restarts first, then more
//     SidecarRestarts first; the newer CreationTime first (a zero time
//     first). Ties are broken by Name, ascending.
//  2. strategy.PriorityStrategy, if set: with weight terms, a higher sum
//     of matching weights first; else with order terms, the pod whose
//     first carried key comes earlier in the list first, then the larger
//     number at the end of that label's value first. A pod with none of
//     the keys comes first (kruise), or last with NoKeyLast.
//  3. strategy.ScatterStrategy, if set: pods matching a term are spread
//     among the others (docs/cloneset.md#scatter), with kruise's rounding or
//     ScatterFloor.
//  4. Pods in PreparingUpdate move to the front.
//
// Kruise sorts pass 1 with sort.Slice, which is not stable: pods that
// compare equal there (same node presence, phase, readiness, ready time,
// restarts and creation time, as for pods created in one batch and never
// scheduled) come out in an order that depends on the order of kruise's
// pod list (stable for 12 candidates or fewer, pdqsort's choice above),
// and that list's order is the informer cache's. This function breaks
// those ties by name instead, so its order is total and independent of
// the order of pods and of candidates; it is one of the orders kruise can
// produce. Passes 2 to 4 are stable in kruise too, so they add no further
// dependence on input order.
//
// Errors (*field.Error wrapping field.ErrInvalid; the order is then nil): a
// pod without a name, two pods with the same name, a negative restart
// count, and a candidate out of range, repeated, or not an active pod
// (kruise's list holds only active pods).
// Upstream: sync.SortUpdateIndexes.
func SortUpdateIndexes(strategy UpdateStrategy, pods []Pod, candidates []int, opts UpdateOrderOptions) ([]int, error) {
	if err := checkPods(pods); err != nil {
		return nil, err
	}
	if err := checkCandidates(pods, candidates); err != nil {
		return nil, err
	}
	return sortUpdateIndexes(strategy, pods, candidates, make([]int, len(candidates)), opts), nil
}

// sortUpdateIndexes is SortUpdateIndexes on pods and candidates already
// checked (checkPods, checkCandidates), as UpdateCandidates' are,
// written into out (len(candidates) long; it may be candidates itself).
func sortUpdateIndexes(strategy UpdateStrategy, pods []Pod, candidates, out []int, opts UpdateOrderOptions) []int {
	out, _ = sortUpdateIndexesInto(strategy, pods, candidates, out, nil, opts)
	return out
}

// sortUpdateIndexesInto is sortUpdateIndexes with the sort keys in keys'
// memory when it has room; it returns the keys' memory for the next
// call.
func sortUpdateIndexesInto(strategy UpdateStrategy, pods []Pod, candidates, out []int, keys []updateKey, opts UpdateOrderOptions) ([]int, []updateKey) {
	out, keys, preparing := activeOrder(pods, candidates, out, keys)
	prioritySort(strategy.PriorityStrategy, opts.NoKey, pods, out)
	if len(strategy.ScatterStrategy) > 0 {
		out = scatterSort(strategy.ScatterStrategy, opts.Scatter, pods, out)
	}
	if preparing {
		preparingUpdateFirst(pods, out)
	}
	return out, keys
}

// preparingUpdateFirst moves the pods in PreparingUpdate to the front of
// idx, keeping the order within both groups: a stable partition.
func preparingUpdateFirst(pods []Pod, idx []int) {
	preparing := func(i int) bool { return pods[i].Lifecycle == PreparingUpdate }
	rest := make([]int, 0, len(idx))
	k := 0
	for _, i := range idx { // idx[k] is written after idx[k:] is read
		if preparing(i) {
			idx[k] = i
			k++
		} else {
			rest = append(rest, i)
		}
	}
	copy(idx[k:], rest)
}

// checkCandidates validates indices into pods.
func checkCandidates(pods []Pod, candidates []int) error {
	seen := make([]bool, len(pods))
	for n, i := range candidates {
		path := func() string { return "candidates[" + strconv.Itoa(n) + "]" }
		if i < 0 || i >= len(pods) {
			return inputError(path(), "%d: out of range for %d pods", i, len(pods))
		}
		if seen[i] {
			return inputError(path(), "%d: listed twice", i)
		}
		seen[i] = true
		if !IsPodActive(&pods[i]) {
			return inputError(path(), "%d: pod %q is not active", i, pods[i].Name)
		}
	}
	return nil
}

// activeOrder returns candidates (indices into pods, checked) sorted by
// compareActive, written into out (len(candidates) long; it may be
// candidates itself), the keys' memory (buf's when it has room, for the
// next call), and whether one of them is in PreparingUpdate.
//
// The sort runs over a key per candidate that holds no pointers (so the
// garbage collector never scans the key array) and compares integers:
// the times become nanoseconds since 1970 (see timeKey). A time that has
// no such key (a monotonic clock reading, which time.Time's comparisons
// prefer when both times have one, or an instant more than about 285
// years from 1970) sends the whole sort to compareActive itself, so the
// order is compareActive's either way.
func activeOrder(pods []Pod, candidates, out []int, buf []updateKey) (_ []int, keys []updateKey, preparing bool) {
	keys = slices.Grow(buf[:0], len(candidates))[:len(candidates)]
	fast := len(pods) <= math.MaxInt32
	for n, i := range candidates {
		p := &pods[i]
		preparing = preparing || p.Lifecycle == PreparingUpdate
		if fast {
			keys[n], fast = updateKeyOf(p, i)
		}
	}
	if !fast {
		copy(out, candidates)
		slices.SortFunc(out, func(a, b int) int { return compareActive(&pods[a], &pods[b]) })
		return out, keys, preparing
	}
	slices.SortFunc(keys, func(a, b updateKey) int {
		if c := compareUpdateKeys(&a, &b); c != 0 {
			return c
		}
		return strings.Compare(pods[a.idx].Name, pods[b.idx].Name)
	})
	for n := range keys {
		out[n] = int(keys[n].idx)
	}
	return out, keys, preparing
}

// updateKey is what the ActivePods order reads of one pod but its name,
// as integers whose order is the rule's: the pod's index, then one word
// per rule or pair of rules, each compared ascending.
type updateKey struct {
	idx int32
	// head holds, from the highest bit, the node presence (no node: 0),
	// the phase ordinal and readiness (not ready: 0).
	head uint32
	// ready is timeKey(ReadySince) negated (the later first) when Ready,
	// else 0.
	ready int64
	// restarts holds MaxInt32-Restarts in its upper half and
	// MaxInt32-SidecarRestarts in its lower half (more restarts first;
	// both are checked to be non-negative).
	restarts uint64
	// created is timeKey(CreationTime) negated.
	created int64
}

// updateKeyOf returns the key of pods[i]; false when one of its times
// has no timeKey.
func updateKeyOf(p *Pod, i int) (updateKey, bool) {
	k := updateKey{idx: int32(i), head: uint32(phaseOrdinal(p.Phase)) << 1,
		restarts: uint64(math.MaxInt32-p.Restarts)<<32 | uint64(math.MaxInt32-p.SidecarRestarts)}
	if p.NodeName != "" {
		k.head |= 1 << 8
	}
	created, ok := timeKey(p.CreationTime)
	k.created = -created
	if p.Ready {
		k.head |= 1
		ready, readyOK := timeKey(p.ReadySince)
		k.ready, ok = -ready, ok && readyOK
	}
	return k, ok
}

// timeKey returns an int64 whose order is the later-or-zero-first order
// of laterOrZeroFirst, reversed: the zero time the largest, any other
// time its nanoseconds since 1970. false when the order of two such keys
// may not be time.Time's: t carries a monotonic clock reading, or is
// more than 9e9 seconds (285 years) from 1970, where nanoseconds
// overflow int64.
func timeKey(t time.Time) (int64, bool) {
	if t.IsZero() {
		return math.MaxInt64, true
	}
	if t != t.Round(0) { // Round(0) drops a monotonic reading only
		return 0, false
	}
	s := t.Unix()
	if s < -9e9 || s > 9e9 {
		return 0, false
	}
	return s*1e9 + int64(t.Nanosecond()), true
}

// compareActive is Kubernetes' ActivePods.Less as a three-way comparison
// of two pods, with a name tie-break that makes it total over uniquely
// named pods. Negative means a is updated before b. It applies the rules
// in turn: unassigned first; Pending < Unknown < Running; not Ready
// first; of two Ready pods the more recently ready first (zero first);
// more restarts, then more sidecar restarts, first; newer (zero first)
// first; then by name.
func compareActive(a, b *Pod) int {
	if noA, noB := a.NodeName == "", b.NodeName == ""; noA != noB {
		return boolFirst(noA, noB)
	}
	if pa, pb := phaseOrdinal(a.Phase), phaseOrdinal(b.Phase); pa != pb {
		return cmp.Compare(pa, pb)
	}
	if a.Ready != b.Ready {
		return boolFirst(!a.Ready, !b.Ready)
	}
	if a.Ready && !a.ReadySince.Equal(b.ReadySince) {
		return laterOrZeroFirst(a.ReadySince, b.ReadySince)
	}
	if a.Restarts != b.Restarts {
		return cmp.Compare(b.Restarts, a.Restarts)
	}
	if a.SidecarRestarts != b.SidecarRestarts {
		return cmp.Compare(b.SidecarRestarts, a.SidecarRestarts)
	}
	if !a.CreationTime.Equal(b.CreationTime) {
		return laterOrZeroFirst(a.CreationTime, b.CreationTime)
	}
	return strings.Compare(a.Name, b.Name)
}

// compareUpdateKeys compares two keys' words in turn: compareActive but
// for the names.
func compareUpdateKeys(a, b *updateKey) int {
	if a.head != b.head {
		return cmp.Compare(a.head, b.head)
	}
	if a.ready != b.ready {
		return cmp.Compare(a.ready, b.ready)
	}
	if a.restarts != b.restarts {
		return cmp.Compare(a.restarts, b.restarts)
	}
	return cmp.Compare(a.created, b.created)
}
