package argo

import "math"

// CurrentCanaryStep returns the step status.currentStepIndex points at
// and that index (nil reads as 0). step is nil when the Rollout has no
// canary steps, or the index is at or past the last step (every step is
// done); index is then still the recorded index (0 with no steps).
// Upstream: GetCurrentCanaryStep, utils/replicaset/canary.go.
func CurrentCanaryStep[T any](ro *Rollout[T]) (step *CanaryStep, index int32) {
	c := ro.Strategy.Canary
	if c == nil || len(c.Steps) == 0 {
		return nil, 0
	}
	if ro.Status.CurrentStepIndex != nil {
		index = *ro.Status.CurrentStepIndex
	}
	if index < 0 || int(index) >= len(c.Steps) {
		// A negative index is not a state Argo writes; upstream would
		// index out of range. We read it as "no current step".
		return nil, index
	}
	return &c.Steps[index], index
}

// CurrentSetWeight returns the weight the steps ask for now: 0 when
// aborted; MaxTrafficWeight when there is no current step (no steps, or
// every step done); otherwise the nearest setWeight at or before the
// current step (pause and setCanaryScale steps inherit it), 0 if none.
// Upstream: GetCurrentSetWeight, utils/replicaset/canary.go.
func CurrentSetWeight[T any](ro *Rollout[T]) int32 {
	if ro.Status.Abort {
		return 0
	}
	step, i := CurrentCanaryStep(ro)
	if step == nil {
		return MaxTrafficWeight(ro)
	}
	steps := ro.Strategy.Canary.Steps
	for ; i >= 0; i-- {
		if w := steps[i].SetWeight; w != nil {
			return *w
		}
	}
	return 0
}

// UseSetCanaryScale returns the setCanaryScale in force, or nil: nil
// without traffic routing, when aborted (unless
// abortScaleDownDelaySeconds is an explicit 0), and with no current
// step; otherwise the nearest setCanaryScale at or before the current
// step, unless it is matchTrafficWeight (which cancels). It stays in
// force across later setWeight steps.
// Upstream: UseSetCanaryScale, utils/replicaset/canary.go.
func UseSetCanaryScale[T any](ro *Rollout[T]) *SetCanaryScale {
	c := ro.Strategy.Canary
	if c == nil || c.TrafficRouting == nil {
		return nil
	}
	if ro.Status.Abort {
		if d, _ := AbortScaleDownDelayOrDefault(ro); d != nil {
			return nil
		}
	}
	step, i := CurrentCanaryStep(ro)
	if step == nil {
		return nil
	}
	for ; i >= 0; i-- {
		s := c.Steps[i].SetCanaryScale
		if s == nil {
			continue
		}
		if s.MatchTrafficWeight {
			return nil
		}
		return s
	}
	return nil
}

// CanaryReplicasOrWeight returns how the canary is sized: replicas, an
// explicit pod count from setCanaryScale (nil when none applies), and
// otherwise weight. Fully promoted, promoteFull, or no stable yet:
// (nil, MaxTrafficWeight). A setCanaryScale in force: (replicas, 0), or
// (nil, its weight) — not range-checked. Else (nil,
// DesiredCanaryWeight).
// Upstream: GetCanaryReplicasOrWeight, utils/replicaset/canary.go.
func CanaryReplicasOrWeight[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T]) (replicas *int32, weight int32) {
	s := &ro.Status
	if s.PromoteFull || s.StableRS == "" || s.CurrentPodHash == s.StableRS {
		return nil, MaxTrafficWeight(ro)
	}
	if scs := UseSetCanaryScale(ro); scs != nil {
		if scs.Replicas != nil {
			return scs.Replicas, 0
		}
		if scs.Weight != nil {
			return nil, *scs.Weight
		}
	}
	return nil, DesiredCanaryWeight(ro, newRS, stableRS)
}

// DesiredCanaryWeight returns CurrentSetWeight, except for an aborted
// canary with dynamicStableScale whose new and stable ReplicaSets both
// exist: then it walks the setWeight steps from the last to the first
// and returns the first weight whose pods, ceil(R*w/M), are fewer than
// max(R - stable available, new available); 0 if none. So an abort
// steps the canary down the way it came up.
// Upstream: GetDesiredCanaryWeight, utils/replicaset/canary.go.
func DesiredCanaryWeight[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T]) int32 {
	c := ro.Strategy.Canary
	if ro.Status.Abort && c != nil && c.DynamicStableScale && newRS != nil && stableRS != nil {
		m := MaxTrafficWeight(ro)
		r := ReplicasOrDefault(ro.Replicas)
		want := max(r-stableRS.AvailableReplicas, newRS.AvailableReplicas)
		for i := len(c.Steps) - 1; i >= 0; i-- {
			if w := c.Steps[i].SetWeight; w != nil {
				if TrafficWeightToReplicas(r, *w, m) < want {
					return *w
				}
			}
		}
		return 0
	}
	return CurrentSetWeight(ro)
}

// TrafficWeightToReplicas returns the pods that carry weight of
// maxWeight of replicas: ceil(weight*replicas/maxWeight), computed in
// float64 as upstream does. A maxWeight of 0 or less returns 0 (Plan
// rejects it).
// Upstream: trafficWeightToReplicas, utils/replicaset/canary.go.
func TrafficWeightToReplicas(replicas, weight, maxWeight int32) int32 {
	if maxWeight <= 0 {
		return 0
	}
	return f2i(math.Ceil(float64(weight) * float64(replicas) / float64(maxWeight)))
}

// f2i converts a float64 holding a whole number to int32, saturating.
func f2i(f float64) int32 {
	switch {
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	case f != f:
		return 0
	}
	return int32(f)
}

// SplitForWeight answers "how many canary and stable pods give weight
// w out of maxWeight on replicas, with maxSurge?": the canary/stable
// pair of total replicas or replicas+1 (the latter only when maxSurge >
// 0) whose canary share canary*maxWeight/total is closest to w. Options
// are tried in a fixed order (ceil on replicas, floor on replicas, ceil
// on replicas+1, floor on replicas+1) and the first closest wins. For
// 0 < w < maxWeight neither side is 0 unless replicas is 1 and maxSurge
// 0; a floor that ties with its ceiling (exactly half a pod) is not
// considered, so ties round up. replicas 0 gives (0, 0).
//
// This is the answer to "why 1 canary and 3 stable at setWeight 20 on 3
// replicas": 20% of 3 is 0.6; 1/3 = 33% keeps a pod on each side but
// 1/4 = 25% (surging one pod) is closer to 20%.
//
// Products are computed in int64 where upstream multiplies int32s,
// so the answer differs only when replicas*maxWeight exceeds 2^31-1;
// at replicas = math.MaxInt32 the surged options are not considered
// (upstream's replicas+1 wraps). Negative arguments are not rejected
// (Plan rejects them); the result is then what the formulas give.
// Upstream: approximateWeightedCanaryStableReplicaCounts (unexported),
// utils/replicaset/canary.go.
func SplitForWeight(replicas, w, maxWeight, maxSurge int32) (canary, stable int32) {
	if replicas == 0 {
		return 0, 0
	}
	if maxWeight <= 0 {
		return 0, replicas
	}
	var opts [4]splitOption
	n := splitOptions(&opts, replicas, w, maxWeight, maxSurge)
	if n == 0 {
		return 0, replicas
	}
	best := opts[0]
	bestDelta := weightDelta(w, maxWeight, best.canary, best.total)
	for _, o := range opts[1:n] {
		if d := weightDelta(w, maxWeight, o.canary, o.total); d < bestDelta {
			best, bestDelta = o, d
		}
	}
	return best.canary, best.total - best.canary
}

// splitOption is one candidate of SplitForWeight.
type splitOption struct{ canary, total int32 }

// splitOptions fills opts with SplitForWeight's candidates in upstream's
// order and returns how many there are.
func splitOptions(opts *[4]splitOption, replicas, w, maxWeight, maxSurge int32) int {
	prod := float64(int64(replicas) * int64(w))
	ceil := f2i(math.Ceil(prod / float64(maxWeight)))
	floor := f2i(math.Floor(prod / float64(maxWeight)))
	zeroOK := w == maxWeight || w == 0 || (replicas == 1 && maxSurge == 0)
	n := 0
	if ceil < replicas || zeroOK {
		opts[n] = splitOption{ceil, replicas}
		n++
	}
	if !tied(w, maxWeight, replicas) && (floor != 0 || zeroOK) {
		opts[n] = splitOption{floor, replicas}
		n++
	}
	if maxSurge > 0 && replicas < math.MaxInt32 {
		opts[n] = splitOption{ceil, replicas + 1}
		n++
		if !tied(w, maxWeight, replicas+1) && (floor != 0 || zeroOK) {
			opts[n] = splitOption{floor, replicas + 1}
			n++
		}
	}
	return n
}

// tied reports whether total*(w/maxWeight) is exactly half a pod, in
// float64 as upstream computes it. Upstream: floorCeilingTied.
func tied(w, maxWeight, total int32) bool {
	_, frac := math.Modf(float64(total) * (float64(w) / float64(maxWeight)))
	return frac == 0.5
}

// weightDelta is |canary*maxWeight/total - w|. Upstream: weightDelta.
func weightDelta(w, maxWeight, canary, total int32) float64 {
	actual := float64(int64(canary)*int64(maxWeight)) / float64(total)
	return math.Abs(actual - float64(w))
}

// stableExists reports whether stableRS exists and is not the new
// ReplicaSet. Upstream: CheckStableRSExists, utils/replicaset/canary.go.
func stableExists[T any](newRS, stableRS *ReplicaSet[T]) bool {
	if stableRS == nil {
		return false
	}
	return newRS == nil || newRS.Name != stableRS.Name
}

// ReplicasForScaleDown returns the pods of rs that count as available
// when deciding how far a basic canary may scale down: its spec when
// the spec is below its available pods or ignoreAvailability is set,
// else its available pods; 0 for nil.
// Upstream: GetReplicasForScaleDown, utils/replicaset/canary.go.
func ReplicasForScaleDown[T any](rs *ReplicaSet[T], ignoreAvailability bool) int32 {
	if rs == nil {
		return 0
	}
	if rs.Replicas < rs.AvailableReplicas || ignoreAvailability {
		return rs.Replicas
	}
	return rs.AvailableReplicas
}

// BasicCanaryCounts returns the spec.replicas a basic canary (no traffic
// routing) gives the new and the stable ReplicaSet in this sync: the
// target of SplitForWeight for the weight of CanaryReplicasOrWeight
// (the whole of replicas for new when there is no distinct stable),
// approached within maxSurge and maxUnavailable. Growth goes to stable
// first, then new, up to replicas + maxSurge pods in all; while older
// ReplicaSets have pods nothing shrinks; otherwise the side moving
// away from its target (stable while the weight rises, new while it
// falls) shrinks as far as availability above replicas - maxUnavailable
// allows, and the other side is trimmed back under the surge limit
// without losing availability.
// Upstream: CalculateReplicaCountsForBasicCanary, utils/replicaset/canary.go.
func BasicCanaryCounts[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T], others []*ReplicaSet[T]) (newCount, stableCount int32) {
	r := ReplicasOrDefault(ro.Replicas)
	_, w := CanaryReplicasOrWeight(ro, newRS, stableRS)
	surge := MaxSurge(ro)
	dNew, dStable := SplitForWeight(r, w, MaxTrafficWeight(ro), surge)

	if newRS != nil {
		newCount = newRS.Replicas
	}
	distinct := stableExists(newRS, stableRS)
	if distinct {
		stableCount = stableRS.Replicas
	} else {
		dNew, dStable = r, 0
	}
	maxTotal := int64(r) + int64(surge)
	var othersSpec int64
	for _, o := range others {
		if o != nil {
			othersSpec += int64(o.Replicas)
		}
	}
	total := othersSpec + int64(newCount)
	if distinct {
		total += int64(stableRS.Replicas)
	}
	room := maxTotal - total
	if distinct && stableRS.Replicas < dStable && room > 0 {
		if int64(stableRS.Replicas)+room < int64(dStable) {
			stableCount = stableRS.Replicas + int32(room)
			room = 0
		} else {
			stableCount = dStable
			room -= int64(dStable - stableRS.Replicas)
		}
	}
	if newRS != nil && newRS.Replicas < dNew && room > 0 {
		if int64(newRS.Replicas)+room < int64(dNew) {
			newCount = newRS.Replicas + int32(room)
		} else {
			newCount = dNew
		}
	}
	if othersSpec > 0 {
		return newCount, stableCount
	}
	minAvail := int64(r) - int64(MaxUnavailable(ro))
	increasing := newRS == nil || dNew >= newRS.Replicas
	var stableIn *ReplicaSet[T]
	if distinct || stableRS != nil {
		stableIn = stableRS
	}
	counted := int64(ReplicasForScaleDown(newRS, !increasing)) + int64(ReplicasForScaleDown(stableIn, increasing))
	if counted <= minAvail {
		return newCount, stableCount
	}
	down := counted - minAvail
	if !increasing {
		newCount = scaleDownCount(newRS, dNew, down, newCount)
		newCount, stableCount = adjustWithinLimits(newRS, stableIn, newCount, stableCount, maxTotal, minAvail)
	} else if distinct {
		stableCount = scaleDownCount(stableRS, dStable, down, stableCount)
		stableCount, newCount = adjustWithinLimits(stableRS, newRS, stableCount, newCount, maxTotal, minAvail)
	}
	return newCount, stableCount
}

// scaleDownCount lowers the count of drain toward desired by at most
// down. Upstream: calculateScaleDownReplicaCount.
func scaleDownCount[T any](drain *ReplicaSet[T], desired int32, down int64, count int32) int32 {
	if drain != nil && drain.Replicas > desired {
		return int32(max(int64(desired), int64(drain.Replicas)-down))
	}
	return count
}

// adjustWithinLimits trims the other side back under maxTotal, giving
// back what availability the trim cost, and trims drain by what is
// still over. Upstream: adjustReplicaWithinLimits.
func adjustWithinLimits[T any](drain, other *ReplicaSet[T], d, o int32, maxTotal, minAvail int64) (int32, int32) {
	dd, oo := int64(d), int64(o)
	over := max(0, oo+dd-maxTotal)
	var avail int64
	if drain != nil {
		avail += min(int64(drain.AvailableReplicas), dd)
	}
	if other != nil {
		oo -= over
		avail += min(int64(other.AvailableReplicas), oo)
		extra := max(0, int64(other.AvailableReplicas)-oo)
		need := max(0, minAvail-avail)
		oo += min(extra, need)
		over = max(0, oo+dd-maxTotal)
		dd -= over
	}
	return clamp32(dd), clamp32(oo)
}

// clamp32 converts v to int32, saturating.
func clamp32(v int64) int32 {
	switch {
	case v > math.MaxInt32:
		return math.MaxInt32
	case v < math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}

// CheckMinPodsPerReplicaSet returns count raised to minPodsPerReplicaSet
// (itself capped at the Rollout's replicas) when count is not 0 and the
// canary has traffic routing and the field set; otherwise count.
// Upstream: CheckMinPodsPerReplicaSet, utils/replicaset/canary.go.
func CheckMinPodsPerReplicaSet[T any](ro *Rollout[T], count int32) int32 {
	if count == 0 {
		return 0
	}
	c := ro.Strategy.Canary
	if c == nil || c.MinPodsPerReplicaSet == nil || c.TrafficRouting == nil {
		return count
	}
	m := min(*c.MinPodsPerReplicaSet, ReplicasOrDefault(ro.Replicas))
	return max(count, m)
}

// TrafficRoutedCanaryCounts returns the spec.replicas a canary with
// traffic routing gives the new and the stable ReplicaSet: the canary
// gets setCanaryScale's replicas as given, or
// CheckMinPodsPerReplicaSet(TrafficWeightToReplicas(weight)); maxSurge
// and maxUnavailable are not used. Without dynamicStableScale the stable
// keeps all replicas. With it the stable gets the pods of the remaining
// weight, or of weights.Stable if that is more (the stable shrinks
// only once traffic has left it), and an aborted canary keeps the pods
// of weights.Canary if that is more; both are then raised to
// minPodsPerReplicaSet. weights is what the router was last told (nil
// if nothing).
// Upstream: CalculateReplicaCountsForTrafficRoutedCanary, utils/replicaset/canary.go.
func TrafficRoutedCanaryCounts[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T], weights *Weights) (newCount, stableCount int32) {
	r := ReplicasOrDefault(ro.Replicas)
	rep, w := CanaryReplicasOrWeight(ro, newRS, stableRS)
	m := MaxTrafficWeight(ro)
	if rep != nil {
		newCount = *rep
	} else {
		newCount = CheckMinPodsPerReplicaSet(ro, TrafficWeightToReplicas(r, w, m))
	}
	if c := ro.Strategy.Canary; c == nil || !c.DynamicStableScale {
		return newCount, r
	}
	stableCount = TrafficWeightToReplicas(r, m-w, m)
	if weights != nil {
		stableCount = max(stableCount, TrafficWeightToReplicas(r, weights.Stable.Weight, m))
		if ro.Status.Abort {
			newCount = max(newCount, TrafficWeightToReplicas(r, weights.Canary.Weight, m))
		}
	}
	return CheckMinPodsPerReplicaSet(ro, newCount), CheckMinPodsPerReplicaSet(ro, stableCount)
}

// ReplicaProgressThresholdMet reports whether rs has enough available
// pods for a step whose canary wants desired pods. Without a threshold
// (or rs nil, or a negative value): rs exists, desired == its spec and
// desired == its available pods. Type "Percent": desired 0 is met, else
// 100*available/desired >= value (float64, within 1e-10). Any other
// type: available >= value (desired is not consulted).
// Upstream: ReplicaProgressThresholdMet, utils/replicaset/canary.go.
func ReplicaProgressThresholdMet[T any](threshold *ReplicaProgressThreshold, rs *ReplicaSet[T], desired int32) bool {
	if threshold == nil || rs == nil || threshold.Value < 0 {
		return rs != nil && desired == rs.Replicas && desired == rs.AvailableReplicas
	}
	if threshold.Type == ProgressPercent {
		if desired == 0 {
			return true
		}
		pct := float64(rs.AvailableReplicas) / float64(desired) * 100
		v := float64(threshold.Value)
		return pct >= v || math.Abs(pct-v) <= 1e-10
	}
	return rs.AvailableReplicas >= threshold.Value
}

// AtDesiredReplicaCountsForCanary reports whether a setWeight or
// setCanaryScale step has reached its pods: the new ReplicaSet meets
// ReplicaProgressThresholdMet for its count this sync (BasicCanaryCounts,
// or TrafficRoutedCanaryCounts with weights); unless traffic-routed with
// dynamicStableScale, the stable exists with spec and status.replicas
// equal to its count (pods created, not necessarily available); and for
// a basic canary the older ReplicaSets have no available pods. The
// counts are this sync's stepped values, so a canary that cannot move
// (maxSurge "abc") is "at desired".
// Upstream: AtDesiredReplicaCountsForCanary, utils/replicaset/canary.go.
func AtDesiredReplicaCountsForCanary[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T], older []*ReplicaSet[T], weights *Weights) bool {
	c := ro.Strategy.Canary
	var dNew, dStable int32
	if c.TrafficRouting == nil {
		dNew, dStable = BasicCanaryCounts(ro, newRS, stableRS, older)
	} else {
		dNew, dStable = TrafficRoutedCanaryCounts(ro, newRS, stableRS, weights)
	}
	if !ReplicaProgressThresholdMet(c.ReplicaProgressThreshold, newRS, dNew) {
		return false
	}
	if c.TrafficRouting == nil || !c.DynamicStableScale {
		if stableRS == nil || dStable != stableRS.Replicas || dStable != stableRS.StatusReplicas {
			return false
		}
	}
	if c.TrafficRouting == nil {
		var avail int64
		for _, o := range older {
			if o != nil {
				avail += int64(o.AvailableReplicas)
			}
		}
		if avail != 0 {
			return false
		}
	}
	return true
}
