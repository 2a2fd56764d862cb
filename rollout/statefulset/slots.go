package statefulset

import (
	"slices"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// ParseOrdinal splits a pod name as the controller does: the parent is
// everything before the last '-' that is followed only by decimal digits
// to the end, and the ordinal is those digits read as a 32-bit number.
// A name without such a suffix has parent "" and ordinal -1; digits
// beyond int32 give ordinal -1 with the parent kept (the controller then
// ignores the pod in its slots). Leading zeros are accepted ("web-01"
// is ordinal 1). ParseOrdinal does not allocate.
// Upstream: getParentNameAndOrdinal, pkg/controller/statefulset/stateful_set_utils.go.
func ParseOrdinal(name string) (parent string, ordinal int32) {
	end := len(name)
	i := end
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == end || i == 0 || name[i-1] != '-' {
		return "", -1
	}
	n, err := strconv.ParseInt(name[i:], 10, 32)
	if err != nil {
		return name[:i-1], -1
	}
	return name[:i-1], int32(n)
}

// StartOrdinal returns the ordinal of slot 0: spec.ordinals.start.
// Upstream: getStartOrdinal, pkg/controller/statefulset/stateful_set_utils.go.
func StartOrdinal[T any](set *StatefulSet[T]) int64 { return int64(set.Ordinals.Start) }

// EndOrdinal returns the ordinal of the last slot, start + replicas - 1
// (start - 1 when replicas is 0), in int64 so that it never wraps.
// Upstream: getEndOrdinal, pkg/controller/statefulset/stateful_set_utils.go.
func EndOrdinal[T any](set *StatefulSet[T]) int64 {
	return int64(set.Ordinals.Start) + int64(set.Replicas) - 1
}

// PodName returns the name of the set's pod with ordinal ordinal,
// "<set>-<ordinal>".
// Upstream: getPodName, pkg/controller/statefulset/stateful_set_utils.go.
func PodName(set string, ordinal int64) string {
	return set + "-" + strconv.FormatInt(ordinal, 10)
}

// IsAvailable reports whether p is available at now: Ready, and either
// minReadySeconds is 0 or p has been ready since ReadySince (non-zero)
// with ReadySince + minReadySeconds <= now. Phase and Terminating are
// not consulted.
// Upstream: podutil.IsPodAvailable (pkg/api/v1/pod/util.go), which the
// controller calls isRunningAndAvailable.
func IsAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	if !p.Ready {
		return false
	}
	return minReadySeconds == 0 ||
		(!p.ReadySince.IsZero() && !p.ReadySince.Add(time.Duration(minReadySeconds)*time.Second).After(now))
}

// IsRunningAndReady reports whether p is in phase Running and Ready.
// Upstream: isRunningAndReady, pkg/controller/statefulset/stateful_set_utils.go.
func IsRunningAndReady(p *Pod) bool { return p.Phase == PodRunning && p.Ready }

// IsUnavailable reports whether a slot counts as unavailable: its pod is
// missing (p nil), not available at now, or terminating.
// Upstream: isUnavailable, pkg/controller/statefulset/stateful_set_utils.go.
func IsUnavailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	return p == nil || !IsAvailable(p, minReadySeconds, now) || p.Terminating
}

// nextAvailable returns how long after now p becomes available, for a
// ready pod not yet available with minReadySeconds > 0; ok is false
// otherwise.
func nextAvailable(p *Pod, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	if !p.Ready || minReadySeconds == 0 || p.ReadySince.IsZero() {
		return 0, false
	}
	d := p.ReadySince.Add(time.Duration(minReadySeconds) * time.Second).Sub(now)
	if d <= 0 {
		return 0, false
	}
	return d, true
}

// SplitPods sorts the set's pods into slots and condemned pods as a sync
// does: slots[k] is the index in pods of the pod with ordinal start+k,
// or -1 when the slot is empty (a sync creates it); condemned are the
// indices of the pods named for the set whose ordinal is outside the
// slots, by descending ordinal (the order they are deleted in). Pods
// not named for the set, or whose ordinal does not fit in 32 bits, are
// in neither. Two pods with the same ordinal are an error (a *field.Error
// wrapping field.ErrDuplicate; the controller would keep whichever it
// listed last). pods is not modified.
// Upstream: updateStatefulSet's partition of pods into replicas and
// condemned, with podInOrdinalRange and getOrdinal,
// pkg/controller/statefulset/stateful_set_control.go and stateful_set_utils.go.
func SplitPods[T any](set *StatefulSet[T], pods []Pod) (slots []int, condemned []int, err error) {
	start, end := StartOrdinal(set), EndOrdinal(set)
	if set.Replicas < 0 {
		return nil, nil, &field.Error{Prefix: "statefulset", Field: "spec.replicas", Value: strconv.Itoa(int(set.Replicas)), Detail: "must not be negative", Err: field.ErrNegative}
	}
	slots = make([]int, set.Replicas)
	for k := range slots {
		slots[k] = -1
	}
	seen := map[int32]int{}
	for i := range pods {
		parent, ord := ParseOrdinal(pods[i].Name)
		if parent != set.Name || ord < 0 {
			continue
		}
		if j, dup := seen[ord]; dup {
			return nil, nil, &field.Error{Prefix: "statefulset", Field: "pods[" + strconv.Itoa(max(i, j)) + "].name",
				Detail: "ordinal " + strconv.Itoa(int(ord)) + " is also pods[" + strconv.Itoa(min(i, j)) + "]'s", Err: field.ErrDuplicate}
		}
		seen[ord] = i
		if o := int64(ord); o >= start && o <= end {
			slots[o-start] = i
		} else {
			condemned = append(condemned, i)
		}
	}
	slices.SortFunc(condemned, func(a, b int) int {
		_, oa := ParseOrdinal(pods[a].Name)
		_, ob := ParseOrdinal(pods[b].Name)
		return int(ob) - int(oa)
	})
	return slots, condemned, nil
}
