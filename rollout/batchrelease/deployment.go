package batchrelease

import (
	"slices"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// DeploymentStrategy is the rollouts.kruise.io/deployment-strategy
// annotation through which kruise-rollout drives a Deployment: its
// partition (pods made new), pause and rolling-update fenceposts.
// Upstream: DeploymentStrategy, api/v1alpha1/deployment_types.go.
type DeploymentStrategy struct {
	// RollingStyle is rollingStyle; the annotation Initialize writes
	// holds Partition.
	RollingStyle RollingStyle `json:"rollingStyle,omitempty"`
	// RollingUpdate is rollingUpdate: maxSurge and maxUnavailable as
	// written; nil means neither (both fenceposts 0).
	RollingUpdate *RollingUpdate `json:"rollingUpdate,omitempty"`
	// Paused is paused: the advanced controller only scales (sync), it
	// does not roll.
	Paused bool `json:"paused,omitempty"`
	// Partition is partition: how many pods (a count or a percent of
	// spec.replicas) the new ReplicaSet may have.
	Partition intorpercent.IntOrString `json:"partition,omitempty"`
}

// RollingUpdate is a Deployment's rollingUpdate: the fenceposts as
// written; nil means absent (0).
type RollingUpdate struct {
	// MaxUnavailable and MaxSurge are maxUnavailable and maxSurge as
	// written, read with the strict reader (maxSurge rounded up,
	// maxUnavailable down).
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *intorpercent.IntOrString `json:"maxSurge,omitempty"`
}

// DefaultDeploymentStrategy fills s as kruise-rollout's
// SetDefaultDeploymentStrategy does for the Partition style (other styles
// are left as they are): a nil rollingUpdate becomes empty; a nil
// maxUnavailable becomes "25%"; a nil maxSurge writes "25%" into
// maxUnavailable (upstream's slip: maxSurge stays nil, read as 0); if
// both then scale to 0 on 100 they become maxSurge 0, maxUnavailable 1.
// The fields s points to are not modified: new values are fresh.
// Upstream: SetDefaultDeploymentStrategy, api/v1alpha1/deployment_types.go.
func DefaultDeploymentStrategy(s DeploymentStrategy) DeploymentStrategy {
	if s.RollingStyle != Partition {
		return s
	}
	ru := RollingUpdate{}
	if s.RollingUpdate != nil {
		ru = *s.RollingUpdate
	}
	quarter := intorpercent.FromString("25%")
	if ru.MaxUnavailable == nil {
		ru.MaxUnavailable = &quarter
	}
	if ru.MaxSurge == nil {
		q := quarter
		ru.MaxUnavailable = &q
	}
	surge, _ := strictScaled(ru.MaxSurge, 100, true)
	unavailable, _ := strictScaled(ru.MaxUnavailable, 100, true)
	if surge == 0 && unavailable == 0 {
		zero, one := intorpercent.FromInt(0), intorpercent.FromInt(1)
		ru = RollingUpdate{MaxSurge: &zero, MaxUnavailable: &one}
	}
	s.RollingUpdate = &ru
	return s
}

// ResolveFenceposts reads maxSurge (rounded up) and maxUnavailable
// (rounded down) against desired with the strict reader, nil meaning 0;
// if both are 0, maxUnavailable is 1. ok is false, with both 0, when
// either is unreadable (upstream's error; its callers then use 0).
// The results are converted to int32 as upstream converts them.
// Upstream: ResolveFenceposts, pkg/controller/deployment/util/deployment_util.go.
func ResolveFenceposts(maxSurge, maxUnavailable *intorpercent.IntOrString, desired int32) (surge, unavailable int32, ok bool) {
	zero := intorpercent.FromInt(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	s, ok := strictScaled(maxSurge, int64(desired), true)
	if !ok {
		return 0, 0, false
	}
	u, ok := strictScaled(maxUnavailable, int64(desired), false)
	if !ok {
		return 0, 0, false
	}
	if s == 0 && u == 0 {
		u = 1
	}
	return int32(s), int32(u), true
}

// MaxSurge is the advanced controller's surge for a Deployment of
// replicas pods: 0 without a rollingUpdate, else ResolveFenceposts' surge
// (0 when unreadable). Upstream: MaxSurge, deployment/util/deployment_util.go.
func MaxSurge(replicas int32, strategy *DeploymentStrategy) int32 {
	if strategy == nil || strategy.RollingUpdate == nil {
		return 0
	}
	s, _, _ := ResolveFenceposts(strategy.RollingUpdate.MaxSurge, strategy.RollingUpdate.MaxUnavailable, replicas)
	return s
}

// MaxUnavailable is the advanced controller's unavailability budget: 0
// without a rollingUpdate or with 0 replicas, else ResolveFenceposts'
// (0 when unreadable) capped at replicas.
// Upstream: MaxUnavailable, deployment/util/deployment_util.go.
func MaxUnavailable(replicas int32, strategy *DeploymentStrategy) int32 {
	if strategy == nil || strategy.RollingUpdate == nil || replicas == 0 {
		return 0
	}
	_, u, _ := ResolveFenceposts(strategy.RollingUpdate.MaxSurge, strategy.RollingUpdate.MaxUnavailable, replicas)
	if u > replicas {
		return replicas
	}
	return u
}

// NewRSReplicasLimit is how many pods the partition lets the new
// ReplicaSet of a Deployment of replicas pods have:
//
//	L = clamp(strict ceil(partition, replicas), 0, replicas)   (unreadable: 0)
//	replicas > 1 and partition is a string other than "100%": L = min(L, replicas - 1)
//
// The R - 1 guard keeps one old pod for any percent short of "100%", so
// "99%" of 2 is 1 (a CloneSet updates 2). Negative replicas give 0.
// Upstream: NewRSReplicasLimit, pkg/controller/deployment/util/deployment_util.go.
func NewRSReplicasLimit(partition intorpercent.IntOrString, replicas int32) int32 {
	l, _ := strictScaled(&partition, int64(replicas), true)
	l = max(min(l, int64(replicas)), 0)
	if replicas > 1 && partition.IsString && partition.Str != "100%" {
		l = min(l, int64(replicas)-1)
	}
	return int32(l)
}

// NewRSReplicasLowerBound is the least size the advanced controller
// creates a new ReplicaSet with: 0 when the surge is positive, else
// min(1, replicas).
// Upstream: NewRSReplicasLowerBound, deployment/util/deployment_util.go.
func NewRSReplicasLowerBound(replicas int32, strategy *DeploymentStrategy) int32 {
	if MaxSurge(replicas, strategy) > 0 {
		return 0
	}
	return min(1, replicas)
}

// ReplicaSet is a ReplicaSet of a Deployment as the advanced controller
// reads it.
type ReplicaSet struct {
	// Name is metadata.name; it breaks ties of creation time.
	Name string `json:"name"`
	// Revision is the deployment.kubernetes.io/revision annotation as
	// written; "" means absent (revision 0). Text that is not an int64
	// makes the revision order fall back to creation time.
	Revision string `json:"revision,omitempty"`
	// CreationTime is metadata.creationTimestamp.
	CreationTime time.Time `json:"creationTime"`
	// Replicas is spec.replicas.
	Replicas int32 `json:"replicas"`
	// StatusReplicas, ReadyReplicas and AvailableReplicas are
	// status.replicas, status.readyReplicas and status.availableReplicas.
	StatusReplicas    int32 `json:"statusReplicas"`
	ReadyReplicas     int32 `json:"readyReplicas"`
	AvailableReplicas int32 `json:"availableReplicas"`
	// DesiredReplicas is the deployment.kubernetes.io/desired-replicas
	// annotation; nil means absent. An active ReplicaSet whose value
	// differs from the Deployment's replicas is a scaling event.
	DesiredReplicas *int32 `json:"desiredReplicas,omitempty"`
	// MaxReplicas is the deployment.kubernetes.io/max-replicas
	// annotation (R + surge when last scaled); nil means absent, and
	// proportional scaling then reads the Deployment's status.replicas.
	MaxReplicas *int32 `json:"maxReplicas,omitempty"`
}

// sumReplicas is Σ spec.replicas, in int64.
func sumReplicas(rss []ReplicaSet) int64 {
	var n int64
	for i := range rss {
		n += int64(rss[i].Replicas)
	}
	return n
}

// NewRSNewReplicas is the size the advanced controller scales the new
// ReplicaSet newRS to, among allRSs (which include newRS), for a
// Deployment of replicas pods under strategy:
//
//	total = Σ spec(allRSs)
//	total > new.spec:  L = NewRSReplicasLimit(partition)
//	    new.spec >= L or total >= R + surge: new.spec
//	    otherwise min(new.spec + min(R + surge - total, R - new.spec), L)
//	otherwise:         R       (only the new ReplicaSet has pods: the partition is ignored)
//
// Sums are int64. Upstream: NewRSNewReplicas (the advanced Deployment
// branch), pkg/controller/deployment/util/deployment_util.go.
func NewRSNewReplicas(replicas int32, allRSs []ReplicaSet, newRS ReplicaSet, strategy DeploymentStrategy) int32 {
	total := sumReplicas(allRSs)
	if total <= int64(newRS.Replicas) {
		return replicas
	}
	limit := NewRSReplicasLimit(strategy.Partition, replicas)
	if newRS.Replicas >= limit {
		return newRS.Replicas
	}
	maxTotal := int64(replicas) + int64(MaxSurge(replicas, &strategy))
	if total >= maxTotal {
		return newRS.Replicas
	}
	up := min(maxTotal-total, int64(replicas)-int64(newRS.Replicas))
	return int32(min(int64(newRS.Replicas)+up, int64(limit)))
}

// ScaleDownLimitForOld is how many pods the old ReplicaSets may lose so
// that the new ReplicaSet can reach its partition:
//
//	Σ spec(oldRSs) - (R - max(NewRSReplicasLimit(partition, R), new.spec))
//
// A result <= 0 means the old ReplicaSets are at or below what the
// partition keeps; the controller then scales the biggest old one up by
// its negation. Computed in int64 (upstream sums in int32).
// Upstream: ScaleDownLimitForOld, pkg/controller/deployment/rolling.go.
func ScaleDownLimitForOld(oldRSs []ReplicaSet, newRS ReplicaSet, replicas int32, partition intorpercent.IntOrString) int64 {
	desiredNew := max(int64(NewRSReplicasLimit(partition, replicas)), int64(newRS.Replicas))
	return sumReplicas(oldRSs) - (int64(replicas) - desiredNew)
}

// revisionNumber parses a Revision as upstream's Revision does: absent
// is 0; ok is false for text that is not an int64.
func revisionNumber(rs *ReplicaSet) (int64, bool) {
	if rs.Revision == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(rs.Revision, 10, 64)
	return n, err == nil
}

// byCreation orders as ReplicaSetsByCreationTimestamp: older first, then
// name.
func byCreation(a, b *ReplicaSet) int {
	if !a.CreationTime.Equal(b.CreationTime) {
		if a.CreationTime.Before(b.CreationTime) {
			return -1
		}
		return 1
	}
	return cmpString(a.Name, b.Name)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// byLargerRevision orders as ReplicaSetsBySmallerRevision, which despite
// its name puts larger revisions first; equal or unreadable revisions
// fall back to creation order.
func byLargerRevision(a, b *ReplicaSet) int {
	ra, oka := revisionNumber(a)
	rb, okb := revisionNumber(b)
	if !oka || !okb || ra == rb {
		return byCreation(a, b)
	}
	if ra > rb {
		return -1
	}
	return 1
}

// bySizeOlder orders as ReplicaSetsBySizeOlder: larger spec first, then
// creation order.
func bySizeOlder(a, b *ReplicaSet) int {
	if a.Replicas != b.Replicas {
		if a.Replicas > b.Replicas {
			return -1
		}
		return 1
	}
	return byCreation(a, b)
}

// bySizeNewer orders as ReplicaSetsBySizeNewer: larger spec first, then
// newer first.
func bySizeNewer(a, b *ReplicaSet) int {
	if a.Replicas != b.Replicas {
		if a.Replicas > b.Replicas {
			return -1
		}
		return 1
	}
	return byCreation(b, a)
}

// sortedIndexes returns the indexes of rss in the order cmp gives,
// leaving rss as it is.
func sortedIndexes(dst []int, rss []ReplicaSet, idx []int, cmp func(a, b *ReplicaSet) int) []int {
	dst = append(dst[:0], idx...)
	slices.SortStableFunc(dst, func(i, j int) int { return cmp(&rss[i], &rss[j]) })
	return dst
}
