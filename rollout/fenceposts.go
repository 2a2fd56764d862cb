package rollout

import (
	"errors"
	"math"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Fenceposts resolves a rolling update's maxSurge and maxUnavailable
// against desired, the deployment's spec.replicas: surge is maxSurge
// rounded up, unavailable is maxUnavailable rounded down (a count is taken
// as is). Both-zero rule: if both resolve to 0, whether written as 0 or
// rounded down to it, unavailable becomes 1, even when desired is 0, so a
// rollout can always move. The zero Value is Int(0), as upstream reads a
// nil argument.
//
// Where upstream truncates a result beyond int32 (maxSurge "30000000000%"
// of 10 gives -1294967296), Fenceposts saturates at math.MaxInt32 (or
// math.MinInt32). The only error is a negative desired (wrapping
// intorpercent.ErrNegativeTotal); the results are then (0, 0). Fenceposts
// does not allocate unless it fails.
// Upstream: ResolveFenceposts.
func Fenceposts(maxSurge, maxUnavailable intorpercent.Value, desired int32) (surge, unavailable int32, err error) {
	surge, err = maxSurge.Scaled(desired, intorpercent.Up)
	if err != nil && !errors.Is(err, intorpercent.ErrOverflow) {
		return 0, 0, err
	}
	unavailable, err = maxUnavailable.Scaled(desired, intorpercent.Down)
	if err != nil && !errors.Is(err, intorpercent.ErrOverflow) {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable, nil
}

// MaxSurge returns how many pods above spec.replicas a rolling update may
// run: 0 for Recreate (or a nil d), otherwise the surge of
// Fenceposts(maxSurge, maxUnavailable, R) with the 25% defaults for nil
// fields, 0 if that fails. It is not clamped: maxSurge 3 with R = 0 gives
// 3, and math.MaxInt32 stays math.MaxInt32 (saturated where upstream
// wraps). It does not allocate.
// Upstream: deploymentutil.MaxSurge.
func MaxSurge[T any](d *Deployment[T]) int32 {
	if d == nil || d.strategy() != RollingUpdate {
		return 0
	}
	surge, unavailable := d.rollingValues()
	s, _, err := Fenceposts(surge, unavailable, d.Replicas)
	if err != nil {
		return 0
	}
	return s
}

// MaxUnavailable returns how many of the spec.replicas pods may be
// unavailable during a rolling update: 0 for Recreate, for R = 0 or for a
// nil d; otherwise the unavailable of Fenceposts (so at least 1 when both
// fenceposts are 0), clamped to R: 0 <= MaxUnavailable(d) <= R for a valid
// d. It does not allocate.
// Upstream: deploymentutil.MaxUnavailable.
func MaxUnavailable[T any](d *Deployment[T]) int32 {
	if d == nil || d.strategy() != RollingUpdate || d.Replicas == 0 {
		return 0
	}
	surge, unavailable := d.rollingValues()
	_, u, err := Fenceposts(surge, unavailable, d.Replicas)
	if err != nil {
		return 0
	}
	return min(u, d.Replicas)
}

// MinAvailable returns how many pods must stay available during a rolling
// update: R - MaxUnavailable(d), or 0 for Recreate or a nil d. For a valid
// d, 0 <= MinAvailable(d) <= R. The difference is computed in int64 and
// saturated to int32. It does not allocate.
// Upstream: deploymentutil.MinAvailable.
func MinAvailable[T any](d *Deployment[T]) int32 {
	if d == nil || d.strategy() != RollingUpdate {
		return 0
	}
	return sat(int64(d.Replicas) - int64(MaxUnavailable(d)))
}

// sat saturates v to the int32 range.
func sat(v int64) int32 {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	if v < math.MinInt32 {
		return math.MinInt32
	}
	return int32(v)
}

// maxTotal returns R + MaxSurge(d), saturated at math.MaxInt32: the most
// pods a rolling update may ask for, and the max-replicas annotation value.
func maxTotal[T any](d *Deployment[T]) int32 {
	return sat(int64(d.Replicas) + int64(MaxSurge(d)))
}
