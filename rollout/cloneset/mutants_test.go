package cloneset

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The tests of this file each pin a rule that a mutant of the code broke
// without any other test noticing (go run ./internal/mutate; see
// scripts/mutate.sh). Each names the rule and gives the input on which the
// mutant's answer differs.

// TestUpdateNumTieTakesOldDiff: with the PartitionRollback gate and
// distinct revisions, |oldDiff| == |newDiff| takes oldDiff (kruise:
// "if util.IntAbs(oldDiff) <= util.IntAbs(newDiff)"). Only under the gate
// can the two have the same sign, so only there does the tie matter.
func TestUpdateNumTieTakesOldDiff(t *testing.T) {
	tc := diffsCase{
		name: "R4 P2 U1 S0, gate on, 1 Or + 1 Nr", cs: kcs(4, num(2), num(1), num(0)), rollbackGate: true,
		pods: cat(times(1, or()), times(1, nr())),
		want: Diffs{ScaleUpNum: 2, ScaleUpNumOldRevision: 1, ScaleUpLimit: 2, UpdateNum: -1, UpdateMaxUnavailable: -1},
		reason: "oldDiff 1-2 = -1, newDiff 1-(4-2) = -1: the tie takes oldDiff, so UpdateNum -1 (not -newDiff = 1); " +
			"budget 1+2-4 = -1",
	}
	tc.run(t)
}

// TestScaleSurgeSubtractsMaxUnavailable: the surge that replaces
// specified-delete pods is min(max(totalUnavailable + toDelete - U, 0),
// toDelete): the unavailability budget U pays for deletions first.
func TestScaleSurgeSubtractsMaxUnavailable(t *testing.T) {
	tests := []diffsCase{
		{name: "R5 U1 S1, 1 NrD + 4 Nr: U covers the one deletion, no surge", cs: kcs(5, num(0), num(1), num(1)), consistent: true,
			pods: cat(times(1, deleted(nr())), times(4, nr())), want: Diffs{DeleteReadyLimit: 1},
			reason: "scaleSurge min(max(0+1-1, 0), 1) = 0"},
		{name: "R5 U1 S2, 2 NrD + 3 Nr: one deletion beyond U, surge 1", cs: kcs(5, num(0), num(1), num(2)), consistent: true,
			pods: cat(times(2, deleted(nr())), times(3, nr())), want: Diffs{UseSurge: 1, ScaleUpNum: 1, ScaleUpLimit: 1, DeleteReadyLimit: 1},
			reason: "scaleSurge min(max(0+2-1, 0), 2) = 1; deleteReadyLimit 1+0-0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

// TestPlanCreatesCurrentRevisionPodsFirst: a scale-up that creates pods
// at both revisions writes the current-revision ones first, as kruise's
// createPods does.
func TestPlanCreatesCurrentRevisionPodsFirst(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 4, Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.Partition = num(2)
	cs.Status.CurrentRevision = r1.Name
	s, err := Plan(cs, nil, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range s.Actions {
		if a.Kind == CreatePod {
			got = append(got, fmt.Sprint(a.Count, " at ", a.Revision))
		}
	}
	want := []string{"2 at " + r1.Name, "2 at " + s.Revs.Update}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Plan(R4 P2, no pods, template changed): the CreatePod actions (-want +got):\n%s", diff)
	}
	got = nil
	for p, err := range s.CreatedPods() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.Revision)
	}
	if diff := cmp.Diff([]string{r1.Name, r1.Name, s.Revs.Update, s.Revs.Update}, got); diff != "" {
		t.Errorf("Plan(R4 P2, no pods, template changed): revisions of the CreatedPods (-want +got):\n%s", diff)
	}
}

// TestPlanRequeueIsTheShortestDelay: when the update step (a grace
// period) and the status (minReadySeconds) each ask for a requeue, the
// sync requeues after the shorter.
func TestPlanRequeueIsTheShortestDelay(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 4, Template: templateOf("nginx:1.26"), MinReadySeconds: 3}
	cs.UpdateStrategy.Type = InPlaceIfPossible
	cs.UpdateStrategy.InPlaceGracePeriodSeconds = 10
	cs.UpdateStrategy.MaxUnavailable = num(2)
	cs.Status.CurrentRevision = r1.Name
	pods := []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name), upPod("demo-c", r1.Name), readyPod("demo-d", r1.Name, time.Second)}
	s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(s.Actions, func(a Action) bool { return a.Kind == UpdatePodInPlace }) {
		t.Fatalf("Plan: no in-place update, so no grace requeue; actions %v", planKinds(s))
	}
	if !s.Requeue || s.RequeueAfter != 3*time.Second {
		t.Errorf("Plan: requeue = %v after %v, want after 3 s (minReadySeconds), not 10 s (the grace period)", s.Requeue, s.RequeueAfter)
	}
}

// TestUpdateSetsInPlaceUpdateReadyOnlyWhenDone: the bookkeeping sets a
// pod's InPlaceUpdateReady condition back to True only when the pod has
// no in-place update state or its update is done.
func TestUpdateSetsInPlaceUpdateReadyOnlyWhenDone(t *testing.T) {
	tests := []struct {
		name  string
		state *InPlaceUpdateState
		want  []string
	}{
		{name: "no state", state: nil, want: []string{"SetPodInPlaceUpdateReady p0"}},
		{name: "update done", state: &InPlaceUpdateState{Revision: "cs-r2", UpdateTime: ut0.Add(-time.Minute), Done: true},
			want: []string{"SetPodInPlaceUpdateReady p0"}},
		{name: "update not done", state: &InPlaceUpdateState{Revision: "cs-r2", UpdateTime: ut0.Add(-time.Minute)}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[struct{}]{Replicas: 2}
			pods := upods("cs-r2", "p0", "p1")
			pods[0].InPlaceUpdate, pods[0].InPlaceUpdateReady = tt.state, ConditionFalse
			d, err := Update(cs, pods, []ControllerRevision{r1, r2}, Revisions{Current: "cs-r2", Update: "cs-r2"}, ut0, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range d.Actions {
				got = append(got, a.Kind.String()+" "+a.Pod)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Update(%s) actions (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestUpdateInPlaceGraceOfOneSecondRequeues: any positive
// inPlaceUpdateStrategy.gracePeriodSeconds, 1 included, requeues after
// the grace period.
func TestUpdateInPlaceGraceOfOneSecondRequeues(t *testing.T) {
	for _, g := range []int32{0, 1, 2} {
		cs := &CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible, InPlaceGracePeriodSeconds: g}}
		d, err := Update(cs, upods("cs-r1", "p0", "p1", "p2"), []ControllerRevision{r1, r2}, Revisions{Current: "cs-r1", Update: "cs-r2"}, ut0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Duration(g) * time.Second; d.Requeue != want {
			t.Errorf("Update(grace %d s).Requeue = %v, want %v", g, d.Requeue, want)
		}
	}
}

// TestInPlaceUpdateRemovingTheLastContainerIsABlocker: a template that
// loses containers is not updatable in place, whichever containers go,
// the last one included.
func TestInPlaceUpdateRemovingTheLastContainerIsABlocker(t *testing.T) {
	tmpl := func(containers string) []byte {
		data, err := RevisionData([]byte(`{"metadata":{"labels":{"app":"demo"}},"spec":{"containers":[` + containers + `]}}`))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	main := `{"name":"main","image":"nginx:1.25","resources":{}}`
	side := `{"name":"side","image":"envoy:1.30","resources":{}}`
	log := `{"name":"log","image":"fluentd:1.16","resources":{}}`
	tests := []struct {
		name     string
		from, to string
		want     InPlaceUpdate
	}{
		{name: "2 -> 1", from: main + "," + side, to: main, want: InPlaceUpdate{Blockers: []string{"remove /spec/containers/1"}}},
		{name: "3 -> 1", from: main + "," + side + "," + log, to: main,
			want: InPlaceUpdate{Blockers: []string{"remove /spec/containers/1", "remove /spec/containers/2"}}},
	}
	for _, tt := range tests {
		got, err := CalculateInPlaceUpdate(tmpl(tt.from), tmpl(tt.to))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("CalculateInPlaceUpdate(%s) (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestProgressingBoundaries: the Progressing condition's rules at their
// edges. PartitionAvailable needs ExpectedUpdatedReplicas strictly below
// the replicas; the deadline requeue adds a second when at least a
// second is left, exactly one included; the deadline is exceeded only
// strictly after lastUpdateTime + progressDeadlineSeconds.
func TestProgressingBoundaries(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	updated := Condition{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonUpdated, LastUpdateTime: at(1), LastTransitionTime: at(1)}
	tests := []struct {
		name        string
		partition   int32
		pods        []Pod
		now         time.Time
		wantReason  string
		wantRequeue time.Duration
	}{
		{name: "partition 0, all 3 updated and available but a 4th old pod: not partition-available",
			pods: []Pod{ready("a", "r2", time.Hour), ready("b", "r2", time.Hour), ready("c", "r2", time.Hour), ready("d", "r1", time.Hour)},
			now:  at(5), wantReason: ReasonUpdated, wantRequeue: 7 * time.Second},
		{name: "partition 1, 2 updated available: partition-available (tie)", partition: 1,
			pods: []Pod{ready("a", "r2", time.Hour), ready("b", "r2", time.Hour), ready("c", "r1", time.Hour)},
			now:  at(5), wantReason: ReasonPartitionAvailable},
		{name: "exactly 1 s left: requeue 2 s", pods: []Pod{ready("a", "r1", time.Hour), unready("b", "r2", time.Hour), unready("c", "r2", time.Hour)},
			now: at(10), wantReason: ReasonUpdated, wantRequeue: 2 * time.Second},
		{name: "at the deadline: not exceeded", pods: []Pod{ready("a", "r1", time.Hour), unready("b", "r2", time.Hour), unready("c", "r2", time.Hour)},
			now: at(11), wantReason: ReasonUpdated, wantRequeue: 0},
		{name: "1 ns after the deadline: exceeded", pods: []Pod{ready("a", "r1", time.Hour), unready("b", "r2", time.Hour), unready("c", "r2", time.Hour)},
			now: at(11).Add(time.Nanosecond), wantReason: ReasonProgressDeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := kcs(3, num(tt.partition), nil, nil)
			pds := int32(10)
			cs.ProgressDeadlineSeconds = &pds
			cs.Status.Conditions = []Condition{updated}
			got, err := CalculateStatus(cs, tt.pods, Revisions{Current: "r1", Update: "r2"}, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			c := findCondition(got.Status.Conditions, ConditionProgressing)
			if c == nil || c.Reason != tt.wantReason {
				t.Fatalf("CalculateStatus(%s): Progressing = %+v, want reason %s", tt.name, c, tt.wantReason)
			}
			if got.DeadlineRequeue != tt.wantRequeue {
				t.Errorf("CalculateStatus(%s): deadline requeue = %v, want %v", tt.name, got.DeadlineRequeue, tt.wantRequeue)
			}
		})
	}
}

// TestPlanDeletingSaysStatusOnly: the reason of a sync of a CloneSet being
// deleted says that only the status is written.
func TestPlanDeletingSaysStatusOnly(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 5, Deleting: true, Template: templateOf("nginx:1.25")}
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "CloneSet is being deleted: status only"; !strings.Contains(s.Reason, want) {
		t.Errorf("Plan(deleting).Reason = %q, want it to contain %q", s.Reason, want)
	}
}

// TestSimulateSetReplicasResizes: a scripted SetReplicas event changes
// the CloneSet's replicas from its sync on: the reconcile reports the new
// desired count and creates the missing pod, and the final CloneSet has
// the new size. (Pod names are left out: the steps are compared by their
// counts and events.)
func TestSimulateSetReplicasResizes(t *testing.T) {
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: templateOf("nginx:1.25")}
	cfg := Config[podTemplate]{Start: t0, Events: []Event[podTemplate]{{Sync: 3, Kind: SetReplicas, Replicas: 3}}}
	tr, err := Simulate(cs, nil, nil, cfg)
	if err != nil {
		t.Fatalf("Simulate(2 replicas, 3 at reconcile 3) error: %v", err)
	}
	var got []string
	for _, s := range tr.Steps {
		got = append(got, fmt.Sprintf("reconcile %d %q: desired %d, %d pods, %d ready", s.Sync, s.Events, s.Replicas, s.Status.Replicas, s.Status.ReadyReplicas))
	}
	got = append(got, fmt.Sprintf("%v after %d, replicas %d", tr.Outcome, tr.Syncs, tr.CloneSet.Replicas))
	want := []string{
		`reconcile 1 []: desired 2, 0 pods, 0 ready`,
		`reconcile 2 []: desired 2, 2 pods, 2 ready`,
		`reconcile 3 ["replicas 2 -> 3"]: desired 3, 2 pods, 2 ready`,
		`reconcile 4 []: desired 3, 3 pods, 3 ready`,
		`reconcile 5 []: desired 3, 3 pods, 3 ready`,
		`Complete after 6, replicas 3`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Simulate(2 replicas, 3 at reconcile 3) (-want +got):\n%s\n%s", diff, tr.String())
	}
}

// TestPlanScaleInSaysNoReadyPodMayGo: a scale-in that deletes nothing
// because the ready limit is 0 (R 3, 5 ready pods none of them available
// yet under minReadySeconds 9999: max(1 + 2 - 5, 0)) writes only the
// status and says why the surplus stays.
func TestPlanScaleInSaysNoReadyPodMayGo(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 3, MinReadySeconds: 9999, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	var pods []Pod
	for _, n := range []string{"demo-a", "demo-b", "demo-c", "demo-d", "demo-e"} {
		pods = append(pods, upPod(n, r1.Name))
	}
	s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatalf("Plan(R 3, 5 ready pods, none available) error: %v", err)
	}
	const want = "2 pods too many, but no ready pod may go (ready limit 0)"
	if got := planKinds(s); !slices.Equal(got, []string{"WriteStatus"}) || s.Reason != want {
		t.Errorf("Plan(R 3, 5 ready pods, none available) = %v, %q; want [WriteStatus], %q", got, s.Reason, want)
	}
}

// TestSimulateNeverReadyPodRunsUnready: a pod that never becomes ready
// (Config.NeverReady) still starts: once its ready delay has passed it is
// Running, not Ready, next to the ready one, and the rollout stalls.
// (Pod names are left out.)
func TestSimulateNeverReadyPodRunsUnready(t *testing.T) {
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: templateOf("nginx:1.25")}
	tr, err := Simulate(cs, nil, nil, Config[podTemplate]{Start: t0, ReadyDelay: 10 * time.Second, NeverReady: 1, MaxSyncs: 10})
	if err != nil {
		t.Fatalf("Simulate(2 replicas, NeverReady 1) error: %v", err)
	}
	var got []string
	for _, p := range tr.Pods {
		got = append(got, fmt.Sprintf("%v ready %v", p.Phase, p.Ready))
	}
	slices.Sort(got)
	got = append(got, fmt.Sprintf("%v after %d", tr.Outcome, tr.Syncs))
	want := []string{"Running ready false", "Running ready true", "Stalled after 4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Simulate(2 replicas, NeverReady 1) final pods (-want +got):\n%s\n%s", diff, tr.String())
	}
}

// TestInPlaceReasonNamesAOneSecondGrace: an in-place update held for a
// grace period says so, also for the shortest grace, 1 s.
func TestInPlaceReasonNamesAOneSecondGrace(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.Type = InPlaceIfPossible
	cs.UpdateStrategy.InPlaceGracePeriodSeconds = 1
	cs.Status.CurrentRevision = r1.Name
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatalf("Plan(InPlaceIfPossible, grace 1 s) error: %v", err)
	}
	const want = "update budget 1: pod demo-a updated in place to demo-798d4b6fff (in place: images main=nginx:1.26), applied after a grace period of 1s"
	var got []string
	for _, a := range s.Actions {
		if a.Kind == UpdatePodInPlace {
			got = append(got, a.Reason)
		}
	}
	if diff := cmp.Diff([]string{want}, got); diff != "" {
		t.Errorf("Plan(InPlaceIfPossible, grace 1 s) in-place reasons (-want +got):\n%s", diff)
	}
}

// TestSimulateRecordsPodsOldestFirst: with RecordPods, a Step lists the
// pods by creation time, oldest first, whatever their names (demo-b,
// created an hour before demo-a, comes first), and a pod created during
// the simulation last.
func TestSimulateRecordsPodsOldestFirst(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	older, newer := upPod("demo-b", r1.Name), upPod("demo-a", r1.Name)
	older.CreationTime = t0.Add(-2 * time.Hour)
	cfg := Config[podTemplate]{Start: t0, RecordPods: true, Events: []Event[podTemplate]{{Sync: 1, Kind: SetReplicas, Replicas: 3}}}
	tr, err := Simulate(cs, []Pod{newer, older}, []ControllerRevision{r1}, cfg)
	if err != nil {
		t.Fatalf("Simulate(RecordPods) error: %v", err)
	}
	if len(tr.Steps) == 0 {
		t.Fatalf("Simulate(RecordPods) recorded no step\n%s", tr.String())
	}
	for _, s := range tr.Steps {
		var got []string
		for _, p := range s.Pods {
			got = append(got, p.Name)
		}
		if len(got) != 3 || got[0] != "demo-b" || got[1] != "demo-a" || got[2] == "demo-a" || got[2] == "demo-b" {
			t.Errorf("reconcile %d: pods %q, want demo-b, demo-a, then the created pod", s.Sync, got)
		}
	}
}

// TestPlanCountsEachKindOfLifecycleMove: a sync that moves pods between
// lifecycle states in more than one way counts each way, in the order
// first seen, also one seen once.
func TestPlanCountsEachKindOfLifecycleMove(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	a, b := upPod("demo-a", r1.Name), upPod("demo-b", r1.Name)
	a.Lifecycle = PreparingNormal
	b.Lifecycle = Updating
	b.InPlaceUpdate = &InPlaceUpdateState{Revision: r1.Name, UpdateTime: t0.Add(-time.Minute), Done: true}
	b.InPlaceUpdateReady = ConditionTrue
	s, err := Plan(cs, []Pod{a, b}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatalf("Plan(a PreparingNormal, b Updating and done) error: %v", err)
	}
	const want = "lifecycle: 1 pod PreparingNormal -> Normal, 1 pod Updating -> Normal"
	if s.Reason != want {
		t.Errorf("Plan(a PreparingNormal, b Updating and done).Reason = %q, want %q", s.Reason, want)
	}
}

// TestPlanSaysItKeptPreparingDeletePods: a scale-up that takes a pod
// back from PreparingDelete (kruise's regret: R 3, 3 pods, one of them
// PreparingDelete) says so once for the sync, in the singular for one pod.
func TestPlanSaysItKeptPreparingDeletePods(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 3, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	c := upPod("demo-c", r1.Name)
	c.Lifecycle = PreparingDelete
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name), c}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatalf("Plan(R 3, demo-c PreparingDelete) error: %v", err)
	}
	const want = "kept 1 pod in PreparingDelete after all: 3 replicas wanted"
	if got := planKinds(s); !slices.Equal(got, []string{"SetPodLifecycle demo-c", "WriteStatus"}) || s.Reason != want {
		t.Errorf("Plan(R 3, demo-c PreparingDelete) = %v, %q; want [SetPodLifecycle demo-c WriteStatus], %q", got, s.Reason, want)
	}
}

// TestCountsLeaveOldPreparingDeletePodsOutOfActive: an old-revision pod
// in PreparingDelete counts in Old and PreDeletingOld, not in ActiveOld
// (ActiveOld = Old - PreDeletingOld), as a new one stays out of ActiveNew.
func TestCountsLeaveOldPreparingDeletePodsOutOfActive(t *testing.T) {
	cs := kcs(3, nil, num(1), nil)
	pods := cat(times(2, nr()), times(1, withState(or(), PreparingDelete)))
	got, err := CalculateDiffs(cs, named(pods), Revisions{Current: oldRev, Update: newRev}, t0, ForUpdate, Options{})
	if err != nil {
		t.Fatalf("CalculateDiffs(2 Nr + 1 Or PreparingDelete) error: %v", err)
	}
	want := Counts{New: 2, Old: 1, ActiveNew: 2, ActiveOld: 0, PreDeletingOld: 1}
	if diff := cmp.Diff(want, got.Counts); diff != "" {
		t.Errorf("CalculateDiffs(2 Nr + 1 Or PreparingDelete).Counts (-want +got):\n%s", diff)
	}
}

// TestPlanKeepsPodsToDeleteWhenEveryNameExists: scaleStrategy.podsToDelete
// naming only existing pods is not rewritten: no TrimPodsToDelete, the
// generation stays, and the named pod is deleted.
func TestPlanKeepsPodsToDeleteWhenEveryNameExists(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Generation: 4, Replicas: 2, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	cs.ScaleStrategy.PodsToDelete = []string{"demo-b"}
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatalf("Plan(podsToDelete [demo-b]) error: %v", err)
	}
	if got := planKinds(s); !slices.Equal(got, []string{"DeletePod demo-b", "WriteStatus"}) || s.CloneSet.Generation != 4 {
		t.Errorf("Plan(podsToDelete [demo-b]) = %v, generation %d; want [DeletePod demo-b WriteStatus], generation 4", got, s.CloneSet.Generation)
	}
}
