package batchrelease

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// CalculateBatchContext computes the batch context of release over
// workload as kruise-rollout's executor picks the controller
// (getReleaseController): the BlueGreen style for CloneSets and
// Deployments, the Canary style for Deployments, and the partition style
// for everything else (the Canary style on another kind included). It
// returns an error for bad input: a nil argument, negative replicas, a
// current batch outside the plan. Upstream: getReleaseController,
// pkg/controller/batchrelease/batchrelease_executor.go, and the
// CalculateBatchContext of each controller.
func CalculateBatchContext(release *Release, workload *Workload) (BatchContext, error) {
	switch effectiveStyle(release, workload) {
	case BlueGreen:
		return BlueGreenBatchContext(release, workload)
	case Canary:
		return CanaryBatchContext(release, workload)
	}
	switch workload.Kind {
	case CloneSet:
		return CloneSetBatchContext(release, workload)
	case Deployment:
		return DeploymentBatchContext(release, workload)
	}
	return StatefulSetBatchContext(release, workload)
}

// effectiveStyle is the style the executor releases with. Blue-green on
// a StatefulSet is not a supported combination upstream; it is released
// with the partition controllers here (Validate of a Rollout rejects it).
func effectiveStyle(release *Release, workload *Workload) RollingStyle {
	if release == nil || workload == nil {
		return Partition
	}
	switch release.RollingStyle {
	case BlueGreen:
		if workload.Kind == CloneSet || workload.Kind == Deployment {
			return BlueGreen
		}
	case Canary:
		if workload.Kind == Deployment {
			return Canary
		}
	}
	return Partition
}

func checkContextArgs(release *Release, workload *Workload) error {
	if workload == nil {
		return &field.Error{Prefix: "batchrelease", Field: "workload", Detail: "must not be nil", Err: field.ErrRequired}
	}
	if release == nil {
		return checkBatchArgs(nil, 0, 0)
	}
	return checkBatchArgs(release, workload.Replicas, release.Status.CurrentBatch)
}

// rolloutCounts returns the release's rolloutID and the pod counts the
// controller lists (only with a rolloutID, as upstream).
func rolloutPods(release *Release, pods *PodCounts) *PodCounts {
	if release.RolloutID == "" {
		return nil
	}
	return pods
}

// CloneSetBatchContext is the partition style's batch context for a
// CloneSet: planned = BatchReplicas(R, i) pods at the update revision and
// R - planned kept stable; when rolling back in batches (N =
// noNeedUpdateReplicas > 0) the batch counts only the pods that need the
// update:
//
//	desiredStable = R - N - BatchReplicas(R - N, i)
//	desiredUpdate = R - desiredStable
//
// The desired partition is desiredStable as a count when the batch is a
// count, and [PercentPartition] of it when the batch is a string. The
// current partition is the workload's (0 when absent).
// Upstream: CalculateBatchContext, control/partitionstyle/cloneset/control.go.
func CloneSetBatchContext(release *Release, workload *Workload) (BatchContext, error) {
	if err := checkContextArgs(release, workload); err != nil {
		return BatchContext{}, err
	}
	c, desiredStable := partitionNumbers(release, workload)
	batch := release.Batches[c.CurrentBatch].CanaryReplicas
	c.DesiredPartition = intorpercent.FromInt(desiredStable)
	if batch.IsString {
		c.DesiredPartition = PercentPartition(desiredStable, workload.Replicas, batch)
	}
	if workload.Partition != nil {
		c.CurrentPartition = *workload.Partition
	}
	return c, nil
}

// partitionNumbers computes what the CloneSet and StatefulSet partition
// styles share: planned, desired update and desired stable.
func partitionNumbers(release *Release, workload *Workload) (BatchContext, int32) {
	r := workload.Replicas
	i := release.Status.CurrentBatch
	n := release.Status.NoNeedUpdateReplicas
	planned := batchReplicas(release.Batches, r, i)
	desiredUpdate := planned
	desiredStable := r - desiredUpdate
	if n != nil && *n > 0 {
		// Upstream passes R - N to CalculateBatchReplicas unchecked; with N
		// above R its clamp gives R - N (negative) or 0.
		rest := int64(r) - int64(*n)
		b := batchReplicas64(release.Batches, rest, i)
		desiredStable = int32(int64(r) - int64(*n) - b)
		desiredUpdate = r - desiredStable
	}
	return BatchContext{
		RolloutID:              release.RolloutID,
		CurrentBatch:           i,
		Replicas:               r,
		UpdatedReplicas:        workload.Status.UpdatedReplicas,
		UpdatedReadyReplicas:   workload.Status.UpdatedReadyReplicas,
		NoNeedUpdatedReplicas:  n,
		PlannedUpdatedReplicas: planned,
		DesiredUpdatedReplicas: desiredUpdate,
		FailureThreshold:       release.FailureThreshold,
		Pods:                   rolloutPods(release, workload.Status.Pods),
	}, desiredStable
}

// StatefulSetBatchContext is the partition style's batch context for a
// StatefulSet or Advanced StatefulSet: the numbers of
// [CloneSetBatchContext], with the partition always the count
// desiredStable. With an ordered update (a native StatefulSet, or an
// Advanced StatefulSet without unorderedUpdate) and N non-nil, the pods
// that need no update sit above the partition ordinal:
//
//	desiredStable += N;  desiredUpdate = R - desiredStable + N
//
// The current partition is the workload's (0 when absent).
// Upstream: CalculateBatchContext, control/partitionstyle/statefulset/control.go.
func StatefulSetBatchContext(release *Release, workload *Workload) (BatchContext, error) {
	if err := checkContextArgs(release, workload); err != nil {
		return BatchContext{}, err
	}
	c, desiredStable := partitionNumbers(release, workload)
	unordered := workload.Kind == AdvancedStatefulSet && workload.UnorderedUpdate
	if n := release.Status.NoNeedUpdateReplicas; !unordered && n != nil {
		desiredStable += *n
		c.DesiredUpdatedReplicas = workload.Replicas - desiredStable + *n
	}
	c.DesiredPartition = intorpercent.FromInt(desiredStable)
	if workload.Partition != nil {
		c.CurrentPartition = intorpercent.FromInt(workload.Partition.Int)
	}
	return c, nil
}

// DeploymentBatchContext is the partition style's batch context for a
// Deployment under kruise-rollout's advanced Deployment controller. Here
// the partition is the pods made new (the opposite of a CloneSet's): the
// desired partition is batches[i].canaryReplicas as written, and
// planned = desiredUpdate = [NewRSReplicasLimit] of it. There is no
// rollback in batches. The current partition is left zero, as upstream
// leaves it: the upgrade reads the strategy annotation's partition
// (Workload.Partition) itself.
// Upstream: CalculateBatchContext, control/partitionstyle/deployment/control.go.
func DeploymentBatchContext(release *Release, workload *Workload) (BatchContext, error) {
	if err := checkContextArgs(release, workload); err != nil {
		return BatchContext{}, err
	}
	i := release.Status.CurrentBatch
	desired := release.Batches[i].CanaryReplicas
	planned := NewRSReplicasLimit(desired, workload.Replicas)
	c := BatchContext{
		RolloutID:              release.RolloutID,
		CurrentBatch:           i,
		Replicas:               workload.Replicas,
		UpdatedReplicas:        workload.Status.UpdatedReplicas,
		UpdatedReadyReplicas:   workload.Status.UpdatedReadyReplicas,
		PlannedUpdatedReplicas: planned,
		DesiredUpdatedReplicas: planned,
		DesiredPartition:       desired,
		FailureThreshold:       release.FailureThreshold,
		Pods:                   rolloutPods(release, workload.Status.Pods),
	}
	return c, nil
}

// CanaryBatchContext is the Canary style's batch context for a
// Deployment: desiredUpdate = BatchReplicas(stable R, i) pods of the
// extra canary Deployment, whose status.replicas are the updated pods and
// status.availableReplicas the updated ready ones. The planned count is
// never set (0), so the rollout-id label check always passes.
// Upstream: CalculateBatchContext, control/canarystyle/deployment/control.go.
func CanaryBatchContext(release *Release, workload *Workload) (BatchContext, error) {
	if err := checkContextArgs(release, workload); err != nil {
		return BatchContext{}, err
	}
	i := release.Status.CurrentBatch
	c := BatchContext{
		RolloutID:              release.RolloutID,
		CurrentBatch:           i,
		Replicas:               workload.Replicas,
		DesiredUpdatedReplicas: batchReplicas(release.Batches, workload.Replicas, i),
		FailureThreshold:       release.FailureThreshold,
	}
	if cd := workload.Canary; cd != nil {
		c.UpdatedReplicas = cd.StatusReplicas
		c.UpdatedReadyReplicas = cd.AvailableReplicas
		c.Pods = rolloutPods(release, cd.Pods)
	}
	return c, nil
}

// BlueGreenBatchContext is the BlueGreen style's batch context for a
// CloneSet or a Deployment. The batch is a surge: desiredSurge =
// batches[i].canaryReplicas as written, and the current surge is the
// workload's maxSurge, where an int 1 (the value Initialize writes) counts
// as 0, and absent as 0. The desired updated pods are, for a CloneSet,
// the batch read strictly against R with ceil, unclamped (converted to
// int32 as upstream converts it), and for a Deployment
// [NewRSReplicasLimit] (at most R - 1 for a percent other than "100%").
// The failure threshold is not carried (blue-green tolerates no unready
// pod), nor are the pods: the blue-green control plane lists them when it
// checks the batch (Plan does the same). Upstream: CalculateBatchContext,
// control/bluegreenstyle/{cloneset,deployment}/control.go.
func BlueGreenBatchContext(release *Release, workload *Workload) (BatchContext, error) {
	if err := checkContextArgs(release, workload); err != nil {
		return BatchContext{}, err
	}
	i := release.Status.CurrentBatch
	desired := release.Batches[i].CanaryReplicas
	var planned int32
	if workload.Kind == Deployment {
		planned = NewRSReplicasLimit(desired, workload.Replicas)
	} else {
		v, _ := strictScaled(&desired, int64(workload.Replicas), true)
		planned = int32(v)
	}
	c := BatchContext{
		RolloutID:              release.RolloutID,
		CurrentBatch:           i,
		Replicas:               workload.Replicas,
		UpdatedReplicas:        workload.Status.UpdatedReplicas,
		UpdatedReadyReplicas:   workload.Status.UpdatedReadyReplicas,
		PlannedUpdatedReplicas: planned,
		DesiredUpdatedReplicas: planned,
		DesiredSurge:           desired,
		CurrentSurge:           currentSurge(workload.MaxSurge),
	}
	return c, nil
}

// currentSurge reads a workload's maxSurge as the blue-green style does:
// absent is 0, and an int 1 is 0 too (the marker Initialize writes).
func currentSurge(s *intorpercent.IntOrString) intorpercent.IntOrString {
	if s == nil || *s == intorpercent.FromInt(1) {
		return intorpercent.FromInt(0)
	}
	return *s
}

// itoa is strconv.Itoa for int32.
func itoa(n int32) string { return strconv.Itoa(int(n)) }
