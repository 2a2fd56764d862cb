package kruiserollouts

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Group is the API group of the objects this package mirrors.
const Group = "rollouts.kruise.io"

// APIVersion is the apiVersion of the Rollout and BatchRelease this
// package mirrors: rollouts.kruise.io/v1beta1, the version kruise-rollout
// v0.6 stores.
const APIVersion = Group + "/v1beta1"

// Label and annotation keys kruise-rollout v0.6.3 reads and writes on
// workloads and pods (api/v1beta1 and api/v1alpha1 in
// github.com/openkruise/rollouts).
const (
	// RolloutIDLabel is the workload label that names a release
	// (copied into releasePlan.rolloutID) and the pod label that marks
	// the pods a batch updated.
	RolloutIDLabel = "rollouts.kruise.io/rollout-id"
	// RolloutBatchIDLabel is the pod label that holds the 1-based batch
	// a pod was updated in.
	RolloutBatchIDLabel = "rollouts.kruise.io/rollout-batch-id"
	// NoNeedUpdateLabel marks, with the rollout ID as its value, the pods
	// a rollback in batches need not update.
	NoNeedUpdateLabel = "rollouts.kruise.io/no-need-update"
	// RollbackInBatchAnnotation on a Rollout asks for a rollback in
	// batches rather than at once.
	RollbackInBatchAnnotation = "rollouts.kruise.io/rollback-in-batch"
	// RollingStyleAnnotation is the v1alpha1 Rollout and BatchRelease
	// annotation that chooses the rolling style ("partition", "canary");
	// v1beta1 has spec fields instead.
	RollingStyleAnnotation = "rollouts.kruise.io/rolling-style"
	// DeploymentStrategyAnnotation holds, as JSON (DeploymentStrategy),
	// the strategy of a Deployment the advanced Deployment controller
	// rolls in batches.
	DeploymentStrategyAnnotation = "rollouts.kruise.io/deployment-strategy"
	// DeploymentExtraStatusAnnotation holds, as JSON
	// (DeploymentExtraStatus), what the advanced Deployment controller
	// adds to a Deployment's status.
	DeploymentExtraStatusAnnotation = "rollouts.kruise.io/deployment-extra-status"
)

// RollingStyle is how a release rolls: spec.releasePlan.rollingStyle of
// a BatchRelease (RollingStyleType in kruise-rollout).
type RollingStyle string

// The rolling styles of kruise-rollout v0.6.3.
const (
	// Partition rolls the workload itself in batches through its
	// partition (CloneSet, StatefulSet, Advanced StatefulSet, DaemonSet,
	// and Deployment through the advanced Deployment controller).
	Partition RollingStyle = "Partition"
	// Canary creates a second, canary Deployment and scales it up batch
	// by batch.
	Canary RollingStyle = "Canary"
	// BlueGreen surges new pods batch by batch and keeps the old ones.
	BlueGreen RollingStyle = "BlueGreen"
)

// Rollout mirrors the JSON of a rollouts.kruise.io/v1beta1 Rollout
// (Rollout in github.com/openkruise/rollouts/api/v1beta1), for the fields
// a batch release reads: the workload it rolls, the strategy's steps,
// failure threshold and style, and where the release stands. Fields the
// release does not read (traffic routing details, request header
// modifiers, pod template patches) are dropped on decoding, except that a
// step's matches and a strategy's traffic routings are kept as raw JSON,
// because the webhook's rules depend on whether there are any.
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RolloutSpec   `json:"spec,omitempty"`
	Status            RolloutStatus `json:"status,omitempty"`
}

// RolloutList is a list of Rollouts, as the API server lists them.
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Rollout `json:"items"`
}

// RolloutSpec is a Rollout's spec.
type RolloutSpec struct {
	// WorkloadRef is the workload the Rollout releases.
	WorkloadRef ObjectRef `json:"workloadRef"`
	// Strategy is how: exactly one of Canary and BlueGreen is set.
	Strategy RolloutStrategy `json:"strategy"`
	// Disabled stops the Rollout from acting on its workload.
	Disabled bool `json:"disabled"`
}

// ObjectRef names a workload in the Rollout's namespace.
type ObjectRef struct {
	// APIVersion is the workload's apiVersion, such as "apps/v1" or
	// "apps.kruise.io/v1alpha1".
	APIVersion string `json:"apiVersion"`
	// Kind is the workload's kind, such as "Deployment" or "CloneSet".
	Kind string `json:"kind"`
	// Name is the workload's name.
	Name string `json:"name"`
}

// RolloutStrategy is a Rollout's spec.strategy.
type RolloutStrategy struct {
	// Paused holds the release where it is.
	Paused bool `json:"paused,omitempty"`
	// Canary is the canary (or partition) strategy.
	Canary *CanaryStrategy `json:"canary,omitempty"`
	// BlueGreen is the blue-green strategy.
	BlueGreen *BlueGreenStrategy `json:"blueGreen,omitempty"`
}

// CanaryStrategy is spec.strategy.canary.
type CanaryStrategy struct {
	// Steps are the release's steps, in order.
	Steps []CanaryStep `json:"steps,omitempty"`
	// TrafficRoutings are kept as raw JSON: the release reads only how
	// many there are.
	TrafficRoutings []json.RawMessage `json:"trafficRoutings,omitempty"`
	// FailureThreshold is how many (or what percent) of a batch's
	// updated pods may be unready when the batch counts as ready; nil
	// is 0.
	FailureThreshold *intstr.IntOrString `json:"failureThreshold,omitempty"`
	// EnableExtraWorkloadForCanary asks, on an apps/v1 Deployment, for
	// the canary style (an extra canary Deployment); ignored on other
	// kinds.
	EnableExtraWorkloadForCanary bool `json:"enableExtraWorkloadForCanary,omitempty"`
	// TrafficRoutingRef names a TrafficRouting object.
	TrafficRoutingRef string `json:"trafficRoutingRef,omitempty"`
}

// BlueGreenStrategy is spec.strategy.blueGreen.
type BlueGreenStrategy struct {
	// Steps are the release's steps, in order.
	Steps []CanaryStep `json:"steps,omitempty"`
	// TrafficRoutings are kept as raw JSON: the release reads only how
	// many there are.
	TrafficRoutings []json.RawMessage `json:"trafficRoutings,omitempty"`
	// FailureThreshold is written into the BatchRelease but, in v0.6.3,
	// not applied to blue-green batches.
	FailureThreshold *intstr.IntOrString `json:"failureThreshold,omitempty"`
	// TrafficRoutingRef names a TrafficRouting object.
	TrafficRoutingRef string `json:"trafficRoutingRef,omitempty"`
}

// CanaryStep is one step of a Rollout.
type CanaryStep struct {
	// Traffic is the traffic percent of the step, such as "20%".
	Traffic *string `json:"traffic,omitempty"`
	// Matches are the step's header matches, kept as raw JSON: the
	// webhook asks only whether there are any.
	Matches []json.RawMessage `json:"matches,omitempty"`
	// Replicas is the step's updated pods: a count, or a percent of
	// spec.replicas rounded up.
	Replicas *intstr.IntOrString `json:"replicas,omitempty"`
	// Pause is how long the step waits once its batch is ready.
	Pause RolloutPause `json:"pause,omitempty"`
}

// RolloutPause is a step's pause.
type RolloutPause struct {
	// Duration is in seconds; nil waits for a manual approval.
	Duration *int32 `json:"duration,omitempty"`
}

// RolloutStatus is a Rollout's status.
type RolloutStatus struct {
	// ObservedGeneration is the generation the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// CanaryStatus is the canary (or partition) release's progress.
	CanaryStatus *CanaryStatus `json:"canaryStatus,omitempty"`
	// BlueGreenStatus is the blue-green release's progress.
	BlueGreenStatus *BlueGreenStatus `json:"blueGreenStatus,omitempty"`
	// Conditions are the Progressing, Succeeded and Terminating
	// conditions.
	Conditions []Condition `json:"conditions,omitempty"`
	// Phase is Initial, Healthy, Progressing, Terminating, Disabled or
	// Disabling.
	Phase string `json:"phase,omitempty"`
	// Message says what the Rollout is doing.
	Message string `json:"message,omitempty"`
	// CurrentStepIndex is the deprecated top-level copy of the 1-based
	// step index.
	CurrentStepIndex int32 `json:"currentStepIndex"`
	// CurrentStepState is the deprecated top-level copy of the step's
	// state.
	CurrentStepState string `json:"currentStepState"`
}

// Condition is a Rollout or BatchRelease condition.
type Condition struct {
	// Type is the condition's type, such as "Progressing".
	Type string `json:"type"`
	// Status is "True", "False" or "Unknown".
	Status string `json:"status"`
	// LastUpdateTime is when the condition was last written.
	LastUpdateTime metav1.Time `json:"lastUpdateTime,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word cause, such as "InRolling".
	Reason string `json:"reason"`
	// Message says more.
	Message string `json:"message"`
}

// CommonStatus is the part of a Rollout's canary and blue-green status
// that both share.
type CommonStatus struct {
	// ObservedWorkloadGeneration is the workload generation seen.
	ObservedWorkloadGeneration int64 `json:"observedWorkloadGeneration,omitempty"`
	// ObservedRolloutID is the rollout ID the release runs for.
	ObservedRolloutID string `json:"observedRolloutID,omitempty"`
	// RolloutHash is the hash of the Rollout's spec the release runs.
	RolloutHash string `json:"rolloutHash,omitempty"`
	// StableRevision is the workload's stable revision.
	StableRevision string `json:"stableRevision,omitempty"`
	// PodTemplateHash is the updated pods' pod-template-hash.
	PodTemplateHash string `json:"podTemplateHash"`
	// CurrentStepIndex is the step the release is at, 1-based.
	CurrentStepIndex int32 `json:"currentStepIndex"`
	// NextStepIndex is the step a user asked to jump to, 1-based.
	NextStepIndex int32 `json:"nextStepIndex"`
	// FinalisingStep is the step of the finalisation in progress.
	FinalisingStep string `json:"finalisingStep"`
	// CurrentStepState is BeforeStepUpgrade, StepUpgrade,
	// StepTrafficRouting, StepMetricsAnalysis, StepPaused, StepReady or
	// Completed.
	CurrentStepState string `json:"currentStepState"`
	// Message says what the step is doing.
	Message string `json:"message,omitempty"`
	// LastUpdateTime is when the step state last changed; a timed
	// pause counts from it.
	LastUpdateTime *metav1.Time `json:"lastUpdateTime,omitempty"`
}

// CanaryStatus is status.canaryStatus.
type CanaryStatus struct {
	CommonStatus `json:",inline"`
	// CanaryRevision is the updated pods' revision.
	CanaryRevision string `json:"canaryRevision"`
	// CanaryReplicas is how many pods are updated.
	CanaryReplicas int32 `json:"canaryReplicas"`
	// CanaryReadyReplicas is how many updated pods are ready.
	CanaryReadyReplicas int32 `json:"canaryReadyReplicas"`
}

// BlueGreenStatus is status.blueGreenStatus.
type BlueGreenStatus struct {
	CommonStatus `json:",inline"`
	// UpdatedRevision is the updated pods' revision.
	UpdatedRevision string `json:"updatedRevision"`
	// UpdatedReplicas is how many pods are updated.
	UpdatedReplicas int32 `json:"updatedReplicas"`
	// UpdatedReadyReplicas is how many updated pods are ready.
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas"`
}

// BatchRelease mirrors the JSON of a rollouts.kruise.io/v1beta1
// BatchRelease (BatchRelease in github.com/openkruise/rollouts/api/v1beta1),
// the object a Rollout writes for each release and the batch release
// controller executes. Every field of its spec and status is mirrored
// but patchPodTemplateMetadata.
type BatchRelease struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BatchReleaseSpec   `json:"spec,omitempty"`
	Status            BatchReleaseStatus `json:"status,omitempty"`
}

// BatchReleaseList is a list of BatchReleases, as the API server lists
// them.
type BatchReleaseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BatchRelease `json:"items"`
}

// BatchReleaseSpec is a BatchRelease's spec.
type BatchReleaseSpec struct {
	// WorkloadRef is the workload released.
	WorkloadRef ObjectRef `json:"workloadRef,omitempty"`
	// ReleasePlan is the batches and how to roll them.
	ReleasePlan ReleasePlan `json:"releasePlan"`
}

// ReleasePlan is spec.releasePlan.
type ReleasePlan struct {
	// Batches are the batches, in order; batch i updates
	// Batches[i].CanaryReplicas pods in all.
	Batches []ReleaseBatch `json:"batches"`
	// BatchPartition is the last batch to release (0-based); nil
	// releases them all.
	BatchPartition *int32 `json:"batchPartition,omitempty"`
	// RolloutID names the release; updated pods are labelled with it.
	RolloutID string `json:"rolloutID,omitempty"`
	// FailureThreshold is how many (or what percent) of the updated
	// pods may be unready when a batch counts as ready; nil is 0.
	FailureThreshold *intstr.IntOrString `json:"failureThreshold,omitempty"`
	// FinalizingPolicy is "WaitResume" or "Immediate".
	FinalizingPolicy string `json:"finalizingPolicy,omitempty"`
	// RollingStyle is Partition, Canary or BlueGreen; empty falls back
	// to EnableExtraWorkloadForCanary.
	RollingStyle RollingStyle `json:"rollingStyle,omitempty"`
	// EnableExtraWorkloadForCanary is the deprecated way to ask for the
	// Canary style.
	EnableExtraWorkloadForCanary bool `json:"enableExtraWorkloadForCanary"`
}

// ReleaseBatch is one batch of a release plan.
type ReleaseBatch struct {
	// CanaryReplicas is how many pods are updated once the batch is
	// done, counted from the start: a count, or a percent of the
	// workload's replicas rounded up.
	CanaryReplicas intstr.IntOrString `json:"canaryReplicas"`
}

// BatchReleaseStatus is a BatchRelease's status.
type BatchReleaseStatus struct {
	// Conditions are the release's conditions.
	Conditions []Condition `json:"conditions,omitempty"`
	// CanaryStatus is where the batches stand.
	CanaryStatus BatchReleaseCanaryStatus `json:"canaryStatus,omitempty"`
	// StableRevision is the workload's revision before the release.
	StableRevision string `json:"stableRevision,omitempty"`
	// UpdateRevision is the revision being released.
	UpdateRevision string `json:"updateRevision,omitempty"`
	// ObservedGeneration is the generation the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// ObservedRolloutID is the rollout ID the status describes.
	ObservedRolloutID string `json:"observedRolloutID,omitempty"`
	// ObservedWorkloadReplicas is the workload's spec.replicas seen.
	ObservedWorkloadReplicas int32 `json:"observedWorkloadReplicas,omitempty"`
	// CollisionCount counts hash collisions of the canary Deployment's
	// name.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// ObservedReleasePlanHash is the hash of the release plan seen.
	ObservedReleasePlanHash string `json:"observedReleasePlanHash,omitempty"`
	// Phase is Preparing, Progressing, Finalizing or Completed.
	Phase string `json:"phase,omitempty"`
	// Message says what the release is doing.
	Message string `json:"message,omitempty"`
}

// BatchReleaseCanaryStatus is status.canaryStatus of a BatchRelease.
type BatchReleaseCanaryStatus struct {
	// CurrentBatchState is Upgrading, Verifying or Ready.
	CurrentBatchState string `json:"batchState,omitempty"`
	// CurrentBatch is the batch in progress, 0-based.
	CurrentBatch int32 `json:"currentBatch"`
	// BatchReadyTime is when the current batch became ready.
	BatchReadyTime *metav1.Time `json:"batchReadyTime,omitempty"`
	// UpdatedReplicas is how many pods are updated.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// UpdatedReadyReplicas is how many updated pods are ready.
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas,omitempty"`
	// NoNeedUpdateReplicas is how many pods a rollback in batches
	// need not update (already at the target revision); nil when not
	// rolling back in batches.
	NoNeedUpdateReplicas *int32 `json:"noNeedUpdateReplicas,omitempty"`
}

// DeploymentStrategy mirrors the JSON of the
// rollouts.kruise.io/deployment-strategy annotation of a Deployment the
// advanced Deployment controller rolls (DeploymentStrategy in
// github.com/openkruise/rollouts/api/v1beta1).
type DeploymentStrategy struct {
	// RollingStyle is Partition for the advanced Deployment controller.
	RollingStyle RollingStyle `json:"rollingStyle,omitempty"`
	// RollingUpdate holds maxSurge and maxUnavailable.
	RollingUpdate *appsv1.RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
	// Paused holds the controller's rolling.
	Paused bool `json:"paused,omitempty"`
	// Partition is how many pods (or what percent) are to be new:
	// the opposite of a CloneSet's partition.
	Partition intstr.IntOrString `json:"partition,omitempty"`
}

// DeploymentExtraStatus mirrors the JSON of the
// rollouts.kruise.io/deployment-extra-status annotation
// (DeploymentExtraStatus in github.com/openkruise/rollouts/api/v1beta1).
type DeploymentExtraStatus struct {
	// UpdatedReadyReplicas is the new ReplicaSet's ready pods.
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas,omitempty"`
	// ExpectedUpdatedReplicas is how many pods the partition asks to
	// be new.
	ExpectedUpdatedReplicas int32 `json:"expectedUpdatedReplicas,omitempty"`
}
