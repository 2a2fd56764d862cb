package proportion

import (
	"math"
	"time"
)

// ReplicaSet is what the proportional split reads of one ReplicaSet.
// Counts are replicas; [Scale] rejects negative ones.
type ReplicaSet struct {
	Name              string    // metadata.name; unique among the ReplicaSets passed together
	CreationTime      time.Time // metadata.creationTimestamp; compared as an instant
	Replicas          int32     // spec.replicas, >= 0
	AvailableReplicas int32     // status.availableReplicas; read only by [IsSaturated]
	DesiredReplicas   string    // raw value of deployment.kubernetes.io/desired-replicas; "" = absent
	MaxReplicas       string    // raw value of deployment.kubernetes.io/max-replicas; "" = absent
}

// Deployment is what the split reads of the Deployment. Counts are
// replicas; [Scale] rejects negative ones. MaxSurge is used as given:
// pass 0 when RollingUpdate is false, as upstream's MaxSurge(d) is 0 for
// Recreate.
type Deployment struct {
	Replicas       int32 // spec.replicas (R)
	MaxSurge       int32 // resolved maxSurge (0 for Recreate); may be huge: R+MaxSurge saturates, never wraps
	StatusReplicas int32 // status.replicas: the fallback when max-replicas is missing, invalid or 0
	RollingUpdate  bool  // false for Recreate: the proportional step is skipped (Scale, step 3)
}

// MaxReplicas returns R + maxSurge, the value upstream writes to the
// max-replicas annotation, saturated at math.MaxInt32:
// min(int64(d.Replicas)+int64(d.MaxSurge), MaxInt32) (and at MinInt32
// below, for inputs [Scale] rejects). It does not allocate.
//
// Upstream computes R + MaxSurge(d) in int32 and wraps: R 10 with maxSurge
// MaxInt32 gives -2147483639 there and 2147483647 here.
func (d Deployment) MaxReplicas() int32 {
	return clamp32(int64(d.Replicas) + int64(d.MaxSurge))
}

// Allowed returns the total the proportional split aims at: 0 when R is
// 0, otherwise [Deployment.MaxReplicas]. It does not allocate.
// Upstream: allowedSize in scale().
func (d Deployment) Allowed() int32 {
	if d.Replicas == 0 {
		return 0
	}
	return d.MaxReplicas()
}

// clamp32 returns v limited to the int32 range.
func clamp32(v int64) int32 {
	switch {
	case v > math.MaxInt32:
		return math.MaxInt32
	case v < math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}
