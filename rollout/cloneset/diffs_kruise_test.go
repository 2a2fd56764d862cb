package cloneset

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

const (
	oldRev = "old_rev"
	newRev = "new_rev"
)

// kcs builds a CloneSet as kruise's diff tests do: replicas, partition,
// maxUnavailable and maxSurge all set.
func kcs(replicas int32, partition, maxUnavailable, maxSurge *intorpercent.IntOrString) *CloneSet[struct{}] {
	return &CloneSet[struct{}]{Name: "cs", Replicas: replicas, UpdateStrategy: UpdateStrategy{Partition: partition, MaxUnavailable: maxUnavailable, MaxSurge: maxSurge}}
}

// kp builds a pod as kruise's diff tests do: a revision, a lifecycle
// state, Running and Ready (since the zero time) or neither (no phase),
// and the specified-delete label. The test loop names it.
func kp(rev string, state LifecycleState, ready, specifiedDelete bool) Pod {
	p := Pod{Revision: rev, Lifecycle: state, SpecifiedDelete: specifiedDelete}
	if ready {
		p.Phase, p.Ready = PodRunning, true
	}
	return p
}

// named gives pods the names p0, p1, ... in order.
func named(pods []Pod) []Pod {
	out := append([]Pod(nil), pods...)
	for i := range out {
		if out[i].Name == "" {
			out[i].Name = "p" + strconv.Itoa(i)
		}
	}
	return out
}

// outputs keeps only the ten numbers kruise's expectationDiffs holds.
func outputs(d Diffs) Diffs {
	d.Resolved, d.Counts, d.Pods, d.TotalUnavailable = Resolved{}, Counts{}, 0, 0
	return d
}

type diffsCase struct {
	name                string
	cs                  *CloneSet[struct{}]
	paused              bool
	scaleMaxUnavailable *intorpercent.IntOrString
	excludeLabel        bool     // the CloneSet carries ExcludePreparingDeleteLabel=true
	excludeFlag         bool     // Gates.ScalingExcludePreparingDelete
	consistent          bool     // current revision == update revision
	rollbackGate        bool     // Gates.PartitionRollback
	step                DiffsFor // 0: ForUpdate
	preparingAsUpdate   bool     // Gates.PreparingUpdateAsUpdate
	budget              BudgetPolicy
	minReadySeconds     int32
	pods                []Pod
	want                Diffs
	reason              string
}

func (tc *diffsCase) run(t *testing.T) {
	t.Helper()
	cs := *tc.cs
	cs.UpdateStrategy.Paused = tc.paused
	cs.MinReadySeconds = tc.minReadySeconds
	if tc.scaleMaxUnavailable != nil {
		cs.ScaleStrategy.MaxUnavailable = tc.scaleMaxUnavailable
	}
	if tc.excludeLabel {
		cs.Labels = map[string]string{ExcludePreparingDeleteLabel: "true"}
	}
	revs := Revisions{Current: oldRev, Update: newRev}
	if tc.consistent {
		revs.Current = newRev
	}
	step := tc.step
	if step == 0 {
		step = ForUpdate
	}
	opts := Options{Gates: Gates{PartitionRollback: tc.rollbackGate, PreparingUpdateAsUpdate: tc.preparingAsUpdate, ScalingExcludePreparingDelete: tc.excludeFlag}, UpdateBudget: tc.budget}
	got, err := CalculateDiffs(&cs, named(tc.pods), revs, t0, step, opts)
	if err != nil {
		t.Fatalf("CalculateDiffs: %v", err)
	}
	if diff := cmp.Diff(tc.want, outputs(got)); diff != "" {
		t.Errorf("CalculateDiffs(%s) mismatch (-want +got):\n%s%s", tc.name, diff, tc.reason)
	}
	checkCounts(t, got)
}

// checkCounts checks the identities Counts documents.
func checkCounts(t *testing.T, d Diffs) {
	t.Helper()
	c := d.Counts
	if c.New+c.Old != d.Pods || c.ActiveNew != c.New-c.PreDeletingNew || c.ActiveOld != c.Old-c.PreDeletingOld ||
		c.ToDeleteNew+c.UnavailableNew > c.ActiveNew || c.ToDeleteOld+c.UnavailableOld > c.ActiveOld ||
		d.TotalUnavailable != c.PreDeletingNew+c.PreDeletingOld+c.UnavailableNew+c.UnavailableOld {
		t.Errorf("inconsistent counts %+v, pods %d, totalUnavailable %d", c, d.Pods, d.TotalUnavailable)
	}
}

// TestCalculateDiffsKruiseCases holds every case of kruise v1.9.1's
// TestCalculateDiffsWithExpectation (pkg/controller/cloneset/sync), with
// its settings: the CloneSetPartitionRollback gate on unless the case
// disables it, the PreparingUpdateAsUpdate gate on (it matters only in
// the cases that pass revision.IsPodUpdate, which are the scale step
// here), current revision "old_rev" unless the case says the revisions
// are consistent. Kruise's pods have no names; ours are p0, p1, ...
func TestCalculateDiffsKruiseCases(t *testing.T) {
	tests := []diffsCase{
		{
			name:         "an empty cloneset",
			cs:           kcs(0, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{},
			want:         Diffs{},
		},
		{
			name:         "increase replicas to 5 (step 1/2)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{},
			want:         Diffs{ScaleUpNum: 5, ScaleUpLimit: 5},
		},
		{
			name:         "increase replicas to 5 (step 2/2)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "specified delete 1 pod (all ready) (step 1/3)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{DeleteReadyLimit: 1},
		},
		{
			name:         "specified delete 1 pod (all ready) (step 2/3)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "specified delete 1 pod (all ready) (step 3/3)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "specified delete 2 pod (all ready) (step 1/6)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{DeleteReadyLimit: 1},
		},
		{
			name:         "specified delete 2 pod (all ready) (step 2/6)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "specified delete 2 pod (all ready) (step 3/6)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "specified delete 2 pod (all ready) (step 4/6)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{DeleteReadyLimit: 1},
		},
		{
			name:         "specified delete 2 pod (all ready) (step 5/6)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "specified delete 2 pod (all ready) (step 6/6)",
			cs:           kcs(5, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "specified delete 2 pod and replicas to 4 (step 1/3)",
			cs:           kcs(4, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, false, true), kp(newRev, Normal, false, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{DeleteReadyLimit: 2},
		},
		{
			name:         "specified delete 2 pod and replicas to 4 (step 2/3)",
			cs:           kcs(4, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "specified delete 2 pod and replicas to 4 (step 3/3)",
			cs:           kcs(4, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "update partition=3 (step 1/3)",
			cs:           kcs(5, num(3), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{UpdateNum: 2, UpdateMaxUnavailable: 1},
		},
		{
			name:         "update partition=3 (step 2/3)",
			cs:           kcs(5, num(3), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{UpdateNum: 1, UpdateMaxUnavailable: 1},
		},
		{
			name:         "update partition=3 (step 3/3)",
			cs:           kcs(5, num(3), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "rollback partition=4 (step 1/3)",
			cs:           kcs(5, num(4), num(2), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{UpdateNum: -3, UpdateMaxUnavailable: 2},
		},
		{
			name:         "rollback partition=4 (step 2/3)",
			cs:           kcs(5, num(4), num(2), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{UpdateNum: -1, UpdateMaxUnavailable: 2},
		},
		{
			name:         "rollback partition=4 (step 3/3)",
			cs:           kcs(5, num(4), num(2), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "specified delete with maxSurge (step 1/4)",
			cs:           kcs(5, num(0), num(0), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UseSurge: 1, ScaleUpLimit: 1},
		},
		{
			name:         "specified delete with maxSurge (step 2/4)",
			cs:           kcs(5, num(0), num(0), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{UseSurge: 1},
		},
		{
			name:         "specified delete with maxSurge (step 3/4)",
			cs:           kcs(5, num(0), num(0), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, true), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{DeleteReadyLimit: 1, UseSurge: 1},
		},
		{
			name:         "specified delete with maxSurge (step 4/4)",
			cs:           kcs(5, num(0), num(0), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "update in-place partition=3 with maxSurge (step 1/4)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UseSurge: 1, UpdateNum: 2, UpdateMaxUnavailable: 1, ScaleUpLimit: 1},
		},
		{
			name:         "update in-place partition=3 with maxSurge (step 2/4)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 2},
		},
		{
			name:         "update in-place partition=3 with maxSurge (step 3/4)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Updating, false, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 0},
		},
		{
			name:         "update in-place partition=3 with maxSurge (step 4/4)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 1},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 1/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UseSurge: 1, UpdateNum: 2, UpdateMaxUnavailable: 1, ScaleUpLimit: 1},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 2/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 2},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 3/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, true), kp(newRev, Normal, false, false)},
			want:         Diffs{UseSurge: 1, UseSurgeOldRevision: 1, DeleteReadyLimit: 1, UpdateNum: 1, UpdateMaxUnavailable: 2},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 4/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{UseSurge: 1, ScaleUpNum: 1, UpdateNum: 1, UpdateMaxUnavailable: 1, ScaleUpLimit: 1},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 5/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 0},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 6/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 1},
		},
		{
			name:         "update recreate partition=3 with maxSurge (step 7/7)",
			cs:           kcs(5, num(3), num(1), num(1)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 1/3)",
			cs:           kcs(5, str("99%"), num(3), num(2)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 3, ScaleUpLimit: 1},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 2/3)",
			cs:           kcs(5, str("99%"), num(3), num(2)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 3},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 3/3)",
			cs:           kcs(5, str("99%"), num(3), num(2)),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 1/3)",
			cs:           kcs(5, str("99%"), str("40%"), str("30%")),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 2, ScaleUpLimit: 1},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 2/3)",
			cs:           kcs(5, str("99%"), str("40%"), str("30%")),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 2},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 3/3)",
			cs:           kcs(5, str("99%"), str("40%"), str("30%")),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 1/3)",
			cs:           kcs(5, str("99%"), str("30%"), str("30%")),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 1, ScaleUpLimit: 1},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 2/3)",
			cs:           kcs(5, str("99%"), str("30%"), str("30%")),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 1},
		},
		{
			name:         "update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 3/3)",
			cs:           kcs(5, str("99%"), str("30%"), str("30%")),
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "revision consistent 1",
			cs:           kcs(5, num(0), num(1), num(0)),
			consistent:   true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "revision consistent 2",
			cs:           kcs(5, num(3), num(1), num(0)),
			consistent:   true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "revision consistent 3",
			cs:           kcs(5, num(3), num(1), num(0)),
			consistent:   true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "revision consistent 4",
			cs:           kcs(5, num(1), num(1), num(0)),
			consistent:   true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{UpdateNum: 2, UpdateMaxUnavailable: 1},
		},
		{
			name:         "allow to update when fail to scale out normally",
			cs:           kcs(5, num(1), num(2), num(0)),
			consistent:   true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, UpdateNum: 1, UpdateMaxUnavailable: 1, ScaleUpLimit: 1},
		},
		{
			name:         "allow to update when fail to scale in normally",
			cs:           kcs(5, num(1), num(1), num(0)),
			consistent:   true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 2, DeleteReadyLimit: 2, UpdateNum: 1, UpdateMaxUnavailable: 2},
		},
		{
			name: "disable rollback feature-gate",
			cs:   kcs(5, num(4), num(1), num(0)),
			pods: []Pod{kp(oldRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want: Diffs{},
		},
		{
			name:                "increase replicas 0 to 5 with scale maxUnavailable = 2",
			cs:                  kcs(5, num(0), num(1), num(0)),
			scaleMaxUnavailable: num(2),
			rollbackGate:        true,
			pods:                []Pod{},
			want:                Diffs{ScaleUpNum: 5, ScaleUpLimit: 2},
		},
		{
			name:                "increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 1",
			cs:                  kcs(6, num(0), num(1), num(0)),
			scaleMaxUnavailable: num(2),
			rollbackGate:        true,
			pods:                []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:                Diffs{ScaleUpNum: 3, ScaleUpLimit: 1},
		},
		{
			name:                "increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 2",
			cs:                  kcs(6, num(0), num(1), num(0)),
			scaleMaxUnavailable: num(2),
			rollbackGate:        true,
			pods:                []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, false, false), kp(newRev, Normal, false, false)},
			want:                Diffs{ScaleUpNum: 3, ScaleUpLimit: 0},
		},
		{
			name:         "[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 1/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, true)},
			want:         Diffs{DeleteReadyLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 2/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 3/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 4/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 1/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, true)},
			want:         Diffs{DeleteReadyLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 2/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 3/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 4/4)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 1/5)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, true)},
			want:         Diffs{DeleteReadyLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 2/5)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 3/5)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 4/5)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 1, DeleteReadyLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 5/5)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 1/6)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 2/6)",
			cs:           kcs(2, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, true, true)},
			want:         Diffs{DeleteReadyLimit: 2},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 3/6)",
			cs:           kcs(2, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 4/6)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true)},
			want:         Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 5/6)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, PreparingDelete, true, true), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 6/6)",
			cs:           kcs(3, num(0), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			pods:         []Pod{kp(newRev, Normal, true, false), kp(newRev, Normal, true, false), kp(newRev, Normal, false, false)},
			want:         Diffs{},
		},
		{
			name:         "[scalingWithPreparingUpdate=true] scaling up when a preparing pod is not updated, and expected-updated is 1",
			cs:           kcs(4, str("90%"), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			step:         ForScale, preparingAsUpdate: true,
			pods: []Pod{kp(oldRev, PreparingUpdate, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, ScaleUpNumOldRevision: 1},
		},
		{
			name:         "[scalingWithPreparingUpdate=true] scaling up when a preparing pod is not updated, and expected-updated is 2",
			cs:           kcs(4, num(2), num(1), num(0)),
			excludeLabel: true,
			rollbackGate: true,
			step:         ForScale, preparingAsUpdate: true,
			pods: []Pod{kp(oldRev, PreparingUpdate, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1},
		},
		{
			name:         "[UpdateStrategyPaused=true] scale up pods with maxSurge=3,maxUnavailable=0",
			cs:           kcs(5, num(0), num(0), num(3)),
			paused:       true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleUpNum: 2, ScaleUpLimit: 2, UpdateNum: 3, UpdateMaxUnavailable: -2},
		},
		{
			name:         "[UpdateStrategyPaused=true] scale down pods with maxSurge=3,maxUnavailable=0",
			cs:           kcs(3, num(0), num(0), num(3)),
			paused:       true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false)},
			want:         Diffs{ScaleDownNum: 2, ScaleDownNumOldRevision: 5, DeleteReadyLimit: 2, UpdateNum: 3, UpdateMaxUnavailable: 2},
		},
		{
			name:         "[UpdateStrategyPaused=true] create 0 newRevision pods with maxSurge=3,maxUnavailable=0",
			cs:           kcs(5, num(0), num(0), num(3)),
			paused:       true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false), kp(newRev, Normal, false, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 3, ScaleDownNumOldRevision: 5, UpdateNum: 2, UpdateMaxUnavailable: 3},
		},
		{
			name:         "[UpdateStrategyPaused=true] create 0 newRevision pods with maxSurge=3,maxUnavailable=0",
			cs:           kcs(5, num(2), num(0), num(3)),
			paused:       true,
			rollbackGate: true,
			pods:         []Pod{kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(oldRev, Normal, true, false), kp(newRev, Normal, false, false), kp(newRev, Normal, false, false), kp(newRev, Normal, false, false)},
			want:         Diffs{ScaleDownNum: 3, ScaleDownNumOldRevision: 3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t)
			if tc.step == 0 {
				// The scale step without the PreparingUpdateAsUpdate gate
				// must agree with the update step.
				tc.step, tc.preparingAsUpdate = ForScale, false
				tc.run(t)
			}
		})
	}
}
