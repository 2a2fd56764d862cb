package batchrelease

import (
	"strings"
	"testing"
	"time"
)

// Tests written for the survivors of a mutation sample (seed 21).

// TestBlueGreenSurgeReason: the reason of a WriteMaxSurge, one new pod
// (the workload's maxSurge 1 is the marker Initialize writes: 0).
func TestBlueGreenSurgeReason(t *testing.T) {
	w := workload(CloneSet, 10, 0, 0)
	w.MaxSurge = isp(1)
	rel := releaseOf("10%", "100%")
	rel.RollingStyle = BlueGreen
	s, err := Plan(progressing(rel, w, 0, Upgrading), w, simStart)
	if err != nil {
		t.Fatal(err)
	}
	const want = "batch 0 surges 1 new pod (maxSurge 10%, was 0)"
	if kinds(s) != "WriteMaxSurge WriteStatus" || s.Actions[0].Reason != want {
		t.Fatalf("%s, reason %q; want WriteMaxSurge, reason %q", kinds(s), s.Actions[0].Reason, want)
	}
}

// TestDeploymentReleaseTakesControlAndLabelsPods: a Deployment's
// release, simulated with a rollout-id: the TakeControl reason names the
// strategy annotation's values, and each batch labels its new pods
// (counted from the ReplicaSets' status).
func TestDeploymentReleaseTakesControlAndLabelsPods(t *testing.T) {
	d := &AdvancedDeployment{Name: "web", Replicas: 4, NewReplicaSet: "web-v2",
		Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp("25%"), MaxUnavailable: isp("25%")}}}
	rss := []ReplicaSet{{Name: "web-v1", Revision: "1", CreationTime: simStart.Add(-time.Hour), Replicas: 4, StatusReplicas: 4,
		ReadyReplicas: 4, AvailableReplicas: 4, DesiredReplicas: i32(4)}}
	rel := releaseOf("50%", "100%")
	rel.RolloutID = "v2"
	rel.BatchPartition = i32(0)
	tr, err := SimulateDeployment(rel, d, rss, Config{Start: simStart, ReadyDelay: 10 * time.Second})
	if err != nil || tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v, %v", tr.Outcome, err)
	}
	var took, labels []string
	for _, st := range tr.Steps {
		for _, a := range st.Actions {
			switch a.Kind {
			case TakeControl:
				took = append(took, a.Reason)
			case LabelPods:
				labels = append(labels, a.Reason)
			}
		}
	}
	wantTook := []string{"take control of the Deployment: pause it and store the strategy annotation with partition 0, maxSurge 25%, maxUnavailable 25%"}
	wantLabels := []string{`label 2 updated pods with rollout-id "v2" for batch 0`, `label 2 updated pods with rollout-id "v2" for batch 1`}
	if strings.Join(took, "\n") != strings.Join(wantTook, "\n") || strings.Join(labels, "\n") != strings.Join(wantLabels, "\n") {
		t.Fatalf("TakeControl %q\nLabelPods %q\nwant %q\nand %q", took, labels, wantTook, wantLabels)
	}
}

// TestCanaryFinalizeWithoutCanaryDeployment: a canary-style release
// whose workload is not controlled and has no canary Deployment has
// nothing to hand back: it completes.
func TestCanaryFinalizeWithoutCanaryDeployment(t *testing.T) {
	w := workload(Deployment, 10, 10, 10)
	w.Controlled = false
	rel := releaseOf("20%", "100%")
	rel.RollingStyle = Canary
	rel.Status = ReleaseStatus{Phase: Finalizing, CurrentBatch: 1}
	s, err := Plan(rel, w, simStart)
	if err != nil || kinds(s) != "WriteStatus" || s.Release.Status.Phase != Completed {
		t.Fatalf("%s, phase %v, %v; want WriteStatus only, Completed", kinds(s), s.Release.Status.Phase, err)
	}
}

// TestNoNeedUpdateOneCounts: one pod already at the target is counted
// out: batch "50%" of 10 is taken of the 9 others (ceil 4.5 = 5), so the
// partition keeps 10 - 1 - 5 = 4 and 6 are at the update revision.
func TestNoNeedUpdateOneCounts(t *testing.T) {
	w := workload(CloneSet, 10, 0, 0)
	rel := progressing(releaseOf("50%", "100%"), w, 0, Upgrading)
	rel.Status.NoNeedUpdateReplicas = i32(1)
	c, err := CloneSetBatchContext(rel, w)
	if err != nil {
		t.Fatal(err)
	}
	if c.PlannedUpdatedReplicas != 5 || c.DesiredUpdatedReplicas != 6 || c.DesiredPartition != is("40%") {
		t.Fatalf("planned %d desired %d partition %v; want 5, 6, 40%%", c.PlannedUpdatedReplicas, c.DesiredUpdatedReplicas, c.DesiredPartition)
	}
}

// TestStatefulSetBatchContextRefusesNil: the argument check comes first.
func TestStatefulSetBatchContextRefusesNil(t *testing.T) {
	_, err := StatefulSetBatchContext(nil, workload(StatefulSet, 3, 0, 0))
	if err == nil || err.Error() != "batchrelease: release: must not be nil" {
		t.Fatalf("StatefulSetBatchContext(nil, w) = %v", err)
	}
}

// TestMaxUnavailableOfOneReplica: one replica with maxUnavailable 1 may
// lose it (only 0 replicas has no budget).
func TestMaxUnavailableOfOneReplica(t *testing.T) {
	s := &DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp(0), MaxUnavailable: isp(1)}}
	if got := MaxUnavailable(1, s); got != 1 {
		t.Fatalf("MaxUnavailable(1, maxUnavailable 1) = %d, want 1", got)
	}
}

// TestPauseRestartsWhenTheBatchIsRedone: batch 0 is ready at 24 s; a
// scale at sync 20 (40 s) makes the release redo it, ready again at
// 54 s: the Rollout's 120 s pause counts from then, not from the first
// time (the partition moves at 2m56s, the first sync 120 s after 54 s).
func TestPauseRestartsWhenTheBatchIsRedone(t *testing.T) {
	cs, pods, revs := demoCloneSet(t, 10)
	rel := releaseOf("20%", "50%", "100%")
	rel.BatchPartition = i32(0)
	pause := int32(120)
	tr, err := Simulate(rel, cs, pods, revs, Config{Start: simStart, ReadyDelay: 10 * time.Second, Pauses: []Pause{{&pause}},
		Events: []Event{{Sync: 20, Replicas: i32(20)}}})
	if err != nil {
		t.Fatal(err)
	}
	var readyAgain, moved time.Duration
	for _, st := range tr.Steps {
		if st.BatchPartition == 1 {
			moved = st.Elapsed
			break
		}
		if st.Batch == 0 && st.State == Ready {
			readyAgain = st.Elapsed
		}
	}
	if readyAgain != 54*time.Second || moved != 2*time.Minute+56*time.Second {
		t.Fatalf("batch 0 last ready at %v, partition moved at %v; want 54s and 2m56s", readyAgain, moved)
	}
}

// TestAdvancedDeploymentErrorsNameTheDeployment: an error in the
// Deployment given names it first, as every engine's errors do.
func TestAdvancedDeploymentErrorsNameTheDeployment(t *testing.T) {
	rss := []ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: 4, StatusReplicas: 4}}
	bad := &AdvancedDeployment{Name: "web", Replicas: -3, NewReplicaSet: "web-v1"}
	_, err := SimulateDeployment(releaseOf("50%", "100%"), bad, rss, Config{Start: simStart})
	if want := `batchrelease: invalid Deployment "web": spec.replicas: -3: must not be negative`; err == nil || err.Error() != want {
		t.Errorf("SimulateDeployment: %v, want %s", err, want)
	}
	missing := &AdvancedDeployment{Name: "web", Replicas: 4, NewReplicaSet: "web-v9"}
	_, err = ReconcileOldReplicaSets(missing, rss)
	if want := `batchrelease: invalid Deployment "web": newReplicaSet: "web-v9": must name one of the ReplicaSets`; err == nil || err.Error() != want {
		t.Errorf("ReconcileOldReplicaSets: %v, want %s", err, want)
	}
}
