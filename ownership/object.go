package ownership

// OwnerReference is one entry of metadata.ownerReferences. Upstream:
// metav1.OwnerReference, with the two *bool fields read as bool (nil is
// false, as upstream reads them).
type OwnerReference struct {
	// APIVersion is the owner's group/version, "apps/v1" for a Deployment
	// or ReplicaSet.
	APIVersion string `json:"apiVersion"`
	// Kind is the owner's kind, "Deployment" or "ReplicaSet".
	Kind string `json:"kind"`
	// Name is the owner's name.
	Name string `json:"name"`
	// UID is the owner's metadata.uid.
	UID string `json:"uid"`
	// Controller marks the managing owner; at most one reference should
	// have it.
	Controller bool `json:"controller,omitempty"`
	// BlockOwnerDeletion asks the garbage collector to delete this object
	// before its owner in a foreground deletion.
	BlockOwnerDeletion bool `json:"blockOwnerDeletion,omitempty"`
}

// Object is what ownership reads of a ReplicaSet or a pod. The zero value
// is an orphan without labels in the default namespace ("").
type Object struct {
	// Namespace, Name and UID are metadata.namespace, .name and .uid.
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
	// ResourceVersion is metadata.resourceVersion; only ReplicaSetUpdated
	// reads it (equal versions are a periodic resync).
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Labels is metadata.labels; nil means none.
	Labels map[string]string `json:"labels,omitempty"`
	// OwnerReferences is metadata.ownerReferences.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty"`
	// Deleting says metadata.deletionTimestamp is set.
	Deleting bool `json:"deleting,omitempty"`
}

// ControllerRef returns the first owner reference with Controller set,
// and whether there is one. Upstream: metav1.GetControllerOf.
func (o *Object) ControllerRef() (OwnerReference, bool) {
	if o == nil {
		return OwnerReference{}, false
	}
	for _, r := range o.OwnerReferences {
		if r.Controller {
			return r, true
		}
	}
	return OwnerReference{}, false
}

// Controller is a Deployment as ownership reads it. The zero value has a
// nil Selector, which selects nothing.
type Controller struct {
	// Namespace, Name and UID are metadata.namespace, .name and .uid.
	// ClaimObject ignores objects of other namespaces unless Namespace is
	// "" (a cluster-scoped controller).
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
	// Selector is spec.selector; nil selects nothing, empty everything.
	Selector *Selector `json:"selector"`
	// Deleting says metadata.deletionTimestamp is set: the controller then
	// adopts and releases nothing.
	Deleting bool `json:"deleting,omitempty"`
	// Recreate says spec.strategy.type is Recreate; only PodDeleted reads
	// it.
	Recreate bool `json:"recreate,omitempty"`
}
