package revision

import "time"

// HashLabel is the label that carries a ReplicaSet's pod-template-hash on
// its pod template (and in its selector). [EqualIgnoreHash] ignores it.
const HashLabel = "pod-template-hash"

// Template is a plain pod template for callers without Kubernetes types.
// S is the caller's pod spec type; it is compared and hashed by
// reflection like any other template type (see [EqualIgnoreHash] and
// [Hash]). Labels is where [EqualIgnoreHash] finds the [HashLabel] label.
//
// The pod-template-hash of a Template depends on S's name and package
// (see [Hash]): renaming or moving S renames every ReplicaSet and starts a
// rollout. Keep S's name and package stable, or use corev1.PodTemplateSpec
// as the template type for the hashes a cluster computes.
type Template[S any] struct {
	Labels      map[string]string
	Annotations map[string]string
	Spec        S
}

// ReplicaSet is one ReplicaSet as the whole module reads it; package
// rollout aliases it. This package reads the identity fields (Name, UID,
// CreationTime, Annotations, Template) and, for history cleanup, the
// counters that say whether a ReplicaSet is idle. Callers fill it once from
// their apps/v1 object.
type ReplicaSet[T any] struct {
	Name         string    `json:"name"`
	UID          string    `json:"uid,omitempty"`
	CreationTime time.Time `json:"creationTime"`

	// Annotations holds the ReplicaSet's annotations: revision,
	// revision-history, desired-replicas, max-replicas and the annotations
	// copied from its Deployment.
	Annotations map[string]string `json:"annotations,omitempty"`

	// Template is the ReplicaSet's pod template; unlike the Deployment's,
	// it carries the HashLabel label.
	Template T `json:"template"`

	Replicas int32 `json:"replicas"` // spec.replicas

	// MinReadySeconds is spec.minReadySeconds, in seconds (>= 0). nil
	// means not known: it is then assumed to equal the Deployment's
	// spec.minReadySeconds, so nothing rewrites it (the behaviour before
	// the field existed). When it is known and differs, package rollout's
	// Plan writes the Deployment's value to the new ReplicaSet, as
	// upstream's getNewReplicaSet does. This package does not read it.
	MinReadySeconds *int32 `json:"minReadySeconds,omitempty"`

	StatusReplicas    int32 `json:"statusReplicas"`    // status.replicas (non-terminating pods)
	ReadyReplicas     int32 `json:"readyReplicas"`     // status.readyReplicas
	AvailableReplicas int32 `json:"availableReplicas"` // status.availableReplicas

	// TerminatingReplicas is status.terminatingReplicas; nil means the
	// ReplicaSet controller did not report it.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`

	Generation         int64 `json:"generation"`         // metadata.generation
	ObservedGeneration int64 `json:"observedGeneration"` // status.observedGeneration

	// Deleting is true when metadata.deletionTimestamp is set.
	Deleting bool `json:"deleting,omitempty"`
}
