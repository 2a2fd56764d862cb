package daemonset

import (
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// Label and annotation keys the DaemonSet controller reads and writes. The
// package reads their values from the typed fields of [DaemonSet], [Pod]
// and [ControllerRevision]; the keys are here for callers converting API
// objects.
const (
	// HashLabel is the label holding a revision's hash, on pods (see
	// Pod.Hash) and on ControllerRevisions (see ControllerRevision.Hash).
	HashLabel = "controller-revision-hash"
	// TemplateGenerationLabel is the pod label holding the template
	// generation the pod was created at; see Pod.TemplateGeneration.
	TemplateGenerationLabel = "pod-template-generation"
	// TemplateGenerationAnnotation is the DaemonSet annotation holding
	// its template generation; see DaemonSet.TemplateGeneration.
	TemplateGenerationAnnotation = "deprecated.daemonset.template.generation"
)

// UpdateStrategyType is spec.updateStrategy.type. The zero value ""
// means RollingUpdate, the API server's default.
type UpdateStrategyType string

// The update strategy types the API server accepts.
const (
	// RollingUpdate replaces old pods node by node within maxUnavailable
	// or maxSurge.
	RollingUpdate UpdateStrategyType = "RollingUpdate"
	// OnDelete never deletes an old pod for the update: a node gets a pod
	// at the current revision only after someone deleted its old one.
	OnDelete UpdateStrategyType = "OnDelete"
)

// PodPhase is a pod's status.phase. The zero value "" is read as
// Pending.
type PodPhase string

// The pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// The defaults the API server applies to a DaemonSet (SetDefaults_DaemonSet).
const (
	// DefaultRevisionHistoryLimit is spec.revisionHistoryLimit when nil.
	DefaultRevisionHistoryLimit int32 = 10
	// DefaultMaxUnavailable is rollingUpdate.maxUnavailable when nil: the
	// count 1.
	DefaultMaxUnavailable int32 = 1
)

// DaemonSet is an apps/v1 DaemonSet as the rollout math reads it, with
// the pod template of type T (a corev1.PodTemplateSpec, a
// revision.Template, or the caller's own type). Every field's zero value
// is the API server's default or the absent field, as each field says.
// Upstream: DaemonSet, k8s.io/api/apps/v1, after SetDefaults_DaemonSet.
type DaemonSet[T any] struct {
	// Name is metadata.name; it prefixes revision and pod names.
	Name string `json:"name"`
	// Namespace is metadata.namespace; the math does not read it.
	Namespace string `json:"namespace,omitempty"`
	// UID is metadata.uid; the math does not read it (upstream keys the
	// failed-pod backoff by it, which Plan does not model).
	UID string `json:"uid,omitempty"`
	// Generation is metadata.generation.
	Generation int64 `json:"generation"`
	// Deleting says metadata.deletionTimestamp is set: the controller
	// then does nothing, not even write status.
	Deleting bool `json:"deleting,omitempty"`
	// Selector is spec.selector. The API server requires it and rejects
	// an empty one (the controller would refuse to act on a selector that
	// selects every pod), so Validate, and therefore Plan, reject nil and
	// empty selectors. The pods passed in are taken as the ones it
	// selects and the DaemonSet owns.
	Selector *ownership.Selector `json:"selector,omitempty"`
	// Template is spec.template.
	Template T `json:"template"`
	// UpdateStrategy is spec.updateStrategy.
	UpdateStrategy UpdateStrategy `json:"updateStrategy"`
	// MinReadySeconds is spec.minReadySeconds: how long a pod must have
	// been ready before it counts as available. Zero means at once.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is spec.revisionHistoryLimit; nil means
	// DefaultRevisionHistoryLimit (10).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// TemplateGeneration is the TemplateGenerationAnnotation as the
	// controller reads it: nil when the annotation is absent or does not
	// parse as an int64 (the controller then ignores it). The API server
	// sets it to 1 on create and adds 1 on each template change. A pod
	// whose TemplateGenerationLabel equals it counts as updated, whatever
	// its hash (see [IsPodUpdated]).
	TemplateGeneration *int64 `json:"templateGeneration,omitempty"`
	// Status is the DaemonSet's status as last written.
	Status Status `json:"status"`
}

// UpdateStrategy is spec.updateStrategy. The zero value is the API
// server's default: RollingUpdate with maxUnavailable 1 and maxSurge 0.
type UpdateStrategy struct {
	// Type is the strategy; "" means RollingUpdate.
	Type UpdateStrategyType `json:"type,omitempty"`
	// RollingUpdate holds the budgets; nil means the defaults
	// (maxUnavailable 1, maxSurge 0). Ignored unless Type is
	// RollingUpdate.
	RollingUpdate *RollingUpdateParams `json:"rollingUpdate,omitempty"`
}

// RollingUpdateParams is spec.updateStrategy.rollingUpdate. Both values
// are held as written; the controller reads them strictly (an integer, or
// a string of digits followed by '%'), resolved against the desired
// number of scheduled nodes and rounded up (see [Budgets]).
type RollingUpdateParams struct {
	// MaxUnavailable is how many nodes may be without an available pod
	// because of the update; nil means DefaultMaxUnavailable (1).
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge is how many nodes may run a new pod beside an old
	// available one; nil means 0. Non-zero only when MaxUnavailable is 0
	// (Validate).
	MaxSurge *intorpercent.IntOrString `json:"maxSurge,omitempty"`
}

// Status is a DaemonSet's status. Every count is a number of nodes, at
// least 0. Upstream: DaemonSetStatus, k8s.io/api/apps/v1.
type Status struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration"`
	// CurrentNumberScheduled counts nodes that should run the pod and run
	// at least one.
	CurrentNumberScheduled int32 `json:"currentNumberScheduled"`
	// NumberMisscheduled counts nodes that run the pod but should not
	// (including nodes whose pod may keep running, such as a NoSchedule
	// taint).
	NumberMisscheduled int32 `json:"numberMisscheduled"`
	// DesiredNumberScheduled counts nodes that should run the pod.
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled"`
	// NumberReady counts nodes whose oldest pod is ready.
	NumberReady int32 `json:"numberReady"`
	// UpdatedNumberScheduled counts nodes whose oldest pod is updated.
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled,omitempty"`
	// NumberAvailable counts nodes whose oldest pod is available.
	NumberAvailable int32 `json:"numberAvailable,omitempty"`
	// NumberUnavailable is DesiredNumberScheduled - NumberAvailable.
	NumberUnavailable int32 `json:"numberUnavailable,omitempty"`
	// CollisionCount counts revision-name collisions; nil means none yet.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}

// Node is one node as the DaemonSet controller sees it. The two booleans
// are the caller's answer of the scheduling predicates (upstream's
// NodeShouldRunDaemonPod: taints and tolerations, node affinity, nodeName);
// this package does not evaluate them. For example, an untolerated
// NoSchedule taint gives ShouldRun false, ShouldContinueRunning true; an
// untolerated NoExecute taint or an affinity that excludes the node gives
// both false. ShouldRun without ShouldContinueRunning cannot happen and is
// an error.
type Node struct {
	// Name is metadata.name; names are unique.
	Name string `json:"name"`
	// ShouldRun says a daemon pod should run on the node.
	ShouldRun bool `json:"shouldRun,omitempty"`
	// ShouldContinueRunning says a daemon pod already there may stay.
	ShouldContinueRunning bool `json:"shouldContinueRunning,omitempty"`
}

// Pod is one pod the DaemonSet owns, as the controller reads it: the
// fields of a corev1.Pod its sync looks at.
type Pod struct {
	// Name is metadata.name; names are unique.
	Name string `json:"name"`
	// Node is the node the pod is for: spec.nodeName, or, while it is
	// unscheduled, the node of the metadata.name matchFields term the
	// controller writes into its required node affinity. "" means
	// neither: the controller ignores the pod.
	Node string `json:"node,omitempty"`
	// Unscheduled says spec.nodeName is empty (the scheduler has not
	// bound the pod yet).
	Unscheduled bool `json:"unscheduled,omitempty"`
	// Hash is the pod's HashLabel label; "" when absent.
	Hash string `json:"hash,omitempty"`
	// TemplateGeneration is the pod's TemplateGenerationLabel label as
	// written; "" when absent.
	TemplateGeneration string `json:"templateGeneration,omitempty"`
	// Phase is status.phase; "" reads as Pending.
	Phase PodPhase `json:"phase,omitempty"`
	// Ready says the pod's Ready condition is True (the phase is not
	// consulted).
	Ready bool `json:"ready,omitempty"`
	// ReadySince is the Ready condition's lastTransitionTime. A ready pod
	// with a zero ReadySince is available only when minReadySeconds is 0.
	ReadySince time.Time `json:"readySince,omitzero"`
	// Terminating says metadata.deletionTimestamp is set.
	Terminating bool `json:"terminating,omitempty"`
	// Created is metadata.creationTimestamp.
	Created time.Time `json:"created,omitzero"`
}

// ControllerRevision is one ControllerRevision of a DaemonSet as this
// package reads it. Upstream: ControllerRevision, k8s.io/api/apps/v1.
type ControllerRevision struct {
	// Name is metadata.name, "<daemonset>-<hash>" for the revisions the
	// controller creates ([RevisionName]). Names are unique.
	Name string `json:"name"`
	// Hash is the revision's HashLabel label; "" when absent (the
	// controller then sets it to Name, a LabelRevision action).
	Hash string `json:"hash,omitempty"`
	// Number is the revision field, from 1.
	Number int64 `json:"number"`
	// Data is data.raw, the bytes the controller recorded (see
	// [RevisionData]); a revision is the DaemonSet's current one exactly
	// when its Data equals the DaemonSet's.
	Data []byte `json:"data,omitempty"`
}
