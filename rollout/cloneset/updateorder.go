package cloneset

import (
	"cmp"
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
	return sortUpdateIndexes(strategy, pods, candidates, opts)
}

// sortUpdateIndexes is SortUpdateIndexes on pods already checked
// (checkPods); the candidates are checked here.
func sortUpdateIndexes(strategy UpdateStrategy, pods []Pod, candidates []int, opts UpdateOrderOptions) ([]int, error) {
	if err := checkCandidates(pods, candidates); err != nil {
		return nil, err
	}
	keys := make([]updateKey, len(candidates))
	for n, i := range candidates {
		keys[n] = updateKeyOf(pods, i)
	}
	slices.SortFunc(keys, func(a, b updateKey) int { return compareUpdateKeys(&a, &b) })
	out := make([]int, len(keys))
	for n := range keys {
		out[n] = keys[n].idx
	}
	prioritySort(strategy.PriorityStrategy, opts.NoKey, pods, out)
	if len(strategy.ScatterStrategy) > 0 {
		out = scatterSort(strategy.ScatterStrategy, opts.Scatter, pods, out)
	}
	preparingUpdateFirst(pods, out)
	return out, nil
}

// preparingUpdateFirst moves the pods in PreparingUpdate to the front of
// idx, keeping the order within both groups: a stable partition, one
// pass when no pod is in PreparingUpdate (the usual case).
func preparingUpdateFirst(pods []Pod, idx []int) {
	preparing := func(i int) bool { return pods[i].Lifecycle == PreparingUpdate }
	if !slices.ContainsFunc(idx, preparing) {
		return
	}
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

// updateKey is what the ActivePods order reads of one pod, copied out so
// that sorting touches a small contiguous slice.
type updateKey struct {
	idx       int
	noNode    bool
	phase     uint8
	ready     bool
	restarts  int32
	sidecar   int32
	readyTime time.Time // ReadySince when Ready, else zero
	created   time.Time
	name      string
}

func updateKeyOf(pods []Pod, i int) updateKey {
	p := &pods[i]
	k := updateKey{idx: i, noNode: p.NodeName == "", phase: phaseOrdinal(p.Phase), ready: p.Ready,
		restarts: p.Restarts, sidecar: p.SidecarRestarts, created: p.CreationTime, name: p.Name}
	if p.Ready {
		k.readyTime = p.ReadySince
	}
	return k
}

// compareActive is Kubernetes' ActivePods.Less as a three-way comparison
// of two pods, with a name tie-break that makes it total over uniquely
// named pods. Negative means a is updated before b.
func compareActive(a, b *Pod) int {
	pods := []Pod{*a, *b}
	ka, kb := updateKeyOf(pods, 0), updateKeyOf(pods, 1)
	return compareUpdateKeys(&ka, &kb)
}

// compareUpdateKeys applies the ActivePods rules in turn: unassigned
// first; Pending < Unknown < Running; not Ready first; of two Ready pods
// the more recently ready first (zero first); more restarts, then more
// sidecar restarts, first; newer (zero first) first; then by name.
func compareUpdateKeys(a, b *updateKey) int {
	if a.noNode != b.noNode {
		return boolFirst(a.noNode, b.noNode)
	}
	if a.phase != b.phase {
		return cmp.Compare(a.phase, b.phase)
	}
	if a.ready != b.ready {
		return boolFirst(!a.ready, !b.ready)
	}
	if a.ready && !a.readyTime.Equal(b.readyTime) {
		return laterOrZeroFirst(a.readyTime, b.readyTime)
	}
	if a.restarts != b.restarts {
		return cmp.Compare(b.restarts, a.restarts)
	}
	if a.sidecar != b.sidecar {
		return cmp.Compare(b.sidecar, a.sidecar)
	}
	if !a.created.Equal(b.created) {
		return laterOrZeroFirst(a.created, b.created)
	}
	return strings.Compare(a.name, b.name)
}
