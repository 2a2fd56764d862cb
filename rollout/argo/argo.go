package argo

import (
	"encoding/json"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Keys of the labels and annotations the Argo Rollouts controller writes
// on its ReplicaSets. The package reads the typed fields of [ReplicaSet];
// the keys are here for callers converting API objects.
const (
	// PodTemplateHashLabel is the ReplicaSet (and pod) label holding the
	// pod-template hash; see ReplicaSet.PodTemplateHash.
	PodTemplateHashLabel = "rollouts-pod-template-hash"
	// RevisionAnnotation holds a ReplicaSet's revision number in decimal;
	// see ReplicaSet.Revision.
	RevisionAnnotation = "rollout.argoproj.io/revision"
	// DesiredReplicasAnnotation holds the Rollout's spec.replicas as it
	// was when the controller last scaled the ReplicaSet; see
	// ReplicaSet.DesiredReplicas.
	DesiredReplicasAnnotation = "rollout.argoproj.io/desired-replicas"
	// ScaleDownDeadlineAnnotation holds the RFC 3339 time after which an
	// old (or aborted) ReplicaSet is scaled to 0; see
	// ReplicaSet.ScaleDownDeadline.
	ScaleDownDeadlineAnnotation = "scale-down-deadline"
)

// Defaults Argo applies to absent fields (utils/defaults/defaults.go).
const (
	// DefaultReplicas is spec.replicas when nil (GetReplicasOrDefault).
	DefaultReplicas int32 = 1
	// DefaultMaxSurge and DefaultMaxUnavailable are the canary's
	// maxSurge and maxUnavailable (and blue-green's maxUnavailable) when
	// nil: the strings "25", without '%', which mean 25% only because
	// Argo reads them with the legacy reader (see [ResolveFenceposts]).
	DefaultMaxSurge       = "25"
	DefaultMaxUnavailable = "25"
	// DefaultRevisionHistoryLimit is spec.revisionHistoryLimit when nil.
	DefaultRevisionHistoryLimit int32 = 10
	// DefaultProgressDeadlineSeconds is spec.progressDeadlineSeconds when
	// nil, in seconds.
	DefaultProgressDeadlineSeconds int32 = 600
	// DefaultScaleDownDelaySeconds is scaleDownDelaySeconds when nil, for
	// blue-green and for a canary with traffic routing (a basic canary's
	// is 0), in seconds.
	DefaultScaleDownDelaySeconds int32 = 30
	// DefaultAbortScaleDownDelaySeconds is abortScaleDownDelaySeconds
	// when nil, for blue-green and for a canary with traffic routing, in
	// seconds.
	DefaultAbortScaleDownDelaySeconds int32 = 30
	// DefaultMaxTrafficWeight is the traffic weight that means "all
	// traffic" when trafficRouting.maxTrafficWeight is nil, and always
	// for a basic canary (weightutil.MaxTrafficWeight).
	DefaultMaxTrafficWeight int32 = 100
)

// Rollout is an argoproj.io/v1alpha1 Rollout as the replica math reads
// it, with the pod template of type T (a corev1.PodTemplateSpec, or the
// caller's own type: the math never looks inside it; it is compared with
// reflection and hashed through its encoding/json form, see
// [PodTemplateHash]). The spec fields sit at the top level under their
// CRD names; every pointer field is nil when the manifest leaves it out,
// and Argo's defaults are applied by the functions that read it
// ([ReplicasOrDefault], [MaxSurgeOrDefault], ...), not when decoding.
// Upstream: v1alpha1.Rollout (pkg/apis/rollouts/v1alpha1/types.go).
type Rollout[T any] struct {
	// Name is metadata.name; ReplicaSets are named "<Name>-<hash>".
	Name string `json:"name"`
	// Namespace is metadata.namespace; the math does not read it.
	Namespace string `json:"namespace,omitempty"`
	// Generation is metadata.generation; a sync records it as
	// status.observedGeneration (as a decimal string, as Argo does).
	Generation int64 `json:"generation,omitempty"`

	// Replicas is spec.replicas; nil means DefaultReplicas (1), and the
	// controller then writes 1 into the spec. Negative values are
	// rejected by Validate.
	Replicas *int32 `json:"replicas,omitempty"`
	// Template is spec.template.
	Template T `json:"template"`
	// MinReadySeconds is spec.minReadySeconds, in seconds (>= 0). The
	// math reads availability from the ReplicaSets' status, so it is
	// only validated here.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is spec.revisionHistoryLimit; nil means
	// DefaultRevisionHistoryLimit (10).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Paused is spec.paused: a paused canary scales nothing, not even
	// for a change of Replicas (argo #4261).
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds is spec.progressDeadlineSeconds, in
	// seconds; nil means DefaultProgressDeadlineSeconds (600). Only
	// validated here.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
	// RollbackWindow is spec.rollbackWindow: a rollback to one of the
	// last Revisions revisions skips the steps.
	RollbackWindow *RollbackWindow `json:"rollbackWindow,omitempty"`
	// Strategy is spec.strategy: exactly one of Canary and BlueGreen is
	// set (Validate).
	Strategy Strategy `json:"strategy"`

	// Status is the Rollout's status as last written.
	Status Status `json:"status"`
}

// RollbackWindow is spec.rollbackWindow.
type RollbackWindow struct {
	// Revisions is how many of the latest revisions a rollback may go
	// to without walking the steps again.
	Revisions int32 `json:"revisions,omitempty"`
}

// Strategy is spec.strategy.
type Strategy struct {
	// Canary is spec.strategy.canary.
	Canary *Canary `json:"canary,omitempty"`
	// BlueGreen is spec.strategy.blueGreen.
	BlueGreen *BlueGreen `json:"blueGreen,omitempty"`
}

// Canary is spec.strategy.canary, the fields the replica math reads.
// Upstream: v1alpha1.CanaryStrategy.
type Canary struct {
	// MaxSurge is maxSurge as written; nil means DefaultMaxSurge ("25").
	// It is read with the legacy reader: a number is a pod count (a
	// negative one is accepted), a string is a percentage of replicas
	// rounded up whatever it holds ("25" is 25%, "2%5" is 25%); see
	// [ResolveFenceposts]. Not read with traffic routing.
	MaxSurge *intorpercent.IntOrString `json:"maxSurge,omitempty"`
	// MaxUnavailable is maxUnavailable as written; nil means
	// DefaultMaxUnavailable ("25"), read like MaxSurge but rounded down.
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	// Steps is the list of steps; none means "go to 100% at once".
	Steps []CanaryStep `json:"steps,omitempty"`
	// TrafficRouting is trafficRouting; nil is a basic canary, whose
	// traffic split is the ratio of pods.
	TrafficRouting *TrafficRouting `json:"trafficRouting,omitempty"`
	// CanaryService and StableService are the Services' names; the math
	// only records them in status.canary.weights, and Validate requires
	// them for most traffic routers.
	CanaryService string `json:"canaryService,omitempty"`
	StableService string `json:"stableService,omitempty"`
	// ScaleDownDelaySeconds is scaleDownDelaySeconds, in seconds: how
	// long an old ReplicaSet keeps its pods after the switch (traffic
	// routing only). nil means DefaultScaleDownDelaySeconds (30) with
	// traffic routing, 0 without.
	ScaleDownDelaySeconds *int32 `json:"scaleDownDelaySeconds,omitempty"`
	// ScaleDownDelayRevisionLimit is scaleDownDelayRevisionLimit: how
	// many old ReplicaSets may wait for their delay at once; nil means
	// unlimited.
	ScaleDownDelayRevisionLimit *int32 `json:"scaleDownDelayRevisionLimit,omitempty"`
	// AbortScaleDownDelaySeconds is abortScaleDownDelaySeconds, in
	// seconds: how long the canary keeps its pods after an abort (traffic
	// routing only). nil means DefaultAbortScaleDownDelaySeconds (30)
	// with traffic routing; an explicit 0 means never scale it down.
	AbortScaleDownDelaySeconds *int32 `json:"abortScaleDownDelaySeconds,omitempty"`
	// DynamicStableScale is dynamicStableScale: the stable ReplicaSet
	// shrinks as traffic moves to the canary (traffic routing only).
	DynamicStableScale bool `json:"dynamicStableScale,omitempty"`
	// MinPodsPerReplicaSet is minPodsPerReplicaSet: with traffic
	// routing, a ReplicaSet that gets any traffic gets at least this
	// many pods (at most replicas). nil means no minimum.
	MinPodsPerReplicaSet *int32 `json:"minPodsPerReplicaSet,omitempty"`
	// ReplicaProgressThreshold is replicaProgressThreshold: how many
	// available canary pods let a step complete; nil means all of them.
	ReplicaProgressThreshold *ReplicaProgressThreshold `json:"replicaProgressThreshold,omitempty"`
}

// TrafficRouting is spec.strategy.canary.trafficRouting: which routers
// are configured (their settings do not feed the replica math) and the
// maximum weight. Upstream: v1alpha1.RolloutTrafficRouting.
type TrafficRouting struct {
	// Istio is istio: present when Istio routes the traffic. Validate
	// reads whether it names a destinationRule (then the canary and
	// stable Services are not required).
	Istio *Istio `json:"istio,omitempty"`
	// The other routers, each present when configured. Validate reads
	// Nginx and Plugins (maxTrafficWeight is supported only with them).
	Nginx      *Router `json:"nginx,omitempty"`
	ALB        *Router `json:"alb,omitempty"`
	SMI        *Router `json:"smi,omitempty"`
	Ambassador *Router `json:"ambassador,omitempty"`
	AppMesh    *Router `json:"appMesh,omitempty"`
	Traefik    *Router `json:"traefik,omitempty"`
	Apisix     *Router `json:"apisix,omitempty"`
	// ManagedRoutes is managedRoutes: the HTTP routes Argo manages for
	// setHeaderRoute and setMirrorRoute steps, by name, in precedence
	// order. nil (absent) is not the same as empty: Validate requires
	// the field when a step sets a header or mirror route, and each such
	// step's route name must be one of these.
	ManagedRoutes []ManagedRoute `json:"managedRoutes,omitempty"`
	// Plugins is plugins: the traffic-router plugins by name, each with
	// its configuration as written.
	Plugins map[string]json.RawMessage `json:"plugins,omitempty"`
	// MaxTrafficWeight is maxTrafficWeight, the weight that means all
	// traffic; nil means DefaultMaxTrafficWeight (100).
	MaxTrafficWeight *int32 `json:"maxTrafficWeight,omitempty"`
}

// Router marks a configured traffic router. Its settings are not read:
// decoding a router's JSON object into it keeps only its presence.
type Router struct{}

// Istio is trafficRouting.istio: of Istio's settings only whether a
// destinationRule is named is kept (the virtual services are not read).
// Upstream: v1alpha1.IstioTrafficRouting.
type Istio struct {
	// DestinationRule is destinationRule, present when Argo shifts the
	// traffic through a DestinationRule's subsets (host-level splitting)
	// rather than through the canary and stable Services.
	DestinationRule *IstioDestinationRule `json:"destinationRule,omitempty"`
}

// IstioDestinationRule marks a named Istio DestinationRule. Its settings
// (name, subset names) are not read: decoding its JSON object into it
// keeps only its presence. Upstream: v1alpha1.IstioDestinationRule.
type IstioDestinationRule struct{}

// ManagedRoute is one entry of trafficRouting.managedRoutes.
// Upstream: v1alpha1.MangedRoutes.
type ManagedRoute struct {
	// Name is name: the route's name, which setHeaderRoute.name and
	// setMirrorRoute.name refer to.
	Name string `json:"name"`
}

// ProgressType is replicaProgressThreshold.type. Argo compares it with
// "Percent" only: any other text, "Pods" included, counts pods.
type ProgressType string

// The progress types Argo names.
const (
	// ProgressPercent reads Value as a percentage of the desired canary
	// pods.
	ProgressPercent ProgressType = "Percent"
	// ProgressPods reads Value as a number of available canary pods.
	ProgressPods ProgressType = "Pods"
)

// ReplicaProgressThreshold is replicaProgressThreshold.
type ReplicaProgressThreshold struct {
	// Type is "Percent" or anything else (a pod count).
	Type ProgressType `json:"type"`
	// Value is the percentage or the pod count; a negative value falls
	// back to "all desired pods available".
	Value int32 `json:"value"`
}

// CanaryStep is one canary step: exactly one of its fields is set (Validate).
// The steps the replica math acts on are SetWeight, SetCanaryScale and
// Pause; the others are kept as written so that a manifest decodes and
// validates (see [StepComplete] for how a sync treats them).
// Upstream: v1alpha1.CanaryStep.
type CanaryStep struct {
	// SetWeight is setWeight: the canary's share of traffic (of pods, for
	// a basic canary), 0..maxTrafficWeight.
	SetWeight *int32 `json:"setWeight,omitempty"`
	// Pause is pause: wait for a duration, or for a resume.
	Pause *RolloutPause `json:"pause,omitempty"`
	// Experiment, Analysis are experiment and analysis as written.
	Experiment json.RawMessage `json:"experiment,omitempty"`
	Analysis   json.RawMessage `json:"analysis,omitempty"`
	// SetCanaryScale is setCanaryScale (traffic routing only).
	SetCanaryScale *SetCanaryScale `json:"setCanaryScale,omitempty"`
	// SetHeaderRoute, SetMirrorRoute and Plugin are as written. Validate
	// reads the name of a setHeaderRoute or setMirrorRoute object
	// (its "name" field) to find it in trafficRouting.managedRoutes.
	SetHeaderRoute json.RawMessage `json:"setHeaderRoute,omitempty"`
	SetMirrorRoute json.RawMessage `json:"setMirrorRoute,omitempty"`
	Plugin         json.RawMessage `json:"plugin,omitempty"`
}

// RolloutPause is a pause step.
// Upstream: v1alpha1.RolloutPause.
type RolloutPause struct {
	// Duration is duration as written: a number of seconds (30), or a
	// string holding a number of seconds ("30") or a Go duration ("1h",
	// "1.5s"). nil waits until the rollout is resumed. See
	// [DurationSeconds].
	Duration *intorpercent.IntOrString `json:"duration,omitempty"`
}

// SetCanaryScale is a setCanaryScale step: it sizes the canary
// independently of the traffic weight until another setCanaryScale
// replaces it.
type SetCanaryScale struct {
	// Weight is weight: the canary gets this percentage of replicas
	// (not range-checked by Argo).
	Weight *int32 `json:"weight,omitempty"`
	// Replicas is replicas: the canary gets exactly this many pods.
	Replicas *int32 `json:"replicas,omitempty"`
	// MatchTrafficWeight is matchTrafficWeight: cancel an earlier
	// setCanaryScale; the canary follows the traffic weight again.
	MatchTrafficWeight bool `json:"matchTrafficWeight,omitempty"`
}

// BlueGreen is spec.strategy.blueGreen, the fields the replica math
// reads. Upstream: v1alpha1.BlueGreenStrategy.
type BlueGreen struct {
	// ActiveService and PreviewService are the Services' names; the math
	// follows the selectors recorded in Status.BlueGreen instead.
	ActiveService  string `json:"activeService"`
	PreviewService string `json:"previewService,omitempty"`
	// PreviewReplicaCount is previewReplicaCount: the new ReplicaSet's
	// size before promotion; nil means replicas.
	PreviewReplicaCount *int32 `json:"previewReplicaCount,omitempty"`
	// AutoPromotionEnabled is autoPromotionEnabled; nil means true.
	AutoPromotionEnabled *bool `json:"autoPromotionEnabled,omitempty"`
	// AutoPromotionSeconds is autoPromotionSeconds: with auto-promotion,
	// how long to wait before promoting, in seconds; 0 promotes at once.
	AutoPromotionSeconds int32 `json:"autoPromotionSeconds,omitempty"`
	// MaxUnavailable is maxUnavailable as written; nil means
	// DefaultMaxUnavailable ("25"). It paces pod restarts only.
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	// ScaleDownDelaySeconds is scaleDownDelaySeconds, in seconds: how
	// long the old active ReplicaSet keeps its pods after the switch;
	// nil means DefaultScaleDownDelaySeconds (30).
	ScaleDownDelaySeconds *int32 `json:"scaleDownDelaySeconds,omitempty"`
	// ScaleDownDelayRevisionLimit is scaleDownDelayRevisionLimit; nil
	// means unlimited.
	ScaleDownDelayRevisionLimit *int32 `json:"scaleDownDelayRevisionLimit,omitempty"`
	// AbortScaleDownDelaySeconds is abortScaleDownDelaySeconds, in
	// seconds; nil means DefaultAbortScaleDownDelaySeconds (30); an
	// explicit 0 keeps the preview ReplicaSet after an abort.
	AbortScaleDownDelaySeconds *int32 `json:"abortScaleDownDelaySeconds,omitempty"`
}

// PauseReason is a pause condition's reason.
type PauseReason string

// The pause reasons.
const (
	// PauseInconclusiveAnalysis: an analysis run was inconclusive; a
	// canary scales nothing while it is present.
	PauseInconclusiveAnalysis PauseReason = "InconclusiveAnalysisRun"
	// PauseInconclusiveExperiment: an experiment was inconclusive.
	PauseInconclusiveExperiment PauseReason = "InconclusiveExperiment"
	// PauseCanaryStep: a canary pause step.
	PauseCanaryStep PauseReason = "CanaryPauseStep"
	// PauseBlueGreen: a blue-green rollout waiting for promotion.
	PauseBlueGreen PauseReason = "BlueGreenPause"
)

// PauseCondition is one of status.pauseConditions.
type PauseCondition struct {
	// Reason is why the rollout is paused.
	Reason PauseReason `json:"reason"`
	// StartTime is when the pause began; a pause step with a duration
	// ends DurationSeconds after it.
	StartTime time.Time `json:"startTime"`
}

// Phase is status.phase.
type Phase string

// The phases.
const (
	// PhaseHealthy: fully promoted, every replica updated and available.
	PhaseHealthy Phase = "Healthy"
	// PhaseDegraded: aborted (or, in Argo, an invalid spec or a progress
	// deadline passed, which are not modelled).
	PhaseDegraded Phase = "Degraded"
	// PhaseProgressing: an update is under way.
	PhaseProgressing Phase = "Progressing"
	// PhasePaused: spec.paused, or a pause condition.
	PhasePaused Phase = "Paused"
)

// Status is a Rollout's status, the fields the replica math reads and
// writes. The zero value is the status of a Rollout the controller has
// never synced. Upstream: v1alpha1.RolloutStatus.
type Status struct {
	// Abort is abort: the rollout was aborted; the canary's weight goes
	// back to 0 (or down the steps, with dynamicStableScale).
	Abort bool `json:"abort,omitempty"`
	// PauseConditions is pauseConditions.
	PauseConditions []PauseCondition `json:"pauseConditions,omitempty"`
	// ControllerPause is controllerPause: the controller paused the
	// rollout (a pause step, a blue-green pause) and has not been
	// resumed; a resume clears PauseConditions but leaves it set until
	// the next sync.
	ControllerPause bool `json:"controllerPause,omitempty"`
	// AbortedAt is abortedAt; nil when not aborted.
	AbortedAt *time.Time `json:"abortedAt,omitempty"`
	// CurrentPodHash is currentPodHash: the pod-template hash of the
	// current template, the "new" (canary, preview) ReplicaSet's.
	CurrentPodHash string `json:"currentPodHash,omitempty"`
	// CurrentStepHash is currentStepHash: the hash of the canary steps
	// the status was computed for (see [StepsHash]); a different hash
	// restarts the steps.
	CurrentStepHash string `json:"currentStepHash,omitempty"`
	// Replicas is replicas: pods of every ReplicaSet (status.replicas).
	Replicas int32 `json:"replicas,omitempty"`
	// UpdatedReplicas is updatedReplicas: pods of the new ReplicaSet.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// ReadyReplicas is readyReplicas.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas is availableReplicas (for blue-green, the active
	// ReplicaSet's).
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// CurrentStepIndex is currentStepIndex; nil reads as 0, and a value
	// of len(steps) means every step is done.
	CurrentStepIndex *int32 `json:"currentStepIndex,omitempty"`
	// CollisionCount is collisionCount: hash collisions met while
	// creating ReplicaSets; it salts [PodTemplateHash].
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// ObservedGeneration is observedGeneration: the generation last
	// synced, as a decimal string (Argo's type).
	ObservedGeneration string `json:"observedGeneration,omitempty"`
	// Canary is canary: the traffic weights last set.
	Canary CanaryStatus `json:"canary,omitzero"`
	// BlueGreen is blueGreen: the services' selectors.
	BlueGreen BlueGreenStatus `json:"blueGreen,omitzero"`
	// HPAReplicas is HPAReplicas (Argo's spelling).
	HPAReplicas int32 `json:"HPAReplicas,omitempty"`
	// StableRS is stableRS: the pod-template hash of the stable
	// ReplicaSet, the one fully promoted last. "" before the first
	// rollout completes.
	StableRS string `json:"stableRS,omitempty"`
	// PromoteFull is promoteFull: skip the remaining steps (and
	// analysis, pauses) and go to 100% (kubectl argo rollouts promote
	// --full).
	PromoteFull bool `json:"promoteFull,omitempty"`
	// Phase is phase and Message is message: Healthy, Progressing,
	// Paused or Degraded, and why (see docs/argo.md).
	Phase   Phase  `json:"phase,omitempty"`
	Message string `json:"message,omitempty"`
}

// CanaryStatus is status.canary.
type CanaryStatus struct {
	// Weights is weights: the traffic weights last sent to the router;
	// nil before any (and always for a basic canary).
	Weights *Weights `json:"weights,omitempty"`
}

// BlueGreenStatus is status.blueGreen.
type BlueGreenStatus struct {
	// PreviewSelector is previewSelector: the pod-template hash the
	// preview Service selects.
	PreviewSelector string `json:"previewSelector,omitempty"`
	// ActiveSelector is activeSelector: the pod-template hash the
	// active Service selects.
	ActiveSelector string `json:"activeSelector,omitempty"`
	// ScaleUpPreviewCheckPoint is scaleUpPreviewCheckPoint: the preview
	// was checked at previewReplicaCount and may now grow to replicas.
	ScaleUpPreviewCheckPoint bool `json:"scaleUpPreviewCheckPoint,omitempty"`
}

// Weights is status.canary.weights: the traffic weights a traffic-routed
// canary last sent to its router. Upstream: v1alpha1.TrafficWeights.
type Weights struct {
	// Canary and Stable are the canary's and the stable's share.
	Canary WeightDestination `json:"canary"`
	Stable WeightDestination `json:"stable"`
	// Additional are experiment destinations, as written.
	Additional []WeightDestination `json:"additional,omitempty"`
	// Verified is verified: nil not checked, false the router did not
	// confirm the weight (a setWeight step then waits).
	Verified *bool `json:"verified,omitempty"`
}

// WeightDestination is one destination of [Weights].
type WeightDestination struct {
	// Weight is weight, 0..maxTrafficWeight.
	Weight int32 `json:"weight"`
	// ServiceName is serviceName.
	ServiceName string `json:"serviceName,omitempty"`
	// PodTemplateHash is podTemplateHash: the ReplicaSet receiving it.
	PodTemplateHash string `json:"podTemplateHash,omitempty"`
}

// ReplicaSet is one ReplicaSet of a Rollout as the replica math reads
// it; the caller fills it from an apps/v1 ReplicaSet the Rollout owns.
// The typed fields are authoritative: the keys in the label and
// annotation constants are not looked up anywhere else.
type ReplicaSet[T any] struct {
	// Name is metadata.name; it must be unique among the ReplicaSets
	// passed together.
	Name string `json:"name"`
	// PodTemplateHash is the PodTemplateHashLabel label: the hash that
	// status.currentPodHash, stableRS and the selectors name. It must be
	// unique among the ReplicaSets passed together.
	PodTemplateHash string `json:"podTemplateHash"`
	// Revision is the RevisionAnnotation annotation; 0 when absent or
	// not a number (such ReplicaSets sort by creation time).
	Revision int64 `json:"revision,omitempty"`
	// DesiredReplicas is the DesiredReplicasAnnotation annotation: the
	// Rollout's replicas when the ReplicaSet was last scaled; nil when
	// absent. A change of spec.replicas is detected through it.
	DesiredReplicas *int32 `json:"desiredReplicas,omitempty"`
	// ScaleDownDeadline is the ScaleDownDeadlineAnnotation annotation as
	// written (RFC 3339), "" when absent; text that does not parse counts
	// as a deadline already passed.
	ScaleDownDeadline string `json:"scaleDownDeadline,omitempty"`
	// CreationTime is metadata.creationTimestamp; it orders ReplicaSets
	// whose revisions tie.
	CreationTime time.Time `json:"creationTime"`
	// Template is spec.template without the PodTemplateHashLabel label.
	Template T `json:"template"`

	// Replicas is spec.replicas (a nil spec.replicas reads as 1).
	Replicas int32 `json:"replicas"`
	// StatusReplicas is status.replicas: pods that exist ("actual").
	StatusReplicas int32 `json:"statusReplicas"`
	// ReadyReplicas is status.readyReplicas.
	ReadyReplicas int32 `json:"readyReplicas"`
	// AvailableReplicas is status.availableReplicas.
	AvailableReplicas int32 `json:"availableReplicas"`
}
