package rollout

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// ErrStaleStatus is wrapped by the error CleanupUnhealthy returns when a
// ReplicaSet reports more available pods than its spec.replicas (a status
// that has not caught up with a scale-down), which would turn the cleanup
// into a scale-up.
var ErrStaleStatus = errors.New("stale ReplicaSet status")

// StaleStatusError reports the ReplicaSet whose stale status stopped
// CleanupUnhealthy; From and To are the scale it refused (To > From).
//
// It is not a field.Error and does not wrap field.ErrInvalid: the
// ReplicaSet is valid (the API server accepts it) and its status will
// catch up; the error says the controller must not act on it yet, as
// upstream's does.
type StaleStatusError struct {
	ReplicaSet string
	From, To   int32
}

// Error returns upstream's text: "when cleaning up unhealthy replicas, got
// invalid request to scale down web-1 3 -> 5".
func (e *StaleStatusError) Error() string {
	return fmt.Sprintf("when cleaning up unhealthy replicas, got invalid request to scale down %s %d -> %d", e.ReplicaSet, e.From, e.To)
}

// Unwrap returns ErrStaleStatus.
func (e *StaleStatusError) Unwrap() error { return ErrStaleStatus }

// nilDeployment is the error for a nil *Deployment:
// "rollout: deployment: Required value".
func nilDeployment() error {
	return &field.Error{Prefix: "rollout", Field: "deployment", Type: field.TypeRequired, Err: field.ErrRequired}
}

// indexError is the error for a new-ReplicaSet index i out of range of n
// ReplicaSets, in package proportion's words:
// "rollout: newRS: 3 is out of range [-1, 2)".
func indexError(i, n int) error {
	return &field.Error{Prefix: "rollout", Field: "newRS",
		Detail: strconv.Itoa(i) + " is out of range [-1, " + strconv.Itoa(n) + ")", Err: field.ErrIndex}
}

// sizesError is the error for a sizes slice whose length is not the
// number of ReplicaSets: "rollout: sizes: 1 for 2 ReplicaSets".
func sizesError(sizes, rss int) error {
	return &field.Error{Prefix: "rollout", Field: "sizes",
		Detail: strconv.Itoa(sizes) + " for " + strconv.Itoa(rss) + " ReplicaSets", Err: field.ErrIndex}
}

// strategyError is upstream's error for a strategy type the rollout math
// does not know, "deployment type Canary isn't supported": a *field.Error
// holding only upstream's text (which names no field), wrapping
// field.ErrUnsupported.
func strategyError(t StrategyType) error {
	return &field.Error{Detail: "deployment type " + string(t) + " isn't supported", Err: field.ErrUnsupported}
}

// NewReplicas returns the size the new ReplicaSet may grow to in this sync.
// rss are all the deployment's ReplicaSets including the new one at index
// newRS; newRS == -1 stands for a new ReplicaSet about to be created (size
// 0, not in rss).
//
// RollingUpdate: with total = sum of spec.replicas over rss and
// allowed = R + maxSurge (maxSurge rounded up, no both-zero rule), the
// result is spec(new) if total >= allowed, else
// spec(new) + min(allowed - total, R - spec(new)). Recreate: R.
// Sums are computed in int64 and allowed saturates at math.MaxInt32, so
// where upstream wraps R + maxSurge (a maxSurge of math.MaxInt32 stalls the
// rollout forever) NewReplicas lets the rollout proceed while the total
// never exceeds math.MaxInt32; on every input where R + maxSurge fits in an
// int32 it equals upstream. Errors: a nil d (field.ErrRequired), an unsupported
// strategy (field.ErrUnsupported, upstream's text "deployment type Canary
// isn't supported"), a negative R (intorpercent.ErrNegativeTotal), newRS
// out of range (field.ErrIndex); the count is then 0. NewReplicas does not
// allocate unless it fails.
// Upstream: deploymentutil.NewRSNewReplicas.
func NewReplicas[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int) (int32, error) {
	return newReplicas(d, rss, newRS, false)
}

// newReplicas is NewReplicas; with countTerminating (SurgeCountsTerminating)
// the terminating pods of every ReplicaSet count towards the total.
func newReplicas[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, countTerminating bool) (int32, error) {
	if d == nil {
		return 0, nilDeployment()
	}
	if newRS < -1 || newRS >= len(rss) {
		return 0, indexError(newRS, len(rss))
	}
	switch d.strategy() {
	case Recreate:
		return d.Replicas, nil
	case RollingUpdate:
	default:
		return 0, strategyError(d.Strategy)
	}
	surgeValue, _ := d.rollingValues()
	surge, err := surgeValue.Scaled(d.Replicas, intorpercent.Up)
	if err != nil && !errors.Is(err, intorpercent.ErrOverflow) {
		return 0, err
	}
	var total int64
	for i := range rss {
		total += int64(rss[i].Replicas)
		if countTerminating {
			total += int64(terminating(&rss[i]))
		}
	}
	var current int64
	if newRS >= 0 {
		current = int64(rss[newRS].Replicas)
	}
	// The ceiling saturates at MaxInt32 rather than exceeding it, so the
	// ReplicaSets' sizes always add up to a count an int32 status can hold.
	allowed := min(int64(d.Replicas)+int64(surge), math.MaxInt32)
	if total >= allowed {
		return sat(current), nil
	}
	return sat(current + min(allowed-total, int64(d.Replicas)-current)), nil
}

// terminating returns rs's terminating pods, 0 when not reported.
func terminating[T any](rs *ReplicaSet[T]) int32 {
	if rs.TerminatingReplicas == nil {
		return 0
	}
	return *rs.TerminatingReplicas
}

// ReconcileNew returns the size the new ReplicaSet rss[newRS] gets in this
// sync of a rolling update: R when it already has R or more pods (a
// too-large new ReplicaSet is scaled straight down, without looking at
// availability), otherwise NewReplicas(d, rss, newRS). It does not
// allocate unless it fails; errors are NewReplicas's (newRS must be >= 0).
// Upstream: reconcileNewReplicaSet.
func ReconcileNew[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int) (int32, error) {
	if d == nil {
		return 0, nilDeployment()
	}
	if newRS < 0 || newRS >= len(rss) {
		return 0, indexError(newRS, len(rss))
	}
	if rss[newRS].Replicas >= d.Replicas {
		return d.Replicas, nil
	}
	return NewReplicas(d, rss, newRS)
}

// MaxScaledDown returns how many old pods a rolling update may remove in
// this sync: allPods - MinAvailable(d) - newUnavailable, where allPods is
// the sum of spec.replicas over rss and newUnavailable is the new
// ReplicaSet's spec.replicas minus its available pods (0 when newRS is -1).
// A result <= 0 means no old pod may go. Computed in int64 and saturated to
// int32; it does not allocate and ignores an out-of-range newRS (as -1).
// Upstream: the maxScaledDown budget of reconcileOldReplicaSets.
func MaxScaledDown[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int) int32 {
	var all int64
	for i := range rss {
		all += int64(rss[i].Replicas)
	}
	var newUnavailable int64
	if newRS >= 0 && newRS < len(rss) {
		newUnavailable = int64(rss[newRS].Replicas) - int64(rss[newRS].AvailableReplicas)
	}
	return sat(all - int64(MinAvailable(d)) - newUnavailable)
}

// older reports whether rss[i] sorts before rss[j] oldest first: earlier
// creation time, then smaller name, then smaller index.
func older[T any](rss []ReplicaSet[T], i, j int) bool {
	a, b := &rss[i], &rss[j]
	if !a.CreationTime.Equal(b.CreationTime) {
		return a.CreationTime.Before(b.CreationTime)
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return i < j
}

// oldestOrder returns the indices of rss other than skip, oldest first.
func oldestOrder[T any](rss []ReplicaSet[T], skip int) []int {
	order := make([]int, 0, len(rss))
	for i := range rss {
		if i != skip {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool { return older(rss, order[a], order[b]) })
	return order
}

// smallOrder is how many old ReplicaSets CleanupUnhealthy and ScaleDownOld
// order on the stack; beyond it, they allocate the order.
const smallOrder = 64

// sortOldest appends the indices of rss other than skip to dst and sorts
// them oldest first (see older): O(n log n).
func sortOldest[T any](dst []int, rss []ReplicaSet[T], skip int) []int {
	dst = slices.Grow(dst, len(rss))
	for i := range rss {
		if i != skip {
			dst = append(dst, i)
		}
	}
	slices.SortFunc(dst, func(i, j int) int {
		switch {
		case older(rss, i, j):
			return -1
		case older(rss, j, i):
			return 1
		}
		return 0
	})
	return dst
}

// CleanupUnhealthy removes unavailable pods from the old ReplicaSets,
// oldest first, at most maxCleanup in all. sizes[i] is rss[i]'s current
// spec.replicas (len(sizes) == len(rss)); the old ReplicaSets are all but
// rss[newRS] (newRS == -1: none is new), and the ones with spec.replicas 0
// in rss are skipped. For each, in order, until maxCleanup is reached:
// n = min(maxCleanup - cleaned, sizes[i] - available) pods go, so
// sizes[i] never falls below the ReplicaSet's available pods. It lowers
// sizes in place and returns how many pods it removed (0 <= cleaned <=
// max(0, maxCleanup)).
//
// A ReplicaSet reporting more available pods than sizes[i] stops the loop
// with a *StaleStatusError (wrapping ErrStaleStatus); the ReplicaSets
// already lowered stay lowered, as upstream has already written them when it
// fails. It takes O(n log n) time for n ReplicaSets (it sorts them once),
// and does not allocate unless it fails or n > 64.
// Upstream: cleanupUnhealthyReplicas.
func CleanupUnhealthy[T any](rss []ReplicaSet[T], newRS int, maxCleanup int32, sizes []int32) (int32, error) {
	if len(sizes) != len(rss) {
		return 0, sizesError(len(sizes), len(rss))
	}
	var buf [smallOrder]int
	return cleanupUnhealthy(rss, newRS, sortOldest(buf[:0], rss, newRS), maxCleanup, sizes)
}

// cleanupUnhealthy is CleanupUnhealthy visiting the old ReplicaSets in
// order, the indices of rss other than newRS oldest first.
func cleanupUnhealthy[T any](rss []ReplicaSet[T], newRS int, order []int, maxCleanup int32, sizes []int32) (int32, error) {
	if len(sizes) != len(rss) {
		return 0, sizesError(len(sizes), len(rss))
	}
	var cleaned int32
	for _, i := range order {
		if cleaned >= maxCleanup {
			break
		}
		if rss[i].Replicas == 0 || sizes[i] == 0 || sizes[i] == rss[i].AvailableReplicas {
			continue
		}
		n := min(int64(maxCleanup)-int64(cleaned), int64(sizes[i])-int64(rss[i].AvailableReplicas))
		to := int64(sizes[i]) - n
		if to > int64(sizes[i]) {
			return cleaned, &StaleStatusError{ReplicaSet: rss[i].Name, From: sizes[i], To: sat(to)}
		}
		sizes[i] = int32(to)
		cleaned += int32(n)
	}
	return cleaned, nil
}

// ScaleDownOld removes available old pods, oldest ReplicaSet first, as far
// as availability allows: with available the sum of available pods of the
// new ReplicaSet and the old ones whose spec.replicas in rss is above 0,
// it removes up to available - MinAvailable(d) pods (nothing if that is
// <= 0), taking min(sizes[i], remaining) from each old ReplicaSet in turn
// and skipping those already at 0. sizes is as for CleanupUnhealthy (run it
// first) and is lowered in place. It returns the number removed,
// 0 <= removed <= max(0, available - MinAvailable(d)). It takes O(n log n)
// time for n ReplicaSets (it sorts them once), and does not allocate unless
// it fails (a sizes slice of the wrong length, field.ErrIndex) or n > 64.
// Upstream: scaleDownOldReplicaSetsForRollingUpdate.
func ScaleDownOld[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, sizes []int32) (int32, error) {
	return scaleDownOld(d, rss, newRS, nil, sizes)
}

// scaleDownOld is ScaleDownOld visiting the old ReplicaSets in order, the
// indices of rss other than newRS oldest first (nil: sorted here, once
// there is a budget).
func scaleDownOld[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, order []int, sizes []int32) (int32, error) {
	if len(sizes) != len(rss) {
		return 0, sizesError(len(sizes), len(rss))
	}
	var available int64
	for i := range rss {
		if i == newRS || rss[i].Replicas > 0 {
			available += int64(rss[i].AvailableReplicas)
		}
	}
	budget := available - int64(MinAvailable(d))
	if budget <= 0 {
		return 0, nil
	}
	var buf [smallOrder]int
	if order == nil {
		order = sortOldest(buf[:0], rss, newRS)
	}
	var removed int64
	for _, i := range order {
		if removed >= budget {
			break
		}
		if rss[i].Replicas == 0 || sizes[i] == 0 {
			continue
		}
		n := min(int64(sizes[i]), budget-removed)
		sizes[i] -= int32(n)
		removed += n
	}
	return sat(removed), nil
}

// ReconcileOld is one rolling update's old side: if the old ReplicaSets
// have pods and MaxScaledDown(d, rss, newRS) > 0, it runs CleanupUnhealthy
// with that budget and then ScaleDownOld (which has its own budget), and
// returns the pods removed. sizes is as for CleanupUnhealthy and is lowered
// in place. A *StaleStatusError from the cleanup is returned with the pods
// removed before it, and ScaleDownOld is not run (upstream then treats the
// sync as not having scaled). It does not allocate unless it fails.
// Upstream: reconcileOldReplicaSets.
func ReconcileOld[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, sizes []int32) (int32, error) {
	if len(sizes) != len(rss) {
		return 0, sizesError(len(sizes), len(rss))
	}
	if newRS < -1 || newRS >= len(rss) {
		return 0, indexError(newRS, len(rss))
	}
	var oldPods int64
	for i := range rss {
		if i != newRS {
			oldPods += int64(rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return 0, nil
	}
	budget := MaxScaledDown(d, rss, newRS)
	if budget <= 0 {
		return 0, nil
	}
	cleaned, err := CleanupUnhealthy(rss, newRS, budget, sizes)
	if err != nil {
		return cleaned, err
	}
	removed, _ := ScaleDownOld(d, rss, newRS, sizes)
	return sat(int64(cleaned) + int64(removed)), nil
}

// IsSaturated reports whether rs is a new ReplicaSet that has finished:
// spec.replicas == R, its desired-replicas annotation reads R (parsed like
// strconv.Atoi, so "+10" counts) and all R pods are available. It is false
// for a nil d or rs or an unreadable annotation. It is
// proportion.IsSaturated on rs's counters and annotation, so where
// upstream truncates an annotation beyond int32 before comparing, it
// compares the full value. It does not allocate for a well-formed
// annotation.
// Upstream: deploymentutil.IsSaturated.
func IsSaturated[T any](d *Deployment[T], rs *ReplicaSet[T]) bool {
	if d == nil || rs == nil {
		return false
	}
	return proportion.IsSaturated(proportion.Deployment{Replicas: d.Replicas}, proportionReplicaSet(rs))
}

// proportionReplicaSet is what the proportion package reads of rs.
func proportionReplicaSet[T any](rs *ReplicaSet[T]) proportion.ReplicaSet {
	return proportion.ReplicaSet{
		Name:              rs.Name,
		CreationTime:      rs.CreationTime,
		Replicas:          rs.Replicas,
		AvailableReplicas: rs.AvailableReplicas,
		DesiredReplicas:   rs.Annotations[revision.DesiredReplicasAnnotation],
		MaxReplicas:       rs.Annotations[revision.MaxReplicasAnnotation],
	}
}
