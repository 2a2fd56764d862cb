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
	var out []int
	for i := range pods {
		p := &pods[i]
		if !IsPodActive(p) || IsPodAtRevision(p, updateRevision) != (updateNum < 0) {
			continue
		}
		switch p.Lifecycle {
		case PreparingDelete:
			continue
		case Updated:
		default:
			if p.InPlaceUpdateGrace != nil {
				continue
			}
		}
		out = append(out, i)
	}
	return out
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
//     among the others (SPEC-cloneset §7.4), with kruise's rounding or
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
// Errors (*InputError wrapping [ErrInvalid]; the order is then nil): a
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
	out := slices.Clone(candidates)
	slices.SortFunc(out, func(a, b int) int { return compareActive(&pods[a], &pods[b]) })
	prioritySort(strategy.PriorityStrategy, opts.NoKey, pods, out)
	if len(strategy.ScatterStrategy) > 0 {
		out = scatterSort(strategy.ScatterStrategy, opts.Scatter, pods, out)
	}
	slices.SortStableFunc(out, func(a, b int) int {
		pa, pb := pods[a].Lifecycle == PreparingUpdate, pods[b].Lifecycle == PreparingUpdate
		switch {
		case pa == pb:
			return 0
		case pa:
			return -1
		}
		return 1
	})
	return out, nil
}

// checkCandidates validates indices into pods.
func checkCandidates(pods []Pod, candidates []int) error {
	seen := make([]bool, len(pods))
	for n, i := range candidates {
		field := "candidates[" + strconv.Itoa(n) + "]"
		if i < 0 || i >= len(pods) {
			return inputError(field, "%d: out of range for %d pods", i, len(pods))
		}
		if seen[i] {
			return inputError(field, "%d: listed twice", i)
		}
		seen[i] = true
		if !IsPodActive(&pods[i]) {
			return inputError(field, "%d: pod %q is not active", i, pods[i].Name)
		}
	}
	return nil
}

// phaseOrdinal ranks phases for the ActivePods order: Pending and any
// phase not listed 0, Unknown 1, Running 2.
func phaseOrdinal(p PodPhase) int {
	switch p {
	case PodUnknown:
		return 1
	case PodRunning:
		return 2
	}
	return 0
}

// compareActive is Kubernetes' ActivePods.Less as a three-way comparison,
// with a name tie-break that makes it total over uniquely named pods.
// Negative means a is updated (or deleted) before b.
func compareActive(a, b *Pod) int {
	// 1. Unassigned before assigned.
	if (a.NodeName == "") != (b.NodeName == "") {
		if a.NodeName == "" {
			return -1
		}
		return 1
	}
	// 2. Pending < Unknown < Running.
	if c := cmp.Compare(phaseOrdinal(a.Phase), phaseOrdinal(b.Phase)); c != 0 {
		return c
	}
	// 3. Not ready before ready.
	if a.Ready != b.Ready {
		if !a.Ready {
			return -1
		}
		return 1
	}
	// 4. Both ready: the more recently ready first, a zero time first.
	if a.Ready && !a.ReadySince.Equal(b.ReadySince) {
		return afterOrZero(a.ReadySince, b.ReadySince)
	}
	// 5. More restarts first, then more sidecar restarts.
	if c := cmp.Compare(b.Restarts, a.Restarts); c != 0 {
		return c
	}
	if c := cmp.Compare(b.SidecarRestarts, a.SidecarRestarts); c != 0 {
		return c
	}
	// 6. Newer first, a zero creation time first.
	if !a.CreationTime.Equal(b.CreationTime) {
		return afterOrZero(a.CreationTime, b.CreationTime)
	}
	return strings.Compare(a.Name, b.Name)
}

// afterOrZero orders two different times: a zero time first, else the
// later one first.
func afterOrZero(a, b time.Time) int {
	if a.IsZero() || b.IsZero() {
		if a.IsZero() {
			return -1
		}
		return 1
	}
	if a.After(b) {
		return -1
	}
	return 1
}
