package rollout

import (
	"fmt"
	"math"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
	"pgregory.net/rapid"
)

// syncState is one input of Plan drawn for the whole-sync properties.
type syncState struct {
	d    *Deployment[tmpl]
	rss  []ReplicaSet[tmpl]
	now  time.Time
	opts Options
}

// drawCounter draws a counter that is usually small and, with extreme,
// sometimes at or next to the top of its range.
func drawCounter[N int32 | int64](t *rapid.T, label string, small, top N, extreme bool) N {
	if extreme && rapid.IntRange(0, 3).Draw(t, label+"Extreme") == 0 {
		return top - N(rapid.IntRange(0, 1).Draw(t, label+"BelowTop"))
	}
	return N(rapid.Int64Range(0, int64(small)).Draw(t, label))
}

// drawReplicaCounters draws counters that pass the status rules: available <=
// ready <= replicas.
func drawReplicaCounters(t *rapid.T, label string) (replicas, ready, available int32) {
	replicas = rapid.Int32Range(0, 12).Draw(t, label+"StatusReplicas")
	ready = rapid.Int32Range(0, replicas).Draw(t, label+"ReadyReplicas")
	available = rapid.Int32Range(0, ready).Draw(t, label+"AvailableReplicas")
	return replicas, ready, available
}

// drawCondition draws a condition of type ct with one of upstream's
// reasons for it, last updated up to 20 minutes before t0.
func drawCondition(t *rapid.T, ct ConditionType) Condition {
	reasons := map[ConditionType][]string{
		DeploymentProgressing: {ReasonReplicaSetUpdated, ReasonNewReplicaSetCreated, ReasonFoundNewReplicaSet, ReasonNewReplicaSetAvailable,
			ReasonProgressDeadlineExceeded, ReasonDeploymentPaused, ReasonDeploymentResumed},
		DeploymentAvailable:      {ReasonMinimumReplicasAvailable, ReasonMinimumReplicasUnavailable},
		DeploymentReplicaFailure: {"FailedCreate"},
	}[ct]
	reason := rapid.SampledFrom(reasons).Draw(t, string(ct)+"Reason")
	status := ConditionTrue
	switch reason {
	case ReasonProgressDeadlineExceeded, ReasonMinimumReplicasUnavailable:
		status = ConditionFalse
	case ReasonDeploymentPaused, ReasonDeploymentResumed:
		status = ConditionUnknown
	}
	at := t0.Add(-time.Duration(rapid.IntRange(0, 1200).Draw(t, string(ct)+"AgeSeconds")) * time.Second)
	return Condition{Type: ct, Status: status, Reason: reason, Message: "drawn " + reason, LastUpdateTime: at, LastTransitionTime: at}
}

// drawSyncState draws a Deployment and its ReplicaSets that pass
// validation and have distinct names, reaching every path of Plan:
// deleting, paused (with history cleanup), a pending rollback (field or
// annotation, revisions shared by two ReplicaSets), scaling events,
// Recreate and RollingUpdate, hash collisions, unparsable and missing
// revisions, ReplicaSets created at the same instant, two ReplicaSets
// with the deployment's template, conditions of every reason and the
// options. With extreme, collision counts and generations also reach the
// top of their range.
func drawSyncState(t *rapid.T, extreme bool) syncState {
	replicas := rapid.Int32Range(0, 12).Draw(t, "replicas")
	var surge, unavailable *intorpercent.Value
	if rapid.Bool().Draw(t, "explicitBounds") {
		surge, unavailable = boundValue(t, "maxSurge", 100), boundValue(t, "maxUnavailable", 100)
		if surge.Number() == 0 && unavailable.Number() == 0 {
			unavailable = num(1)
		}
	}
	d := dep(replicas, surge, unavailable)
	if rapid.IntRange(0, 3).Draw(t, "recreate") == 0 {
		d.Strategy, d.MaxSurge, d.MaxUnavailable = Recreate, nil, nil
	}
	d.Generation = drawCounter(t, "generation", int64(5), int64(math.MaxInt64), extreme) + 1
	if d.Generation <= 0 { // MaxInt64 + 1 wrapped: keep the top
		d.Generation = math.MaxInt64
	}
	d.Paused = rapid.IntRange(0, 3).Draw(t, "paused") == 0
	d.Deleting = rapid.IntRange(0, 9).Draw(t, "deleting") == 0
	d.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 5}).Draw(t, "minReadySeconds")
	d.ProgressDeadlineSeconds = rapid.SampledFrom([]*int32{nil, ptr(int32(30)), ptr(NoLimit)}).Draw(t, "progressDeadlineSeconds")
	d.RevisionHistoryLimit = rapid.SampledFrom([]*int32{nil, ptr(int32(0)), ptr(int32(1)), ptr(int32(2)), ptr(NoLimit)}).Draw(t, "revisionHistoryLimit")
	d.Annotations = map[string]string{revision.RevisionAnnotation: rapid.SampledFrom([]string{"1", "2", "x"}).Draw(t, "deploymentRevision")}
	if rapid.Bool().Draw(t, "teamAnnotation") {
		d.Annotations["team"] = "blue"
	}
	switch rapid.IntRange(0, 5).Draw(t, "rollback") {
	case 0:
		d.RollbackTo = ptr(rapid.Int64Range(0, 4).Draw(t, "rollbackTo"))
	case 1:
		d.Annotations[revision.RollbackToAnnotation] = rapid.SampledFrom([]string{"0", "1", "2", "9", "soon"}).Draw(t, "rollbackToAnnotation")
	}
	images := []string{"nginx:1", "nginx:2", "nginx:3"}
	d.Template = image(rapid.SampledFrom(images).Draw(t, "image"))

	s := &d.Status
	s.ObservedGeneration = rapid.Int64Range(0, d.Generation).Draw(t, "observedGeneration")
	s.Replicas, s.ReadyReplicas, s.AvailableReplicas = drawReplicaCounters(t, "deployment")
	s.UpdatedReplicas = rapid.Int32Range(0, s.Replicas).Draw(t, "updatedReplicas")
	s.UnavailableReplicas = rapid.Int32Range(0, 12).Draw(t, "unavailableReplicas")
	if rapid.Bool().Draw(t, "hasCollisionCount") {
		s.CollisionCount = ptr(drawCounter(t, "collisionCount", int32(3), int32(math.MaxInt32), extreme))
	}
	for _, ct := range []ConditionType{DeploymentAvailable, DeploymentProgressing, DeploymentReplicaFailure} {
		if rapid.Bool().Draw(t, "has"+string(ct)) {
			s.Conditions = append(s.Conditions, drawCondition(t, ct))
		}
	}

	names := []string{"web-a", "web-b", "web-c", "web-d", "web-e", "web-f"}
	n := rapid.IntRange(0, len(names)).Draw(t, "replicaSets")
	picked := rapid.Permutation(names).Draw(t, "names")[:n]
	var rss []ReplicaSet[tmpl]
	for i, name := range picked {
		spec := rapid.Int32Range(0, 12).Draw(t, fmt.Sprintf("spec%d", i))
		r := rs(name, rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("age%d", i)), spec, 0)
		r.StatusReplicas, r.ReadyReplicas, r.AvailableReplicas = drawReplicaCounters(t, fmt.Sprintf("rs%d", i))
		r.TerminatingReplicas = rapid.SampledFrom([]*int32{nil, ptr(int32(0)), ptr(int32(2))}).Draw(t, fmt.Sprintf("terminating%d", i))
		r.Generation = drawCounter(t, fmt.Sprintf("rsGeneration%d", i), int64(3), int64(math.MaxInt64), extreme)
		r.ObservedGeneration = rapid.Int64Range(0, max(r.Generation, 0)).Draw(t, fmt.Sprintf("rsObservedGeneration%d", i))
		r.Deleting = rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("rsDeleting%d", i)) == 0
		r.Template = image(rapid.SampledFrom(images).Draw(t, fmt.Sprintf("image%d", i)))
		r.Annotations = map[string]string{}
		if rev := rapid.SampledFrom([]string{"1", "2", "3", "4", "x1", "", "-"}).Draw(t, fmt.Sprintf("revision%d", i)); rev != "-" {
			r.Annotations[revision.RevisionAnnotation] = rev
		}
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("hasReplicasAnnotations%d", i)) > 0 {
			r.Annotations[revision.DesiredReplicasAnnotation] = rapid.SampledFrom([]string{"0", "3", "6", "12", "x"}).Draw(t, fmt.Sprintf("desired%d", i))
			r.Annotations[revision.MaxReplicasAnnotation] = rapid.SampledFrom([]string{"0", "4", "8", "15", "x"}).Draw(t, fmt.Sprintf("maxReplicas%d", i))
		}
		rss = append(rss, r)
	}
	if rapid.IntRange(0, 5).Draw(t, "squatter") == 0 {
		// A ReplicaSet with another template under the name the new one
		// would get: a hash collision when it is created.
		r := rs(revision.ReplicaSetName(d.Name, revision.Hash(&d.Template, s.CollisionCount)), 50, 0, 0)
		r.Template = image("squatter")
		rss = append(rss, r)
	}
	opts := Options{
		Surge:      rapid.SampledFrom([]SurgePolicy{SurgeIgnoresTerminating, SurgeCountsTerminating}).Draw(t, "surge"),
		Proportion: rapid.SampledFrom([]proportion.Mode{proportion.Upstream, proportion.Conserving}).Draw(t, "proportion"),
		Resize:     rapid.SampledFrom([]ResizePolicy{ResizeUpstream, ResizeRefreshesAnnotations}).Draw(t, "resize"),
		Cleanup:    rapid.SampledFrom([]revision.CleanupMode{revision.CleanupUpstream, revision.CleanupSubstitute}).Draw(t, "cleanup"),
	}
	now := t0.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "nowSeconds")) * time.Second)
	return syncState{d: d, rss: rss, now: now, opts: opts}
}
