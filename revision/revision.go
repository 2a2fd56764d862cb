package revision

import (
	"errors"
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/internal/decimal"
)

// Annotation keys that the deployment controller reads and writes.
const (
	// RevisionAnnotation holds a ReplicaSet's revision number (decimal),
	// and on a Deployment the revision of its current ReplicaSet.
	RevisionAnnotation = "deployment.kubernetes.io/revision"

	// RevisionHistoryAnnotation holds the comma-separated revision numbers
	// a ReplicaSet had before it was promoted again by a rollback.
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"

	// DesiredReplicasAnnotation holds the Deployment's spec.replicas at the
	// time the ReplicaSet was last scaled.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"

	// MaxReplicasAnnotation holds spec.replicas + maxSurge at the time the
	// ReplicaSet was last scaled.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"

	// RollbackToAnnotation is the deprecated rollback request on a
	// Deployment (extensions/v1beta1 and apps/v1beta1 rollback).
	RollbackToAnnotation = "deprecated.deployment.rollback.to"

	// LastAppliedAnnotation is kubectl's last-applied-configuration, which
	// is never copied from a Deployment to its ReplicaSets.
	LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// parseError returns the error for a revision annotation value v that
// [Revision] cannot parse: a *field.Error wrapping kind,
// field.ErrSyntax (not a decimal integer) or field.ErrRange (beyond
// int64), whose detail is the kind's text:
//
//	revision: parsing "abc": invalid syntax
func parseError(v string, kind error) error {
	return &field.Error{Prefix: "revision", Value: strconv.Quote(v), Detail: kind.Error(), Err: kind}
}

// Revision returns the revision number in annotations[RevisionAnnotation].
// A missing annotation (or a nil map) is revision 0 with no error. A
// present value is parsed as a base-10 int64 with an optional sign, so
// "+5" is 5 and "-3" is -3; "", " 5", "5.0" and "abc" give 0 and a
// [*field.Error] wrapping [field.ErrSyntax], and values outside int64
// give 0 and one wrapping [field.ErrRange]. Revision does not allocate unless it fails.
// Upstream: deploymentutil.Revision.
func Revision(annotations map[string]string) (int64, error) {
	v, ok := annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return parseRevision(v)
}

// parseRevision parses a revision number the way upstream does
// (strconv.ParseInt(v, 10, 64)).
func parseRevision(v string) (int64, error) {
	if n, ok := decimal.Digits(v, 18); ok {
		return n, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		kind := field.ErrSyntax
		if errors.Is(err, strconv.ErrRange) {
			kind = field.ErrRange
		}
		return 0, parseError(v, kind)
	}
	return n, nil
}

// MaxRevision returns the highest revision among rss, or 0 when rss is
// empty or every revision is lower than 1. ReplicaSets whose revision
// annotation cannot be parsed are skipped; a missing annotation counts as
// revision 0. Upstream: deploymentutil.MaxRevision.
func MaxRevision[T any](rss []ReplicaSet[T]) int64 {
	var highest int64
	for i := range rss {
		v, err := Revision(rss[i].Annotations)
		if err != nil {
			continue
		}
		if v > highest {
			highest = v
		}
	}
	return highest
}

// LastRevision returns the second-highest revision among rss: the one a
// rollback to "revision 0" goes to. Both the highest and the second-highest
// start at 0, and a revision equal to the highest so far moves the highest
// down to second place, so duplicates of the highest count: revisions
// [3, 3, 1] give 3, [1, 2, 3] give 2, and [5] gives 0. Unparsable
// revisions are skipped; missing ones count as 0. The result is 0 when
// there is nothing to roll back to. Upstream: deploymentutil.LastRevision.
func LastRevision[T any](rss []ReplicaSet[T]) int64 {
	var highest, second int64
	for i := range rss {
		v, err := Revision(rss[i].Annotations)
		if err != nil {
			continue
		}
		if v >= highest {
			second, highest = highest, v
		} else if v > second {
			second = v
		}
	}
	return second
}

// NextRevision returns the revision number for the new ReplicaSet: one more
// than the highest revision among the old ReplicaSets, which are all of rss
// except rss[newRS]. Pass newRS = -1 (or any index outside rss) when there
// is no new ReplicaSet yet. The result is at least 1. Where upstream would
// wrap past math.MaxInt64, NextRevision returns math.MaxInt64, so revision
// numbers never go down. Upstream: MaxRevision(allOldRSs) + 1 in
// getNewReplicaSet.
func NextRevision[T any](rss []ReplicaSet[T], newRS int) int64 {
	var highest int64
	for i := range rss {
		if i == newRS {
			continue
		}
		v, err := Revision(rss[i].Annotations)
		if err == nil && v > highest {
			highest = v
		}
	}
	if highest == math.MaxInt64 {
		return highest
	}
	return highest + 1
}
