package revision

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
)

// RollbackTo returns the revision requested by a Deployment's deprecated
// RollbackToAnnotation. ok is false when the annotation is missing, empty
// or not an integer, which upstream treats as no request. Revision 0 asks
// for the previous revision; see [RollbackTarget].
// Upstream: getRollbackTo in the deployment controller.
func RollbackTo(annotations map[string]string) (revision int64, ok bool) {
	v := annotations[RollbackToAnnotation]
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// RollbackOutcome says what a rollback request does.
type RollbackOutcome uint8

const (
	// RolledBack: the target ReplicaSet's template differs from the
	// Deployment's. The Deployment takes the target's template
	// ([WithoutHashLabel]) and [RollbackAnnotations]; a Normal event is
	// recorded.
	RolledBack RollbackOutcome = iota + 1

	// RollbackUnchanged: the target ReplicaSet has the Deployment's
	// template already; nothing changes and a Warning event is recorded.
	RollbackUnchanged

	// RollbackNoPrevious: revision 0 (the previous one) was requested but
	// there is no previous revision ([LastRevision] is 0). Warning event.
	RollbackNoPrevious

	// RollbackNotFound: no ReplicaSet has the requested revision. Warning
	// event.
	RollbackNotFound
)

// String returns the outcome's name, such as "RolledBack".
func (o RollbackOutcome) String() string {
	switch o {
	case RolledBack:
		return "RolledBack"
	case RollbackUnchanged:
		return "RollbackUnchanged"
	case RollbackNoPrevious:
		return "RollbackNoPrevious"
	case RollbackNotFound:
		return "RollbackNotFound"
	}
	return "RollbackOutcome(" + strconv.Itoa(int(o)) + ")"
}

// Reason returns the reason of the event upstream records:
// "DeploymentRollback" for RolledBack, "DeploymentRollbackTemplateUnchanged"
// for RollbackUnchanged, and "DeploymentRollbackRevisionNotFound" for
// RollbackNoPrevious and RollbackNotFound. It is "" for other values.
func (o RollbackOutcome) Reason() string {
	switch o {
	case RolledBack:
		return "DeploymentRollback"
	case RollbackUnchanged:
		return "DeploymentRollbackTemplateUnchanged"
	case RollbackNoPrevious, RollbackNotFound:
		return "DeploymentRollbackRevisionNotFound"
	}
	return ""
}

// Rollback is where a rollback request goes.
type Rollback struct {
	Outcome RollbackOutcome

	// Revision is the revision rolled back to: the requested one, or for
	// a request of 0 the [LastRevision]. It is 0 for RollbackNoPrevious.
	Revision int64

	// Index is the index in rss of the ReplicaSet with that revision, or
	// -1 for RollbackNoPrevious and RollbackNotFound.
	Index int
}

// Message returns the message of the event upstream records for r, for a
// Deployment called deployment; for example `Rolled back deployment "web"
// to revision 3`.
func (r Rollback) Message(deployment string) string {
	switch r.Outcome {
	case RolledBack:
		return fmt.Sprintf("Rolled back deployment %q to revision %d", deployment, r.Revision)
	case RollbackUnchanged:
		return fmt.Sprintf("The rollback revision contains the same template as current deployment %q", deployment)
	case RollbackNoPrevious:
		return "Unable to find last revision."
	case RollbackNotFound:
		return "Unable to find the revision to rollback to."
	}
	return ""
}

// RollbackTarget resolves a request to roll a Deployment whose template is
// *current back to revision toRevision, among all its ReplicaSets rss (old
// and new). Revision 0 means the previous revision, [LastRevision](rss).
// The target is the first ReplicaSet whose revision parses and equals
// toRevision in upstream's order: the old ReplicaSets oldest first
// (creation time, then name), then the new one ([FindNew]). So when two
// ReplicaSets share the revision, an old one wins over the new one, and
// the older of two old ones wins, whatever the order of rss. ReplicaSets
// with unparsable revisions are skipped. A negative revision is looked for
// like any other, as the controller does (kubectl rollout undo rejects it
// before asking). Whatever the outcome, upstream then removes
// RollbackToAnnotation from the Deployment. RollbackTarget does not modify
// rss. Upstream: the deployment controller's rollback, over the list
// FindNewReplicaSet sorted oldest first.
func RollbackTarget[T any](current *T, rss []ReplicaSet[T], toRevision int64) Rollback {
	if toRevision == 0 {
		if toRevision = LastRevision(rss); toRevision == 0 {
			return Rollback{Outcome: RollbackNoPrevious, Index: -1}
		}
	}
	newRS, _ := FindNew(current, rss)
	best := -1
	for i := range rss {
		v, err := Revision(rss[i].Annotations)
		if err != nil || v != toRevision {
			continue
		}
		if best < 0 || rollbackBefore(rss, i, best, newRS) {
			best = i
		}
	}
	if best < 0 {
		return Rollback{Outcome: RollbackNotFound, Revision: toRevision, Index: -1}
	}
	r := Rollback{Outcome: RolledBack, Revision: toRevision, Index: best}
	if EqualIgnoreHash(current, &rss[best].Template) {
		r.Outcome = RollbackUnchanged
	}
	return r
}

// rollbackBefore reports whether rss[i] comes before rss[j] in the order
// the controller looks for a rollback target: old ReplicaSets oldest first,
// the new one (index newRS, -1 for none) last.
func rollbackBefore[T any](rss []ReplicaSet[T], i, j, newRS int) bool {
	if (i == newRS) != (j == newRS) {
		return j == newRS
	}
	return createdBefore(&rss[i], &rss[j])
}

// WithoutHashLabel returns a copy of *t whose labels map (located as
// [EqualIgnoreHash] locates it) is a new map without the HashLabel entry:
// the template a Deployment takes when it rolls back to a ReplicaSet. The
// new map is never nil, as upstream's. The copy is shallow: other maps,
// slices and pointers are shared with *t, which is not modified. When T
// has no labels map, the result is *t. A nil t gives the zero T.
// Upstream: deploymentutil.SetFromReplicaSetTemplate.
func WithoutHashLabel[T any](t *T) T {
	var out T
	if t == nil {
		return out
	}
	out = *t
	v := reflect.ValueOf(&out).Elem()
	path := deep.LabelsPath(v.Type())
	if path == nil {
		return out
	}
	labels := v.FieldByIndex(path)
	if !labels.CanSet() {
		return out // defensive: a located labels field is always settable
	}
	clean := reflect.MakeMapWithSize(labels.Type(), labels.Len())
	it := labels.MapRange()
	for it.Next() {
		if it.Key().String() != HashLabel {
			clean.SetMapIndex(it.Key(), it.Value())
		}
	}
	labels.Set(clean)
	return out
}
