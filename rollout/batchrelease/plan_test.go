package batchrelease

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// progressing returns a release at batch i in state, controlled, with
// the status already refreshed from w (so the reconcile executes).
func progressing(rel *Release, w *Workload, i int32, state BatchState) *Release {
	rel.Name = "demo"
	rel.BatchPartition = ptr(i)
	rel.Status = ReleaseStatus{Phase: Progressing, CurrentBatch: i, BatchState: state, ObservedWorkloadReplicas: w.Replicas,
		ObservedRolloutID: rel.RolloutID, UpdatedReplicas: w.Status.UpdatedReplicas, UpdatedReadyReplicas: w.Status.UpdatedReadyReplicas,
		UpdateRevision: w.Status.UpdateRevision, StableRevision: w.Status.StableRevision}
	return rel
}

func workload(kind Kind, replicas, updated, ready int32) *Workload {
	return &Workload{Kind: kind, Name: "web", Generation: 2, ObservedGeneration: 2, Replicas: replicas, Controlled: true,
		Status: WorkloadStatus{Replicas: replicas, ReadyReplicas: replicas, UpdatedReplicas: updated, UpdatedReadyReplicas: ready,
			UpdateRevision: "v2", StableRevision: "v1"}}
}

func kinds(s Sync) string {
	var out []string
	for _, a := range s.Actions {
		out = append(out, a.Kind.String())
	}
	return strings.Join(out, " ")
}

func TestPlanCloneSetUpgradeWritesPercentPartition(t *testing.T) {
	w := workload(CloneSet, 10, 0, 0)
	w.Partition = isp("100%")
	rel := progressing(releaseOf("20%", "50%", "100%"), w, 0, Upgrading)
	s, err := Plan(rel, w, simStart)
	if err != nil {
		t.Fatal(err)
	}
	if kinds(s) != "WritePartition WriteStatus" || *s.Actions[0].Partition != is("80%") || *s.Workload.Partition != is("80%") {
		t.Fatalf("actions %s, partition %v; want WritePartition 80%%", kinds(s), s.Workload.Partition)
	}
	if s.Release.Status.BatchState != Verifying || !s.Requeue || s.RequeueAfter != DefaultRequeue {
		t.Errorf("status %+v requeue %v %v; want Verifying, requeue 2s", s.Release.Status, s.Requeue, s.RequeueAfter)
	}
	want := "batch 0 keeps 8 pods old (partition 80%, was 10), so 2 are updated"
	if s.Actions[0].Reason != want {
		t.Errorf("reason %q, want %q", s.Actions[0].Reason, want)
	}
	// Partitions only go down: a partition already at 50% is not raised.
	w.Partition = isp("50%")
	s, _ = Plan(rel, w, simStart)
	if kinds(s) != "WriteStatus" {
		t.Errorf("partition 50%% before batch 0: actions %s, want only the status", kinds(s))
	}
}

func TestPlanStatefulSetPartitionIsACount(t *testing.T) {
	w := workload(StatefulSet, 10, 0, 0)
	w.Partition = isp(32767)
	rel := progressing(releaseOf("20%", "100%"), w, 0, Upgrading)
	s, err := Plan(rel, w, simStart)
	if err != nil || kinds(s) != "WritePartition WriteStatus" || *s.Actions[0].Partition != is(8) {
		t.Fatalf("got %s %v, %v; want WritePartition 8", kinds(s), s.Actions, err)
	}
}

func TestCase56BlueGreenPlanPatchesSurge(t *testing.T) {
	w := workload(CloneSet, 10, 0, 0)
	w.MaxSurge = isp(1)
	rel := releaseOf("10%", "100%")
	rel.RollingStyle = BlueGreen
	rel = progressing(rel, w, 0, Upgrading)
	s, err := Plan(rel, w, simStart)
	if err != nil {
		t.Fatal(err)
	}
	if kinds(s) != "WriteMaxSurge WriteStatus" || *s.Actions[0].MaxSurge != is("10%") || !s.Actions[0].ClearPartition {
		t.Fatalf("got %s %+v; want WriteMaxSurge 10%% with the partition cleared", kinds(s), s.Actions)
	}
}

func TestPlanCanaryStyleScalesTheCanaryDeployment(t *testing.T) {
	w := workload(Deployment, 10, 0, 0)
	w.Canary = &CanaryDeployment{Name: "web-canary"}
	rel := releaseOf("20%", "100%")
	rel.RollingStyle = Canary
	rel = progressing(rel, w, 0, Upgrading)
	s, err := Plan(rel, w, simStart)
	if err != nil || kinds(s) != "ScaleCanaryDeployment WriteStatus" || s.Actions[0].Replicas != 2 || s.Workload.Canary.Replicas != 2 {
		t.Fatalf("got %s %+v, %v; want ScaleCanaryDeployment 2", kinds(s), s.Actions, err)
	}
	if w.Canary.Replicas != 0 {
		t.Errorf("Plan modified the input canary Deployment")
	}
	// Canary on a CloneSet is released as Partition.
	cw := workload(CloneSet, 10, 0, 0)
	cw.Partition = isp("100%")
	rel2 := releaseOf("20%")
	rel2.RollingStyle = Canary
	s, _ = Plan(progressing(rel2, cw, 0, Upgrading), cw, simStart)
	if kinds(s) != "WritePartition WriteStatus" {
		t.Errorf("canary style on a CloneSet: %s, want the partition style", kinds(s))
	}
}

// TestCase54MixedKindsStallDeployment is K3: on a Deployment, steps
// ["50%", 8] never patch the partition for the second batch, because
// "50%" scaled on 10,000,000 reaches 8; Options.CompareDeploymentPartitionsOnReplicas
// compares on the Deployment's replicas instead.
func TestCase54MixedKindsStallDeployment(t *testing.T) {
	w := workload(Deployment, 10, 5, 5)
	w.Partition = isp("50%")
	rel := progressing(releaseOf("50%", 8), w, 1, Upgrading)
	s, err := Plan(rel, w, simStart)
	if err != nil || kinds(s) != "WriteStatus" {
		t.Fatalf("upstream: %s, %v; want no partition write", kinds(s), err)
	}
	// Verifying then finds 5 updated of 8 wanted, forever.
	v := progressing(releaseOf("50%", 8), w, 1, Verifying)
	s, _ = Plan(v, w, simStart)
	if s.Readiness != TooFewUpdated {
		t.Errorf("upstream verifying: %v, want TooFewUpdated", s.Readiness)
	}
	s, err = PlanWith(rel, w, simStart, Options{CompareDeploymentPartitionsOnReplicas: true})
	if err != nil || kinds(s) != "WritePartition WriteStatus" || *s.Actions[0].Partition != is(8) {
		t.Fatalf("with the option: %s %+v, %v; want WritePartition 8", kinds(s), s.Actions, err)
	}
}

// TestFailureThresholdFallbackOption is K6: with no failureThreshold,
// upstream tolerates no unready pod; the option tolerates the workload's
// maxUnavailable (of the updated pods).
func TestFailureThresholdFallbackOption(t *testing.T) {
	w := workload(CloneSet, 10, 5, 4)
	w.MaxUnavailable = isp("20%")
	w.Partition = isp("50%")
	rel := progressing(releaseOf("50%", "100%"), w, 0, Verifying)
	s, err := Plan(rel, w, simStart)
	if err != nil || s.Readiness != TooFewUpdatedReady || s.Ready {
		t.Fatalf("upstream: %v ready=%v, %v; want TooFewUpdatedReady", s.Readiness, s.Ready, err)
	}
	s, err = PlanWith(rel, w, simStart, Options{FailureThresholdFallback: true})
	if err != nil || s.Readiness != BatchReady || !s.Ready {
		t.Fatalf("with the option: %v ready=%v, %v; want ready (ceil(20%% of 5) = 1 unready allowed)", s.Readiness, s.Ready, err)
	}
}

func TestPlanMovesToNextBatchOnlyPastTheBatchPartition(t *testing.T) {
	w := workload(CloneSet, 10, 2, 2)
	w.Partition = isp("80%")
	rel := progressing(releaseOf("20%", "100%"), w, 0, Ready)
	s, _ := Plan(rel, w, simStart)
	if s.Release.Status.CurrentBatch != 0 || s.Release.Status.BatchState != Ready || s.Reason != "batch 0 is ready; the batch partition holds the release here" {
		t.Errorf("held: %+v %q", s.Release.Status, s.Reason)
	}
	rel.BatchPartition = ptr(int32(1))
	s, _ = Plan(rel, w, simStart)
	if s.Release.Status.CurrentBatch != 1 || s.Release.Status.BatchState != Upgrading || s.Reason != "batch 0 is ready: move to batch 1" {
		t.Errorf("moved: %+v %q", s.Release.Status, s.Reason)
	}
}

func TestPlanErrors(t *testing.T) {
	w := workload(CloneSet, 10, 0, 0)
	tests := []struct {
		name string
		rel  *Release
		w    *Workload
		want string
		kind error
	}{
		{"nil release", nil, w, "batchrelease: release: must not be nil", field.ErrRequired},
		{"nil workload", releaseOf(1), nil, "batchrelease: workload: must not be nil", field.ErrRequired},
		{"no batches", &Release{Name: "demo"}, w, `batchrelease: invalid BatchRelease "demo": spec.releasePlan.batches: must not be empty`, field.ErrRequired},
		{"negative batch", &Release{Name: "demo", Batches: []Batch{{}}, Status: ReleaseStatus{CurrentBatch: -1}}, w,
			`batchrelease: invalid BatchRelease "demo": status.canaryStatus.currentBatch: -1: must not be negative`, field.ErrNegative},
		{"negative replicas", releaseOf(1), &Workload{Kind: CloneSet, Name: "web", Replicas: -2},
			`batchrelease: invalid CloneSet "web": spec.replicas: -2: must not be negative`, field.ErrNegative},
		{"no kind", releaseOf(1), &Workload{Name: "web"}, `batchrelease: invalid Kind(0) "web": kind: 0: unknown kind`, field.ErrUnsupported},
	}
	for _, tt := range tests {
		if tt.rel != nil && tt.rel.Name == "" {
			tt.rel.Name = "demo"
		}
		_, err := Plan(tt.rel, tt.w, simStart)
		if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) || !errors.Is(err, tt.kind) {
			t.Errorf("%s: Plan error %v, want %q wrapping %v", tt.name, err, tt.want, tt.kind)
		}
	}
}

func TestJSONUsesCRDNamesAndEnumNames(t *testing.T) {
	rel := releaseOf("20%", 5)
	rel.RollingStyle = BlueGreen
	rel.Status.BatchState = Verifying
	rel.Status.Phase = Progressing
	b, err := json.Marshal(rel)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"demo","generation":0,"workloadKind":"","batches":[{"canaryReplicas":"20%"},{"canaryReplicas":5}],"rollingStyle":"BlueGreen","status":{"phase":"Progressing","currentBatch":0,"batchState":"Verifying"}}`
	if string(b) != want {
		t.Errorf("json %s\nwant %s", b, want)
	}
	var back Release
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, rel) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	var k Kind
	if err := k.UnmarshalText([]byte("Daemon")); err == nil || err.Error() != `batchrelease: Kind: "Daemon": unknown name` || !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("unknown kind error: %v", err)
	}
	if _, err := Kind(9).MarshalText(); err == nil || err.Error() != "batchrelease: Kind: 9: has no name" {
		t.Errorf("unnamed kind error: %v", err)
	}
	for _, e := range []interface {
		String() string
	}{CloneSet, StatefulSet, AdvancedStatefulSet, Deployment, Partition, Canary, BlueGreen, Upgrading, Verifying, Ready,
		Preparing, Progressing, Finalizing, Completed, WriteStatus, TakeControl, WritePartition, WriteMaxSurge, ScaleCanaryDeployment,
		LabelPods, LabelNoNeedUpdatePods, ReleaseControl, BatchReady, TooFewUpdated, TooFewUpdatedReady, NoUpdatedReady, TooFewLabeled,
		OutcomeComplete, OutcomeSyncLimit, CreateNewReplicaSet, ScaleNewReplicaSet, ScaleUpOldReplicaSet, CleanupUnhealthyReplicas,
		ScaleDownOldReplicaSet, ScaleActiveOrLatest, ScaleDownSaturated, ScaleProportionally} {
		m, ok := e.(interface{ MarshalText() ([]byte, error) })
		if !ok {
			t.Fatalf("%v has no MarshalText", e)
		}
		text, err := m.MarshalText()
		if err != nil || string(text) != e.String() || strings.Contains(e.String(), "(") {
			t.Errorf("%v: MarshalText %q, %v", e, text, err)
		}
	}
	_ = intorpercent.FromInt
}

// TestPlanSpecialCases covers what the executor checks before it runs a
// phase: each row names the case, the status after, and the reason.
func TestPlanSpecialCases(t *testing.T) {
	base := func() (*Release, *Workload) {
		w := workload(CloneSet, 10, 2, 2)
		w.Partition = isp("80%")
		return progressing(releaseOf("20%", "100%"), w, 0, Ready), w
	}
	tests := []struct {
		name   string
		change func(*Release, *Workload)
		check  func(Sync) bool
		reason string
	}{
		{"completed", func(r *Release, _ *Workload) { r.Status.Phase = Completed },
			func(s Sync) bool { return len(s.Actions) == 0 }, "the release plan is completed: nothing to do"},
		{"workload scaled", func(_ *Release, w *Workload) { w.Replicas = 12 },
			func(s Sync) bool {
				return s.Release.Status.BatchState == Upgrading && s.Release.Status.ObservedWorkloadReplicas == 12 && kinds(s) == "WriteStatus"
			}, "the workload's replicas changed: redo the current batch (status written; requeue)"},
		{"template changed", func(_ *Release, w *Workload) { w.Status.UpdateRevision = "v3" },
			func(s Sync) bool { return s.Release.Status.UpdateRevision == "v3" && kinds(s) == "WriteStatus" },
			`the workload's update revision changed to "v3": wait`},
		{"still reconciling", func(_ *Release, w *Workload) { w.Generation = 3 },
			func(s Sync) bool { return len(s.Actions) == 0 }, "the workload is still reconciling (observed generation behind): wait"},
		{"batch beyond the plan", func(r *Release, _ *Workload) { r.Status.CurrentBatch = 2 },
			func(s Sync) bool { return s.Release.Status.Phase == Preparing && s.Release.Status.CurrentBatch == 0 },
			"the current batch is beyond the plan: start over"},
		{"no batch partition", func(r *Release, _ *Workload) { r.BatchPartition = nil },
			func(s Sync) bool { return s.Release.Status.Phase == Finalizing && kinds(s) == "WriteStatus" },
			"the release plan has no batch partition or is finalizing: finalize (status written; requeue)"},
		{"finalizing", func(r *Release, _ *Workload) { r.BatchPartition, r.Status.Phase = nil, Finalizing },
			func(s Sync) bool {
				return s.Release.Status.Phase == Completed && kinds(s) == "ReleaseControl WriteStatus" && s.Workload.Partition == nil && !s.Workload.Controlled
			}, "the release plan has no batch partition or is finalizing: finalize; the release is completed: the workload is handed back"},
	}
	for _, tt := range tests {
		rel, w := base()
		tt.change(rel, w)
		s, err := Plan(rel, w, simStart)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !tt.check(s) || s.Reason != tt.reason {
			t.Errorf("%s: %s %+v\nreason %q\nwant   %q", tt.name, kinds(s), s.Release.Status, s.Reason, tt.reason)
		}
	}
}

// TestDeploymentStallsUpstream pins the two Deployment stalls of K3 and
// the option that lifts them: ["50%", 8] and ["101%", "100%"] on small
// Deployments never reach their last batch upstream.
func TestDeploymentStallsUpstream(t *testing.T) {
	for _, plan := range [][]any{{"50%", 8}, {"101%", "100%"}} {
		for _, fix := range []bool{false, true} {
			rel := releaseOf(plan...)
			r := int32(10)
			d := &AdvancedDeployment{Name: "web", Replicas: r, NewReplicaSet: "web-v2",
				Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdate{MaxSurge: isp("25%"), MaxUnavailable: isp("25%")}}}
			rss := []ReplicaSet{{Name: "web-v1", Revision: "1", Replicas: r, StatusReplicas: r, ReadyReplicas: r, AvailableReplicas: r, DesiredReplicas: &r}}
			tr, err := SimulateDeployment(rel, d, rss, Config{Start: simStart, MaxSyncs: 300, Options: Options{CompareDeploymentPartitionsOnReplicas: fix}})
			if err != nil {
				t.Fatal(err)
			}
			want := OutcomeSyncLimit
			if fix {
				want = OutcomeComplete
			}
			if tr.Outcome != want {
				t.Errorf("plan %v, option %v: %v, want %v", plan, fix, tr.Outcome, want)
			}
		}
	}
}

// TestPlanCanaryStyleReadsTheCanaryDeployment checks that the Canary
// style's status and readiness come from the canary Deployment, and that
// it waits while the canary Deployment is still reconciling.
func TestPlanCanaryStyleReadsTheCanaryDeployment(t *testing.T) {
	w := workload(Deployment, 10, 0, 0)
	w.Canary = &CanaryDeployment{Name: "web-canary", Generation: 2, ObservedGeneration: 2, Replicas: 2, StatusReplicas: 2, AvailableReplicas: 2}
	rel := releaseOf("20%", "100%")
	rel.RollingStyle = Canary
	rel = progressing(rel, w, 0, Verifying)
	rel.Status.UpdatedReplicas, rel.Status.UpdatedReadyReplicas = 2, 2
	s, err := Plan(rel, w, simStart)
	if err != nil || !s.Ready || s.Readiness != BatchReady {
		t.Fatalf("canary 2/2 of 2: %v %v %q, %v", s.Ready, s.Readiness, s.Reason, err)
	}
	w.Canary.Generation = 3
	s, _ = Plan(rel, w, simStart)
	if s.Ready || s.Release.Status.BatchState != Upgrading || s.Reason != "the canary Deployment is still reconciling: wait" {
		t.Errorf("canary reconciling: %v %v %q", s.Ready, s.Release.Status.BatchState, s.Reason)
	}
}
