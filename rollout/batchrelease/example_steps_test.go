package batchrelease_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func ExampleSimulateDeployment() {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	surge, unavailable := intorpercent.FromString("25%"), intorpercent.FromString("25%")
	d := &batchrelease.AdvancedDeployment{Name: "web", Replicas: 10, NewReplicaSet: "web-v2",
		Strategy: batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}}}
	ten := int32(10)
	rss := []batchrelease.ReplicaSet{{Name: "web-v1", Revision: "1", CreationTime: start.Add(-time.Hour),
		Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, DesiredReplicas: &ten}}
	rel := &batchrelease.Release{Name: "web", Batches: []batchrelease.Batch{
		{CanaryReplicas: intorpercent.FromString("20%")}, {CanaryReplicas: intorpercent.FromString("50%")}, {CanaryReplicas: intorpercent.FromString("100%")}}}
	tr, err := batchrelease.SimulateDeployment(rel, d, rss, batchrelease.Config{Start: start, ReadyDelay: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		for _, w := range s.WorkloadWrites {
			fmt.Printf("batch %d: %s\n", s.Batch, w)
		}
	}
	fmt.Println(tr.Outcome)
	// Output:
	// batch 0: create web-v2 with 0 replicas
	// batch 0: scale web-v2 0->2 (ScaleNewReplicaSet)
	// batch 0: scale web-v1 10->8 (ScaleDownOldReplicaSet)
	// batch 1: scale web-v2 2->5 (ScaleNewReplicaSet)
	// batch 1: scale web-v1 8->6 (ScaleDownOldReplicaSet)
	// batch 1: scale web-v1 6->5 (ScaleDownOldReplicaSet)
	// batch 2: scale web-v2 5->8 (ScaleNewReplicaSet)
	// batch 2: scale web-v1 5->3 (ScaleDownOldReplicaSet)
	// batch 2: scale web-v2 8->10 (ScaleNewReplicaSet)
	// batch 2: scale web-v1 3->0 (ScaleDownOldReplicaSet)
	// OutcomeComplete
}

func ExampleValidate() {
	three, two := intorpercent.FromInt(3), intorpercent.FromInt(2)
	ro := &batchrelease.Rollout{Name: "demo", WorkloadKind: batchrelease.CloneSet,
		Canary: &batchrelease.Strategy{Steps: []batchrelease.CanaryStep{{Replicas: &three}, {Replicas: &two}}}}
	fmt.Println(batchrelease.Validate(ro))
	// A count and a percent are not compared: ["50%", 2] passes.
	half := intorpercent.FromString("50%")
	ro.Canary.Steps[0].Replicas = &half
	fmt.Println(batchrelease.Validate(ro))
	// Output:
	// Spec.Strategy.Canary.Steps.CanaryReplicas: Invalid value: Steps.CanaryReplicas must be a non decreasing sequence
	// <nil>
}

func ExampleValidateSteps() {
	sixty, traffic := intorpercent.FromString("60%"), "10%"
	steps := []batchrelease.CanaryStep{{Replicas: &sixty, Traffic: &traffic}}
	fmt.Println(batchrelease.ValidateSteps(steps, batchrelease.Partition, "Spec.Strategy.Canary.Steps"))
	fmt.Println(batchrelease.ValidateSteps(steps, batchrelease.Canary, "Spec.Strategy.Canary.Steps"))
	// Output:
	// Spec.Strategy.Canary.Steps[0].steps: Invalid value: For partition style rollout: step[x].replicas must not greater than partition-percent-limit if traffic specified
	// <nil>
}

func ExampleValidationStyle() {
	steps := &batchrelease.Strategy{EnableExtraWorkloadForCanary: true}
	fmt.Println(batchrelease.ValidationStyle(&batchrelease.Rollout{WorkloadKind: batchrelease.Deployment, Canary: steps}))
	fmt.Println(batchrelease.ValidationStyle(&batchrelease.Rollout{WorkloadKind: batchrelease.CloneSet, Canary: steps}))
	// Output:
	// Canary
	// Partition
}

func ExampleBatchReplicas() {
	rel := &batchrelease.Release{Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("33%")}, {CanaryReplicas: intorpercent.FromString("abc")}}}
	n, _ := batchrelease.BatchReplicas(rel, 10, 0)
	bad, _ := batchrelease.BatchReplicas(rel, 10, 1)
	_, err := batchrelease.BatchReplicas(rel, 10, 2)
	fmt.Println(n, bad)
	fmt.Println(err)
	// Output:
	// 4 0
	// batchrelease: currentBatch: 2: must index spec.releasePlan.batches (2 batches)
}

func ExamplePercentPartition() {
	batch := intorpercent.FromString("99%")
	fmt.Println(batchrelease.PercentPartition(98, 99, batch)) // upstream's comment says 97%
	fmt.Println(batchrelease.PercentPartition(1, 200, batch)) // 0% would update every pod
	fmt.Println(batchrelease.PercentPartition(1, 200, intorpercent.FromString("100%")))
	// Output:
	// 98%
	// 1%
	// 0%
}

func ExampleIsCurrentMoreThanOrEqualToDesired() {
	fmt.Println(batchrelease.IsCurrentMoreThanOrEqualToDesired(intorpercent.FromString("50%"), intorpercent.FromInt(8)))
	fmt.Println(batchrelease.IsCurrentMoreThanOrEqualToDesired(intorpercent.FromInt(5), intorpercent.FromString("50%")))
	// Output:
	// true
	// false
}

func ExampleBatchContext_IsBatchReady() {
	threshold := intorpercent.FromString("10%")
	c := batchrelease.BatchContext{DesiredUpdatedReplicas: 10, UpdatedReplicas: 10, UpdatedReadyReplicas: 8, FailureThreshold: &threshold}
	fmt.Println(c.IsBatchReady(), "-", c.IsBatchReady().Message(&c))
	// One more updated pod raises the tolerance: 10% of 11 rounds up to 2.
	c.UpdatedReplicas = 11
	fmt.Println(c.IsBatchReady())
	// Output:
	// TooFewUpdatedReady - current batch not ready: updated ready replicas not satisfied, allowedUnavailable + UpdatedReadyReplicas 9 < DesiredUpdatedReplicas 10
	// BatchReady
}

func ExampleReadiness_Message() {
	c := batchrelease.BatchContext{DesiredUpdatedReplicas: 5, UpdatedReplicas: 3}
	fmt.Println(c.IsBatchReady().Message(&c))
	// Output:
	// current batch not ready: updated replicas not satisfied, UpdatedReplicas 3 < DesiredUpdatedReplicas 5
}

func ExampleAllowedUnavailable() {
	threshold := intorpercent.FromString("20%")
	fmt.Println(batchrelease.AllowedUnavailable(&threshold, 5), batchrelease.AllowedUnavailable(&threshold, 6), batchrelease.AllowedUnavailable(nil, 6))
	// Output:
	// 1 2 0
}

func ExampleCalculateBatchContext() {
	rel := &batchrelease.Release{RollingStyle: batchrelease.Canary, Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("99%")}}}
	// The Canary style applies to Deployments only; a CloneSet is released
	// by its partition.
	cs, _ := batchrelease.CalculateBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.CloneSet, Replicas: 2})
	d, _ := batchrelease.CalculateBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.Deployment, Replicas: 2})
	fmt.Println(cs.DesiredPartition, cs.DesiredUpdatedReplicas, d.DesiredUpdatedReplicas)
	// Output:
	// 0% 2 2
}

func ExampleCloneSetBatchContext() {
	n := int32(10)
	rel := &batchrelease.Release{Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("20%")}},
		Status: batchrelease.ReleaseStatus{NoNeedUpdateReplicas: &n}}
	c, _ := batchrelease.CloneSetBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.CloneSet, Replicas: 20})
	fmt.Println(c.PlannedUpdatedReplicas, c.DesiredUpdatedReplicas, c.DesiredPartition)
	// Output:
	// 4 12 40%
}

func ExampleStatefulSetBatchContext() {
	n := int32(10)
	rel := &batchrelease.Release{Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("20%")}},
		Status: batchrelease.ReleaseStatus{NoNeedUpdateReplicas: &n}}
	ordered, _ := batchrelease.StatefulSetBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.StatefulSet, Replicas: 20})
	unordered, _ := batchrelease.StatefulSetBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.AdvancedStatefulSet, UnorderedUpdate: true, Replicas: 20})
	fmt.Println(ordered.DesiredPartition, ordered.DesiredUpdatedReplicas, unordered.DesiredPartition, unordered.DesiredUpdatedReplicas)
	// Output:
	// 18 12 8 12
}

func ExampleDeploymentBatchContext() {
	rel := &batchrelease.Release{Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("90%")}}}
	c, _ := batchrelease.DeploymentBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.Deployment, Replicas: 5})
	fmt.Println(c.DesiredPartition, c.PlannedUpdatedReplicas)
	// Output:
	// 90% 4
}

func ExampleCanaryBatchContext() {
	rel := &batchrelease.Release{RollingStyle: batchrelease.Canary, Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("30%")}}}
	c, _ := batchrelease.CanaryBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.Deployment, Replicas: 10,
		Canary: &batchrelease.CanaryDeployment{Replicas: 3, StatusReplicas: 3, AvailableReplicas: 2}})
	fmt.Println(c.DesiredUpdatedReplicas, c.UpdatedReplicas, c.UpdatedReadyReplicas, c.IsBatchReady())
	// Output:
	// 3 3 2 TooFewUpdatedReady
}

func ExampleBlueGreenBatchContext() {
	one := intorpercent.FromInt(1)
	rel := &batchrelease.Release{RollingStyle: batchrelease.BlueGreen, Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("99%")}}}
	cs, _ := batchrelease.BlueGreenBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.CloneSet, Replicas: 10, MaxSurge: &one})
	d, _ := batchrelease.BlueGreenBatchContext(rel, &batchrelease.Workload{Kind: batchrelease.Deployment, Replicas: 10})
	fmt.Println(cs.CurrentSurge, cs.DesiredUpdatedReplicas, d.DesiredUpdatedReplicas)
	// Output:
	// 0 10 9
}

func ExampleNewRSReplicasLimit() {
	fmt.Println(batchrelease.NewRSReplicasLimit(intorpercent.FromString("99%"), 2), batchrelease.NewRSReplicasLimit(intorpercent.FromString("100%"), 2),
		batchrelease.NewRSReplicasLimit(intorpercent.FromInt(5), 3))
	// Output:
	// 1 2 3
}

func ExampleNewRSNewReplicas() {
	s := intorpercent.FromInt(2)
	strategy := batchrelease.DeploymentStrategy{Partition: intorpercent.FromInt(3), RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: &s}}
	old := batchrelease.ReplicaSet{Name: "web-v1", Replicas: 10}
	cur := batchrelease.ReplicaSet{Name: "web-v2"}
	fmt.Println(batchrelease.NewRSNewReplicas(10, []batchrelease.ReplicaSet{old, cur}, cur, strategy))
	// Only the new ReplicaSet has pods: the partition no longer binds.
	cur.Replicas = 2
	fmt.Println(batchrelease.NewRSNewReplicas(10, []batchrelease.ReplicaSet{cur}, cur, strategy))
	// Output:
	// 2
	// 10
}

func ExampleScaleDownLimitForOld() {
	old := []batchrelease.ReplicaSet{{Name: "a", Replicas: 2}, {Name: "b", Replicas: 2}, {Name: "c", Replicas: 2}}
	fmt.Println(batchrelease.ScaleDownLimitForOld(old, batchrelease.ReplicaSet{Name: "new", Replicas: 5}, 10, intorpercent.FromInt(5)))
	fmt.Println(batchrelease.ScaleDownLimitForOld(old, batchrelease.ReplicaSet{Name: "new", Replicas: 2}, 10, intorpercent.FromInt(2)))
	// Output:
	// 1
	// -2
}

func ExampleResolveFenceposts() {
	q, zero := intorpercent.FromString("25%"), intorpercent.FromString("0%")
	fmt.Println(batchrelease.ResolveFenceposts(&q, &q, 10))
	fmt.Println(batchrelease.ResolveFenceposts(&zero, &zero, 3))
	// Output:
	// 3 2 true
	// 0 1 true
}

func ExampleMaxSurge() {
	q := intorpercent.FromString("25%")
	s := &batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: &q, MaxUnavailable: &q}}
	fmt.Println(batchrelease.MaxSurge(10, s), batchrelease.MaxUnavailable(10, s), batchrelease.MaxSurge(10, &batchrelease.DeploymentStrategy{}))
	// Output:
	// 3 2 0
}

func ExampleMaxUnavailable() {
	big := intorpercent.FromInt(7)
	s := &batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxUnavailable: &big}}
	fmt.Println(batchrelease.MaxUnavailable(5, s), batchrelease.MaxUnavailable(0, s))
	// Output:
	// 5 0
}

func ExampleNewRSReplicasLowerBound() {
	one := intorpercent.FromInt(1)
	fmt.Println(batchrelease.NewRSReplicasLowerBound(5, &batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxUnavailable: &one}}),
		batchrelease.NewRSReplicasLowerBound(5, &batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: &one}}))
	// Output:
	// 1 0
}

func ExampleDefaultDeploymentStrategy() {
	unavailable := intorpercent.FromInt(2)
	// maxSurge nil: upstream writes its "25%" default into maxUnavailable.
	s := batchrelease.DefaultDeploymentStrategy(batchrelease.DeploymentStrategy{RollingStyle: batchrelease.Partition,
		RollingUpdate: &batchrelease.RollingUpdate{MaxUnavailable: &unavailable}})
	fmt.Println(s.RollingUpdate.MaxSurge, s.RollingUpdate.MaxUnavailable)
	// Output:
	// <nil> 25%
}

func ExampleSyncAdvancedDeployment() {
	q := intorpercent.FromString("25%")
	d := &batchrelease.AdvancedDeployment{Name: "web", Replicas: 10, NewReplicaSet: "web-v2",
		Strategy: batchrelease.DeploymentStrategy{Partition: intorpercent.FromString("50%"), RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: &q, MaxUnavailable: &q}}}
	rss := []batchrelease.ReplicaSet{
		{Name: "web-v1", Revision: "1", Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "web-v2", Revision: "2", Replicas: 3, StatusReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3},
	}
	round, _ := batchrelease.SyncAdvancedDeployment(d, rss, time.Time{})
	for _, w := range round.Writes {
		fmt.Println(w.Step, w.Name, w.From, "->", w.To)
	}
	// Output:
	// ScaleDownOldReplicaSet web-v1 10 -> 5
}

func ExampleReconcileOldReplicaSets() {
	// The old ReplicaSets hold fewer pods than the partition keeps: the
	// biggest one is scaled back up.
	d := &batchrelease.AdvancedDeployment{Name: "web", Replicas: 10, NewReplicaSet: "web-v3",
		Strategy: batchrelease.DeploymentStrategy{Partition: intorpercent.FromInt(3)}}
	rss := []batchrelease.ReplicaSet{
		{Name: "web-v1", Revision: "1", Replicas: 3, AvailableReplicas: 3},
		{Name: "web-v2", Revision: "2"},
		{Name: "web-v3", Revision: "3", Replicas: 3, AvailableReplicas: 3},
	}
	round, _ := batchrelease.ReconcileOldReplicaSets(d, rss)
	for _, w := range round.Writes {
		fmt.Println(w.Step, w.Name, w.From, "->", w.To)
	}
	// Output:
	// ScaleUpOldReplicaSet web-v1 3 -> 7
}

func ExampleReleaseFor() {
	twenty, half, all, minute := intorpercent.FromString("20%"), intorpercent.FromString("50%"), intorpercent.FromString("100%"), int32(60)
	ro := &batchrelease.Rollout{Name: "demo", WorkloadKind: batchrelease.CloneSet, CurrentStepIndex: 2,
		Canary: &batchrelease.Strategy{Steps: []batchrelease.CanaryStep{
			{Replicas: &twenty, Pause: batchrelease.Pause{Duration: &minute}}, {Replicas: &half}, {Replicas: &all}}}}
	rel, err := batchrelease.ReleaseFor(ro)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rel.Batches, *rel.BatchPartition, rel.RollingStyle)
	// Output:
	// [{20%} {50%} {100%}] 1 Partition
}

func ExampleRollingStyleOf() {
	ro := &batchrelease.Rollout{WorkloadKind: batchrelease.CloneSet, Canary: &batchrelease.Strategy{EnableExtraWorkloadForCanary: true}}
	// The Rollout writes Canary; the BatchRelease controller releases a
	// CloneSet by its partition all the same.
	fmt.Println(batchrelease.RollingStyleOf(ro), batchrelease.ValidationStyle(ro))
	// Output:
	// Canary Partition
}

func ExampleTrace_String() {
	two := int32(2)
	d := &batchrelease.AdvancedDeployment{Name: "web", Replicas: 2, NewReplicaSet: "web-v2",
		Strategy: batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{}}}
	rss := []batchrelease.ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: 2, StatusReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, DesiredReplicas: &two}}
	rel := &batchrelease.Release{Name: "web", Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("100%")}}}
	tr, _ := batchrelease.SimulateDeployment(rel, d, rss, batchrelease.Config{})
	// With maxSurge 0 the new ReplicaSet is created with one pod even at
	// partition 0 (NewRSReplicasLowerBound).
	fmt.Println(tr.String())
	// Output:
	// sync 1 (+2s): Preparing batch 0 (no state) | replicas 2 pods 2 updated 0 updatedReady 0 ready 2 old 2 | status refreshed from the workload (updated 0, ready 0): requeue
	// sync 2 (+4s): Progressing batch 0 (no state) | replicas 2 pods 2 updated 1 updatedReady 1 ready 2 old 1 partition 0; create web-v2 with 1 replicas; scale web-v1 2->1 (ScaleDownOldReplicaSet) | the release controls the workload (stable "web-v1", update "web-v2"): start batch 0
	// sync 3 (+6s): Progressing batch 0 (no state) | replicas 2 pods 2 updated 1 updatedReady 1 ready 2 old 1 partition 0 | status refreshed from the workload (updated 1, ready 1): requeue
	// sync 4 (+8s): Progressing batch 0 Verifying, planned 2 desired 2 | replicas 2 pods 1 updated 1 updatedReady 1 ready 1 old 0 partition 100%; scale web-v1 1->0 (ScaleDownOldReplicaSet) | phase Progressing, batch 0 Verifying
	// sync 5 (+10s): Progressing batch 0 Upgrading, planned 2 desired 2 | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 partition 100%; scale web-v2 1->2 (ScaleNewReplicaSet) | batch 0 is not ready: current batch not ready: updated replicas not satisfied, UpdatedReplicas 1 < DesiredUpdatedReplicas 2
	// sync 6 (+12s): Progressing batch 0 Upgrading | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 partition 100% | status refreshed from the workload (updated 2, ready 2): requeue
	// sync 7 (+14s): Progressing batch 0 Verifying, planned 2 desired 2 | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 partition 100% | phase Progressing, batch 0 Verifying
	// sync 8 (+16s): Progressing batch 0 Ready, planned 2 desired 2 | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 partition 100% | batch 0 is ready
	// sync 9 (+18s): Finalizing batch 0 Ready | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 partition 100% | the release plan has no batch partition or is finalizing: finalize (status written; requeue)
	// sync 10 (+20s): Completed batch 0 Ready | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 | the release plan has no batch partition or is finalizing: finalize; the release is completed: the workload is handed back
	// OutcomeComplete after 10 syncs
}

// One step on one line: the sync, the release's state, the workload
// after it, the reason.
func ExampleStep_String() {
	two := int32(2)
	d := &batchrelease.AdvancedDeployment{Name: "web", Replicas: 2, NewReplicaSet: "web-v2",
		Strategy: batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{}}}
	rss := []batchrelease.ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: 2, StatusReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, DesiredReplicas: &two}}
	rel := &batchrelease.Release{Name: "web", Batches: []batchrelease.Batch{{CanaryReplicas: intorpercent.FromString("100%")}}}
	tr, err := batchrelease.SimulateDeployment(rel, d, rss, batchrelease.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Steps[len(tr.Steps)-1].String())
	// Output: sync 10 (+20s): Completed batch 0 Ready | replicas 2 pods 2 updated 2 updatedReady 2 ready 2 old 0 | the release plan has no batch partition or is finalizing: finalize; the release is completed: the workload is handed back
}
