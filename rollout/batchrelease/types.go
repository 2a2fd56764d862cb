package batchrelease

import (
	"encoding/json"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// CanaryStep is one step of a Rollout's canary (or blue-green) strategy,
// as rollouts.kruise.io/v1beta1 CanaryStep holds it: how many pods run the
// new revision, how much traffic they get, and how long to wait after.
// Upstream: CanaryStep, api/v1beta1/rollout_types.go.
type CanaryStep struct {
	// Replicas is steps[i].replicas as written: a count (5) or a percent
	// of the workload's replicas ("20%"). nil is rejected by Validate
	// ("replicas cannot be empty"). It becomes batches[i].canaryReplicas
	// of the BatchRelease.
	Replicas *intorpercent.IntOrString `json:"replicas,omitempty"`
	// Traffic is steps[i].traffic, a percent of traffic for the new pods
	// ("5%"); nil means the step sets no traffic weight.
	Traffic *string `json:"traffic,omitempty"`
	// Matches is steps[i].matches: header or query matches that route
	// requests to the new pods. The math reads only how many there are
	// (a step with matches counts as a step with traffic in Validate), so
	// each entry is kept as its JSON text and encodes back unchanged.
	Matches []json.RawMessage `json:"matches,omitempty"`
	// Pause is steps[i].pause.
	Pause Pause `json:"pause,omitempty"`
}

// Pause is a step's pause: how long the Rollout waits after the step's
// batch is ready before it moves on. Upstream: RolloutPause.
type Pause struct {
	// Duration is pause.duration in seconds; nil means wait for a person
	// to resume the Rollout (a manual pause). The last step with replicas
	// "100%" never pauses.
	Duration *int32 `json:"duration,omitempty"`
}

// Strategy is a Rollout's spec.strategy.canary or spec.strategy.blueGreen:
// the steps and the settings the BatchRelease copies from them.
// Upstream: CanaryStrategy and BlueGreenStrategy, api/v1beta1/rollout_types.go.
type Strategy struct {
	// Steps are the steps in order; Validate rejects an empty list.
	Steps []CanaryStep `json:"steps"`
	// FailureThreshold is failureThreshold: how many updated pods (a
	// count or a percent of the updated pods) may be unready when a batch
	// counts as ready; nil means none. Upstream does not validate it.
	FailureThreshold *intorpercent.IntOrString `json:"failureThreshold,omitempty"`
	// EnableExtraWorkloadForCanary is enableExtraWorkloadForCanary (canary
	// strategy only): release through an extra canary Deployment (style
	// Canary) instead of the workload's own partition. kruise-rollout
	// honours it only for apps/v1 Deployments.
	EnableExtraWorkloadForCanary bool `json:"enableExtraWorkloadForCanary,omitempty"`
	// TrafficRoutings counts spec.strategy.*.trafficRoutings; the math
	// reads only whether there are any.
	TrafficRoutings int32 `json:"trafficRoutingCount,omitempty"`
}

// Rollout is a rollouts.kruise.io/v1beta1 Rollout as the batch math reads
// it: the workload it releases, its strategy and where it is. Exactly one
// of Canary and BlueGreen is set (Validate). Upstream: Rollout,
// api/v1beta1/rollout_types.go.
type Rollout struct {
	// Name is metadata.name.
	Name string `json:"name"`
	// WorkloadKind is the kind of spec.workloadRef.
	WorkloadKind Kind `json:"workloadKind"`
	// Canary is spec.strategy.canary; BlueGreen spec.strategy.blueGreen.
	Canary    *Strategy `json:"canary,omitempty"`
	BlueGreen *Strategy `json:"blueGreen,omitempty"`
	// RolloutID is the workload's rollouts.kruise.io/rollout-id
	// annotation as the Rollout copies it into its status; "" means none.
	RolloutID string `json:"rolloutID,omitempty"`
	// CurrentStepIndex is status.canaryStatus.currentStepIndex: the step
	// being released, counted from 1 (0 before the first step).
	CurrentStepIndex int32 `json:"currentStepIndex"`
}

// Batch is one batch of a BatchRelease's release plan.
// Upstream: ReleaseBatch, api/v1beta1/batchrelease_plan_types.go.
type Batch struct {
	// CanaryReplicas is batches[i].canaryReplicas as written: the pods at
	// the update revision when the batch is done, a count or a percent of
	// the workload's replicas, read with the strict parser (a string must
	// end in '%'). Text the strict parser rejects counts as 0, as
	// upstream's CalculateBatchReplicas does.
	CanaryReplicas intorpercent.IntOrString `json:"canaryReplicas"`
}

// Release is a rollouts.kruise.io/v1beta1 BatchRelease as its controller
// reads it: the release plan, the workload it acts on and its status.
// The zero value of each field is upstream's absent field.
// Upstream: BatchRelease, api/v1beta1/batchrelease_types.go.
type Release struct {
	// Name is metadata.name.
	Name string `json:"name"`
	// Generation is metadata.generation.
	Generation int64 `json:"generation"`
	// WorkloadKind is the kind of spec.workloadRef.
	WorkloadKind Kind `json:"workloadKind"`

	// Batches is spec.releasePlan.batches, in order; batch i is
	// Batches[i] and status.canaryStatus.currentBatch counts from 0.
	Batches []Batch `json:"batches"`
	// BatchPartition is spec.releasePlan.batchPartition: the last batch
	// the release may reach (the Rollout writes currentStepIndex - 1);
	// nil means go through every batch.
	BatchPartition *int32 `json:"batchPartition,omitempty"`
	// RolloutID is spec.releasePlan.rolloutID; "" means pods are not
	// labelled and the label check of batch readiness is skipped.
	RolloutID string `json:"rolloutID,omitempty"`
	// FailureThreshold is spec.releasePlan.failureThreshold: how many
	// updated pods (a count, or a percent of the updated pods) may be
	// unready in a ready batch; nil means 0 (not the workload's
	// maxUnavailable, whatever the API comment says).
	FailureThreshold *intorpercent.IntOrString `json:"failureThreshold,omitempty"`
	// RollingStyle is spec.releasePlan.rollingStyle. The zero value (an
	// absent field) is released as Partition.
	RollingStyle RollingStyle `json:"rollingStyle,omitempty"`
	// RollbackInBatch says the BatchRelease carries the
	// rollouts.kruise.io/rollback-in-batch annotation: a workload rolled
	// back to its stable revision is rolled back in batches, counting the
	// pods already there (NoNeedUpdateReplicas).
	RollbackInBatch bool `json:"rollbackInBatch,omitempty"`

	// Status is the BatchRelease's status as last written.
	Status ReleaseStatus `json:"status"`
}

// ReleaseStatus is a BatchRelease's status: where the release is.
// Upstream: BatchReleaseStatus and BatchReleaseCanaryStatus.
type ReleaseStatus struct {
	// Phase is status.phase; the zero value (an absent field) starts the
	// release over from Preparing, as upstream's executor does.
	Phase Phase `json:"phase,omitempty"`
	// ObservedGeneration is status.observedGeneration.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// ObservedWorkloadReplicas is status.observedWorkloadReplicas: the
	// workload's replicas when the release was prepared (-1 after a
	// reset); a change restarts the current batch.
	ObservedWorkloadReplicas int32 `json:"observedWorkloadReplicas,omitempty"`
	// ObservedRolloutID is status.observedRolloutID.
	ObservedRolloutID string `json:"observedRolloutID,omitempty"`
	// CurrentBatch is status.canaryStatus.currentBatch, from 0.
	CurrentBatch int32 `json:"currentBatch"`
	// BatchState is status.canaryStatus.batchState; the zero value (an
	// absent field) is treated as Upgrading, as the executor does.
	BatchState BatchState `json:"batchState,omitempty"`
	// UpdatedReplicas and UpdatedReadyReplicas are
	// status.canaryStatus.updatedReplicas and updatedReadyReplicas, the
	// workload's counts as the controller last copied them.
	UpdatedReplicas      int32 `json:"updatedReplicas,omitempty"`
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas,omitempty"`
	// NoNeedUpdateReplicas is status.canaryStatus.noNeedUpdateReplicas:
	// when rolling back in batches, the pods already at the target
	// revision (labelled rollouts.kruise.io/no-need-update); nil or 0
	// means no rollback in batches.
	NoNeedUpdateReplicas *int32 `json:"noNeedUpdateReplicas,omitempty"`
	// UpdateRevision and StableRevision are status.updateRevision and
	// status.stableRevision, as read.
	UpdateRevision string `json:"updateRevision,omitempty"`
	StableRevision string `json:"stableRevision,omitempty"`
}

// Workload is the workload a BatchRelease acts on, as the batch math
// reads it: its replicas, the settings the release writes and the
// status it reads. Fields a kind does not have stay zero.
type Workload struct {
	// Kind is the workload's kind.
	Kind Kind `json:"kind"`
	// Name is metadata.name.
	Name string `json:"name"`
	// Generation is metadata.generation; ObservedGeneration
	// status.observedGeneration.
	Generation         int64 `json:"generation"`
	ObservedGeneration int64 `json:"observedGeneration"`
	// Replicas is spec.replicas (R).
	Replicas int32 `json:"replicas"`
	// Controlled says the workload carries the release's control
	// annotation (rollouts.kruise.io/batch-release-control-info), so
	// Initialize has nothing left to write.
	Controlled bool `json:"controlled,omitempty"`

	// Partition is spec.updateStrategy.partition (CloneSet: pods kept at
	// the stable revision, a count or a percent; StatefulSet: the lowest
	// ordinal updated, a count) or, for a Deployment, the partition of
	// the rollouts.kruise.io/deployment-strategy annotation (pods made
	// new). nil means absent.
	Partition *intorpercent.IntOrString `json:"partition,omitempty"`
	// Paused is spec.updateStrategy.paused (CloneSet), or the Deployment
	// strategy annotation's paused.
	Paused bool `json:"paused,omitempty"`
	// MaxSurge and MaxUnavailable are the rolling-update fenceposts as
	// written (CloneSet spec.updateStrategy, Deployment
	// spec.strategy.rollingUpdate or the strategy annotation's); nil
	// means absent.
	MaxSurge       *intorpercent.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	// UnorderedUpdate says an Advanced StatefulSet has
	// spec.updateStrategy.rollingUpdate.unorderedUpdate set, so the
	// partition need not keep the pods that need no update above it.
	UnorderedUpdate bool `json:"unorderedUpdate,omitempty"`

	// Status is what the release reads of the workload's status.
	Status WorkloadStatus `json:"status"`

	// Canary is the extra canary Deployment of the Canary style
	// (generated name "<name>-<hash>"); nil before it is created.
	Canary *CanaryDeployment `json:"canary,omitempty"`
}

// CanaryDeployment is the extra Deployment the Canary style creates next
// to the stable one: a copy of its spec whose replicas the release raises
// batch by batch. Upstream: control/canarystyle/deployment/canary.go.
type CanaryDeployment struct {
	// Name is metadata.name.
	Name string `json:"name"`
	// Generation and ObservedGeneration are metadata.generation and
	// status.observedGeneration; the release waits while they differ.
	Generation         int64 `json:"generation"`
	ObservedGeneration int64 `json:"observedGeneration"`
	// Replicas is spec.replicas.
	Replicas int32 `json:"replicas"`
	// StatusReplicas is status.replicas (the batch's updated pods) and
	// AvailableReplicas status.availableReplicas (its updated ready pods).
	StatusReplicas    int32 `json:"statusReplicas"`
	AvailableReplicas int32 `json:"availableReplicas"`
	// Pods counts the canary Deployment's pods; nil means not listed.
	Pods *PodCounts `json:"pods,omitempty"`
}

// WorkloadStatus is the part of a workload's status (and of its pods)
// that the batch release reads.
type WorkloadStatus struct {
	// Replicas is status.replicas.
	Replicas int32 `json:"replicas"`
	// ReadyReplicas is status.readyReplicas.
	ReadyReplicas int32 `json:"readyReplicas"`
	// UpdatedReplicas is status.updatedReplicas: pods at the update
	// revision (canary style: the canary Deployment's status.replicas).
	UpdatedReplicas int32 `json:"updatedReplicas"`
	// UpdatedReadyReplicas is status.updatedReadyReplicas (Deployment:
	// the new ReplicaSet's readyReplicas from the extra-status
	// annotation; native StatefulSet: counted from pods; canary style:
	// the canary Deployment's availableReplicas).
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas"`
	// UpdateRevision and StableRevision name the workload's update and
	// stable revisions as read.
	UpdateRevision string `json:"updateRevision,omitempty"`
	StableRevision string `json:"stableRevision,omitempty"`
	// Pods counts the workload's pods as the release lists them; nil
	// means they were not listed (upstream lists them only when the
	// release has a rolloutID), which skips the label check of batch
	// readiness.
	Pods *PodCounts `json:"pods,omitempty"`
}

// BatchContext is what a release controller computes for the current
// batch: the numbers Plan writes and IsBatchReady compares.
// Upstream: BatchContext, pkg/controller/batchrelease/context/context.go.
type BatchContext struct {
	// RolloutID is the release's rolloutID.
	RolloutID string `json:"rolloutID,omitempty"`
	// CurrentBatch is the batch index, from 0.
	CurrentBatch int32 `json:"currentBatchIndex"`
	// Replicas is the workload's replicas (R).
	Replicas int32 `json:"replicas"`
	// UpdatedReplicas and UpdatedReadyReplicas are the workload's counts.
	UpdatedReplicas      int32 `json:"updatedReplicas"`
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas"`
	// NoNeedUpdatedReplicas is the rollback-in-batches count; nil means none.
	NoNeedUpdatedReplicas *int32 `json:"noNeedUpdatedReplicas,omitempty"`
	// PlannedUpdatedReplicas is what the release plan asks of this batch
	// (CalculateBatchReplicas, or NewRSReplicasLimit for a Deployment).
	PlannedUpdatedReplicas int32 `json:"plannedUpdatedReplicas,omitempty"`
	// DesiredUpdatedReplicas is how many pods must be updated for the
	// batch to be done; it differs from the planned count when rolling
	// back in batches.
	DesiredUpdatedReplicas int32 `json:"desiredUpdatedReplicas,omitempty"`
	// CurrentPartition and DesiredPartition are the workload's partition
	// now and the one this batch wants (partition styles).
	CurrentPartition intorpercent.IntOrString `json:"currentPartition,omitempty"`
	DesiredPartition intorpercent.IntOrString `json:"desiredPartition,omitempty"`
	// FailureThreshold is the release's failureThreshold (nil in the
	// blue-green style, which ignores it).
	FailureThreshold *intorpercent.IntOrString `json:"failureThreshold,omitempty"`
	// CurrentSurge and DesiredSurge are the workload's maxSurge now and
	// the one this batch wants (blue-green style only).
	CurrentSurge intorpercent.IntOrString `json:"currentSurge,omitempty"`
	DesiredSurge intorpercent.IntOrString `json:"desiredSurge,omitempty"`
	// Pods is Workload.Status.Pods (canary style: the canary
	// Deployment's pods); nil means not listed.
	Pods *PodCounts `json:"pods,omitempty"`
}

// PodCounts counts a workload's pods as the batch release reads them.
type PodCounts struct {
	// Listed is how many pods the release listed (owned by the
	// workload, terminating ones included). With none listed the label
	// check of batch readiness passes, as upstream's does.
	Listed int32 `json:"listed"`
	// RolloutIDLabeled counts the non-terminating pods labelled
	// rollouts.kruise.io/rollout-id = the release's rolloutID.
	RolloutIDLabeled int32 `json:"rolloutIDLabeled"`
	// NoNeedUpdate counts the non-terminating pods at the update revision
	// labelled rollouts.kruise.io/no-need-update = the release's
	// rolloutID, which the controller recounts into noNeedUpdateReplicas
	// before each upgrade when rolling back in batches.
	NoNeedUpdate int32 `json:"noNeedUpdate"`
}
