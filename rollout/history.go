package rollout

import (
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/revision"
)

// maxRevisionHistoryChars caps the revision-history annotation, as the
// controller does (maxRevHistoryLengthInChars).
const maxRevisionHistoryChars = 2000

// skippedAnnotation reports whether key is one of the annotations a
// deployment never copies to its ReplicaSets.
func skippedAnnotation(key string) bool {
	switch key {
	case revision.LastAppliedAnnotation, revision.RevisionAnnotation, revision.RevisionHistoryAnnotation,
		revision.DesiredReplicasAnnotation, revision.MaxReplicasAnnotation, revision.RollbackToAnnotation:
		return true
	}
	return false
}

// newReplicaSetAnnotations returns the annotations the controller writes on
// the new ReplicaSet (rsAnn is never modified) and whether they changed:
// the deployment's annotations copied over (never deleting any), the
// revision raised to newRevision (never lowered), the old revision moved
// into revision-history when an existing ReplicaSet is re-promoted (capped
// at 2000 characters, oldest dropped), and for a ReplicaSet being created
// (exists false) the desired-replicas and max-replicas annotations.
// Upstream: SetNewReplicaSetAnnotations.
func newReplicaSetAnnotations(dAnn, rsAnn map[string]string, newRevision int64, exists bool, desired, maxReplicas int32) (map[string]string, bool) {
	out := maps.Clone(rsAnn)
	if out == nil {
		out = map[string]string{}
	}
	changed := false
	for k, v := range dAnn {
		if skippedAnnotation(k) {
			continue
		}
		if cur, ok := out[k]; !ok || cur != v {
			out[k] = v
			changed = true
		}
	}
	oldRevision, ok := out[revision.RevisionAnnotation]
	oldRevisionInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return rsAnn, false
		}
		oldRevisionInt = 0
	}
	if oldRevisionInt < newRevision {
		out[revision.RevisionAnnotation] = strconv.FormatInt(newRevision, 10)
		changed = true
	}
	if ok && oldRevisionInt < newRevision {
		history := out[revision.RevisionHistoryAnnotation]
		olds := strings.Split(history, ",")
		if len(olds[0]) == 0 {
			out[revision.RevisionHistoryAnnotation] = oldRevision
		} else {
			total := len(history) + len(oldRevision) + 1
			start := 0
			for total > maxRevisionHistoryChars && start < len(olds) {
				total -= len(olds[start]) + 1
				start++
			}
			if total <= maxRevisionHistoryChars {
				out[revision.RevisionHistoryAnnotation] = strings.Join(append(olds[start:], oldRevision), ",")
			}
		}
	}
	if !exists {
		if setReplicasAnnotations(out, desired, maxReplicas) {
			changed = true
		}
	}
	return out, changed
}

// setReplicasAnnotations writes desired-replicas and max-replicas into ann
// and reports whether either changed. Upstream: SetReplicasAnnotations.
func setReplicasAnnotations(ann map[string]string, desired, maxReplicas int32) bool {
	changed := false
	d, m := strconv.FormatInt(int64(desired), 10), strconv.FormatInt(int64(maxReplicas), 10)
	if ann[revision.DesiredReplicasAnnotation] != d {
		ann[revision.DesiredReplicasAnnotation] = d
		changed = true
	}
	if ann[revision.MaxReplicasAnnotation] != m {
		ann[revision.MaxReplicasAnnotation] = m
		changed = true
	}
	return changed
}

// replicasAnnotationsNeedUpdate reports whether ann lacks or differs from
// the given desired-replicas and max-replicas values.
// Upstream: ReplicasAnnotationsNeedUpdate.
func replicasAnnotationsNeedUpdate(ann map[string]string, desired, maxReplicas int32) bool {
	if ann == nil {
		return true
	}
	return ann[revision.DesiredReplicasAnnotation] != strconv.FormatInt(int64(desired), 10) ||
		ann[revision.MaxReplicasAnnotation] != strconv.FormatInt(int64(maxReplicas), 10)
}

// rollbackAnnotations returns the annotations a deployment gets when rolled
// back to a ReplicaSet: its own skipped annotations (revision and the like)
// plus every non-skipped annotation of the ReplicaSet.
// Upstream: SetDeploymentAnnotationsTo.
func rollbackAnnotations(dAnn, rsAnn map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range dAnn {
		if skippedAnnotation(k) {
			out[k] = v
		}
	}
	for k, v := range rsAnn {
		if !skippedAnnotation(k) {
			out[k] = v
		}
	}
	return out
}

// historyToDelete returns the indices of old ReplicaSets to delete for the
// revision history limit: with cleanable the old ReplicaSets not being
// deleted, the diff = len(cleanable) - limit lowest revisions (revision
// order, then creation time, then name) are examined, and those with no
// pods, spec 0 and an up-to-date status are deleted. Skipped ones are not
// replaced by newer candidates, so more than limit may remain.
// Upstream: cleanupDeployment.
func historyToDelete[T any](rss []ReplicaSet[T], newRS int, limit int32) []int {
	var cleanable []int
	for i := range rss {
		if i != newRS && !rss[i].Deleting {
			cleanable = append(cleanable, i)
		}
	}
	diff := len(cleanable) - int(limit)
	if diff <= 0 {
		return nil
	}
	sort.SliceStable(cleanable, func(a, b int) bool {
		x, y := &rss[cleanable[a]], &rss[cleanable[b]]
		rx, errx := revision.Revision(x.Annotations)
		ry, erry := revision.Revision(y.Annotations)
		if errx != nil || erry != nil || rx == ry {
			return older(rss, cleanable[a], cleanable[b])
		}
		return rx < ry
	})
	var out []int
	for _, i := range cleanable[:diff] {
		rs := &rss[i]
		if rs.StatusReplicas != 0 || rs.Replicas != 0 || rs.Generation > rs.ObservedGeneration || rs.Deleting {
			continue
		}
		out = append(out, i)
	}
	return out
}
