package revision

import (
	"sort"
	"strconv"
)

// CleanupMode chooses how [ToCleanUp] treats old ReplicaSets that still
// have pods.
type CleanupMode uint8

const (
	// CleanupUpstream examines only the diff = len(old) - limit lowest
	// revisions and skips the ones that are not idle without looking
	// further, so more than limit old ReplicaSets can remain. This is what
	// kube-controller-manager does.
	CleanupUpstream CleanupMode = iota

	// CleanupSubstitute goes on to the next lowest revision whenever one
	// is skipped, until diff ReplicaSets are selected or none is left, so
	// that the limit is kept whenever enough old ReplicaSets are idle.
	CleanupSubstitute
)

// ToCleanUp returns the indices in rss of the old ReplicaSets that history
// cleanup deletes for a Deployment with spec.revisionHistoryLimit limit, in
// the order upstream deletes them (lowest revision first). The old
// ReplicaSets are all of rss except rss[newRS]; pass newRS = -1 when there
// is no new ReplicaSet.
//
// A nil limit (no limit set) selects nothing; a negative limit counts as
// 0. Old ReplicaSets being deleted are left out. If diff = (their number) -
// limit is positive, they are ordered by revision (see below) and, in
// CleanupUpstream mode, the first diff of them are examined; a ReplicaSet
// is deleted only if it is idle: Replicas == 0, StatusReplicas == 0 and
// Generation <= ObservedGeneration. CleanupSubstitute examines further
// ReplicaSets until diff are selected. So the result never holds the new
// ReplicaSet, one being deleted, or one with replicas, and never more
// than diff indices.
//
// Upstream runs the cleanup only when the rollout is complete, or the
// Deployment is paused with no rollback pending; callers decide when.
//
// The order is upstream's ReplicaSetsByRevision: by revision, and by
// creation time then name when the revisions are equal or either one is
// unparsable (a missing revision is 0). That comparison is not a strict
// order when unparsable revisions are mixed in; like upstream, ToCleanUp
// then sorts with sort.Sort starting from rss order, so the result is
// upstream's for the same input order and the same sort.Sort (that is,
// the same Go release). rss is not modified; ToCleanUp
// allocates only its working list and result.
// Upstream: cleanupDeployment in the deployment controller.
func ToCleanUp[T any](rss []ReplicaSet[T], newRS int, limit *int32, mode CleanupMode) []int {
	if limit == nil {
		return nil
	}
	keep := max(int(*limit), 0)
	var cleanable []int
	for i := range rss {
		if i != newRS && !rss[i].Deleting {
			cleanable = append(cleanable, i)
		}
	}
	diff := len(cleanable) - keep
	if diff <= 0 {
		return nil
	}
	sort.Sort(byRevision[T]{rss: rss, idx: cleanable})
	var out []int
	for n, i := range cleanable {
		if len(out) == diff || mode == CleanupUpstream && n == diff {
			break
		}
		rs := &rss[i]
		if rs.StatusReplicas != 0 || rs.Replicas != 0 || rs.Generation > rs.ObservedGeneration || rs.Deleting {
			continue
		}
		out = append(out, i)
	}
	return out
}

// byRevision sorts indices into rss with upstream's
// ReplicaSetsByRevision comparison.
type byRevision[T any] struct {
	rss []ReplicaSet[T]
	idx []int
}

func (s byRevision[T]) Len() int      { return len(s.idx) }
func (s byRevision[T]) Swap(i, j int) { s.idx[i], s.idx[j] = s.idx[j], s.idx[i] }
func (s byRevision[T]) Less(i, j int) bool {
	a, b := &s.rss[s.idx[i]], &s.rss[s.idx[j]]
	ra, errA := Revision(a.Annotations)
	rb, errB := Revision(b.Annotations)
	if errA != nil || errB != nil || ra == rb {
		return createdBefore(a, b)
	}
	return ra < rb
}

// String returns the mode's name, such as "CleanupUpstream".
func (m CleanupMode) String() string {
	switch m {
	case CleanupUpstream:
		return "CleanupUpstream"
	case CleanupSubstitute:
		return "CleanupSubstitute"
	}
	return "CleanupMode(" + strconv.Itoa(int(m)) + ")"
}
