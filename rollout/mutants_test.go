package rollout

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
