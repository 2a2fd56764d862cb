package cloneset

import (
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// Label and annotation keys kruise reads on a CloneSet and its pods. The
// package reads their values from the typed fields of [CloneSet] and
// [Pod]; the keys are here for callers converting API objects.
const (
	// RevisionLabel is the pod label holding the name of the revision
	// (ControllerRevision) a pod was created from; see Pod.Revision.
	RevisionLabel = "controller-revision-hash"
	// TemplateHashLabel is the pod label holding the short revision hash.
	TemplateHashLabel = "pod-template-hash"
	// LifecycleStateLabel is the pod label holding its LifecycleState.
	LifecycleStateLabel = "lifecycle.apps.kruise.io/state"
	// SpecifiedDeleteLabel marks a pod for deletion; its presence counts,
	// whatever its value (even "false"). See Pod.SpecifiedDelete.
	SpecifiedDeleteLabel = "apps.kruise.io/specified-delete"
	// DeletionCostAnnotation is the pod's deletion cost; see
	// Pod.DeletionCost.
	DeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"
	// InPlaceUpdateStateAnnotation records an in-place update in progress;
	// see Pod.InPlaceUpdate.
	InPlaceUpdateStateAnnotation = "apps.kruise.io/inplace-update-state"
	// InPlaceUpdateGraceAnnotation holds an in-place update waiting for its
	// grace period; see Pod.InPlaceUpdateGrace.
	InPlaceUpdateGraceAnnotation = "apps.kruise.io/inplace-update-grace"
	// ExcludePreparingDeleteLabel on a CloneSet, with the value "true",
	// makes scaling ignore pods in PreparingDelete; see
	// Gates.ScalingExcludePreparingDelete.
	ExcludePreparingDeleteLabel = "apps.kruise.io/cloneset-scaling-exclude-preparing-delete"
)

// UpdateStrategyType is spec.updateStrategy.type. The zero value ""
// means ReCreate, the webhook's default.
type UpdateStrategyType string

// The update strategy types kruise knows.
const (
	// ReCreate replaces an outdated pod by deleting it and creating a new
	// one.
	ReCreate UpdateStrategyType = "ReCreate"
	// InPlaceIfPossible updates a pod in place when only images or
	// template metadata changed, and recreates it otherwise.
	InPlaceIfPossible UpdateStrategyType = "InPlaceIfPossible"
	// InPlaceOnly updates pods only in place; a change that cannot be
	// done in place is an error.
	InPlaceOnly UpdateStrategyType = "InPlaceOnly"
	// OnDelete never updates a pod: only pods deleted by someone else are
	// replaced at the update revision. The controller implements it but
	// kruise's webhook rejects it (docs/cloneset.md#s13-ondelete-unreachable).
	OnDelete UpdateStrategyType = "OnDelete"
)

// The defaults kruise applies to a nil field of CloneSet.
const (
	// DefaultRevisionHistoryLimit is spec.revisionHistoryLimit when nil.
	DefaultRevisionHistoryLimit int32 = 10
)

// DefaultMaxUnavailable is spec.updateStrategy.maxUnavailable when nil:
// the string "20%".
func DefaultMaxUnavailable() intorpercent.IntOrString {
	return intorpercent.FromString("20%")
}

// CloneSet is an apps.kruise.io/v1alpha1 CloneSet as the rollout math
// reads it, with the pod template of type T (for instance
// revision.Template[corev1.PodSpec] or the caller's own type; the math
// never looks inside it). Every field's zero value is kruise's default or
// the absent field, as each field's comment says, except Replicas.
//
// Int-or-percent fields are held as written ([intorpercent.IntOrString]),
// because kruise reads the same text with two different parsers (the
// webhook's and the controller's) and the difference is visible: "25"
// is rejected by the webhook but is 25% to the controller, "33.3%" passes
// the webhook and is 0 to the controller. Their JSON is the manifest's:
// {"updateStrategy":{"partition":"40%","maxSurge":1}} decodes into a
// CloneSet and encodes back the same.
type CloneSet[T any] struct {
	// Name is metadata.name; it prefixes pod and revision names.
	Name string `json:"name"`
	// Generation is metadata.generation.
	Generation int64 `json:"generation"`
	// Deleting says metadata.deletionTimestamp is set: the controller then
	// neither scales nor updates.
	Deleting bool `json:"deleting,omitempty"`
	// Labels is metadata.labels. The math reads only
	// ExcludePreparingDeleteLabel. nil means none.
	Labels map[string]string `json:"labels,omitempty"`

	// Replicas is spec.replicas after defaulting. Zero means zero pods: the
	// webhook's default of 1 applies only when the field is absent, so a
	// caller decoding a manifest without it fills in 1 (kruise's
	// controller refuses to scale a CloneSet whose replicas is nil).
	// Negative values are rejected by Validate.
	Replicas int32 `json:"replicas"`
	// MinReadySeconds is spec.minReadySeconds: how long a pod must have
	// been ready before it counts as available. Zero means at once.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is spec.revisionHistoryLimit; nil means
	// DefaultRevisionHistoryLimit (10).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// ProgressDeadlineSeconds is spec.progressDeadlineSeconds; nil or
	// math.MaxInt32 means no deadline (kruise has no default).
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`

	// UpdateStrategy is spec.updateStrategy.
	UpdateStrategy UpdateStrategy `json:"updateStrategy"`
	// ScaleStrategy is spec.scaleStrategy.
	ScaleStrategy ScaleStrategy `json:"scaleStrategy"`
	// Lifecycle is spec.lifecycle; nil means no hooks.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty"`

	// Template is spec.template.
	Template T `json:"template"`

	// Status is the CloneSet's status as last written.
	Status Status `json:"status"`
}

// UpdateStrategy is a CloneSet's spec.updateStrategy. The zero value is
// kruise's default: ReCreate, partition 0, maxUnavailable "20%",
// maxSurge 0, not paused.
type UpdateStrategy struct {
	// Type is the update strategy; "" means ReCreate.
	Type UpdateStrategyType `json:"type,omitempty"`
	// Partition is how many pods (or which percentage of Replicas, read
	// with kruise's fractional parser, rounded up, see
	// [CalculatePartitionReplicas]) stay on the current revision. nil
	// means 0: every pod is updated.
	Partition *intorpercent.IntOrString `json:"partition,omitempty"`
	// MaxUnavailable bounds the pods unavailable during an update; nil
	// means DefaultMaxUnavailable ("20%"). The controller reads it with
	// the legacy parser (a string without '%' is a percentage; a
	// malformed one counts as 0), rounded up when maxSurge resolves to 0
	// and down otherwise.
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge is how many pods beyond Replicas may exist during an
	// update; nil means 0. Read with the legacy parser, rounded up; forced
	// to 0 while Paused.
	MaxSurge *intorpercent.IntOrString `json:"maxSurge,omitempty"`
	// Paused stops updates (lifecycle bookkeeping continues, and so does
	// scaling, without surge).
	Paused bool `json:"paused,omitempty"`
	// PriorityStrategy orders the pods to update; nil means none.
	PriorityStrategy *PriorityStrategy `json:"priorityStrategy,omitempty"`
	// ScatterStrategy spreads matching pods through the update order; nil
	// means none.
	ScatterStrategy []ScatterTerm `json:"scatterStrategy,omitempty"`
	// InPlaceGracePeriodSeconds is
	// inPlaceUpdateStrategy.gracePeriodSeconds: how long an in-place
	// update waits, with the pod marked not ready, before the new images
	// are applied. Zero means no wait.
	InPlaceGracePeriodSeconds int32 `json:"inPlaceGracePeriodSeconds,omitempty"`
}

// PriorityStrategy is spec.updateStrategy.priorityStrategy: pods with a
// higher priority are updated first. Only one of the two lists may be
// set (Validate).
type PriorityStrategy struct {
	// WeightPriority: a pod's priority is the sum of the weights of the
	// terms whose selector matches its labels; higher goes first.
	WeightPriority []WeightTerm `json:"weightPriority,omitempty"`
	// OrderPriority: a pod's priority comes from the first key it carries
	// and the number that key's value ends in.
	OrderPriority []OrderTerm `json:"orderPriority,omitempty"`
}

// WeightTerm is one weightPriority term. Weight must be in [0, 100]
// (kruise's message says 1-100 but accepts 0).
type WeightTerm struct {
	Weight        int32         `json:"weight"`
	MatchSelector LabelSelector `json:"matchSelector"`
}

// OrderTerm is one orderPriority term: a pod label key.
type OrderTerm struct {
	OrderedKey string `json:"orderedKey"`
}

// ScatterTerm is one scatterStrategy term: the pods whose label Key has
// Value are spread through the update order.
type ScatterTerm struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// LabelSelector is a label selector, the module's one selector type
// ([ownership.Selector]): a pod matches when it has every MatchLabels pair
// and meets every MatchExpressions requirement. A selector with neither is
// empty (Validate rejects it in a weight term). The update order reads it
// as kruise does, without validating keys and values (see
// [SortUpdateIndexes]).
type LabelSelector = ownership.Selector

// LabelSelectorRequirement is one matchExpressions entry
// ([ownership.Requirement]). Operator is In, NotIn, Exists or DoesNotExist.
type LabelSelectorRequirement = ownership.Requirement

// ScaleStrategy is a CloneSet's spec.scaleStrategy. The zero value is
// kruise's default: no pods named for deletion, no limit on scaling up.
type ScaleStrategy struct {
	// PodsToDelete names pods to delete; such a pod counts as
	// specified-delete exactly as if it carried SpecifiedDeleteLabel.
	// Names that match no pod are ignored.
	PodsToDelete []string `json:"podsToDelete,omitempty"`
	// MaxUnavailable limits how many pods may be created while pods are
	// unavailable: at most MaxUnavailable minus the unavailable count per
	// reconcile. nil means no limit. Read with the legacy parser, rounded
	// up; a malformed value counts as 0 (no pod is ever created). Kruise
	// does not validate it.
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
}

// Lifecycle is spec.lifecycle: hooks that hold a pod in a lifecycle state
// until someone (another controller, a person) removes a label or a
// finalizer. A nil hook is absent.
type Lifecycle struct {
	PreDelete     *LifecycleHook `json:"preDelete,omitempty"`
	InPlaceUpdate *LifecycleHook `json:"inPlaceUpdate,omitempty"`
	PreNormal     *LifecycleHook `json:"preNormal,omitempty"`
}

// LifecycleHook is one lifecycle hook. A pod is hooked when it carries any
// of the labels (with the given value) or finalizers; it is all-hooked
// when it carries every one.
type LifecycleHook struct {
	LabelsHandler     map[string]string `json:"labelsHandler,omitempty"`
	FinalizersHandler []string          `json:"finalizersHandler,omitempty"`
	// MarkPodNotReady sets the pod's KruisePodReady condition to False
	// while it is in the hook's state; it also disables PreparingDelete
	// regret.
	MarkPodNotReady bool `json:"markPodNotReady,omitempty"`
}

// Status is a CloneSet's status. The zero value is the status of a
// CloneSet the controller has never reconciled.
type Status struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration"`
	// Replicas counts the active pods (not terminating, not Succeeded or
	// Failed).
	Replicas int32 `json:"replicas"`
	// ReadyReplicas counts pods that are Running and Ready (lifecycle
	// state ignored).
	ReadyReplicas int32 `json:"readyReplicas"`
	// AvailableReplicas counts available pods (ready for minReadySeconds,
	// lifecycle Normal or empty).
	AvailableReplicas int32 `json:"availableReplicas"`
	// UpdatedReplicas counts pods at UpdateRevision.
	UpdatedReplicas int32 `json:"updatedReplicas"`
	// UpdatedReadyReplicas counts pods at UpdateRevision that are ready.
	UpdatedReadyReplicas int32 `json:"updatedReadyReplicas"`
	// UpdatedAvailableReplicas counts pods at UpdateRevision that are
	// available.
	UpdatedAvailableReplicas int32 `json:"updatedAvailableReplicas"`
	// ExpectedUpdatedReplicas is Replicas minus the partition resolved by
	// CalculatePartitionReplicas.
	ExpectedUpdatedReplicas int32 `json:"expectedUpdatedReplicas"`
	// UpdateRevision names the revision of the current template.
	UpdateRevision string `json:"updateRevision,omitempty"`
	// CurrentRevision names the revision the CloneSet last completed;
	// "" means UpdateRevision.
	CurrentRevision string `json:"currentRevision,omitempty"`
	// CollisionCount counts revision-name collisions; nil means none yet.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// LabelSelector is the selector as a string, for the scale
	// subresource.
	LabelSelector string `json:"labelSelector,omitempty"`
	// Conditions are the CloneSet's conditions, in the order they were
	// last set.
	Conditions []Condition `json:"conditions,omitempty"`
}

// ConditionType is the type of a CloneSet condition.
type ConditionType string

// The condition types kruise sets on a CloneSet.
const (
	ConditionFailedScale  ConditionType = "FailedScale"
	ConditionFailedUpdate ConditionType = "FailedUpdate"
	ConditionProgressing  ConditionType = "Progressing"
)

// ConditionStatus is a condition's status: "True", "False" or "Unknown".
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Condition is one CloneSet condition.
type Condition struct {
	Type               ConditionType   `json:"type"`
	Status             ConditionStatus `json:"status"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
	LastUpdateTime     time.Time       `json:"lastUpdateTime"`
	LastTransitionTime time.Time       `json:"lastTransitionTime"`
}
