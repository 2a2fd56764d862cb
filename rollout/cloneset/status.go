package cloneset

import (
	"math"
	"slices"
	"time"
)

// The reasons kruise gives the Progressing condition, spelled as kruise
// spells them.
const (
	// ReasonAvailable: Progressing=True, every pod is updated and
	// available and the revisions agree.
	ReasonAvailable = "CloneSetAvailable"
	// ReasonPaused: Progressing=True, the update strategy is paused.
	ReasonPaused = "CloneSetPaused"
	// ReasonPartitionAvailable: Progressing=True, the pods the partition
	// lets update are updated and available.
	ReasonPartitionAvailable = "ProgressPartitionAvailable"
	// ReasonProgressDeadlineExceeded: Progressing=False, the rollout did
	// not finish within progressDeadlineSeconds.
	ReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	// ReasonUpdated: Progressing=True, the rollout is under way.
	ReasonUpdated = "CloneSetUpdated"
)

// StatusUpdate is what the status step of one reconcile computes.
type StatusUpdate struct {
	// Status is the new status.
	Status Status `json:"status"`
	// Write says kruise writes it: a counter, a revision, the selector or
	// the Progressing condition's status or reason changed, or the
	// observed generation rose. Upstream: inconsistentStatus.
	Write bool `json:"write"`
	// DeadlineRequeue is when the Progressing deadline asks to look
	// again, when HasDeadlineRequeue: the time left until
	// lastUpdateTime + progressDeadlineSeconds, plus one second when that
	// is at least a second (it may be zero or negative, which requeues at
	// once).
	DeadlineRequeue    time.Duration `json:"deadlineRequeue,omitempty"`
	HasDeadlineRequeue bool          `json:"hasDeadlineRequeue,omitempty"`
	// MinReadyRequeue is minReadySeconds (the full value, not what is
	// left of it; docs/cloneset.md#s14-min-ready-full-requeue) when it is
	// positive and some ready pods are not yet available; kruise requeues after it when the
	// reconcile had no scale or update error. Zero otherwise.
	MinReadyRequeue time.Duration `json:"minReadyRequeue,omitempty"`
}

// CalculateStatus returns the status kruise writes for cs at the end of a
// reconcile, from the pods as listed at its start (inactive ones are
// skipped) and the reconcile's revisions:
//
//   - ObservedGeneration = cs.Generation;
//   - Replicas counts active pods; ReadyReplicas those IsPodUpdateReady
//     at minReadySeconds 0 (lifecycle ignored); AvailableReplicas those
//     IsPodAvailable at cs.MinReadySeconds; UpdatedReplicas those
//     IsPodAtRevision(revs.Update), and UpdatedReadyReplicas and
//     UpdatedAvailableReplicas those of them that are ready, available;
//   - ExpectedUpdatedReplicas = Replicas - CalculatePartitionReplicas,
//     left at 0 when the partition cannot be read;
//   - UpdateRevision = revs.Update; CurrentRevision = revs.Update when
//     UpdatedReplicas == Replicas == cs.Replicas (readiness not
//     required), else revs.Current ("" meaning revs.Update);
//   - CollisionCount = cs.Status.CollisionCount (0 when nil) and
//     LabelSelector = cs.Status.LabelSelector: a caller whose reconcile
//     created a revision after a collision, or whose selector changed,
//     sets them there first;
//   - Conditions: cs.Status.Conditions, with Progressing removed when
//     there is no deadline (ProgressDeadlineSeconds nil or
//     math.MaxInt32), and otherwise set by the first rule that holds:
//     available (revisions agree, and Replicas, UpdatedReplicas and
//     UpdatedAvailableReplicas all equal cs.Replicas) True/
//     ReasonAvailable; paused True/ReasonPaused; ExpectedUpdatedReplicas <
//     cs.Replicas and <= UpdatedAvailableReplicas True/
//     ReasonPartitionAvailable; the existing condition already says
//     ProgressDeadlineExceeded, or its lastUpdateTime + deadline is before
//     now, False/ReasonProgressDeadlineExceeded; else True/ReasonUpdated.
//     A condition whose status and reason do not change keeps its
//     timestamps (so the deadline runs from entering CloneSetUpdated,
//     not from the last progress,
//     docs/cloneset.md#s11-progress-deadline-from-phase-start); one
//     whose reason changes but not its status keeps its lastTransitionTime.
//     FailedScale and FailedUpdate, which kruise sets when the scale or
//     update step fails, are kept as found.
//
// CalculateStatus does not modify cs or pods; the returned conditions are
// a fresh slice. Errors: those of CalculateDiffs for a nil cs, negative
// replicas or minReadySeconds, and bad pods.
// Upstream: realStatusUpdater.calculateStatus, calculateProgressingStatus
// and inconsistentStatus, with the status skeleton of doReconcile.
func CalculateStatus[T any](cs *CloneSet[T], pods []Pod, revs Revisions, now time.Time) (StatusUpdate, error) {
	if err := checkCloneSet(cs); err != nil {
		return StatusUpdate{}, err
	}
	if err := checkPods(pods); err != nil {
		return StatusUpdate{}, err
	}
	return calculateStatus(cs, pods, revs, now, nil), nil
}

// calculateStatus is CalculateStatus on inputs already checked
// (checkCloneSet, checkPods).
// The status's CollisionCount points to coll, or to a new int32 when coll
// is nil.
func calculateStatus[T any](cs *CloneSet[T], pods []Pod, revs Revisions, now time.Time, coll *int32) StatusUpdate {
	st := Status{
		ObservedGeneration: cs.Generation,
		CurrentRevision:    revs.current(),
		UpdateRevision:     revs.Update,
		LabelSelector:      cs.Status.LabelSelector,
		Conditions:         slices.Clone(cs.Status.Conditions),
	}
	if coll == nil {
		coll = new(int32)
	}
	*coll = 0
	if cs.Status.CollisionCount != nil {
		*coll = *cs.Status.CollisionCount
	}
	st.CollisionCount = coll
	for i := range pods {
		p := &pods[i]
		if !IsPodActive(p) {
			continue
		}
		ready, avail, updated := IsPodUpdateReady(p, 0, now), IsPodAvailable(p, cs.MinReadySeconds, now), IsPodAtRevision(p, revs.Update)
		st.Replicas++
		st.ReadyReplicas += b2i(ready)
		st.AvailableReplicas += b2i(avail)
		st.UpdatedReplicas += b2i(updated)
		st.UpdatedReadyReplicas += b2i(updated && ready)
		st.UpdatedAvailableReplicas += b2i(updated && avail)
	}
	st.CurrentRevision = CurrentRevisionAfter(st.CurrentRevision, st.UpdateRevision, cs.Replicas, st.Replicas, st.UpdatedReplicas)
	if p, err := CalculatePartitionReplicas(cs.UpdateStrategy.Partition, cs.Replicas); err == nil {
		st.ExpectedUpdatedReplicas = cs.Replicas - p
	}
	u := StatusUpdate{Status: st}
	u.DeadlineRequeue, u.HasDeadlineRequeue = progressing(cs, &u.Status, now)
	if cs.MinReadySeconds > 0 && st.AvailableReplicas != st.ReadyReplicas {
		u.MinReadyRequeue = time.Duration(cs.MinReadySeconds) * time.Second
	}
	u.Write = StatusDiffers(&cs.Status, &u.Status)
	return u
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// progressing sets st's Progressing condition and returns the deadline
// requeue. Upstream: calculateProgressingStatus.
func progressing[T any](cs *CloneSet[T], st *Status, now time.Time) (time.Duration, bool) {
	pds := cs.ProgressDeadlineSeconds
	if pds == nil || *pds == math.MaxInt32 {
		st.Conditions = removeCondition(st.Conditions, ConditionProgressing)
		return 0, false
	}
	r := cs.Replicas
	switch {
	case st.CurrentRevision == st.UpdateRevision && st.Replicas == r && st.UpdatedReplicas == r && st.UpdatedAvailableReplicas == r:
		setCondition(st, ConditionTrue, ReasonAvailable, "CloneSet is available", now)
	case cs.UpdateStrategy.Paused:
		setCondition(st, ConditionTrue, ReasonPaused, "CloneSet is paused", now)
	case st.ExpectedUpdatedReplicas < r && st.ExpectedUpdatedReplicas <= st.UpdatedAvailableReplicas:
		setCondition(st, ConditionTrue, ReasonPartitionAvailable, "CloneSet has been paused due to partition ready", now)
	case deadlineExceeded(st, *pds, now):
		setCondition(st, ConditionFalse, ReasonProgressDeadlineExceeded, "CloneSet revision "+st.UpdateRevision+" has timed out progressing", now)
	default:
		setCondition(st, ConditionTrue, ReasonUpdated, "CloneSet is progressing", now)
		c := findCondition(st.Conditions, ConditionProgressing)
		after := c.LastUpdateTime.Add(time.Duration(*pds) * time.Second).Sub(now)
		if after >= time.Second {
			after += time.Second
		}
		return after, true
	}
	return 0, false
}

// deadlineExceeded reports whether the Progressing condition already says
// so or its lastUpdateTime + pds seconds is before now.
// Upstream: CloneSetDeadlineExceeded.
func deadlineExceeded(st *Status, pds int32, now time.Time) bool {
	c := findCondition(st.Conditions, ConditionProgressing)
	if c == nil {
		return false
	}
	if c.Reason == ReasonProgressDeadlineExceeded {
		return true
	}
	return c.LastUpdateTime.Add(time.Duration(pds) * time.Second).Before(now)
}

// setCondition sets the Progressing condition as kruise does: unchanged
// when status and reason agree, keeping lastTransitionTime when only the
// reason changes, and moving it to the end of the list otherwise.
// Upstream: SetCloneSetCondition.
func setCondition(st *Status, status ConditionStatus, reason, message string, now time.Time) {
	c := Condition{Type: ConditionProgressing, Status: status, Reason: reason, Message: message, LastUpdateTime: now, LastTransitionTime: now}
	if old := findCondition(st.Conditions, c.Type); old != nil {
		if old.Status == status && old.Reason == reason {
			return
		}
		if old.Status == status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	st.Conditions = append(removeCondition(st.Conditions, c.Type), c)
}

func findCondition(list []Condition, t ConditionType) *Condition {
	for i := range list {
		if list[i].Type == t {
			return &list[i]
		}
	}
	return nil
}

// removeCondition returns list without conditions of type t, reusing
// list's array (callers pass a copy), or nil when none is left, as
// kruise's filterOutCondition does.
func removeCondition(list []Condition, t ConditionType) []Condition {
	list = slices.DeleteFunc(list, func(c Condition) bool { return c.Type == t })
	if len(list) == 0 {
		return nil
	}
	return list
}

// StatusDiffers reports whether kruise writes next over old: the observed
// generation rose, a counter, a revision or the selector changed, or the
// Progressing condition appeared, disappeared or changed its status or
// reason. Other condition changes (a new FailedScale) are not written on
// their own (docs/cloneset.md#s12-sticky-failure-conditions). Nil
// statuses are equal to each other and differ from any other. Upstream: inconsistentStatus.
func StatusDiffers(old, next *Status) bool {
	if old == nil || next == nil {
		return old != next
	}
	if next.ObservedGeneration > old.ObservedGeneration ||
		next.Replicas != old.Replicas || next.ReadyReplicas != old.ReadyReplicas ||
		next.AvailableReplicas != old.AvailableReplicas || next.UpdatedReadyReplicas != old.UpdatedReadyReplicas ||
		next.UpdatedReplicas != old.UpdatedReplicas || next.UpdatedAvailableReplicas != old.UpdatedAvailableReplicas ||
		next.ExpectedUpdatedReplicas != old.ExpectedUpdatedReplicas ||
		next.UpdateRevision != old.UpdateRevision || next.CurrentRevision != old.CurrentRevision ||
		next.LabelSelector != old.LabelSelector {
		return true
	}
	oc, nc := findCondition(old.Conditions, ConditionProgressing), findCondition(next.Conditions, ConditionProgressing)
	if oc == nil || nc == nil {
		return oc != nc
	}
	return oc.Status != nc.Status || oc.Reason != nc.Reason
}
