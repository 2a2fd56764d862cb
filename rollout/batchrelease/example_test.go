package batchrelease_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func ExamplePlan() {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	// A BatchRelease at the start of batch 0 of 20% -> 50% -> 100%, over a
	// 10-replica CloneSet the release controls (partition 100%).
	hundred := intorpercent.FromString("100%")
	w := &batchrelease.Workload{Kind: batchrelease.CloneSet, Name: "demo", Generation: 2, ObservedGeneration: 2, Replicas: 10,
		Controlled: true, Partition: &hundred,
		Status: batchrelease.WorkloadStatus{Replicas: 10, ReadyReplicas: 10, UpdateRevision: "demo-v2", StableRevision: "demo-v1"}}
	first := int32(0)
	rel := &batchrelease.Release{Name: "demo", BatchPartition: &first, Batches: []batchrelease.Batch{
		{CanaryReplicas: intorpercent.FromString("20%")}, {CanaryReplicas: intorpercent.FromString("50%")}, {CanaryReplicas: intorpercent.FromString("100%")}},
		Status: batchrelease.ReleaseStatus{Phase: batchrelease.Progressing, BatchState: batchrelease.Upgrading, ObservedWorkloadReplicas: 10,
			UpdateRevision: "demo-v2", StableRevision: "demo-v1"}}
	s, err := batchrelease.Plan(rel, w, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Actions {
		fmt.Println(a.Kind, "-", a.Reason)
	}
	fmt.Println(s.Reason)
	// Output:
	// WritePartition - batch 0 keeps 8 pods old (partition 80%, was 10), so 2 are updated
	// WriteStatus - status: phase Progressing, batch 0 Verifying
	// phase Progressing, batch 0 Verifying
}

func ExamplePlanWith() {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	// Steps ["50%", 8] on a 10-replica Deployment, batch 1: upstream reads
	// "50%" as 5,000,000 on its base of 10,000,000, judges 8 reached and
	// never writes the partition.
	fifty := intorpercent.FromString("50%")
	w := &batchrelease.Workload{Kind: batchrelease.Deployment, Name: "web", Generation: 2, ObservedGeneration: 2, Replicas: 10,
		Controlled: true, Partition: &fifty,
		Status: batchrelease.WorkloadStatus{Replicas: 10, UpdatedReplicas: 5, UpdatedReadyReplicas: 5, UpdateRevision: "v2", StableRevision: "v1"}}
	second := int32(1)
	rel := &batchrelease.Release{Name: "web", BatchPartition: &second,
		Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("50%")}, {CanaryReplicas: intorpercent.FromInt(8)}},
		Status: batchrelease.ReleaseStatus{Phase: batchrelease.Progressing, CurrentBatch: 1, BatchState: batchrelease.Upgrading,
			ObservedWorkloadReplicas: 10, UpdatedReplicas: 5, UpdatedReadyReplicas: 5, UpdateRevision: "v2", StableRevision: "v1"}}
	upstream, _ := batchrelease.Plan(rel, w, now)
	fixed, _ := batchrelease.PlanWith(rel, w, now, batchrelease.Options{CompareDeploymentPartitionsOnReplicas: true})
	fmt.Println("upstream:", len(upstream.Actions)-1, "workload writes")
	fmt.Println("option:", fixed.Actions[0].Reason)
	// Output:
	// upstream: 0 workload writes
	// option: batch 1 lets the new ReplicaSet have 8 pods (8 of 10)
}

func ExamplePlanner() {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	w := &batchrelease.Workload{Kind: batchrelease.CloneSet, Name: "demo", Generation: 2, ObservedGeneration: 2, Replicas: 10, Controlled: true,
		Status: batchrelease.WorkloadStatus{Replicas: 10, ReadyReplicas: 9, UpdatedReplicas: 2, UpdatedReadyReplicas: 1, UpdateRevision: "v2", StableRevision: "v1"}}
	first := int32(0)
	rel := &batchrelease.Release{Name: "demo", BatchPartition: &first, Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("20%")}},
		Status: batchrelease.ReleaseStatus{Phase: batchrelease.Progressing, BatchState: batchrelease.Verifying, ObservedWorkloadReplicas: 10,
			UpdatedReplicas: 2, UpdatedReadyReplicas: 1, UpdateRevision: "v2", StableRevision: "v1"}}
	// A Planner reuses its memory from reconcile to reconcile and writes
	// reasons only when asked.
	var p batchrelease.Planner
	s, _ := p.Plan(rel, w, now)
	fmt.Printf("%v %q\n", s.Readiness, s.Reason)
	p.Explain(&s)
	fmt.Println(s.Reason)
	// Output:
	// TooFewUpdatedReady ""
	// batch 0 is not ready: current batch not ready: updated ready replicas not satisfied, allowedUnavailable + UpdatedReadyReplicas 1 < DesiredUpdatedReplicas 2
}

func ExampleSimulate() {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	v1 := json.RawMessage(`{"spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}`)
	r1, _ := cloneset.NewRevision("demo", v1, 1, 0)
	var pods []cloneset.Pod
	for i := range 10 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%d", i), Revision: r1.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: start.Add(-time.Hour), CreationTime: start.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	// kubectl set image: the CloneSet has its new template.
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 2, Replicas: 10,
		Template: json.RawMessage(`{"spec":{"containers":[{"name":"main","image":"nginx:1.26"}]}}`),
		Status: cloneset.Status{ObservedGeneration: 1, Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, UpdatedReplicas: 10,
			UpdatedReadyReplicas: 10, UpdatedAvailableReplicas: 10, CurrentRevision: r1.Name, UpdateRevision: r1.Name}}
	rel := &batchrelease.Release{Name: "demo", RolloutID: "v2", Batches: []batchrelease.Batch{
		{CanaryReplicas: intorpercent.FromString("20%")}, {CanaryReplicas: intorpercent.FromString("50%")}, {CanaryReplicas: intorpercent.FromString("100%")}}}
	minute := int32(60)
	tr, err := batchrelease.Simulate(rel, cs, pods, []cloneset.ControllerRevision{r1},
		batchrelease.Config{Start: start, ReadyDelay: 10 * time.Second, Pauses: []batchrelease.Pause{{Duration: &minute}, {Duration: &minute}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		if s.State == batchrelease.Ready && s.Phase == batchrelease.Progressing {
			fmt.Printf("+%v batch %d ready: %d of %d pods updated, partition %s\n", s.Elapsed, s.Batch, s.Updated, s.Replicas, s.Partition)
		}
	}
	fmt.Println(tr.Outcome, "after", tr.Syncs, "syncs")
	// Output:
	// +24s batch 0 ready: 2 of 10 pods updated, partition 80%
	// +2m2s batch 1 ready: 5 of 10 pods updated, partition 50%
	// +3m52s batch 2 ready: 10 of 10 pods updated, partition 0%
	// OutcomeComplete after 118 syncs
}
