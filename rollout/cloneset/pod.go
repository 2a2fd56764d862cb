package cloneset

import "time"

// PodPhase is a pod's status.phase. The zero value "" is a phase the API
// server never reports; kruise treats it like Pending everywhere (active,
// not running, ordered with Pending pods).
type PodPhase string

// The pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// LifecycleState is the value of a pod's LifecycleStateLabel. The zero
// value "" (no label) is a pod kruise did not create or created before
// lifecycles existed; it counts as Normal for availability.
type LifecycleState string

// The lifecycle states, in the order a pod usually passes through them.
const (
	// PreparingNormal: created, not yet available (waiting to be scheduled
	// or for the preNormal hook).
	PreparingNormal LifecycleState = "PreparingNormal"
	// Normal: a pod that can be available.
	Normal LifecycleState = "Normal"
	// PreparingUpdate: chosen for an in-place update, waiting for the
	// inPlaceUpdate hook to be released.
	PreparingUpdate LifecycleState = "PreparingUpdate"
	// Updating: an in-place update is in progress.
	Updating LifecycleState = "Updating"
	// Updated: the in-place update is done, waiting for the inPlaceUpdate
	// hook to be put back.
	Updated LifecycleState = "Updated"
	// PreparingDelete: chosen for deletion, waiting for the preDelete hook
	// to be released.
	PreparingDelete LifecycleState = "PreparingDelete"
)

// Pod is one pod of a CloneSet as the rollout math reads it. The caller
// fills it from a corev1.Pod; each field names the place it comes from.
// The typed fields are authoritative: the well-known keys
// (RevisionLabel, LifecycleStateLabel, SpecifiedDeleteLabel) inside
// Labels are not read, so a caller need not remove them.
//
// The zero Pod is a Pending pod with no name, no revision, not ready, on
// no node; Validate rejects an empty Name.
type Pod struct {
	// Name is metadata.name; it must be unique among the pods passed
	// together, and breaks ties in every order this package returns.
	Name string `json:"name"`
	// Revision is the value of the pod's RevisionLabel: the name of the
	// revision it was created from or last updated to, "demo-788944f45",
	// or with kruise's CloneSetShortHash gate only the hash, "788944f45".
	// A pod matches a revision when the two are equal or when the parts
	// after their last '-' are (see MatchesRevision). "" matches only "".
	Revision string `json:"revision"`
	// Labels is metadata.labels, read by the priority and scatter
	// strategies and the lifecycle hooks. nil means none.
	Labels map[string]string `json:"labels,omitempty"`
	// Finalizers is metadata.finalizers, read by the lifecycle hooks.
	Finalizers []string `json:"finalizers,omitempty"`

	// Phase is status.phase. Succeeded and Failed pods are inactive:
	// invisible to every count, as if they did not exist.
	Phase PodPhase `json:"phase,omitempty"`
	// NodeName is spec.nodeName; "" means not yet scheduled.
	NodeName string `json:"nodeName,omitempty"`
	// Ready says the pod's Ready condition has status True.
	Ready bool `json:"ready,omitempty"`
	// ReadySince is the Ready condition's lastTransitionTime, read only
	// when Ready. A zero time with minReadySeconds > 0 makes the pod
	// never available, as in kruise; with minReadySeconds 0 it does not
	// matter.
	ReadySince time.Time `json:"readySince"`
	// CreationTime is metadata.creationTimestamp. Newer pods are deleted
	// and updated first; a zero time counts as the newest of all.
	CreationTime time.Time `json:"creationTime"`
	// Restarts is the highest restartCount among the pod's regular
	// containers (status.containerStatuses). Negative values are rejected.
	Restarts int32 `json:"restarts,omitempty"`
	// SidecarRestarts is the highest restartCount among its sidecar
	// containers (init containers with restartPolicy Always), which the
	// update order compares after Restarts. Negative values are rejected.
	SidecarRestarts int32 `json:"sidecarRestarts,omitempty"`
	// DeletionCost is the DeletionCostAnnotation as written, "" when the
	// annotation is absent. It is kept as text because kruise's reading of
	// it is part of the behaviour: an int32 in canonical decimal ("-5",
	// "0", "12") is that cost; anything else ("+3", "007", "1e3", "", a
	// number beyond int32) is cost 0, silently. See ParseDeletionCost.
	DeletionCost string `json:"deletionCost,omitempty"`

	// Lifecycle is the pod's LifecycleStateLabel; "" means no label.
	Lifecycle LifecycleState `json:"lifecycle,omitempty"`
	// SpecifiedDelete says the pod carries SpecifiedDeleteLabel (any
	// value). A pod named in ScaleStrategy.PodsToDelete is specified for
	// deletion too, whatever this field says.
	SpecifiedDelete bool `json:"specifiedDelete,omitempty"`
	// Terminating says metadata.deletionTimestamp is set. Terminating pods
	// are inactive: invisible to every count, as if they did not exist.
	Terminating bool `json:"terminating,omitempty"`

	// InPlaceUpdateReady is the status of the pod's InPlaceUpdateReady
	// condition, "" when the pod has no such condition. Anything but ""
	// or ConditionTrue makes the pod unready for kruise.
	InPlaceUpdateReady ConditionStatus `json:"inPlaceUpdateReady,omitempty"`
	// InPlaceUpdate is the InPlaceUpdateStateAnnotation: the record of the
	// pod's last in-place update; nil when absent.
	InPlaceUpdate *InPlaceUpdateState `json:"inPlaceUpdate,omitempty"`
	// InPlaceUpdateGrace is the InPlaceUpdateGraceAnnotation: an in-place
	// update waiting for its grace period; nil when absent.
	InPlaceUpdateGrace *InPlaceUpdateGrace `json:"inPlaceUpdateGrace,omitempty"`
}

// InPlaceUpdateState is what the InPlaceUpdateStateAnnotation records
// about a pod's in-place update, reduced to what the rollout math reads.
type InPlaceUpdateState struct {
	// Revision is the revision the pod is being updated to.
	Revision string `json:"revision"`
	// UpdateTime is when the update started (updateTimestamp); the grace
	// period runs from it.
	UpdateTime time.Time `json:"updateTime"`
	// Done says the kubelet reports the update finished: every container
	// whose image changed runs with a new imageID (or the spec's image),
	// and no later container batch is pending (nextContainerImages,
	// nextContainerRefMetadata and nextContainerResources are empty). The
	// caller computes it from the pod's container statuses.
	Done bool `json:"done,omitempty"`
}

// InPlaceUpdateGrace is what the InPlaceUpdateGraceAnnotation records: an
// in-place update that is applied once GraceSeconds have passed since
// InPlaceUpdateState.UpdateTime.
type InPlaceUpdateGrace struct {
	// Revision is the revision the pod will be updated to.
	Revision string `json:"revision"`
	// GraceSeconds is the grace period, at least 1.
	GraceSeconds int32 `json:"graceSeconds"`
}
