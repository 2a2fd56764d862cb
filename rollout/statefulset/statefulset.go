package statefulset

import (
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// Label keys the StatefulSet controller writes on its pods and
// revisions. The package reads the typed fields of [Pod] and
// [ControllerRevision]; the keys are here for callers converting API
// objects.
const (
	// RevisionLabel is the pod label holding the name of the revision
	// (ControllerRevision) the pod was created from, "web-6bd8cfcb95":
	// the full revision name, not the bare hash. See Pod.Revision.
	RevisionLabel = "controller-revision-hash"
	// PodNameLabel is the pod label holding the pod's own name; a pod
	// whose label disagrees with its name has its identity fixed by the
	// controller (UpdatePod). See Pod.PodNameLabel.
	PodNameLabel = "statefulset.kubernetes.io/pod-name"
	// PodIndexLabel is the pod label holding the pod's ordinal in
	// decimal, written at creation and by an identity fix.
	PodIndexLabel = "apps.kubernetes.io/pod-index"
	// RevisionHashLabel is the ControllerRevision label holding the hash
	// part of its name. See ControllerRevision.Hash.
	RevisionHashLabel = "controller.kubernetes.io/hash"
)

// PodManagementPolicy is spec.podManagementPolicy. The zero value ""
// reads as OrderedReady, the API server's default.
type PodManagementPolicy string

// The pod management policies.
const (
	// OrderedReady creates pods one at a time in ascending ordinal, each
	// only once its predecessors are Running, Ready and available, and
	// deletes them one at a time in descending ordinal. Any pod that is
	// missing, failed, terminating or not available stops the sync.
	OrderedReady PodManagementPolicy = "OrderedReady"
	// Parallel creates and deletes pods without waiting for one another;
	// updates still go from the highest ordinal down.
	Parallel PodManagementPolicy = "Parallel"
)

// UpdateStrategyType is spec.updateStrategy.type. The zero value ""
// reads as RollingUpdate, the API server's default; see
// UpdateStrategy for how RollingUpdate is then defaulted too.
type UpdateStrategyType string

// The update strategy types.
const (
	// RollingUpdate replaces outdated pods from the highest ordinal down
	// to the partition.
	RollingUpdate UpdateStrategyType = "RollingUpdate"
	// OnDelete never replaces a pod for an update: pods deleted by
	// someone else come back at the update revision.
	OnDelete UpdateStrategyType = "OnDelete"
)

// DefaultRevisionHistoryLimit is spec.revisionHistoryLimit when nil.
const DefaultRevisionHistoryLimit int32 = 10

// StatefulSet is an apps/v1 StatefulSet as the rollout math reads it,
// with the pod template of type T (a corev1.PodTemplateSpec, or the
// caller's own type; the math never looks inside it, and a revision's
// bytes come from [RevisionData]). Every field's zero value is what the
// API server's defaulting makes of an absent field, as each comment
// says, except Replicas, whose zero means zero pods.
// Upstream: apps/v1 StatefulSet with SetDefaults_StatefulSet
// (pkg/apis/apps/v1/defaults.go).
type StatefulSet[T any] struct {
	// Name is metadata.name; pods are named "<Name>-<ordinal>" and
	// revisions "<Name>-<hash>".
	Name string `json:"name"`
	// Namespace is metadata.namespace. Pods are assumed to be listed in
	// it; the math does not read it otherwise.
	Namespace string `json:"namespace,omitempty"`
	// UID is metadata.uid: pods whose ControllerUID equals it are owned.
	UID string `json:"uid,omitempty"`
	// Generation is metadata.generation; the status written records it
	// as observedGeneration.
	Generation int64 `json:"generation"`
	// Deleting says metadata.deletionTimestamp is set: the controller
	// then writes only the status.
	Deleting bool `json:"deleting,omitempty"`

	// Replicas is spec.replicas after defaulting: a caller decoding a
	// manifest without the field fills in 1. Negative values are
	// rejected by Validate.
	Replicas int32 `json:"replicas"`
	// Ordinals is spec.ordinals; the zero value (and an absent field)
	// starts ordinals at 0.
	Ordinals Ordinals `json:"ordinals,omitzero"`
	// Selector is spec.selector. When set, Plan claims pods as the
	// controller does: orphan members it matches are adopted, owned pods
	// it does not match (or that are not members) are released; UID must
	// then be set. The API server requires a selector, so nil here means
	// the caller has claimed the pods already: members whose
	// ControllerUID equals UID are the set's, and nothing is adopted or
	// released.
	Selector *ownership.Selector `json:"selector,omitempty"`
	// TemplateLabels is spec.template.metadata.labels: the labels a
	// created pod carries (Sync.Pods gives them to the pods it creates,
	// so that the next sync's selector matches them). nil means none.
	TemplateLabels map[string]string `json:"templateLabels,omitempty"`
	// PodManagementPolicy is spec.podManagementPolicy; "" means
	// OrderedReady.
	PodManagementPolicy PodManagementPolicy `json:"podManagementPolicy,omitempty"`
	// UpdateStrategy is spec.updateStrategy.
	UpdateStrategy UpdateStrategy `json:"updateStrategy,omitzero"`
	// MinReadySeconds is spec.minReadySeconds: how long a pod must have
	// been ready before it counts as available. Zero means at once.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is spec.revisionHistoryLimit; nil means
	// DefaultRevisionHistoryLimit (10). The API server does not validate
	// it: a negative limit never deletes a revision.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`

	// Template is spec.template.
	Template T `json:"template"`

	// Status is the StatefulSet's status as last written.
	Status Status `json:"status"`
}

// Ordinals is spec.ordinals.
type Ordinals struct {
	// Start is the ordinal of the first pod (slot 0); 0 when unset.
	Start int32 `json:"start"`
}

// UpdateStrategy is spec.updateStrategy. The zero value is the API
// server's default for an absent strategy: type RollingUpdate with
// partition 0.
//
// The defaulting has a trap, kept here: the rollingUpdate block is
// created only when the type was empty. An explicit Type RollingUpdate
// with a nil RollingUpdate stays nil ("RollingUpdate without a
// partition"), and then pods created below status.currentReplicas get
// the current revision (see [NewPodRevision]).
type UpdateStrategy struct {
	// Type is the strategy; "" means RollingUpdate, and then a nil
	// RollingUpdate means partition 0.
	Type UpdateStrategyType `json:"type,omitempty"`
	// RollingUpdate is spec.updateStrategy.rollingUpdate; it must be nil
	// for OnDelete (Validate).
	RollingUpdate *RollingUpdateStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStrategy is spec.updateStrategy.rollingUpdate.
type RollingUpdateStrategy struct {
	// Partition is how many slots, counted from Ordinals.Start, stay at
	// the current revision: slot k (ordinal Start+k) is updated when
	// k >= Partition. It is an index, not an ordinal. May exceed
	// Replicas; negative values are rejected by Validate.
	Partition int32 `json:"partition"`
	// MaxUnavailable bounds the unavailable pods of an update, counted
	// over all slots; read only when Gates.MaxUnavailableStatefulSet is
	// on. nil means 1. A percentage is of Replicas, rounded down, at
	// least 1 (see [MaxUnavailable]).
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
}

// Status is a StatefulSet's status. The zero value is the status of a
// set the controller has never synced.
type Status struct {
	// ObservedGeneration is the generation the controller last synced.
	ObservedGeneration int64 `json:"observedGeneration"`
	// Replicas counts created pods, terminating, Failed and Succeeded
	// ones included.
	Replicas int32 `json:"replicas"`
	// ReadyReplicas counts pods that are Running and Ready, terminating
	// ones included.
	ReadyReplicas int32 `json:"readyReplicas"`
	// CurrentReplicas counts pods at CurrentRevision that are not
	// terminating, minus the update deletions of the sync that wrote it:
	// it can be wrong, and negative (see Options.CurrentReplicas).
	CurrentReplicas int32 `json:"currentReplicas"`
	// UpdatedReplicas counts pods at UpdateRevision that are not
	// terminating.
	UpdatedReplicas int32 `json:"updatedReplicas"`
	// AvailableReplicas counts pods that are Running, Ready and ready
	// for MinReadySeconds, terminating ones included.
	AvailableReplicas int32 `json:"availableReplicas"`
	// CurrentRevision names the revision of the pods below the
	// partition; it moves to UpdateRevision when a rolling update
	// completes. "" before the first sync.
	CurrentRevision string `json:"currentRevision,omitempty"`
	// UpdateRevision names the revision of the current template.
	UpdateRevision string `json:"updateRevision,omitempty"`
	// CollisionCount counts revision-name collisions; nil means none.
	// The controller always writes it (0 when none).
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}
