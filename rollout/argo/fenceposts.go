package argo

import (
	"errors"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// ResolveFenceposts resolves maxSurge and maxUnavailable against
// desired, the Rollout's replicas, as Argo does for a canary: each is
// read with the legacy reader (intorpercent.ScaledLegacy: a number is a
// pod count, negative ones included; a string is a percentage whatever
// it holds, every '%' dropped), maxSurge rounded up and maxUnavailable
// down; a nil field counts as the number 0. If both come out 0,
// maxUnavailable becomes 1.
//
// A string that does not parse in either field returns (0, 0, err) and
// skips the 0/0 rule: Argo's callers ignore the error and use the
// zeros, so a canary with maxSurge "abc" never moves (see docs/argo.md).
// A percentage whose result does not fit an int32 is saturated where
// upstream's conversion wraps; no error is returned for it.
// Upstream: resolveFenceposts, utils/replicaset/replicaset.go.
func ResolveFenceposts(maxSurge, maxUnavailable *intorpercent.IntOrString, desired int32) (surge, unavailable int32, err error) {
	surge, err = legacy(maxSurge, desired, intorpercent.Up)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err = legacy(maxUnavailable, desired, intorpercent.Down)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable, nil
}

// legacy reads v (nil = the number 0) against total with the legacy
// reader. Overflow saturates silently; a negative total reads as 0
// total (Validate rejects negative replicas).
func legacy(v *intorpercent.IntOrString, total int32, r intorpercent.Rounding) (int32, error) {
	if v == nil {
		return 0, nil
	}
	if total < 0 {
		total = 0
	}
	n, err := intorpercent.ScaledLegacy(v, total, r)
	if err != nil {
		var se *intorpercent.ScaleError
		if errors.As(err, &se) && errors.Is(err, intorpercent.ErrOverflow) {
			return n, nil
		}
		return 0, err
	}
	return n, nil
}

// MaxSurge returns the canary's maxSurge in pods: the surge of
// ResolveFenceposts on MaxSurgeOrDefault and MaxUnavailableOrDefault,
// 0 when they do not parse, and 0 for blue-green (which never surges).
// It may be negative (a negative number is accepted by Argo).
// Upstream: MaxSurge, utils/replicaset/replicaset.go.
func MaxSurge[T any](ro *Rollout[T]) int32 {
	if ro.Strategy.Canary == nil {
		return 0
	}
	s, u := MaxSurgeOrDefault(ro), MaxUnavailableOrDefault(ro)
	surge, _, _ := ResolveFenceposts(&s, &u, ReplicasOrDefault(ro.Replicas))
	return surge
}

// MaxUnavailable returns how many of the Rollout's replicas may be
// unavailable, at most replicas: 0 when replicas is 0; for a canary the
// unavailable of ResolveFenceposts (0 when either field does not parse);
// for blue-green maxUnavailable read alone with the legacy reader,
// rounded down, with no 0/0 rule (it paces pod restarts only).
// Upstream: MaxUnavailable, utils/replicaset/replicaset.go.
func MaxUnavailable[T any](ro *Rollout[T]) int32 {
	r := ReplicasOrDefault(ro.Replicas)
	if r == 0 {
		return 0
	}
	var u int32
	if ro.Strategy.Canary != nil {
		s, un := MaxSurgeOrDefault(ro), MaxUnavailableOrDefault(ro)
		_, u, _ = ResolveFenceposts(&s, &un, r)
	} else {
		un := MaxUnavailableOrDefault(ro)
		u, _ = legacy(&un, r, intorpercent.Down)
	}
	if u > r {
		return r
	}
	return u
}
