package statefulset

import "time"

// PodPhase is a pod's status.phase. The zero value "" is a pod that
// does not exist yet: the controller's placeholder for an empty slot.
type PodPhase string

// The pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// Pod is one pod as the StatefulSet controller reads it. The caller
// fills it from a corev1.Pod of the set's namespace; each field names
// the place it comes from. The ordinal is not a field: it is parsed
// from Name as the controller parses it (see [ParseOrdinal]), so the two
// can never disagree.
//
// The zero Pod has no name; Validate and Plan reject it.
type Pod struct {
	// Name is metadata.name, "<set>-<ordinal>". Pods whose name does not
	// end in "-<digits>" after the set's name are not members of the set
	// and are ignored; names must be unique.
	Name string `json:"name"`
	// Revision is the value of the pod's RevisionLabel: the name of the
	// revision it was created from. "" means no label.
	Revision string `json:"revision"`
	// PodNameLabel is the value of the pod's PodNameLabel; the
	// controller fixes the pod's identity when it differs from Name.
	PodNameLabel string `json:"podNameLabel,omitempty"`
	// Labels is metadata.labels, read only to match spec.selector when
	// the pod is claimed. The typed fields above are authoritative: the
	// copies of RevisionLabel and PodNameLabel in Labels are not read.
	Labels map[string]string `json:"labels,omitempty"`
	// ControllerUID is the uid of the pod's controller ownerReference;
	// "" means an orphan.
	ControllerUID string `json:"controllerUID,omitempty"`

	// Phase is status.phase; it must not be "" (a pod that exists has a
	// phase; the placeholder of an empty slot is not passed in).
	Phase PodPhase `json:"phase"`
	// Ready says the pod's Ready condition has status True.
	Ready bool `json:"ready,omitempty"`
	// ReadySince is the Ready condition's lastTransitionTime, read only
	// when Ready and MinReadySeconds > 0: a pod is available once
	// ReadySince + MinReadySeconds <= now. A zero time then makes it
	// never available, as upstream.
	ReadySince time.Time `json:"readySince,omitzero"`
	// Terminating says metadata.deletionTimestamp is set.
	Terminating bool `json:"terminating,omitempty"`
	// CreationTime is metadata.creationTimestamp. The controller does
	// not read it; Sync.Pods sets it on created pods.
	CreationTime time.Time `json:"creationTime,omitzero"`
}

// ControllerRevision is one ControllerRevision of a StatefulSet as the
// controller reads it. Plan takes the set's revisions as the history
// lists them (owned by the set and matching its selector).
type ControllerRevision struct {
	// Name is metadata.name, "<set>-<hash>" (see [RevisionName]). Names
	// must be unique within a list.
	Name string `json:"name"`
	// Number is the revision field: 1 for the first revision, and one
	// more than the highest for each new template or rollback.
	Number int64 `json:"number"`
	// Hash is the RevisionHashLabel, the part of Name after the set's
	// name; Plan writes it on revisions it creates and does not read it.
	Hash string `json:"hash,omitempty"`
	// CreatedUnixNano is metadata.creationTimestamp in nanoseconds since
	// the Unix epoch (0 when unknown). It breaks ties between equal
	// Numbers when revisions are sorted.
	CreatedUnixNano int64 `json:"createdUnixNano,omitempty"`
	// Data is data.raw: the bytes [RevisionData] returns. Two revisions
	// hold the same template exactly when their Data bytes are equal.
	Data []byte `json:"data,omitempty"`
}
