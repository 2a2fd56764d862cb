package argorollouts

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The API group, version and kinds of the objects this package reads.
const (
	// APIVersion is the apiVersion of a Rollout.
	APIVersion = "argoproj.io/v1alpha1"
	// Kind is the kind of a Rollout; ListKind the kind of a list of them.
	Kind     = "Rollout"
	ListKind = "RolloutList"
)

// RolloutObject is an argoproj.io/v1alpha1 Rollout as its JSON (and the
// YAML kubectl prints) holds it: a mirror of argo-rollouts v1.10.1's
// v1alpha1.Rollout (pkg/apis/rollouts/v1alpha1/types.go) with the same
// field names, JSON names and types for every field package rollout/argo
// reads, and the standard object metadata. The subtrees the replica math
// does not read (analysis, experiments, routers' settings, conditions,
// ...) are kept as written in json.RawMessage fields, so that decoding and
// encoding again loses nothing. Fields this mirror does not name (a newer
// Argo's) are ignored when decoding, as encoding/json ignores them.
//
// A RolloutObject is decoded with encoding/json (or [Read]); [Rollout]
// turns it into the rollout/argo type.
type RolloutObject struct {
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is metadata: name, namespace, uid, generation, labels,
	// annotations and the server's fields.
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Spec is spec.
	Spec RolloutSpec `json:"spec"`
	// Status is status.
	Status RolloutStatus `json:"status,omitempty"`
}

// RolloutList is an argoproj.io/v1alpha1 RolloutList, as `kubectl get
// rollouts -o yaml` prints one when asked for more than one by type.
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	// ListMeta is metadata.
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the Rollouts.
	Items []RolloutObject `json:"items"`
}

// RolloutSpec is spec. Upstream: v1alpha1.RolloutSpec.
type RolloutSpec struct {
	// Replicas is replicas; nil is 1 to Argo.
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector is selector.
	Selector *metav1.LabelSelector `json:"selector"`
	// Template is template.
	Template corev1.PodTemplateSpec `json:"template"`
	// WorkloadRef is workloadRef as written: the Rollout takes its
	// template from another workload. [Rollout] rejects it.
	WorkloadRef json.RawMessage `json:"workloadRef,omitempty"`
	// MinReadySeconds is minReadySeconds, in seconds.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RollbackWindow is rollbackWindow.
	RollbackWindow *RollbackWindowSpec `json:"rollbackWindow,omitempty"`
	// Strategy is strategy.
	Strategy RolloutStrategy `json:"strategy"`
	// RevisionHistoryLimit is revisionHistoryLimit; nil is 10 to Argo.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Paused is paused.
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds is progressDeadlineSeconds; nil is 600 to
	// Argo.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
	// ProgressDeadlineAbort is progressDeadlineAbort (not read by the
	// replica math).
	ProgressDeadlineAbort bool `json:"progressDeadlineAbort,omitempty"`
	// RestartAt is restartAt (not read by the replica math).
	RestartAt *metav1.Time `json:"restartAt,omitempty"`
	// Analysis is analysis as written.
	Analysis json.RawMessage `json:"analysis,omitempty"`
}

// RollbackWindowSpec is spec.rollbackWindow.
type RollbackWindowSpec struct {
	// Revisions is revisions.
	Revisions int32 `json:"revisions,omitempty"`
}

// RolloutStrategy is spec.strategy: one of BlueGreen and Canary is set.
type RolloutStrategy struct {
	// BlueGreen is blueGreen.
	BlueGreen *BlueGreenStrategy `json:"blueGreen,omitempty"`
	// Canary is canary.
	Canary *CanaryStrategy `json:"canary,omitempty"`
}

// BlueGreenStrategy is spec.strategy.blueGreen. Upstream:
// v1alpha1.BlueGreenStrategy.
type BlueGreenStrategy struct {
	// ActiveService is activeService, a Service name.
	ActiveService string `json:"activeService"`
	// PreviewService is previewService, a Service name.
	PreviewService string `json:"previewService,omitempty"`
	// PreviewReplicaCount is previewReplicaCount; nil means replicas.
	PreviewReplicaCount *int32 `json:"previewReplicaCount,omitempty"`
	// AutoPromotionEnabled is autoPromotionEnabled; nil means true.
	AutoPromotionEnabled *bool `json:"autoPromotionEnabled,omitempty"`
	// AutoPromotionSeconds is autoPromotionSeconds, in seconds.
	AutoPromotionSeconds int32 `json:"autoPromotionSeconds,omitempty"`
	// MaxUnavailable is maxUnavailable as written.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// ScaleDownDelaySeconds is scaleDownDelaySeconds, in seconds.
	ScaleDownDelaySeconds *int32 `json:"scaleDownDelaySeconds,omitempty"`
	// ScaleDownDelayRevisionLimit is scaleDownDelayRevisionLimit.
	ScaleDownDelayRevisionLimit *int32 `json:"scaleDownDelayRevisionLimit,omitempty"`
	// PrePromotionAnalysis, AntiAffinity, PostPromotionAnalysis,
	// PreviewMetadata and ActiveMetadata are as written.
	PrePromotionAnalysis  json.RawMessage `json:"prePromotionAnalysis,omitempty"`
	AntiAffinity          json.RawMessage `json:"antiAffinity,omitempty"`
	PostPromotionAnalysis json.RawMessage `json:"postPromotionAnalysis,omitempty"`
	PreviewMetadata       json.RawMessage `json:"previewMetadata,omitempty"`
	ActiveMetadata        json.RawMessage `json:"activeMetadata,omitempty"`
	// AbortScaleDownDelaySeconds is abortScaleDownDelaySeconds, in
	// seconds; an explicit 0 means never.
	AbortScaleDownDelaySeconds *int32 `json:"abortScaleDownDelaySeconds,omitempty"`
}

// CanaryStrategy is spec.strategy.canary. Upstream:
// v1alpha1.CanaryStrategy.
type CanaryStrategy struct {
	// CanaryService and StableService are canaryService and
	// stableService, Service names.
	CanaryService string `json:"canaryService,omitempty"`
	StableService string `json:"stableService,omitempty"`
	// Steps is steps.
	Steps []CanaryStep `json:"steps,omitempty"`
	// TrafficRouting is trafficRouting; nil is a basic canary.
	TrafficRouting *RolloutTrafficRouting `json:"trafficRouting,omitempty"`
	// MaxUnavailable is maxUnavailable as written.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge is maxSurge as written.
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty"`
	// Analysis, AntiAffinity, CanaryMetadata and StableMetadata are as
	// written.
	Analysis       json.RawMessage `json:"analysis,omitempty"`
	AntiAffinity   json.RawMessage `json:"antiAffinity,omitempty"`
	CanaryMetadata json.RawMessage `json:"canaryMetadata,omitempty"`
	StableMetadata json.RawMessage `json:"stableMetadata,omitempty"`
	// ScaleDownDelaySeconds is scaleDownDelaySeconds, in seconds.
	ScaleDownDelaySeconds *int32 `json:"scaleDownDelaySeconds,omitempty"`
	// ScaleDownDelayRevisionLimit is scaleDownDelayRevisionLimit.
	ScaleDownDelayRevisionLimit *int32 `json:"scaleDownDelayRevisionLimit,omitempty"`
	// AbortScaleDownDelaySeconds is abortScaleDownDelaySeconds, in
	// seconds.
	AbortScaleDownDelaySeconds *int32 `json:"abortScaleDownDelaySeconds,omitempty"`
	// DynamicStableScale is dynamicStableScale.
	DynamicStableScale bool `json:"dynamicStableScale,omitempty"`
	// PingPong is pingPong as written.
	PingPong json.RawMessage `json:"pingPong,omitempty"`
	// MinPodsPerReplicaSet is minPodsPerReplicaSet.
	MinPodsPerReplicaSet *int32 `json:"minPodsPerReplicaSet,omitempty"`
	// ReplicaProgressThreshold is replicaProgressThreshold.
	ReplicaProgressThreshold *ReplicaProgressThreshold `json:"replicaProgressThreshold,omitempty"`
}

// ReplicaProgressThreshold is replicaProgressThreshold.
type ReplicaProgressThreshold struct {
	// Type is type: "Percent", or anything else for a pod count.
	Type string `json:"type"`
	// Value is value.
	Value int32 `json:"value"`
}

// IstioTrafficRouting is trafficRouting.istio, its references as
// written. Upstream: v1alpha1.IstioTrafficRouting.
type IstioTrafficRouting struct {
	// VirtualService is virtualService as written.
	VirtualService json.RawMessage `json:"virtualService,omitempty"`
	// DestinationRule is destinationRule as written; present (not
	// absent, not null), Argo splits traffic by the DestinationRule's
	// subsets and does not require the canary and stable Services.
	DestinationRule json.RawMessage `json:"destinationRule,omitempty"`
	// VirtualServices is virtualServices as written.
	VirtualServices json.RawMessage `json:"virtualServices,omitempty"`
}

// MangedRoutes is one entry of trafficRouting.managedRoutes (Argo's
// spelling of the type's name). Upstream: v1alpha1.MangedRoutes.
type MangedRoutes struct {
	// Name is name: the route's name, which the setHeaderRoute and
	// setMirrorRoute steps refer to.
	Name string `json:"name"`
}

// RolloutTrafficRouting is spec.strategy.canary.trafficRouting: each
// router's settings as written (present or not is what the math reads),
// and maxTrafficWeight. Upstream: v1alpha1.RolloutTrafficRouting.
type RolloutTrafficRouting struct {
	// Istio is istio: its settings, of which rollout/argo reads whether
	// it is present and whether it names a destinationRule.
	Istio *IstioTrafficRouting `json:"istio,omitempty"`
	// Nginx, ALB, SMI, Ambassador, AppMesh, Traefik and Apisix are the
	// routers' settings as written; rollout/argo reads only whether each
	// is present (not absent, not null).
	Nginx      json.RawMessage `json:"nginx,omitempty"`
	ALB        json.RawMessage `json:"alb,omitempty"`
	SMI        json.RawMessage `json:"smi,omitempty"`
	Ambassador json.RawMessage `json:"ambassador,omitempty"`
	AppMesh    json.RawMessage `json:"appMesh,omitempty"`
	Traefik    json.RawMessage `json:"traefik,omitempty"`
	// ManagedRoutes is managedRoutes: the routes Argo manages, by name.
	// Absent (nil) is not empty: Argo requires the field for
	// setHeaderRoute and setMirrorRoute steps.
	ManagedRoutes []MangedRoutes `json:"managedRoutes,omitempty"`
	// Apisix is apisix as written (see Nginx).
	Apisix json.RawMessage `json:"apisix,omitempty"`
	// Plugins is plugins: each plugin's settings by name, as written.
	Plugins map[string]json.RawMessage `json:"plugins,omitempty"`
	// MaxTrafficWeight is maxTrafficWeight; nil is 100 to Argo.
	MaxTrafficWeight *int32 `json:"maxTrafficWeight,omitempty"`
}

// CanaryStep is one of spec.strategy.canary.steps. Upstream:
// v1alpha1.CanaryStep.
type CanaryStep struct {
	// SetWeight is setWeight.
	SetWeight *int32 `json:"setWeight,omitempty"`
	// Pause is pause.
	Pause *RolloutPause `json:"pause,omitempty"`
	// Experiment and Analysis are as written.
	Experiment json.RawMessage `json:"experiment,omitempty"`
	Analysis   json.RawMessage `json:"analysis,omitempty"`
	// SetCanaryScale is setCanaryScale.
	SetCanaryScale *SetCanaryScale `json:"setCanaryScale,omitempty"`
	// SetHeaderRoute, SetMirrorRoute and Plugin are as written.
	SetHeaderRoute json.RawMessage `json:"setHeaderRoute,omitempty"`
	SetMirrorRoute json.RawMessage `json:"setMirrorRoute,omitempty"`
	Plugin         json.RawMessage `json:"plugin,omitempty"`
}

// RolloutPause is a pause step.
type RolloutPause struct {
	// Duration is duration: seconds as a number, or a string holding
	// seconds or a Go duration ("1h"); nil waits for a resume.
	Duration *intstr.IntOrString `json:"duration,omitempty"`
}

// SetCanaryScale is a setCanaryScale step.
type SetCanaryScale struct {
	// Weight is weight, a percentage of replicas.
	Weight *int32 `json:"weight,omitempty"`
	// Replicas is replicas, a pod count.
	Replicas *int32 `json:"replicas,omitempty"`
	// MatchTrafficWeight is matchTrafficWeight.
	MatchTrafficWeight bool `json:"matchTrafficWeight,omitempty"`
}

// RolloutStatus is status. Upstream: v1alpha1.RolloutStatus.
type RolloutStatus struct {
	// Abort is abort.
	Abort bool `json:"abort,omitempty"`
	// PauseConditions is pauseConditions.
	PauseConditions []PauseCondition `json:"pauseConditions,omitempty"`
	// ControllerPause is controllerPause.
	ControllerPause bool `json:"controllerPause,omitempty"`
	// AbortedAt is abortedAt.
	AbortedAt *metav1.Time `json:"abortedAt,omitempty"`
	// CurrentPodHash is currentPodHash, the new ReplicaSet's
	// pod-template hash.
	CurrentPodHash string `json:"currentPodHash,omitempty"`
	// CurrentStepHash is currentStepHash, the hash of the steps.
	CurrentStepHash string `json:"currentStepHash,omitempty"`
	// Replicas, UpdatedReplicas and ReadyReplicas are replicas,
	// updatedReplicas and readyReplicas, pod counts.
	Replicas        int32 `json:"replicas,omitempty"`
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	ReadyReplicas   int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas is availableReplicas.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// CurrentStepIndex is currentStepIndex; nil reads as 0.
	CurrentStepIndex *int32 `json:"currentStepIndex,omitempty"`
	// CollisionCount is collisionCount.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// ObservedGeneration is observedGeneration, a decimal string.
	ObservedGeneration string `json:"observedGeneration,omitempty"`
	// Conditions is conditions as written.
	Conditions json.RawMessage `json:"conditions,omitempty"`
	// Canary is canary.
	Canary CanaryStatus `json:"canary,omitempty"`
	// BlueGreen is blueGreen.
	BlueGreen BlueGreenStatus `json:"blueGreen,omitempty"`
	// HPAReplicas is HPAReplicas (Argo's spelling).
	HPAReplicas int32 `json:"HPAReplicas,omitempty"`
	// Selector is selector, the label selector as a string.
	Selector string `json:"selector,omitempty"`
	// StableRS is stableRS, the stable ReplicaSet's pod-template hash.
	StableRS string `json:"stableRS,omitempty"`
	// RestartedAt is restartedAt.
	RestartedAt *metav1.Time `json:"restartedAt,omitempty"`
	// PromoteFull is promoteFull.
	PromoteFull bool `json:"promoteFull,omitempty"`
	// Phase and Message are phase and message.
	Phase   string `json:"phase,omitempty"`
	Message string `json:"message,omitempty"`
	// WorkloadObservedGeneration, ALB and ALBs are as written.
	WorkloadObservedGeneration string          `json:"workloadObservedGeneration,omitempty"`
	ALB                        json.RawMessage `json:"alb,omitempty"`
	ALBs                       json.RawMessage `json:"albs,omitempty"`
}

// PauseCondition is one of status.pauseConditions.
type PauseCondition struct {
	// Reason is reason, such as "CanaryPauseStep".
	Reason string `json:"reason"`
	// StartTime is startTime.
	StartTime metav1.Time `json:"startTime"`
}

// CanaryStatus is status.canary.
type CanaryStatus struct {
	// CurrentStepAnalysisRunStatus and CurrentBackgroundAnalysisRunStatus
	// are as written.
	CurrentStepAnalysisRunStatus       json.RawMessage `json:"currentStepAnalysisRunStatus,omitempty"`
	CurrentBackgroundAnalysisRunStatus json.RawMessage `json:"currentBackgroundAnalysisRunStatus,omitempty"`
	// CurrentExperiment is currentExperiment, an Experiment's name.
	CurrentExperiment string `json:"currentExperiment,omitempty"`
	// Weights is weights.
	Weights *TrafficWeights `json:"weights,omitempty"`
	// StablePingPong is stablePingPong ("ping" or "pong").
	StablePingPong string `json:"stablePingPong,omitempty"`
	// StepPluginStatuses is stepPluginStatuses as written.
	StepPluginStatuses json.RawMessage `json:"stepPluginStatuses,omitempty"`
}

// BlueGreenStatus is status.blueGreen.
type BlueGreenStatus struct {
	// PreviewSelector and ActiveSelector are previewSelector and
	// activeSelector, pod-template hashes.
	PreviewSelector string `json:"previewSelector,omitempty"`
	ActiveSelector  string `json:"activeSelector,omitempty"`
	// ScaleUpPreviewCheckPoint is scaleUpPreviewCheckPoint.
	ScaleUpPreviewCheckPoint bool `json:"scaleUpPreviewCheckPoint,omitempty"`
	// PrePromotionAnalysisRunStatus and PostPromotionAnalysisRunStatus
	// are as written.
	PrePromotionAnalysisRunStatus  json.RawMessage `json:"prePromotionAnalysisRunStatus,omitempty"`
	PostPromotionAnalysisRunStatus json.RawMessage `json:"postPromotionAnalysisRunStatus,omitempty"`
}

// TrafficWeights is status.canary.weights. Upstream:
// v1alpha1.TrafficWeights.
type TrafficWeights struct {
	// Canary and Stable are canary and stable.
	Canary WeightDestination `json:"canary"`
	Stable WeightDestination `json:"stable"`
	// Additional is additional (experiments' destinations).
	Additional []WeightDestination `json:"additional,omitempty"`
	// Verified is verified.
	Verified *bool `json:"verified,omitempty"`
}

// WeightDestination is one destination of [TrafficWeights].
type WeightDestination struct {
	// Weight is weight.
	Weight int32 `json:"weight"`
	// ServiceName is serviceName.
	ServiceName string `json:"serviceName,omitempty"`
	// PodTemplateHash is podTemplateHash.
	PodTemplateHash string `json:"podTemplateHash,omitempty"`
}
