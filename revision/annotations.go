package revision

import (
	"maps"
	"strconv"
	"strings"
)

// MaxHistoryChars is the length, in bytes, to which the controller caps
// the RevisionHistoryAnnotation value. Upstream: maxRevHistoryLengthInChars.
const MaxHistoryChars = 2000

// IsCopiedAnnotation reports whether a Deployment annotation with this key is copied
// to its ReplicaSets (and back to the Deployment on a rollback). Every key
// is, except LastAppliedAnnotation, RevisionAnnotation,
// RevisionHistoryAnnotation, DesiredReplicasAnnotation,
// MaxReplicasAnnotation and RollbackToAnnotation.
// Upstream: the negation of skipCopyAnnotation.
func IsCopiedAnnotation(key string) bool {
	switch key {
	case LastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation:
		return false
	}
	return true
}

// Copied reports whether a Deployment annotation with this key is copied
// to its ReplicaSets.
//
// Deprecated: use IsCopiedAnnotation, whose name says what is copied.
func Copied(key string) bool { return IsCopiedAnnotation(key) }

// AnnotationsInput is what [NewAnnotations] reads.
type AnnotationsInput struct {
	// Deployment holds the Deployment's annotations.
	Deployment map[string]string

	// ReplicaSet holds the new ReplicaSet's current annotations: nil or
	// empty for one being created, its annotations for an existing one.
	ReplicaSet map[string]string

	// Revision is the new revision number, in decimal: the result of
	// [NextRevision], formatted.
	Revision string

	// Exists is true when the new ReplicaSet already exists. When it is
	// false (the ReplicaSet is being created), DesiredReplicasAnnotation
	// and MaxReplicasAnnotation are written too.
	Exists bool

	// Replicas is the Deployment's spec.replicas, and MaxReplicas is
	// spec.replicas + maxSurge (saturated, not wrapped, at
	// math.MaxInt32); they are written when Exists is false.
	Replicas, MaxReplicas int32

	// HistoryLimit caps the revision-history value, in bytes. Zero (or
	// less) means MaxHistoryChars, the controller's limit.
	HistoryLimit int
}

// NewAnnotations returns the annotations the new ReplicaSet gets, and
// whether they differ from in.ReplicaSet (upstream updates an existing
// ReplicaSet only then). The result is a new map; the input maps are never
// modified. In order:
//
//  1. Every Deployment annotation that is [IsCopiedAnnotation] is set on the
//     ReplicaSet if it is absent or different there. Annotations are
//     never removed, even when the Deployment no longer has them.
//  2. The ReplicaSet's revision is parsed; a missing or empty one counts
//     as 0. If it is present but not an integer, NewAnnotations stops
//     there and reports changed = false, even if step 1 changed
//     something. If in.Revision is not an integer, it stops the same way.
//  3. If the old revision is lower than in.Revision, the revision becomes
//     in.Revision; a revision is never lowered.
//  4. If the ReplicaSet already had a revision annotation and it was
//     raised (a rollback, or a roll forward, to an old template), the old
//     revision is appended to RevisionHistoryAnnotation, separated by a
//     comma. When the history's first entry is empty, the history becomes
//     just the old revision. Otherwise, while the result would be longer
//     than the limit, the oldest entries are dropped; if it still does
//     not fit, the history is left as it was.
//  5. If !in.Exists, DesiredReplicasAnnotation and MaxReplicasAnnotation
//     are set to in.Replicas and in.MaxReplicas.
//
// For example, with a 5-byte limit, raising a ReplicaSet with revision 11
// and history "9,10" to revision 12 gives history "10,11".
// Upstream: deploymentutil.SetNewReplicaSetAnnotations.
func NewAnnotations(in AnnotationsInput) (annotations map[string]string, changed bool) {
	ann := maps.Clone(in.ReplicaSet)
	if ann == nil {
		ann = make(map[string]string, len(in.Deployment)+3)
	}
	for k, v := range in.Deployment {
		if cur, ok := ann[k]; !IsCopiedAnnotation(k) || ok && cur == v {
			continue
		}
		ann[k] = v
		changed = true
	}

	oldText, hadRevision := ann[RevisionAnnotation]
	oldRev, err := parseRevision(oldText)
	if err != nil {
		if oldText != "" {
			return ann, false
		}
		oldRev = 0
	}
	newRev, err := parseRevision(in.Revision)
	if err != nil {
		return ann, false
	}
	if oldRev < newRev {
		ann[RevisionAnnotation] = in.Revision
		changed = true
		if hadRevision {
			limit := in.HistoryLimit
			if limit <= 0 {
				limit = MaxHistoryChars
			}
			if h, ok := appendHistory(ann[RevisionHistoryAnnotation], oldText, limit); ok {
				ann[RevisionHistoryAnnotation] = h
			}
		}
	}
	if !in.Exists && setReplicas(ann, in.Replicas, in.MaxReplicas) {
		changed = true
	}
	return ann, changed
}

// appendHistory appends revision old to the comma-separated history,
// dropping the oldest entries while the result would be longer than limit
// bytes. ok is false when even dropping every entry does not make it fit.
func appendHistory(history, old string, limit int) (string, bool) {
	entries := strings.Split(history, ",")
	if entries[0] == "" {
		return old, true
	}
	total := len(history) + len(old) + 1
	start := 0
	for total > limit && start < len(entries) {
		total -= len(entries[start]) + 1
		start++
	}
	if total > limit {
		return history, false
	}
	return strings.Join(append(entries[start:], old), ","), true
}

// setReplicas writes the desired-replicas and max-replicas annotations,
// and reports whether either value changed. Upstream:
// deploymentutil.SetReplicasAnnotations.
func setReplicas(ann map[string]string, desired, maxReplicas int32) bool {
	changed := false
	for _, kv := range [2]struct {
		key string
		n   int32
	}{{DesiredReplicasAnnotation, desired}, {MaxReplicasAnnotation, maxReplicas}} {
		v := strconv.FormatInt(int64(kv.n), 10)
		if cur, ok := ann[kv.key]; !ok || cur != v {
			ann[kv.key] = v
			changed = true
		}
	}
	return changed
}

// RollbackAnnotations returns the annotations a Deployment gets when it
// rolls back to a ReplicaSet: the Deployment's own annotations that are
// not [IsCopiedAnnotation] (its revision, last-applied configuration, ...), plus
// every annotation of the ReplicaSet that is. Other Deployment annotations
// are dropped. The result is a new, non-nil map; the inputs are not
// modified. Upstream: deploymentutil.SetDeploymentAnnotationsTo.
func RollbackAnnotations(deployment, replicaSet map[string]string) map[string]string {
	out := make(map[string]string)
	for k, v := range deployment {
		if !IsCopiedAnnotation(k) {
			out[k] = v
		}
	}
	for k, v := range replicaSet {
		if IsCopiedAnnotation(k) {
			out[k] = v
		}
	}
	return out
}
