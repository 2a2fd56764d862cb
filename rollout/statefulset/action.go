package statefulset

import (
	"strconv"
	"time"
)

// ActionKind is what an Action writes: one kind per write of a sync,
// named for what is acted on (a pod, a revision, the StatefulSet).
type ActionKind uint8

// The writes of one sync, in the order the controller makes them.
const (
	// AdoptPod sets the set as the controller of an orphan pod that
	// matches the selector (claiming, before the sync proper).
	AdoptPod ActionKind = iota + 1
	// ReleasePod removes the set's controller reference from an owned
	// pod that no longer matches the selector.
	ReleasePod
	// CreateRevision creates the update revision, Action.Revision, with
	// number Action.Number, after Action.Collisions name clashes.
	CreateRevision
	// RenumberRevision gives an older revision holding the template the
	// next number (a rollback): Action.Revision keeps its name and gets
	// Action.Number. Upstream: UpdateControllerRevision.
	RenumberRevision
	// CreatePod creates pod Action.Pod (ordinal Action.Ordinal) at
	// Action.Revision. When Action.Rejected is set the API server
	// refuses it (a pod the set does not own holds the name), no pod is
	// created and the sync fails (see BlockRefused).
	CreatePod
	// UpdatePod fixes a pod's identity: its PodNameLabel and
	// PodIndexLabel are set from its name.
	UpdatePod
	// DeletePod deletes a pod (it becomes Terminating).
	DeletePod
	// WriteStatus writes the StatefulSet's status (Sync.StatefulSet's
	// Status). When Action.Rejected is set the API server refuses it and
	// the stored status stays the input's.
	WriteStatus
	// DeleteRevision deletes a revision beyond revisionHistoryLimit.
	DeleteRevision
)

// String returns the kind's name, e.g. "CreatePod".
func (k ActionKind) String() string {
	switch k {
	case AdoptPod:
		return "AdoptPod"
	case ReleasePod:
		return "ReleasePod"
	case CreateRevision:
		return "CreateRevision"
	case RenumberRevision:
		return "RenumberRevision"
	case CreatePod:
		return "CreatePod"
	case UpdatePod:
		return "UpdatePod"
	case DeletePod:
		return "DeletePod"
	case WriteStatus:
		return "WriteStatus"
	case DeleteRevision:
		return "DeleteRevision"
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Stage names the part of a sync that made a write or stopped it.
type Stage uint8

// The parts of a sync, in order.
const (
	// StageClaim is the claiming of pods (adopt, release).
	StageClaim Stage = iota + 1
	// StageRevisions chooses the current and update revisions.
	StageRevisions
	// StageReplicas processes the slots in ascending ordinal
	// (processReplica).
	StageReplicas
	// StageCondemned processes the pods beyond the slots in descending
	// ordinal (processCondemned).
	StageCondemned
	// StageUpdate is the rolling update.
	StageUpdate
	// StageStatus writes the status.
	StageStatus
	// StageHistory truncates the revision history.
	StageHistory
)

// String returns the stage's name, e.g. "StageReplicas".
func (s Stage) String() string {
	switch s {
	case StageClaim:
		return "StageClaim"
	case StageRevisions:
		return "StageRevisions"
	case StageReplicas:
		return "StageReplicas"
	case StageCondemned:
		return "StageCondemned"
	case StageUpdate:
		return "StageUpdate"
	case StageStatus:
		return "StageStatus"
	case StageHistory:
		return "StageHistory"
	}
	return "Stage(" + strconv.Itoa(int(s)) + ")"
}

// Action is one write of a sync, in the controller's order.
//
// Order: under OrderedReady every write is made one after the other, in
// the order of Sync.Actions. Under Parallel the controller makes the
// writes of the replica step (and of the condemned step) in slow-start
// batches of 1, 2, 4, ... (at most 500) run concurrently, so the order
// inside a batch is not fixed; Plan records them by ascending ordinal
// (replicas) and descending ordinal (condemned), and Action.Batch says
// which batch a write belongs to. What the sync leaves behind does not
// depend on that order.
type Action struct {
	// Kind is the write.
	Kind ActionKind `json:"kind"`
	// Stage is the part of the sync that made the write.
	Stage Stage `json:"stage"`
	// Pod names the pod acted on; "" for revision and status writes.
	Pod string `json:"pod,omitempty"`
	// Ordinal is the pod's ordinal (pod writes only).
	Ordinal int32 `json:"ordinal,omitempty"`
	// Revision is the revision a created pod is at, the revision a
	// deleted pod was at, or the revision created, renumbered or
	// deleted.
	Revision string `json:"revision,omitempty"`
	// Number is the revision number written (CreateRevision,
	// RenumberRevision) or deleted.
	Number int64 `json:"number,omitempty"`
	// Collisions is how many names CreateRevision found taken by other
	// data before the one it created (each raised the collision count).
	Collisions int32 `json:"collisions,omitempty"`
	// Batch is the slow-start batch of a Parallel pod write, from 1;
	// 0 under OrderedReady and for other writes.
	Batch int32 `json:"batch,omitempty"`
	// Rejected is, for a write the API server refuses, its error text:
	// a WriteStatus with a negative currentReplicas, or a CreatePod whose
	// name a pod the set does not own holds (`pods "web-1" already
	// exists`); "" otherwise.
	Rejected string `json:"rejected,omitempty"`
	// Reason says why, for a person. Planner.Plan leaves it "" until
	// Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Sync is what one sync of the StatefulSet controller does: Plan's
// result.
type Sync[T any] struct {
	// Actions are the writes, in the controller's order: claims, the
	// update revision, the replica step, the condemned step, the update
	// step, the status, the history.
	Actions []Action `json:"actions,omitempty"`
	// StatefulSet is the set as the sync leaves it: its status is the
	// one written, or the input's when nothing is written or the write
	// is rejected. The spec is the input's copied by value: maps and
	// pointers in it (and in the template) are shared, and the sync
	// never changes them; Status.CollisionCount is fresh.
	StatefulSet StatefulSet[T] `json:"statefulSet"`
	// Pods are the set's pods as the sync leaves them: the pods it
	// claimed, in input order (released, ignored and non-member pods
	// left out; an adopted pod with ControllerUID set, a deleted one
	// with Terminating set, one whose identity was fixed with
	// PodNameLabel set), then the created pods in creation order (Phase
	// Pending, not ready, CreationTime now, ControllerUID the set's UID,
	// PodNameLabel their name, Labels the set's TemplateLabels map,
	// shared). Labels of the other pods are the input's maps.
	Pods []Pod `json:"pods"`
	// Revisions are the ControllerRevisions as the sync leaves them: in
	// input order without deleted ones, a renumbered one with its new
	// Number, a created one last.
	Revisions []ControllerRevision `json:"revisions"`
	// CurrentRevision and UpdateRevision name the revisions the sync
	// worked with.
	CurrentRevision string `json:"currentRevision"`
	UpdateRevision  string `json:"updateRevision"`
	// Status is the status the sync computed (after completeRollingUpdate),
	// whether or not it was written or accepted.
	Status Status `json:"status"`
	// MaxUnavailable is the resolved maxUnavailable when the gate-on
	// update step ran, else 0.
	MaxUnavailable int32 `json:"maxUnavailable,omitempty"`
	// StoppedAt is the part of the sync where an OrderedReady stop or a
	// refused pod creation (BlockRefused, either policy) ended the pod
	// writes (StageReplicas or StageCondemned), or where the update step
	// ended (StageUpdate); 0 when nothing stopped it. StoppedPod names
	// the pod it stopped at (the first refused one for BlockRefused; ""
	// for a budget used up before any deletion), and Blocker says why.
	StoppedAt  Stage   `json:"stoppedAt,omitempty"`
	StoppedPod string  `json:"stoppedPod,omitempty"`
	Blocker    Blocker `json:"blocker,omitempty"`
	// Requeue says the controller looks at the set again after
	// RequeueAfter without an event (RequeueAfter 0: at once,
	// rate-limited, after a rejected write: the sync failed).
	Requeue      bool          `json:"requeue,omitempty"`
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Reason summarises the sync in one line. Planner.Plan leaves it ""
	// until Planner.Explain writes it.
	Reason string `json:"reason"`
}
