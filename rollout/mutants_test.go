package rollout

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/revision"
)

// The tests of this file each pin a rule that a mutant of the code broke
// without any other test noticing (go run ./internal/mutate; see
// scripts/mutate.sh and docs/mutation.md). Each names the rule and gives
// the input on which the mutant's answer differs.

// TestSimulateInvalidReplicaSetRunsNoSync: Simulate checks every
// ReplicaSet before the ReplicaSet controller or sync 1 acts on them, so
// an invalid one returns its error with an empty Trace: no sync counted,
// no deployment or ReplicaSets. (A mutant that skipped the up-front check
// let sync 1's Plan find the error, with Syncs 1 and the state so far.)
func TestSimulateInvalidReplicaSetRunsNoSync(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	rss[0].ReadyReplicas = 4
	tr, err := Simulate(&d, rss, Config[tmpl]{Start: t0})
	const want = `rollout: invalid ReplicaSet "nginx-1": status.readyReplicas: Invalid value: 4: cannot be greater than status.replicas`
	if err == nil || err.Error() != want {
		t.Fatalf("Simulate(readyReplicas 4 > replicas 3) error = %v, want %q", err, want)
	}
	if diff := cmp.Diff(Trace[tmpl]{}, tr); diff != "" {
		t.Errorf("Simulate(readyReplicas 4 > replicas 3) trace, want none (-want +got):\n%s", diff)
	}
}

// TestPlanReasonSaysWhyNoOldPodGoesAfterCreating: a sync that creates
// the new ReplicaSet and then may not scale any old one down (maxSurge 1,
// maxUnavailable 0: the new pod is not available yet) says both, the
// creation and why the old ReplicaSet waits.
func TestPlanReasonSaysWhyNoOldPodGoesAfterCreating(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	d.Template, d.Generation = image("nginx:2"), 2
	d.MaxSurge, d.MaxUnavailable = num(1), num(0)
	s, err := Plan(&d, rss, t0)
	if err != nil {
		t.Fatalf("Plan(3 replicas, maxSurge 1, maxUnavailable 0, new image) error: %v", err)
	}
	const want = "created new ReplicaSet nginx-7c6756d746 (revision 2) at 1: 4 pods allowed (3 + maxSurge 1), 3 in other ReplicaSets; " +
		"waiting: 4 pods at the limit of 4 (3 + maxSurge 1) and no old pod may go (1 new pods unavailable, at least 3 must stay available)"
	if s.Reason != want {
		t.Errorf("Plan(3 replicas, maxSurge 1, maxUnavailable 0, new image).Reason =\n%q\nwant\n%q", s.Reason, want)
	}
}

// TestSurgeReasonCountsTerminatingPods: with SurgeCountsTerminating, the
// reason of a creation held back by terminating pods names them.
func TestSurgeReasonCountsTerminatingPods(t *testing.T) {
	d, rss := settled(10, "nginx:1")
	d.Template, d.Generation = image("nginx:2"), 2
	rss[0].Replicas, rss[0].StatusReplicas, rss[0].ReadyReplicas, rss[0].AvailableReplicas = 8, 8, 8, 8
	rss[0].TerminatingReplicas = ptr(int32(3))
	s, err := PlanWith(&d, rss, t0, Options{Surge: SurgeCountsTerminating})
	if err != nil {
		t.Fatalf("PlanWith(8 old pods, 3 terminating, SurgeCountsTerminating) error: %v", err)
	}
	const want = "created new ReplicaSet nginx-7c6756d746 (revision 2) at 2: 13 pods allowed (10 + maxSurge 3), 8 in other ReplicaSets and 3 terminating; " +
		"waiting: 10 pods at the limit of 13 (10 + maxSurge 3) and no old pod may go (2 new pods unavailable, at least 8 must stay available)"
	if s.Reason != want {
		t.Errorf("PlanWith(8 old pods, 3 terminating, SurgeCountsTerminating).Reason =\n%q\nwant\n%q", s.Reason, want)
	}
}

// TestSimulateScaleDownDeletesNeverReadyPodFirst: the ReplicaSet
// controller deletes unready pods before ready ones, also when the unready
// pod is the first group the simulation tracks. With NeverReady 1, the
// new ReplicaSet's first two pods, created at +15s, are one that never
// becomes ready and one ready at +25s; the resize to 2 at sync 2 scales
// it to 1, and the ReplicaSet controller at +25s must delete the
// never-ready pod, so that at sync 3 the new ReplicaSet's one pod is
// available and the rollout completes at sync 7.
func TestSimulateScaleDownDeletesNeverReadyPodFirst(t *testing.T) {
	d, rss := settled(4, "nginx:1")
	d.MaxSurge, d.MaxUnavailable = num(2), num(0)
	cfg := Config[tmpl]{Start: t0, Interval: 10 * time.Second, ReadyDelay: 10 * time.Second, NeverReady: 1, MaxSyncs: 40,
		Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("nginx:2")}, {Sync: 2, Kind: SetReplicas, Replicas: 2}}}
	tr, err := Simulate(&d, rss, cfg)
	if err != nil {
		t.Fatalf("Simulate error: %v", err)
	}
	const want = `sync 1 (+10s) RollingUpdate: nginx-1 4 (4/4/4) nginx-7c6756d746 2 (0/0/0) | created new ReplicaSet nginx-7c6756d746 (revision 2) at 2: 6 pods allowed (4 + maxSurge 2), 4 in other ReplicaSets; waiting: 6 pods at the limit of 6 (4 + maxSurge 2) and no old pod may go (2 new pods unavailable, at least 4 must stay available)
sync 2 (+20s) scaling: nginx-1 3 (4/4/4) nginx-7c6756d746 1 (2/0/0) | scaled down old ReplicaSet nginx-1 from 4 to 3: proportional share after resize to 2 (4 pods allowed, 6 before); scaled down new ReplicaSet nginx-7c6756d746 from 2 to 1: proportional share after resize to 2 (4 pods allowed, 6 before)
sync 3 (+30s) RollingUpdate: nginx-1 1 (3/3/3) nginx-7c6756d746 1 (1/1/1) | scaled down old ReplicaSet nginx-1 from 3 to 1: 4 pods available, at least 2 must stay available (2 - maxUnavailable 0)
sync 4 (+40s) RollingUpdate: nginx-1 1 (1/1/1) nginx-7c6756d746 2 (1/1/1) | scaled up new ReplicaSet nginx-7c6756d746 from 1 to 2: 4 pods allowed (2 + maxSurge 2), 1 in other ReplicaSets
sync 5 (+50s) RollingUpdate: nginx-1 1 (1/1/1) nginx-7c6756d746 2 (2/1/1) | waiting: 3 pods at the limit of 4 (2 + maxSurge 2) and no old pod may go (1 new pods unavailable, at least 2 must stay available)
sync 6 (+1m0s) RollingUpdate: nginx-1 0 (1/1/1) nginx-7c6756d746 2 (2/2/2) | scaled down old ReplicaSet nginx-1 from 1 to 0: 3 pods available, at least 2 must stay available (2 - maxUnavailable 0)
sync 7 (+1m10s) RollingUpdate: nginx-1 0 (0/0/0) nginx-7c6756d746 2 (2/2/2) | rollout complete: 2 of 2 pods updated and available
Complete after 8 syncs`
	if got := tr.String(); got != want {
		t.Errorf("Simulate(NeverReady 1, resize 4 -> 2 at sync 2) trace (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestPlanHashCollisionRequeuesAtOnce: a sync that finds another
// template's ReplicaSet under the new name writes one action, raising
// status.collisionCount, that names that ReplicaSet and leaves its size
// as it is (0 -> 0 here), and asks to be run again at once (RequeueAfter
// 0), as upstream's returned error does.
func TestPlanHashCollisionRequeuesAtOnce(t *testing.T) {
	d, rss := rolled(3, "nginx:2")
	name := revision.ReplicaSetName("nginx", revision.Hash(&d.Template, nil))
	squatter := rs("squat", 5, 0, 0)
	squatter.Name = name
	s, err := Plan(d, append(rss, squatter), t0)
	if err != nil {
		t.Fatalf("Plan(collision) error: %v", err)
	}
	want := []Action{{Kind: CountCollision, ReplicaSet: "nginx-7c6756d746", From: 0, To: 0,
		Reason: "hash collision: ReplicaSet nginx-7c6756d746 exists with another template; collisionCount 0 -> 1, new name next sync"}}
	if diff := cmp.Diff(want, s.Actions); diff != "" {
		t.Errorf("Plan(collision).Actions (-want +got):\n%s", diff)
	}
	if !s.Requeue || s.RequeueAfter != 0 || s.Deployment.Status.CollisionCount == nil || *s.Deployment.Status.CollisionCount != 1 {
		t.Errorf("Plan(collision) = requeue %v after %v, collisionCount %v; want requeue after 0, collisionCount 1",
			s.Requeue, s.RequeueAfter, s.Deployment.Status.CollisionCount)
	}
}

// TestPlanReasonWaitsForTheNewReplicaSetOnceOldPodsAreGone: with every
// old ReplicaSet at 0 and the new one at R but not all available, a sync
// has nothing to do and says it waits for the new ReplicaSet's pods (not
// for the surge and availability limits, which only hold old pods back).
func TestPlanReasonWaitsForTheNewReplicaSetOnceOldPodsAreGone(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	d.Template, d.Generation = image("nginx:2"), 2
	s, err := Plan(&d, rss, t0)
	if err != nil {
		t.Fatalf("Plan(new image) error: %v", err)
	}
	rss = s.ReplicaSets
	rss[0].Replicas, rss[0].StatusReplicas, rss[0].ReadyReplicas, rss[0].AvailableReplicas = 0, 0, 0, 0
	rss[1].Replicas, rss[1].StatusReplicas, rss[1].ReadyReplicas, rss[1].AvailableReplicas = 3, 3, 1, 1
	rss[1].Annotations[revision.DesiredReplicasAnnotation] = "3"
	s, err = Plan(&s.Deployment, rss, t0.Add(10*time.Second))
	if err != nil {
		t.Fatalf("Plan(old at 0, new at 3 with 1 available) error: %v", err)
	}
	const want = "waiting for new ReplicaSet nginx-7c6756d746: 1 of 3 pods available"
	if len(s.Actions) != 0 || s.Reason != want {
		t.Errorf("Plan(old at 0, new at 3 with 1 available) = %v, %q; want no action, %q", s.Actions, s.Reason, want)
	}
}

// TestReconcileOldRejectsIndexPastTheEnd: newRS == len(rss) is out of
// range, the same error as any other bad index.
func TestReconcileOldRejectsIndexPastTheEnd(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	rss = append(rss, rs("new", 1, 0, 0))
	n, err := ReconcileOld(&d, rss, 2, []int32{3, 0})
	const want = "rollout: newRS: 2 is out of range [-1, 2)"
	if n != 0 || err == nil || err.Error() != want || !errors.Is(err, field.ErrIndex) {
		t.Errorf("ReconcileOld(newRS 2 of 2) = %d, %v; want 0, %q wrapping field.ErrIndex", n, err, want)
	}
}

// TestPlannerLeavesACopiedDeploymentsCountersAlone: a Deployment copied
// from the Sync of two calls back still points, through its status's
// counters, into the memory the next call writes; Plan must leave that
// memory to the caller, so that the input is not modified and the Sync is
// PlanWith's. Here sync 3's terminating count (2) differs from sync 1's
// (0), so writing it in place would change the input.
func TestPlannerLeavesACopiedDeploymentsCountersAlone(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	var p Planner[tmpl]
	s1, err := p.Plan(&d, rss, t0, "")
	if err != nil {
		t.Fatalf("Plan 1 error: %v", err)
	}
	d1 := s1.Deployment
	d1.Status.Conditions = slices.Clone(d1.Status.Conditions)
	rss1 := deepCopyRSs(s1.ReplicaSets)
	rss1[0].TerminatingReplicas = ptr(int32(2))
	if _, err := p.Plan(&d, rss, t0, ""); err != nil {
		t.Fatalf("Plan 2 error: %v", err)
	}
	before := deepCopyDeployment(&d1)
	want, wantErr := planWithCopy(&d1, rss1, t0.Add(time.Second), Options{})
	got, err := explained(&p, &d1, rss1, t0.Add(time.Second), "")
	if err != nil || wantErr != nil {
		t.Fatalf("Plan 3 error %v, PlanWith error %v", err, wantErr)
	}
	if !reflect.DeepEqual(before, d1) {
		t.Errorf("Plan 3 modified its input (-before +after):\n%s", cmp.Diff(before, d1))
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("Plan 3 differs from PlanWith (-PlanWith +Planner):\n%s", diff)
	}
}

// TestEnumValuesStartAtOne: the enums whose zero value means "none"
// (the Outcome of a Simulate that failed, an unset EventKind or
// ActionKind) number their named values from 1, in declaration order. The
// numbers are part of the API: a caller may store or compare them.
func TestEnumValuesStartAtOne(t *testing.T) {
	got := [][]uint8{
		{uint8(SetTemplate), uint8(SetReplicas), uint8(Pause), uint8(Resume), uint8(Rollback)},
		{uint8(CreateReplicaSet), uint8(ScaleReplicaSet), uint8(AnnotateReplicaSet), uint8(DeleteReplicaSet),
			uint8(RollBack), uint8(SkipRollback), uint8(CountCollision)},
		{uint8(OutcomeComplete), uint8(OutcomeTimedOut), uint8(OutcomePaused), uint8(OutcomeStalled), uint8(OutcomeSyncLimit)},
	}
	want := [][]uint8{{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 5}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EventKind, ActionKind, Outcome values (-want +got):\n%s", diff)
	}
}

// TestPlanSelectingAllSaysStatusUnchanged: a Deployment whose empty
// selector selects every pod, with its generation already observed, is
// refused with nothing written, and the reason says so.
func TestPlanSelectingAllSaysStatusUnchanged(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	d.Selector = &ownership.Selector{}
	d.Status.ObservedGeneration = d.Generation
	s, err := Plan(&d, rss, t0)
	if err != nil {
		t.Fatalf("Plan(empty selector) error: %v", err)
	}
	const want = "the selector is empty and selects every pod (event SelectingAll): a non-empty selector is required, " +
		"so no ReplicaSet is adopted, created or scaled; status unchanged"
	if s.Path != PathSelectingAll || len(s.Actions) != 0 || s.Reason != want {
		t.Errorf("Plan(empty selector, generation observed) = %v, %v, %q; want selecting all, no action, %q", s.Path, s.Actions, s.Reason, want)
	}
}

// TestPlanWithoutRequeueHasNoDelay: a sync that does not ask to be run
// again has Requeue false and RequeueAfter 0 (so its JSON has neither).
func TestPlanWithoutRequeueHasNoDelay(t *testing.T) {
	d, rss := settled(3, "nginx:1")
	s, err := Plan(&d, rss, t0)
	if err != nil {
		t.Fatalf("Plan(settled) error: %v", err)
	}
	if s.Requeue || s.RequeueAfter != 0 {
		t.Errorf("Plan(settled) = requeue %v after %v, want no requeue and 0", s.Requeue, s.RequeueAfter)
	}
}
