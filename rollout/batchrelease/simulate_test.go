package batchrelease

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

var (
	simStart = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	v125     = json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)
	v126     = json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`)
)

// demoCloneSet is 10 pods at rest on nginx:1.25 and the CloneSet just
// changed to nginx:1.26.
func demoCloneSet(t interface{ Fatal(...any) }, replicas int) (*cloneset.CloneSet[json.RawMessage], []cloneset.Pod, []cloneset.ControllerRevision) {
	r1, err := cloneset.NewRevision("demo", v125, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pods []cloneset.Pod
	for i := range replicas {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%02d", i), Revision: r1.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: simStart.Add(-time.Hour), CreationTime: simStart.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 2, Replicas: int32(replicas), Template: v126}
	cs.Status = cloneset.Status{ObservedGeneration: 1, Replicas: int32(replicas), ReadyReplicas: int32(replicas), AvailableReplicas: int32(replicas),
		UpdatedReplicas: int32(replicas), UpdatedReadyReplicas: int32(replicas), UpdatedAvailableReplicas: int32(replicas),
		CurrentRevision: r1.Name, UpdateRevision: r1.Name}
	return cs, pods, []cloneset.ControllerRevision{r1}
}

func TestSimulateCloneSetBatches(t *testing.T) {
	cs, pods, revs := demoCloneSet(t, 10)
	rel := releaseOf("20%", "50%", "100%")
	rel.RolloutID = "v2"
	rel.BatchPartition = i32(0)
	thirty := int32(30)
	tr, err := Simulate(rel, cs, pods, revs, Config{Start: simStart, ReadyDelay: 10 * time.Second, Pauses: []Pause{{&thirty}, {&thirty}}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range tr.Steps {
		lines = append(lines, fmt.Sprintf("%3d bp%2d %-11s b%d %-9s part %-4s pods %2d upd %2d rdy %2d | %s", s.Sync, s.BatchPartition, s.Phase, s.Batch, stateName(s.State), s.Partition, s.Pods, s.Updated, s.UpdatedReady, s.Reason))
	}
	t.Log("\n" + strings.Join(lines, "\n"))
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v after %d syncs", tr.Outcome, tr.Syncs)
	}
	checkBatchesReached(t, tr, []int32{2, 5, 10})
	if got := tr.Workload.Partition; got != nil {
		t.Errorf("final partition %v, want none (handed back)", got)
	}
}

// checkBatchesReached checks that the trace reaches Ready for each batch
// in order with exactly want[i] updated ready pods, and that the batch
// never goes backwards.
func checkBatchesReached(t *testing.T, tr Trace, want []int32) {
	t.Helper()
	var got []int32
	last := int32(0)
	for _, s := range tr.Steps {
		if s.Batch < last {
			t.Errorf("sync %d: batch went back from %d to %d", s.Sync, last, s.Batch)
		}
		last = s.Batch
		if s.State == Ready && s.Phase == Progressing && (len(got) == 0 || int(s.Batch) == len(got)) {
			if s.Updated != s.Desired || s.UpdatedReady != s.Desired {
				t.Errorf("sync %d: batch %d ready with %d updated (%d ready), desired %d", s.Sync, s.Batch, s.Updated, s.UpdatedReady, s.Desired)
			}
			got = append(got, s.Updated)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("batches ready with %v updated pods, want %v", got, want)
	}
}

func TestSimulateDeploymentBatches(t *testing.T) {
	rel := releaseOf("20%", "50%", "100%")
	rel.BatchPartition = i32(0)
	thirty := int32(30)
	d := &AdvancedDeployment{Name: "web", Replicas: 10, NewReplicaSet: "web-v2",
		Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp("25%"), MaxUnavailable: isp("25%")}}}
	rss := []ReplicaSet{{Name: "web-v1", Revision: "1", CreationTime: simStart.Add(-time.Hour), Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, DesiredReplicas: i32(10)}}
	tr, err := SimulateDeployment(rel, d, rss, Config{Start: simStart, ReadyDelay: 10 * time.Second, Pauses: []Pause{{&thirty}, {&thirty}}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range tr.Steps {
		lines = append(lines, fmt.Sprintf("%3d bp%2d %-11s b%d %-9s part %-4s pods %2d upd %2d rdy %2d old %2d | %s | %s", s.Sync, s.BatchPartition, s.Phase, s.Batch, stateName(s.State), s.Partition, s.Pods, s.Updated, s.UpdatedReady, s.Old, strings.Join(s.WorkloadWrites, "; "), s.Reason))
	}
	t.Log("\n" + strings.Join(lines, "\n"))
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v after %d syncs", tr.Outcome, tr.Syncs)
	}
	// "100%" is not held back by the R-1 guard: the last batch wants 10.
	checkBatchesReached(t, tr, []int32{2, 5, 10})
}

// TestSimulateRollbackInBatches rolls a CloneSet back to its stable
// revision in batches: 5 of 10 pods never left nginx:1.25 and count as
// already at the target (noNeedUpdateReplicas 5), so each batch of
// 20%/50%/100% is taken of the 5 pods that need the rollback:
// 5 + ceil(20% of 5) = 6, 5 + ceil(50% of 5) = 8, then 10.
func TestSimulateRollbackInBatches(t *testing.T) {
	for _, id := range []string{"", "r2"} {
		t.Run("rolloutID="+id, func(t *testing.T) { testRollbackInBatches(t, id) })
	}
}

func testRollbackInBatches(t *testing.T, rolloutID string) {
	r1, _ := cloneset.NewRevision("demo", v125, 1, 0)
	r2, _ := cloneset.NewRevision("demo", v126, 2, 0)
	var pods []cloneset.Pod
	for i := range 10 {
		rev := r1.Name
		if i >= 5 {
			rev = r2.Name
		}
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%02d", i), Revision: rev, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: simStart.Add(-time.Hour), CreationTime: simStart.Add(-time.Hour + time.Duration(i)*time.Second), Lifecycle: cloneset.Normal})
	}
	half := isp("50%")
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 3, Replicas: 10, Template: v125,
		UpdateStrategy: cloneset.UpdateStrategy{Partition: half}}
	cs.Status = cloneset.Status{ObservedGeneration: 2, Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, UpdatedReplicas: 5,
		UpdatedReadyReplicas: 5, UpdatedAvailableReplicas: 5, CurrentRevision: r1.Name, UpdateRevision: r2.Name}
	rel := releaseOf("20%", "50%", "100%")
	rel.RollbackInBatch = true
	rel.RolloutID = rolloutID
	rel.BatchPartition = i32(0)
	rel.Status = ReleaseStatus{Phase: Progressing, BatchState: Upgrading, ObservedWorkloadReplicas: 10,
		UpdateRevision: r2.Name, StableRevision: r1.Name, UpdatedReplicas: 5, UpdatedReadyReplicas: 5}
	tr, err := Simulate(rel, cs, pods, []cloneset.ControllerRevision{r1, r2}, Config{Start: simStart, ReadyDelay: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range tr.Steps {
		lines = append(lines, fmt.Sprintf("%3d bp%2d %-11s b%d %-9s part %-4s pods %2d upd %2d rdy %2d | %s", s.Sync, s.BatchPartition, s.Phase, s.Batch, stateName(s.State), s.Partition, s.Pods, s.Updated, s.UpdatedReady, s.Reason))
	}
	t.Log("\n" + strings.Join(lines, "\n"))
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v after %d syncs", tr.Outcome, tr.Syncs)
	}
	checkBatchesReached(t, tr, []int32{6, 8, 10})
}

// TestSimulateScalingDuringARelease scales the workload from 10 to 20
// while batch 1 (50%) is under way: the release redoes the batch against
// 20 replicas (10 updated), on a CloneSet and on a Deployment, whose
// advanced controller first spreads the new replicas in proportion.
func TestSimulateScalingDuringARelease(t *testing.T) {
	twenty := int32(20)
	events := []Event{{Sync: 14, Replicas: &twenty}}
	cs, pods, revs := demoCloneSet(t, 10)
	rel := releaseOf("20%", "50%", "100%")
	tr, err := Simulate(rel, cs, pods, revs, Config{Start: simStart, ReadyDelay: 10 * time.Second, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("CloneSet: %v\n%s", tr.Outcome, tr.String())
	}
	checkBatchesReached(t, tr, []int32{2, 10, 20})

	d := &AdvancedDeployment{Name: "web", Replicas: 10, NewReplicaSet: "web-v2",
		Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp("25%"), MaxUnavailable: isp("25%")}}}
	ten := int32(10)
	rss := []ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, DesiredReplicas: &ten}}
	tr, err = SimulateDeployment(rel, d, rss, Config{Start: simStart, ReadyDelay: 10 * time.Second, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("Deployment: %v\n%s", tr.Outcome, tr.String())
	}
	t.Log("\n" + tr.String())
	proportional := false
	for _, s := range tr.Steps {
		for _, w := range s.WorkloadWrites {
			proportional = proportional || strings.Contains(w, "ScaleProportionally")
		}
	}
	if !proportional {
		t.Errorf("the Deployment was not scaled in proportion")
	}
	checkBatchesReached(t, tr, []int32{2, 10, 20})
}
