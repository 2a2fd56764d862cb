package rollout

import "time"

// Path is the branch of the controller's sync that Plan took.
type Path uint8

// The branches of a sync, in the order the controller checks them.
const (
	// PathDeleting: the deployment is being deleted; only the status is
	// updated. Upstream: syncStatusOnly.
	PathDeleting Path = iota
	// PathPaused: the deployment is paused; only proportional scaling,
	// history cleanup and the status. Upstream: sync.
	PathPaused
	// PathRollback: a rollback is pending; the template is restored.
	// Upstream: rollback.
	PathRollback
	// PathScaling: spec.replicas changed mid-rollout; the ReplicaSets are
	// resized proportionally. Upstream: sync after isScalingEvent.
	PathScaling
	// PathRecreate: a Recreate rollout step. Upstream: rolloutRecreate.
	PathRecreate
	// PathRollingUpdate: a rolling update step. Upstream: rolloutRolling.
	PathRollingUpdate
)

// String returns the path's name: "deleting", "paused", "rollback",
// "scaling", "Recreate" or "RollingUpdate".
func (p Path) String() string {
	return enumString("Path", pathNames[:], uint8(p))
}

// MarshalText returns p's name, as String does. A value without a
// name is an error.
func (p Path) MarshalText() ([]byte, error) { return marshalEnum("Path", pathNames[:], uint8(p)) }

// UnmarshalText sets *p to the value named text, as MarshalText writes
// it; an unknown name is an error naming the type and quoting the text.
func (p *Path) UnmarshalText(text []byte) error {
	v, err := unmarshalEnum("Path", pathNames[:], text)
	if err != nil {
		return err
	}
	*p = Path(v)
	return nil
}

// ActionKind is what an Action does.
type ActionKind uint8

// The actions a sync takes.
const (
	// CreateReplicaSet creates the new ReplicaSet.
	CreateReplicaSet ActionKind = iota + 1
	// ScaleReplicaSet changes a ReplicaSet's spec.replicas (and writes its
	// desired-replicas and max-replicas annotations), or only refreshes
	// those annotations when From == To.
	ScaleReplicaSet
	// AnnotateReplicaSet updates the new ReplicaSet's annotations
	// (revision, revision-history, copied deployment annotations) and sets
	// its spec.minReadySeconds to the deployment's, in one write. Plan
	// takes it when the annotations change or when the ReplicaSet's
	// MinReadySeconds is known and differs from the deployment's (the
	// API server then raises the ReplicaSet's generation). Either way the
	// sync goes on without setting the deployment's revision annotation
	// or the FoundNewReplicaSet condition. Upstream: the update in
	// getNewReplicaSet.
	AnnotateReplicaSet
	// DeleteReplicaSet deletes an old ReplicaSet beyond the revision
	// history limit.
	DeleteReplicaSet
	// RollBack restores an old template on the deployment.
	RollBack
	// SkipRollback clears a rollback that cannot or need not be done.
	SkipRollback
	// CountCollision raises status.collisionCount after a hash collision;
	// the new ReplicaSet is created in a later sync under another name.
	CountCollision
)

// String returns the kind's name, e.g. "ScaleReplicaSet".
func (k ActionKind) String() string {
	return enumString("ActionKind", actionKindNames[:], uint8(k))
}

// MarshalText returns k's name, as String does; the zero ActionKind, which
// has no name, is the empty text. Any other value without a name is an
// error.
func (k ActionKind) MarshalText() ([]byte, error) {
	return marshalEnum("ActionKind", actionKindNames[:], uint8(k))
}

// UnmarshalText sets *k to the value named text, as MarshalText writes
// it; an unknown name is an error naming the type and quoting the text.
func (k *ActionKind) UnmarshalText(text []byte) error {
	v, err := unmarshalEnum("ActionKind", actionKindNames[:], text)
	if err != nil {
		return err
	}
	*k = ActionKind(v)
	return nil
}

// Action is one write a sync makes, in the order the controller makes it.
type Action struct {
	Kind ActionKind `json:"kind"`
	// ReplicaSet names the ReplicaSet acted on ("" for deployment actions).
	ReplicaSet string `json:"replicaSet,omitempty"`
	// From and To are spec.replicas before and after (equal when the size
	// does not change).
	From int32 `json:"from"`
	To   int32 `json:"to"`
	// Reason says why, for a person: "scaled up new ReplicaSet web-5d4c
	// from 3 to 5: 13 pods allowed (10 + maxSurge 3), 11 exist".
	// Planner.Plan leaves it "" until Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Sync is what one sync of the controller does: Plan's result.
type Sync[T any] struct {
	// Path is the branch of the sync taken.
	Path Path `json:"path"`
	// Actions are the writes, in order; empty when nothing but possibly the
	// status changes.
	Actions []Action `json:"actions,omitempty"`
	// Deployment is the deployment as the sync leaves it: status,
	// conditions, revision annotation, and after a rollback the restored
	// template (when it was performed), RollbackTo and the rollback
	// annotation cleared and Generation raised by one, performed or
	// skipped (the controller's update clears the annotation, and the API
	// server raises the generation on a change of spec or annotations).
	Deployment Deployment[T] `json:"deployment"`
	// ReplicaSets are the ReplicaSets as the sync leaves them, without
	// deleted ones, oldest first (creation time, then name: upstream's
	// ReplicaSetsByCreationTimestamp), a created one last; so the Sync
	// does not depend on the order of Plan's rss. A ReplicaSet whose
	// spec.replicas changed has Generation raised by one; a new ReplicaSet
	// whose MinReadySeconds was known and differed from the deployment's
	// holds the deployment's, its Generation raised by one more. A created
	// one has Generation 1, CreationTime now, MinReadySeconds the
	// deployment's, no UID and no status, and its Template is the
	// deployment's as is: a caller writing it to a cluster
	// adds the label revision.HashLabel = Hash to its template and
	// selector, as upstream does. Maps are fresh where changed; nothing is
	// shared that the sync modified.
	ReplicaSets []ReplicaSet[T] `json:"replicaSets"`
	// NewReplicaSet is the index of the new ReplicaSet in ReplicaSets, or
	// -1 when there is none (yet).
	NewReplicaSet int `json:"newReplicaSet"`
	// Hash is the pod-template-hash of a ReplicaSet created by this sync,
	// "" otherwise.
	Hash string `json:"hash,omitempty"`
	// Requeue says the controller looks at the deployment again after
	// RequeueAfter even without an event (0: immediately, rate-limited).
	Requeue      bool          `json:"requeue,omitempty"`
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Reason summarises the sync in one line: the actions' reasons, or why
	// nothing moved ("waiting for 3 new pods to become available ...").
	// Planner.Plan leaves it "" until Planner.Explain writes it.
	Reason string `json:"reason"`
}
