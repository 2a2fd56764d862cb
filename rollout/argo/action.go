package argo

import (
	"strconv"
	"time"
)

// ActionKind is what an Action writes: one kind per write of a sync,
// named for what is acted on (the Rollout, a ReplicaSet, a Service, the
// traffic router).
type ActionKind uint8

// The writes of one sync, in the order the controller makes them.
const (
	// SetSpecReplicas writes spec.replicas: 1 into a Rollout without it, and
	// ends the sync (argo #119, for HPA).
	SetSpecReplicas ActionKind = iota + 1
	// CreateReplicaSet creates the new ReplicaSet, Action.ReplicaSet
	// with hash Action.Hash and revision Action.Revision, at 0 replicas;
	// the sync ends there.
	CreateReplicaSet
	// UpdateRevision gives the new ReplicaSet the next revision
	// (Action.Revision), on a rollback to it.
	UpdateRevision
	// DeleteReplicaSet deletes an old ReplicaSet with no pods beyond
	// revisionHistoryLimit.
	DeleteReplicaSet
	// SetTrafficWeight tells the traffic router Action.Weight for the
	// canary (status.canary.weights records it).
	SetTrafficWeight
	// SwitchPreviewService points the preview Service at Action.Hash.
	SwitchPreviewService
	// RemoveScaleDownDeadline removes a ReplicaSet's scale-down-deadline
	// annotation.
	RemoveScaleDownDeadline
	// AddScaleDownDeadline writes a ReplicaSet's scale-down-deadline,
	// Action.Deadline.
	AddScaleDownDeadline
	// ScaleReplicaSet writes a ReplicaSet's spec.replicas, from
	// Action.From to Action.Replicas, and its desired-replicas
	// annotation.
	ScaleReplicaSet
	// AnnotateDesiredReplicas writes only a ReplicaSet's
	// desired-replicas annotation (Action.Replicas is the Rollout's
	// replicas): its size is already right.
	AnnotateDesiredReplicas
	// SwitchActiveService points the active Service at Action.Hash.
	SwitchActiveService
	// WriteStatus writes the Rollout's status (Sync.Rollout.Status).
	WriteStatus
)

// String returns the kind's name, e.g. "ScaleReplicaSet".
func (k ActionKind) String() string {
	switch k {
	case SetSpecReplicas:
		return "SetSpecReplicas"
	case CreateReplicaSet:
		return "CreateReplicaSet"
	case UpdateRevision:
		return "UpdateRevision"
	case DeleteReplicaSet:
		return "DeleteReplicaSet"
	case SetTrafficWeight:
		return "SetTrafficWeight"
	case SwitchPreviewService:
		return "SwitchPreviewService"
	case RemoveScaleDownDeadline:
		return "RemoveScaleDownDeadline"
	case AddScaleDownDeadline:
		return "AddScaleDownDeadline"
	case ScaleReplicaSet:
		return "ScaleReplicaSet"
	case AnnotateDesiredReplicas:
		return "AnnotateDesiredReplicas"
	case SwitchActiveService:
		return "SwitchActiveService"
	case WriteStatus:
		return "WriteStatus"
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one write of a sync, in the controller's order.
type Action struct {
	// Kind is the write.
	Kind ActionKind `json:"kind"`
	// ReplicaSet names the ReplicaSet acted on; "" for other writes.
	ReplicaSet string `json:"replicaSet,omitempty"`
	// Hash is the pod-template hash of the ReplicaSet acted on, or the
	// one a Service is switched to.
	Hash string `json:"hash,omitempty"`
	// From and Replicas are spec.replicas before and after
	// (ScaleReplicaSet), the Rollout's replicas (SetSpecReplicas,
	// AnnotateDesiredReplicas), or 0 (CreateReplicaSet).
	From     int32 `json:"from,omitempty"`
	Replicas int32 `json:"replicas,omitempty"`
	// Revision is the revision written (CreateReplicaSet,
	// UpdateRevision) or of the ReplicaSet deleted.
	Revision int64 `json:"revision,omitempty"`
	// Deadline is the scale-down-deadline written (RFC 3339) or removed.
	Deadline string `json:"deadline,omitempty"`
	// Weight is the canary weight sent (SetTrafficWeight), out of
	// MaxTrafficWeight.
	Weight int32 `json:"weight,omitempty"`
	// Reason says why, for a person. Planner.Plan leaves it "" until
	// Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Sync is what one sync of the Argo Rollouts controller does to a
// Rollout: Plan's result.
type Sync[T any] struct {
	// Actions are the writes, in the controller's order.
	Actions []Action `json:"actions,omitempty"`
	// Rollout is the Rollout as the sync leaves it: spec.replicas set
	// by SetSpecReplicas (with the generation raised, as the API server
	// raises it), the status written by WriteStatus (the input's when
	// none). Other spec fields are the input's copied by value:
	// pointers, slices and maps in them (and in the template) are shared
	// and never changed.
	Rollout Rollout[T] `json:"rollout"`
	// ReplicaSets are the Rollout's ReplicaSets as the sync leaves them,
	// oldest first (creation time, then name): scaled and annotated ones
	// updated, deleted ones left out, a created one added. Status counts
	// are the input's (pods appear later); a created one has none.
	ReplicaSets []ReplicaSet[T] `json:"replicaSets"`
	// NewReplicaSet and StableReplicaSet name the new (canary, preview)
	// and stable ReplicaSets the sync worked with; "" when none.
	NewReplicaSet    string `json:"newReplicaSet,omitempty"`
	StableReplicaSet string `json:"stableReplicaSet,omitempty"`
	// ScalingEvent says the sync was a scale-only pass: the Rollout's
	// replicas differ from a new or stable ReplicaSet's desired-replicas
	// annotation, so steps, pauses and traffic were not looked at.
	ScalingEvent bool `json:"scalingEvent,omitempty"`
	// Halted says why canary scaling was skipped: "user paused"
	// (spec.paused) or "inconclusive analysis" (a pause condition);
	// "" when it was not.
	Halted string `json:"halted,omitempty"`
	// Requeue says the controller looks at the Rollout again after
	// RequeueAfter without an event: the end of a pause step, of an
	// auto-promotion wait, or of a scale-down delay (only when it falls
	// within one resync period, as upstream).
	Requeue      bool          `json:"requeue,omitempty"`
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Reason summarises the sync in one line. Planner.Plan leaves it ""
	// until Planner.Explain writes it.
	Reason string `json:"reason"`
}
