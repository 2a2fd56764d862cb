package argo

import (
	"math"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// ReplicasOrDefault returns *replicas, or DefaultReplicas (1) when
// replicas is nil. It is how Argo reads both a Rollout's and a
// ReplicaSet's spec.replicas.
// Upstream: GetReplicasOrDefault, utils/defaults/defaults.go.
func ReplicasOrDefault(replicas *int32) int32 {
	if replicas == nil {
		return DefaultReplicas
	}
	return *replicas
}

// RevisionHistoryLimitOrDefault returns spec.revisionHistoryLimit, or
// DefaultRevisionHistoryLimit (10) when it is nil.
// Upstream: GetRevisionHistoryLimitOrDefault, utils/defaults/defaults.go.
func RevisionHistoryLimitOrDefault[T any](ro *Rollout[T]) int32 {
	if ro.RevisionHistoryLimit == nil {
		return DefaultRevisionHistoryLimit
	}
	return *ro.RevisionHistoryLimit
}

// ProgressDeadlineSecondsOrDefault returns spec.progressDeadlineSeconds,
// or DefaultProgressDeadlineSeconds (600) when it is nil, in seconds.
// Upstream: GetProgressDeadlineSecondsOrDefault, utils/defaults/defaults.go.
func ProgressDeadlineSecondsOrDefault[T any](ro *Rollout[T]) int32 {
	if ro.ProgressDeadlineSeconds == nil {
		return DefaultProgressDeadlineSeconds
	}
	return *ro.ProgressDeadlineSeconds
}

// MaxSurgeOrDefault returns the canary's maxSurge as written, or the
// string DefaultMaxSurge ("25", no '%') when it is nil or the Rollout is
// not a canary.
// Upstream: GetMaxSurgeOrDefault, utils/defaults/defaults.go.
func MaxSurgeOrDefault[T any](ro *Rollout[T]) intorpercent.IntOrString {
	if c := ro.Strategy.Canary; c != nil && c.MaxSurge != nil {
		return *c.MaxSurge
	}
	return intorpercent.FromString(DefaultMaxSurge)
}

// MaxUnavailableOrDefault returns maxUnavailable as written, blue-green's
// first, then the canary's, else the string DefaultMaxUnavailable ("25").
// Upstream: GetMaxUnavailableOrDefault, utils/defaults/defaults.go.
func MaxUnavailableOrDefault[T any](ro *Rollout[T]) intorpercent.IntOrString {
	if b := ro.Strategy.BlueGreen; b != nil && b.MaxUnavailable != nil {
		return *b.MaxUnavailable
	}
	if c := ro.Strategy.Canary; c != nil && c.MaxUnavailable != nil {
		return *c.MaxUnavailable
	}
	return intorpercent.FromString(DefaultMaxUnavailable)
}

// ScaleDownDelayOrDefault returns how long an old ReplicaSet keeps its
// pods after a switch: blue-green's scaleDownDelaySeconds (default 30
// s); a canary with traffic routing, the canary's (default 30 s); a
// basic canary, 0 whatever is written (Validate rejects the field
// there). A negative value gives a negative duration, as upstream.
// Upstream: GetScaleDownDelaySecondsOrDefault, utils/defaults/defaults.go.
func ScaleDownDelayOrDefault[T any](ro *Rollout[T]) time.Duration {
	var s int32
	if b := ro.Strategy.BlueGreen; b != nil {
		s = DefaultScaleDownDelaySeconds
		if b.ScaleDownDelaySeconds != nil {
			s = *b.ScaleDownDelaySeconds
		}
	}
	if c := ro.Strategy.Canary; c != nil && c.TrafficRouting != nil {
		s = DefaultScaleDownDelaySeconds
		if c.ScaleDownDelaySeconds != nil {
			s = *c.ScaleDownDelaySeconds
		}
	}
	return time.Duration(s) * time.Second
}

// AbortScaleDownDelayOrDefault returns how long the canary (or preview)
// ReplicaSet keeps its pods after an abort, and whether
// abortScaleDownDelaySeconds was written. delay is nil when the field
// is an explicit 0: the ReplicaSet is then never scaled down. Blue-green
// and a canary with traffic routing default to 30 s; a basic canary's
// delay is always 0 s (non-nil, wasSet false).
// Upstream: GetAbortScaleDownDelaySecondsOrDefault, utils/defaults/defaults.go.
func AbortScaleDownDelayOrDefault[T any](ro *Rollout[T]) (delay *time.Duration, wasSet bool) {
	var s int32
	if b := ro.Strategy.BlueGreen; b != nil {
		s = DefaultAbortScaleDownDelaySeconds
		if b.AbortScaleDownDelaySeconds != nil {
			wasSet = true
			if *b.AbortScaleDownDelaySeconds == 0 {
				return nil, true
			}
			s = *b.AbortScaleDownDelaySeconds
		}
	} else if c := ro.Strategy.Canary; c != nil && c.TrafficRouting != nil {
		s = DefaultAbortScaleDownDelaySeconds
		if c.AbortScaleDownDelaySeconds != nil {
			wasSet = true
			if *c.AbortScaleDownDelaySeconds == 0 {
				return nil, true
			}
			s = *c.AbortScaleDownDelaySeconds
		}
	}
	d := time.Duration(s) * time.Second
	return &d, wasSet
}

// AutoPromotionEnabledOrDefault returns blueGreen.autoPromotionEnabled,
// true when nil or not blue-green.
// Upstream: GetAutoPromotionEnabledOrDefault, utils/defaults/defaults.go.
func AutoPromotionEnabledOrDefault[T any](ro *Rollout[T]) bool {
	if b := ro.Strategy.BlueGreen; b != nil && b.AutoPromotionEnabled != nil {
		return *b.AutoPromotionEnabled
	}
	return true
}

// ScaleDownRevisionLimit returns how many old ReplicaSets may wait for
// their scale-down delay at once: blue-green's
// scaleDownDelayRevisionLimit, else the canary's, else math.MaxInt32.
// Upstream: GetScaleDownRevisionLimit, rollout/bluegreen.go.
func ScaleDownRevisionLimit[T any](ro *Rollout[T]) int32 {
	if b := ro.Strategy.BlueGreen; b != nil && b.ScaleDownDelayRevisionLimit != nil {
		return *b.ScaleDownDelayRevisionLimit
	}
	if c := ro.Strategy.Canary; c != nil && c.ScaleDownDelayRevisionLimit != nil {
		return *c.ScaleDownDelayRevisionLimit
	}
	return math.MaxInt32
}

// MaxTrafficWeight returns the weight that means all traffic:
// trafficRouting.maxTrafficWeight, or DefaultMaxTrafficWeight (100)
// when it is nil or there is no traffic routing (a basic canary always
// has 100).
// Upstream: MaxTrafficWeight, utils/weightutil/weight.go.
func MaxTrafficWeight[T any](ro *Rollout[T]) int32 {
	if c := ro.Strategy.Canary; c != nil && c.TrafficRouting != nil && c.TrafficRouting.MaxTrafficWeight != nil {
		return *c.TrafficRouting.MaxTrafficWeight
	}
	return DefaultMaxTrafficWeight
}

// DurationSeconds returns a pause step's duration in whole seconds: 0
// for a nil duration (the caller checks for nil first: nil waits for a
// resume), a number as is, a string holding a base-10 int32 as that
// number of seconds ("30", "-5"), else a Go duration truncated to whole
// seconds ("1h" is 3600, "1.5s" is 1, "500ms" is 0), and -1 for text
// that is neither ("abc"; Validate rejects it).
// Upstream: RolloutPause.DurationSeconds, pkg/apis/rollouts/v1alpha1/types.go.
func DurationSeconds(p RolloutPause) int32 {
	if p.Duration == nil {
		return 0
	}
	if !p.Duration.IsString {
		return p.Duration.Int
	}
	if n, err := strconv.ParseInt(p.Duration.Str, 10, 32); err == nil {
		return int32(n)
	}
	d, err := time.ParseDuration(p.Duration.Str)
	if err != nil {
		return -1
	}
	// Upstream converts float64 seconds to int32: beyond the int32
	// range the conversion is implementation-defined; we saturate.
	s := d.Seconds()
	switch {
	case s >= math.MaxInt32:
		return math.MaxInt32
	case s <= math.MinInt32:
		return math.MinInt32
	}
	return int32(s)
}
