package batchrelease

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// steadyState is a CloneSet release verifying batch 1 of 3, with pods
// labelled: the reconcile a controller repeats most.
func steadyState() (*Release, *Workload) {
	rel := releaseOf("20%", "50%", "100%")
	rel.RolloutID = "v2"
	rel.BatchPartition = i32(1)
	rel.Status = ReleaseStatus{Phase: Progressing, CurrentBatch: 1, BatchState: Verifying, ObservedWorkloadReplicas: 100,
		ObservedRolloutID: "v2", UpdatedReplicas: 50, UpdatedReadyReplicas: 40, UpdateRevision: "v2", StableRevision: "v1"}
	p := intorpercent.FromString("50%")
	w := &Workload{Kind: CloneSet, Name: "demo", Generation: 3, ObservedGeneration: 3, Replicas: 100, Controlled: true, Partition: &p,
		Status: WorkloadStatus{Replicas: 100, ReadyReplicas: 90, UpdatedReplicas: 50, UpdatedReadyReplicas: 40, UpdateRevision: "v2", StableRevision: "v1",
			Pods: &PodCounts{Listed: 100, RolloutIDLabeled: 50}}}
	return rel, w
}

func TestPlannerSteadyStateDoesNotAllocate(t *testing.T) {
	rel, w := steadyState()
	var p Planner
	for range 3 {
		if _, err := p.Plan(rel, w, simStart); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = p.Plan(rel, w, simStart) }); n != 0 {
		t.Errorf("Planner.Plan allocates %v times per call, want 0", n)
	}
	up := *rel
	up.Status.BatchState = Upgrading
	if n := testing.AllocsPerRun(100, func() { _, _ = p.Plan(&up, w, simStart) }); n != 0 {
		t.Errorf("Planner.Plan (Upgrading) allocates %v times per call, want 0", n)
	}
}

func TestStepFunctionsDoNotAllocate(t *testing.T) {
	rel, w := steadyState()
	b := intorpercent.FromString("33%")
	c, _ := CloneSetBatchContext(rel, w)
	for name, f := range map[string]func(){
		"BatchReplicas":    func() { _, _ = BatchReplicas(rel, 100, 1) },
		"PercentPartition": func() { _ = PercentPartition(37, 101, b) },
		"IsCurrentMoreThanOrEqualToDesired": func() {
			_ = IsCurrentMoreThanOrEqualToDesired(b, intorpercent.FromInt(8))
		},
		"NewRSReplicasLimit":   func() { _ = NewRSReplicasLimit(b, 100) },
		"CloneSetBatchContext": func() { _, _ = CloneSetBatchContext(rel, w) },
		"IsBatchReady":         func() { _ = c.IsBatchReady() },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
}

func BenchmarkPlannerPlan(b *testing.B) {
	rel, w := steadyState()
	var p Planner
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Plan(rel, w, simStart); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlan(b *testing.B) {
	rel, w := steadyState()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Plan(rel, w, simStart); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPercentPartition(b *testing.B) {
	batch := intorpercent.FromString("50%")
	b.ReportAllocs()
	for b.Loop() {
		for s := int32(1); s < 1000; s += 37 {
			_ = PercentPartition(s, 1000, batch)
		}
	}
}

func BenchmarkSimulateCloneSet(b *testing.B) {
	cs, pods, revs := demoCloneSet(b, 10)
	rel := releaseOf("20%", "50%", "100%")
	rel.RolloutID = "v2"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Simulate(rel, cs, pods, revs, Config{Start: simStart, ReadyDelay: 10e9}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSimulateDeployment(b *testing.B) {
	rel := releaseOf("20%", "50%", "100%")
	d := &AdvancedDeployment{Name: "web", Replicas: 10, NewReplicaSet: "web-v2",
		Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp("25%"), MaxUnavailable: isp("25%")}}}
	rss := []ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, DesiredReplicas: i32(10)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SimulateDeployment(rel, d, rss, Config{Start: simStart, ReadyDelay: 10e9}); err != nil {
			b.Fatal(err)
		}
	}
}
