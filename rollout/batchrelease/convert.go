package batchrelease

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// RollingStyleOf is the rolling style a Rollout writes into its
// BatchRelease: BlueGreen for a blue-green strategy, Canary for a canary
// strategy with enableExtraWorkloadForCanary (whatever the workload's
// kind: the BatchRelease controller then releases a non-Deployment as
// Partition), Partition otherwise; 0 when neither strategy is set.
// Upstream: RolloutStrategy.GetRollingStyle, api/v1beta1/rollout_types.go.
func RollingStyleOf(ro *Rollout) RollingStyle {
	switch {
	case ro == nil || (ro.Canary == nil && ro.BlueGreen == nil):
		return 0
	case ro.BlueGreen != nil:
		return BlueGreen
	case ro.Canary.EnableExtraWorkloadForCanary:
		return Canary
	}
	return Partition
}

// ReleaseFor is the BatchRelease a Rollout creates for its current step:
// one batch per step with canaryReplicas = the step's replicas, the
// strategy's failureThreshold, the Rollout's rolloutID, its rolling style
// (RollingStyleOf), and batchPartition = currentStepIndex - 1 (the
// Rollout counts steps from 1; 0 before the first step gives batch 0).
// The release's status is empty: the BatchRelease controller prepares it.
// ro must have exactly one strategy and every step must have replicas
// (upstream dereferences them); otherwise ReleaseFor returns a
// *field.Error. Upstream: createBatchRelease,
// pkg/controller/rollout/rollout_canary.go and rollout_bluegreen.go.
func ReleaseFor(ro *Rollout) (Release, error) {
	if ro == nil {
		return Release{}, &field.Error{Prefix: "batchrelease", Field: "rollout", Detail: "must not be nil", Err: field.ErrRequired}
	}
	prefix := "batchrelease: invalid Rollout " + strconv.Quote(ro.Name)
	s, path := ro.Canary, "spec.strategy.canary"
	switch {
	case ro.Canary == nil && ro.BlueGreen == nil:
		return Release{}, &field.Error{Prefix: prefix, Field: "spec.strategy", Detail: "one of canary and blueGreen must be set", Err: field.ErrRequired}
	case ro.Canary != nil && ro.BlueGreen != nil:
		return Release{}, &field.Error{Prefix: prefix, Field: "spec.strategy", Detail: "canary and blueGreen must not both be set", Err: field.ErrInvalid}
	case ro.BlueGreen != nil:
		s, path = ro.BlueGreen, "spec.strategy.blueGreen"
	}
	rel := Release{Name: ro.Name, WorkloadKind: ro.WorkloadKind, RolloutID: ro.RolloutID, FailureThreshold: clonePtrIOS(s.FailureThreshold),
		RollingStyle: RollingStyleOf(ro)}
	for i, st := range s.Steps {
		if st.Replicas == nil {
			return Release{}, &field.Error{Prefix: prefix, Field: path + ".steps[" + strconv.Itoa(i) + "].replicas", Detail: "must be set", Err: field.ErrRequired}
		}
		rel.Batches = append(rel.Batches, Batch{CanaryReplicas: *st.Replicas})
	}
	bp := max(ro.CurrentStepIndex-1, 0)
	rel.BatchPartition = &bp
	return rel, nil
}
