package rollout

import (
	"strconv"
	"time"
	"unsafe"
)

// NewCondition returns a condition of type t with both times set to now.
// Upstream: deploymentutil.NewDeploymentCondition.
func NewCondition(t ConditionType, status ConditionStatus, reason, message string, now time.Time) Condition {
	return Condition{Type: t, Status: status, Reason: reason, Message: message, LastUpdateTime: now, LastTransitionTime: now}
}

// FindCondition returns the condition of type t in conds, and false if
// there is none. It does not allocate.
// Upstream: deploymentutil.GetDeploymentCondition.
func FindCondition(conds []Condition, t ConditionType) (Condition, bool) {
	for _, c := range conds {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// SetCondition returns conds with c set, in a new slice (conds is never
// modified). If a condition of c's type exists with the same status and
// reason, nothing changes and conds is returned as is, so its message and
// times are kept. Otherwise the old condition of that type is removed and
// c appended at the end, keeping the old LastTransitionTime when the status
// is unchanged.
// Upstream: deploymentutil.SetDeploymentCondition.
func SetCondition(conds []Condition, c Condition) []Condition {
	if cur, ok := FindCondition(conds, c.Type); ok && cur.Status == c.Status && cur.Reason == c.Reason {
		return conds
	}
	return setOwnCondition(append(make([]Condition, 0, len(conds)+1), conds...), c)
}

// RemoveCondition returns conds without the condition of type t, in a new
// slice when one was removed (conds is never modified).
// Upstream: deploymentutil.RemoveDeploymentCondition.
func RemoveCondition(conds []Condition, t ConditionType) []Condition {
	if _, ok := FindCondition(conds, t); !ok {
		return conds
	}
	return removeOwnCondition(append(make([]Condition, 0, len(conds)), conds...), t)
}

// TerminatingReplicas returns the terminating pods of rss: nil (unknown)
// if a ReplicaSet the ReplicaSet controller has synced
// (ObservedGeneration > 0) does not report the count, otherwise the sum,
// where a never-synced ReplicaSet without the count contributes 0. The sum
// saturates at math.MaxInt32. It allocates only the result.
// Upstream: deploymentutil.GetTerminatingReplicaCountForReplicaSets.
func TerminatingReplicas[T any](rss []ReplicaSet[T]) *int32 {
	n, ok := terminatingSum(rss)
	if !ok {
		return nil
	}
	return &n
}

// terminatingSum is TerminatingReplicas without the allocation: ok is
// false when the count is unknown.
func terminatingSum[T any](rss []ReplicaSet[T]) (int32, bool) {
	var sum int64
	for i := range rss {
		switch {
		case rss[i].TerminatingReplicas != nil:
			sum += int64(*rss[i].TerminatingReplicas)
		case rss[i].ObservedGeneration == 0:
		default:
			return 0, false
		}
	}
	return sat(sum), true
}

// CalculateStatus returns the status the counters of rss give d, with
// rss[newRS] the new ReplicaSet (-1: none):
//
//	Replicas            = sum of status.replicas (non-terminating pods)
//	UpdatedReplicas     = the new ReplicaSet's status.replicas (0 if none)
//	ReadyReplicas       = sum of status.readyReplicas
//	AvailableReplicas   = sum of status.availableReplicas
//	UnavailableReplicas = max(0, sum of spec.replicas - AvailableReplicas)
//	TerminatingReplicas = TerminatingReplicas(rss)
//	ObservedGeneration  = d.Generation; CollisionCount copied from d.Status
//
// UnavailableReplicas counts surge pods too, because it starts from the
// specs. The conditions are d's, with Available set to True
// (MinimumReplicasAvailable, "Deployment has minimum availability.") when
// AvailableReplicas >= R - MaxUnavailable(d), else False
// (MinimumReplicasUnavailable), by SetCondition at now. Sums saturate at
// math.MaxInt32. It allocates only the conditions and pointers it returns.
// A nil d gives the zero Status.
// Upstream: calculateStatus (with the DeploymentReplicaSetTerminatingReplicas
// gate on, the v1.35+ default).
func CalculateStatus[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, now time.Time) Status {
	return calculateStatus(d, rss, newRS, now, nil)
}

// statusStore is memory a Planner lends the status it computes: the
// conditions are appended to conds[:0] and the counters are written to
// *term and *coll, so that a sync in the steady state allocates nothing
// for them. A nil *statusStore means fresh memory, as the exported
// functions give.
type statusStore struct {
	conds      []Condition
	term, coll *int32
	msg        []byte // scratch for a condition message
}

// calculateStatus is CalculateStatus with the result's memory from st.
func calculateStatus[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, now time.Time, st *statusStore) Status {
	if d == nil {
		return Status{}
	}
	var replicas, ready, available, spec int64
	for i := range rss {
		replicas += int64(rss[i].StatusReplicas)
		ready += int64(rss[i].ReadyReplicas)
		available += int64(rss[i].AvailableReplicas)
		spec += int64(rss[i].Replicas)
	}
	s := Status{
		ObservedGeneration:  d.Generation,
		Replicas:            sat(replicas),
		ReadyReplicas:       sat(ready),
		AvailableReplicas:   sat(available),
		UnavailableReplicas: sat(max(0, spec-available)),
	}
	if st == nil {
		s.TerminatingReplicas = TerminatingReplicas(rss)
	} else if n, ok := terminatingSum(rss); ok {
		if st.term == nil {
			st.term = new(int32)
		}
		*st.term = n
		s.TerminatingReplicas = st.term
	}
	if newRS >= 0 && newRS < len(rss) {
		s.UpdatedReplicas = rss[newRS].StatusReplicas
	}
	if d.Status.CollisionCount != nil {
		if st == nil {
			c := *d.Status.CollisionCount
			s.CollisionCount = &c
		} else {
			if st.coll == nil {
				st.coll = new(int32)
			}
			*st.coll = *d.Status.CollisionCount
			s.CollisionCount = st.coll
		}
	}
	if st == nil {
		s.Conditions = append([]Condition(nil), d.Status.Conditions...)
	} else {
		s.Conditions = append(st.conds[:0], d.Status.Conditions...)
		if s.Conditions != nil {
			st.conds = s.Conditions
		}
	}
	// s.Conditions is this status's own: set and remove in place.
	if int64(s.AvailableReplicas) >= int64(d.Replicas)-int64(MaxUnavailable(d)) {
		s.Conditions = setOwnCondition(s.Conditions, NewCondition(DeploymentAvailable, ConditionTrue, ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		s.Conditions = setOwnCondition(s.Conditions, NewCondition(DeploymentAvailable, ConditionFalse, ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	if st != nil && s.Conditions != nil {
		st.conds = s.Conditions
	}
	return s
}

// setOwnCondition is SetCondition on a slice the caller owns: it changes
// conds in place (and may grow it) instead of copying, with the same
// result.
func setOwnCondition(conds []Condition, c Condition) []Condition {
	if cur, ok := FindCondition(conds, c.Type); ok {
		if cur.Status == c.Status && cur.Reason == c.Reason {
			return conds
		}
		if cur.Status == c.Status {
			c.LastTransitionTime = cur.LastTransitionTime
		}
		conds = removeOwnCondition(conds, c.Type)
	}
	return append(conds, c)
}

// removeOwnCondition is RemoveCondition on a slice the caller owns.
func removeOwnCondition(conds []Condition, t ConditionType) []Condition {
	k := 0
	for _, x := range conds {
		if x.Type != t {
			conds[k] = x
			k++
		}
	}
	clear(conds[k:])
	return conds[:k]
}

// overlaps reports whether the arrays behind a and b (up to their
// capacities) share memory, so that writing one would change the other.
func overlaps[E any](a, b []E) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	var e E
	size := unsafe.Sizeof(e)
	a0, b0 := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(cap(b))*size && b0 < a0+uintptr(cap(a))*size
}

// Complete reports whether the rollout described by s is complete: all R
// pods updated, running and available, and s observes d's generation:
// s.UpdatedReplicas == R && s.Replicas == R && s.AvailableReplicas == R &&
// s.ObservedGeneration >= d.Generation (false for a nil d or s). It does
// not allocate.
// Upstream: deploymentutil.DeploymentComplete.
func Complete[T any](d *Deployment[T], s *Status) bool {
	if d == nil || s == nil {
		return false
	}
	return s.UpdatedReplicas == d.Replicas && s.Replicas == d.Replicas && s.AvailableReplicas == d.Replicas && s.ObservedGeneration >= d.Generation
}

// Progressing reports whether s shows progress over d.Status: more updated
// pods, fewer old pods (Replicas - UpdatedReplicas), more ready pods or
// more available pods (false for a nil d or s). It does not allocate.
// Upstream: deploymentutil.DeploymentProgressing.
func Progressing[T any](d *Deployment[T], s *Status) bool {
	if d == nil || s == nil {
		return false
	}
	old := &d.Status
	return s.UpdatedReplicas > old.UpdatedReplicas ||
		int64(s.Replicas)-int64(s.UpdatedReplicas) < int64(old.Replicas)-int64(old.UpdatedReplicas) ||
		s.ReadyReplicas > old.ReadyReplicas ||
		s.AvailableReplicas > old.AvailableReplicas
}

// TimedOut reports whether the rollout described by s has passed d's
// progress deadline at now. It is false when d has no deadline or s has no
// Progressing condition, false when that condition's reason is
// NewReplicaSetAvailable, true when it is ProgressDeadlineExceeded, and
// otherwise true exactly when LastUpdateTime + deadline is strictly before
// now (at the deadline itself it is not yet timed out). A nil d or s gives
// false. It does not allocate.
// Upstream: deploymentutil.DeploymentTimedOut.
func TimedOut[T any](d *Deployment[T], s *Status, now time.Time) bool {
	if d == nil || s == nil {
		return false
	}
	deadline, ok := d.ProgressDeadline()
	if !ok {
		return false
	}
	c, ok := FindCondition(s.Conditions, DeploymentProgressing)
	if !ok {
		return false
	}
	switch c.Reason {
	case ReasonNewReplicaSetAvailable:
		return false
	case ReasonProgressDeadlineExceeded:
		return true
	}
	return c.LastUpdateTime.Add(deadline).Before(now)
}

// RolloutStatus returns the status a rollout sync writes: CalculateStatus,
// then, when d has a progress deadline and the rollout is not already
// complete (Replicas == UpdatedReplicas and d's Progressing reason is
// NewReplicaSetAvailable), the first that applies of:
//
//	Complete:    Progressing=True  NewReplicaSetAvailable   `ReplicaSet "x" has successfully progressed.`
//	Progressing: Progressing=True  ReplicaSetUpdated        `ReplicaSet "x" is progressing.` (always refreshes LastUpdateTime)
//	TimedOut:    Progressing=False ProgressDeadlineExceeded `ReplicaSet "x" has timed out progressing.`
//
// ("Deployment "d"" replaces "ReplicaSet "x"" when newRS is -1). Without a
// deadline the Progressing condition is removed. ReplicaFailure is
// removed (ReplicaSet conditions are not modelled). Upstream:
// syncRolloutStatus; use Requeue when the result equals d.Status. A nil d
// gives the zero Status.
func RolloutStatus[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, now time.Time) Status {
	return rolloutStatus(d, rss, newRS, now, nil)
}

// rolloutStatus is RolloutStatus with the result's memory from st.
func rolloutStatus[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, now time.Time, st *statusStore) Status {
	if d == nil {
		return Status{}
	}
	s := calculateStatus(d, rss, newRS, now, st)
	_, hasDeadline := d.ProgressDeadline()
	if !hasDeadline {
		s.Conditions = removeOwnCondition(s.Conditions, DeploymentProgressing)
	}
	cur, hasCur := FindCondition(d.Status.Conditions, DeploymentProgressing)
	complete := s.Replicas == s.UpdatedReplicas && hasCur && cur.Reason == ReasonNewReplicaSetAvailable
	if hasDeadline && !complete {
		switch {
		case Complete(d, &s):
			s.Conditions = setOwnCondition(s.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonNewReplicaSetAvailable, progressMessage(d, rss, newRS, " has successfully progressed.", cur.Message, st), now))
		case Progressing(d, &s):
			c := NewCondition(DeploymentProgressing, ConditionTrue, ReasonReplicaSetUpdated, progressMessage(d, rss, newRS, " is progressing.", cur.Message, st), now)
			if hasCur {
				if cur.Status == ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				s.Conditions = removeOwnCondition(s.Conditions, DeploymentProgressing)
			}
			s.Conditions = setOwnCondition(s.Conditions, c)
		case TimedOut(d, &s, now):
			s.Conditions = setOwnCondition(s.Conditions, NewCondition(DeploymentProgressing, ConditionFalse, ReasonProgressDeadlineExceeded, progressMessage(d, rss, newRS, " has timed out progressing.", cur.Message, st), now))
		}
	}
	s.Conditions = removeOwnCondition(s.Conditions, DeploymentReplicaFailure)
	if st != nil && s.Conditions != nil {
		st.conds = s.Conditions
	}
	return s
}

// progressMessage is a Progressing condition's message: the subject
// (`ReplicaSet "x"`, or `Deployment "d"` without a new ReplicaSet) then
// suffix. When it equals old, old itself is returned, so that the steady
// state of a rollout does not allocate a message per sync.
func progressMessage[T any](d *Deployment[T], rss []ReplicaSet[T], newRS int, suffix, old string, st *statusStore) string {
	var buf []byte
	if st != nil {
		buf = st.msg[:0]
	}
	if newRS >= 0 && newRS < len(rss) {
		buf = append(buf, "ReplicaSet "...)
		buf = strconv.AppendQuote(buf, rss[newRS].Name)
	} else {
		buf = append(buf, "Deployment "...)
		buf = strconv.AppendQuote(buf, d.Name)
	}
	buf = append(buf, suffix...)
	if st != nil {
		st.msg = buf
	}
	if string(buf) == old {
		return old
	}
	return string(buf)
}

// Requeue says whether and when the controller looks at a stuck
// deployment again although nothing changed, given s, the status a sync
// computed and found equal to d.Status. No requeue (false) without a
// progress deadline, without a Progressing condition in d.Status, when s is
// Complete or when d.Status already reports ProgressDeadlineExceeded.
// Otherwise, with left = LastUpdateTime + deadline - now: after = left + 1 s
// (upstream adds a second against clock skew), or 0 (immediately,
// rate-limited) when left < 1 s. Upstream's function returns left itself
// (30 s where it queues 31 s); Requeue returns the delay actually queued.
// A nil d or s gives (0, false). It does not allocate.
// Upstream: requeueStuckDeployment.
func Requeue[T any](d *Deployment[T], s *Status, now time.Time) (after time.Duration, ok bool) {
	if d == nil || s == nil {
		return 0, false
	}
	deadline, hasDeadline := d.ProgressDeadline()
	cur, hasCur := FindCondition(d.Status.Conditions, DeploymentProgressing)
	if !hasDeadline || !hasCur {
		return 0, false
	}
	if Complete(d, s) || cur.Reason == ReasonProgressDeadlineExceeded {
		return 0, false
	}
	left := cur.LastUpdateTime.Add(deadline).Sub(now)
	if left < time.Second {
		return 0, true
	}
	return left + time.Second, true
}

// PausedConditions returns d's conditions after the pause check that opens
// every sync, and whether they changed. With a progress deadline and no
// ProgressDeadlineExceeded condition: a paused deployment without a
// DeploymentPaused condition gets Progressing=Unknown DeploymentPaused
// ("Deployment is paused"); a running one that still has it gets
// Progressing=Unknown DeploymentResumed ("Deployment is resumed"), which
// restarts the deadline so time spent paused does not count. The times are
// now; d.Status.Conditions is never modified. A nil d gives (nil, false).
// Upstream: checkPausedConditions.
func PausedConditions[T any](d *Deployment[T], now time.Time) ([]Condition, bool) {
	if d == nil {
		return nil, false
	}
	conds := d.Status.Conditions
	if _, ok := d.ProgressDeadline(); !ok {
		return conds, false
	}
	cur, hasCur := FindCondition(conds, DeploymentProgressing)
	if hasCur && cur.Reason == ReasonProgressDeadlineExceeded {
		return conds, false
	}
	pausedCond := hasCur && cur.Reason == ReasonDeploymentPaused
	switch {
	case d.Paused && !pausedCond:
		return SetCondition(conds, NewCondition(DeploymentProgressing, ConditionUnknown, ReasonDeploymentPaused, "Deployment is paused", now)), true
	case !d.Paused && pausedCond:
		return SetCondition(conds, NewCondition(DeploymentProgressing, ConditionUnknown, ReasonDeploymentResumed, "Deployment is resumed", now)), true
	}
	return conds, false
}

// equalStatus reports whether a and b are the same status, comparing
// pointers by value, times as instants, and nil and empty conditions as
// equal.
func equalStatus(a, b *Status) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Replicas != b.Replicas || a.UpdatedReplicas != b.UpdatedReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas || a.UnavailableReplicas != b.UnavailableReplicas ||
		!equalPtr(a.TerminatingReplicas, b.TerminatingReplicas) || !equalPtr(a.CollisionCount, b.CollisionCount) ||
		len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastUpdateTime.Equal(y.LastUpdateTime) || !x.LastTransitionTime.Equal(y.LastTransitionTime) {
			return false
		}
	}
	return true
}

func equalPtr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
