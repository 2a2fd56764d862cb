package rollout

// The tests in this file close the test gaps of issue 12: each fails when
// the deliberate bug named in its comment is put into the code.

import (
	"slices"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision"
)

// TestRolloutStatusCompleteRolloutMovedBackIsNotComplete: a rollout that
// completed (Progressing: NewReplicaSetAvailable) and whose template then
// moved back to an older ReplicaSet is no longer complete, since
// status.replicas (13) differs from updatedReplicas (3), so its
// Progressing condition is estimated again: 13 pods are ready where 10
// were, which is progress. Bug caught: RolloutStatus's "already complete" shortcut
// without Replicas == UpdatedReplicas keeps NewReplicaSetAvailable.
func TestRolloutStatusCompleteRolloutMovedBackIsNotComplete(t *testing.T) {
	d, rss := settled(10, "v2")
	cur, _ := FindCondition(d.Status.Conditions, DeploymentProgressing)
	if cur.Reason != ReasonNewReplicaSetAvailable {
		t.Fatalf("settled deployment's Progressing reason = %q, want %q", cur.Reason, ReasonNewReplicaSetAvailable)
	}
	// The template moved back to v1: nginx-0 grows again.
	older := rs("nginx-0", 120, 3, 3)
	older.Template = image("v1")
	older.Annotations = map[string]string{revision.RevisionAnnotation: "3"}
	rss = append(rss, older)
	d.Template = image("v1")
	s := RolloutStatus(&d, rss, 1, t0)
	if s.Replicas != 13 || s.UpdatedReplicas != 3 {
		t.Fatalf("RolloutStatus counters = %d replicas, %d updated; want 13, 3", s.Replicas, s.UpdatedReplicas)
	}
	c, ok := FindCondition(s.Conditions, DeploymentProgressing)
	want := Condition{Type: DeploymentProgressing, Status: ConditionTrue, Reason: ReasonReplicaSetUpdated,
		Message: `ReplicaSet "nginx-0" is progressing.`, LastUpdateTime: t0, LastTransitionTime: cur.LastTransitionTime}
	if !ok || c != want {
		t.Errorf("RolloutStatus(complete rollout, template moved back to nginx-0) Progressing = %+v, want %+v", c, want)
	}
}

// TestPlanProportionalScaleDownWhileTerminatingWithSurgeCountsTerminating:
// SurgeCountsTerminating makes a proportional scale-up wait while
// terminating pods push the total above R + maxSurge, but a scale-down
// only removes pods and must go ahead. Bug caught: the wait applied to
// every proportional resize (the after > before test dropped).
func TestPlanProportionalScaleDownWhileTerminatingWithSurgeCountsTerminating(t *testing.T) {
	// Mid-rollout at R = 10 (25%: 13 pods allowed): old 6, new 6, and 4
	// old pods terminating; then resized to R = 4.
	d := dep(10, nil, nil)
	d.Annotations = map[string]string{revision.RevisionAnnotation: "2"}
	old := rs("web-1", 60, 6, 6)
	nw := rs("web-2", 10, 6, 0)
	nw.Template = d.Template
	old.TerminatingReplicas = ptr(int32(4))
	for i, r := range []*ReplicaSet[tmpl]{&old, &nw} {
		r.Annotations = map[string]string{
			revision.RevisionAnnotation:        itoa(int64(i + 1)),
			revision.DesiredReplicasAnnotation: "10",
			revision.MaxReplicasAnnotation:     "13",
		}
	}
	rss := []ReplicaSet[tmpl]{old, nw}
	d.Status = CalculateStatus(d, rss, 1, t0)
	d.Replicas = 4 // maxSurge 1: 5 allowed, 12 + 4 terminating before
	s, err := PlanWith(d, rss, t0, Options{Surge: SurgeCountsTerminating})
	if err != nil {
		t.Fatalf("PlanWith(resize 10 -> 4, SurgeCountsTerminating) error: %v", err)
	}
	if s.Path != PathScaling {
		t.Fatalf("PlanWith(resize 10 -> 4) path = %v, want %v", s.Path, PathScaling)
	}
	var total int32
	for _, r := range s.ReplicaSets {
		total += r.Replicas
	}
	if len(s.Actions) != 2 || total != 5 {
		t.Errorf("PlanWith(resize 10 -> 4, 4 terminating, SurgeCountsTerminating) = actions %+v, %d replicas in all; want both ReplicaSets scaled down to 5 in all (R 4 + maxSurge 1)\nreason: %s",
			s.Actions, total, s.Reason)
	}
}

// TestPlanRecreateWithSurgeCountsTerminatingDoesNotWaitOnceNewIsFull:
// with SurgeCountsTerminating, Recreate waits for terminating pods before
// starting new ones, but once the new ReplicaSet has all R pods there is
// nothing to start: the sync must go on and clean up history. Bug caught:
// waiting whenever pods terminate (the spec < R test dropped), which
// skipped the cleanup.
func TestPlanRecreateWithSurgeCountsTerminatingDoesNotWaitOnceNewIsFull(t *testing.T) {
	d, rss := settled(3, "v2")
	d.Strategy = Recreate
	d.MaxSurge, d.MaxUnavailable = nil, nil
	d.RevisionHistoryLimit = ptr(int32(0))
	rss[0].TerminatingReplicas = ptr(int32(1)) // a pod of the new ReplicaSet being replaced
	old := rs("nginx-0", 120, 0, 0)
	old.Template = image("v1")
	old.Annotations = map[string]string{revision.RevisionAnnotation: "0"}
	rss = append(rss, old)
	s, err := PlanWith(&d, rss, t0, Options{Surge: SurgeCountsTerminating})
	if err != nil {
		t.Fatalf("PlanWith(Recreate, new full, 1 terminating) error: %v", err)
	}
	want := []Action{{Kind: DeleteReplicaSet, ReplicaSet: "nginx-0"}}
	got := make([]Action, len(s.Actions))
	for i, a := range s.Actions {
		got[i] = Action{Kind: a.Kind, ReplicaSet: a.ReplicaSet, From: a.From, To: a.To}
	}
	if !slices.Equal(got, want) {
		t.Errorf("PlanWith(Recreate, new ReplicaSet full with 1 terminating pod, history limit 0) actions = %+v, want %+v\nreason: %s", s.Actions, want, s.Reason)
	}
}

// TestPlanDeletingStillRaisesTheNewRevision: a deployment being deleted
// only gets its status, but the controller first syncs revisions, so a new
// ReplicaSet whose revision is behind an old one's is raised above it.
// Bug caught: the deleting path skipping the revision sync.
func TestPlanDeletingStillRaisesTheNewRevision(t *testing.T) {
	d, rss := settled(3, "v1") // nginx-1 at revision 1 is the new one
	d.Deleting = true
	old := rs("nginx-0", 120, 0, 0)
	old.Template = image("v0")
	old.Annotations = map[string]string{revision.RevisionAnnotation: "4"}
	rss = append(rss, old)
	s, err := Plan(&d, rss, t0)
	if err != nil {
		t.Fatalf("Plan(deleting) error: %v", err)
	}
	if s.Path != PathDeleting {
		t.Fatalf("Plan(deleting) path = %v, want %v", s.Path, PathDeleting)
	}
	if len(s.Actions) != 1 || s.Actions[0].Kind != AnnotateReplicaSet || s.Actions[0].ReplicaSet != "nginx-1" {
		t.Fatalf("Plan(deleting, new ReplicaSet at revision 1, old at 4) actions = %+v, want one AnnotateReplicaSet of nginx-1", s.Actions)
	}
	if got := s.ReplicaSets[s.NewReplicaSet].Annotations[revision.RevisionAnnotation]; got != "5" {
		t.Errorf("Plan(deleting) new ReplicaSet revision = %q, want %q", got, "5")
	}
}

// sameInstantOld returns a deployment of 4 replicas (maxSurge 0,
// maxUnavailable 1) mid-rollout with two full old ReplicaSets created at
// the same instant, given as "b" then "a", and an empty new one.
func sameInstantOld() (*Deployment[tmpl], []ReplicaSet[tmpl]) {
	d := dep(4, num(0), num(1))
	d.Annotations = map[string]string{revision.RevisionAnnotation: "3"}
	a, b := rs("a", 60, 2, 2), rs("b", 60, 2, 2)
	a.Annotations = map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "4", revision.MaxReplicasAnnotation: "4"}
	b.Annotations = map[string]string{revision.RevisionAnnotation: "2", revision.DesiredReplicasAnnotation: "4", revision.MaxReplicasAnnotation: "4"}
	nw := rs("c", 1, 0, 0)
	nw.Template = d.Template
	nw.Annotations = map[string]string{revision.RevisionAnnotation: "3", revision.DesiredReplicasAnnotation: "4", revision.MaxReplicasAnnotation: "4"}
	rss := []ReplicaSet[tmpl]{b, a, nw}
	d.Status = CalculateStatus(d, rss, 2, t0)
	return d, rss
}

// TestOldReplicaSetsCreatedAtTheSameInstantGoByName: old ReplicaSets
// created at the same instant are taken oldest first by name, as upstream
// sorts them (ReplicaSetsByCreationTimestamp), whatever the input order:
// with one pod to remove, "a" loses it although "b" comes first. Bug
// caught: the name tie-break dropped from the oldest-first order (input
// order decides), in Plan and in the exported step functions.
func TestOldReplicaSetsCreatedAtTheSameInstantGoByName(t *testing.T) {
	d, rss := sameInstantOld()
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatalf("Plan error: %v", err)
	}
	var scaled []Action
	for _, a := range s.Actions {
		if a.Kind == ScaleReplicaSet && a.From != a.To {
			scaled = append(scaled, Action{Kind: a.Kind, ReplicaSet: a.ReplicaSet, From: a.From, To: a.To})
		}
	}
	want := []Action{{Kind: ScaleReplicaSet, ReplicaSet: "a", From: 2, To: 1}}
	if !slices.Equal(scaled, want) {
		t.Errorf("Plan(old b and a created together, 1 pod may go) scaled %+v, want %+v", scaled, want)
	}

	// The exported steps, with the same budget of one pod.
	sizes := sizesOf(rss)
	if n, err := ScaleDownOld(d, rss, 2, sizes); err != nil || n != 1 || !slices.Equal(sizes, []int32{2, 1, 0}) {
		t.Errorf("ScaleDownOld(b, a created together) = %d, %v, sizes %v; want 1, sizes [2 1 0] (a first)", n, err, sizes)
	}
	unhealthy := slices.Clone(rss)
	unhealthy[0].AvailableReplicas, unhealthy[1].AvailableReplicas = 1, 1
	unhealthy[0].ReadyReplicas, unhealthy[1].ReadyReplicas = 1, 1
	sizes = sizesOf(unhealthy)
	if n, err := CleanupUnhealthy(unhealthy, 2, 1, sizes); err != nil || n != 1 || !slices.Equal(sizes, []int32{2, 1, 0}) {
		t.Errorf("CleanupUnhealthy(b, a created together, max 1) = %d, %v, sizes %v; want 1, sizes [2 1 0] (a first)", n, err, sizes)
	}
}

// TestNewReplicasLargerThanDesiredAtTheLimit: a new ReplicaSet above R
// when the total is exactly R + maxSurge has no room, so NewReplicas
// leaves it as it is (upstream returns its size when total >= the
// maximum). Bug caught: total > maximum in place of >=, which gives
// spec + min(0, R - spec) = R.
func TestNewReplicasLargerThanDesiredAtTheLimit(t *testing.T) {
	tests := []struct {
		name         string
		old, current int32
		want         int32
		reason       string
	}{
		{name: "total at the limit", old: 1, current: 12, want: 12, reason: "13 = 10 + maxSurge 3: no room, size kept"},
		{name: "total above the limit", old: 2, current: 12, want: 12, reason: "14 > 13: no room, size kept"},
		{name: "room left", old: 0, current: 12, want: 10, reason: "12 < 13: upstream's min(1, 10-12) lands on R"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dep(10, num(3), num(1))
			rss := []ReplicaSet[tmpl]{rs("old", 2, tt.old, 0), rs("new", 1, tt.current, 0)}
			got, err := NewReplicas(d, rss, 1)
			if err != nil || got != tt.want {
				t.Errorf("NewReplicas(R 10, maxSurge 3, old %d, new %d) = %d, %v; want %d (%s)", tt.old, tt.current, got, err, tt.want, tt.reason)
			}
		})
	}
}
