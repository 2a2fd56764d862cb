package cloneset

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// Pod shorthands (docs/cloneset.md#notation): O/N old/new revision, r/u
// ready or not, D specified for deletion.
func or() Pod                               { return kp(oldRev, Normal, true, false) }
func ou() Pod                               { return kp(oldRev, Normal, false, false) }
func nr() Pod                               { return kp(newRev, Normal, true, false) }
func nu() Pod                               { return kp(newRev, Normal, false, false) }
func withState(p Pod, s LifecycleState) Pod { p.Lifecycle = s; return p }
func deleted(p Pod) Pod                     { p.SpecifiedDelete = true; return p }

func times(n int, p Pod) []Pod {
	out := make([]Pod, n)
	for i := range out {
		out[i] = p
	}
	return out
}

func cat(groups ...[]Pod) []Pod { return slices.Concat(groups...) }

// TestCalculateDiffsSpecCases holds worked cases of kruise's
// calculateDiffsWithExpectation: the cases of its unit test
// TestCalculateDiffsWithExpectation and results observed by running it
// (docs/cloneset.md#the-diffs). Each says which gates it assumes;
// "consistent" means current revision == update revision, and S1 to S15
// name the kruise surprises of docs/cloneset.md#surprises.
func TestCalculateDiffsSpecCases(t *testing.T) {
	s5 := kcs(5, num(3), num(1), num(1)) // R5 P3 U1 S1
	tests := []diffsCase{
		{name: "1a R5 P3 U1 S0, 5 Or", cs: kcs(5, num(3), num(1), num(0)), pods: times(5, or()),
			want: Diffs{UpdateNum: 2, UpdateMaxUnavailable: 1}, reason: "oldDiff 2, newDiff -2; budget 1+5-5"},
		{name: "1b then 1 N + 4 O", cs: kcs(5, num(3), num(1), num(0)), pods: cat(times(1, nu()), times(4, or())),
			want: Diffs{UpdateNum: 1, UpdateMaxUnavailable: 1}},
		{name: "1c then 2 N + 3 O", cs: kcs(5, num(3), num(1), num(0)), pods: cat(times(2, nr()), times(3, or())),
			want: Diffs{}},
		{name: "2a rollback, gate on: R5 P4 U2, 4 Nr + 1 Or", cs: kcs(5, num(4), num(2), num(0)), rollbackGate: true, pods: cat(times(4, nr()), times(1, or())),
			want: Diffs{UpdateNum: -3, UpdateMaxUnavailable: 2}, reason: "oldDiff 1-4 = -3, newDiff 4-1 = 3"},
		{name: "2b rollback, gate off (S9)", cs: kcs(5, num(4), num(2), num(0)), pods: cat(times(4, nr()), times(1, or())),
			want: Diffs{}, reason: "the diffs are clamped: oldDiff 0, newDiff 0"},
		{name: "2c rollback gate on but revisions consistent", cs: kcs(5, num(4), num(2), num(0)), rollbackGate: true, consistent: true, pods: cat(times(4, nr()), times(1, or())),
			want: Diffs{}},
		{name: "3 R5 P3 U1 S1, 5 Or", cs: s5, pods: times(5, or()),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UseSurge: 1, UpdateNum: 2, UpdateMaxUnavailable: 1}},
		{name: "4 same + 1 Nu", cs: s5, pods: cat(times(5, or()), times(1, nu())),
			want: Diffs{UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 2}},
		{name: "5 4 Or + 1 OrD + 1 Nu", cs: s5, pods: cat(times(4, or()), times(1, deleted(or())), times(1, nu())),
			want:   Diffs{UseSurge: 1, UseSurgeOldRevision: 1, DeleteReadyLimit: 1, UpdateNum: 1, UpdateMaxUnavailable: 2},
			reason: "scaleSurge min(max(1+1-1,0),1) = 1, scaleOldSurge 1; updateSurge 1: a tie takes the scale branch"},
		{name: "6a in place: 4 Or + 1 N Updating + 1 Nu", cs: s5, pods: cat(times(4, or()), times(1, withState(nr(), Updating)), times(1, nu())),
			want: Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1}, reason: "deleteReadyLimit max(1+1-2, 0) = 0"},
		{name: "6b the Updating pod is Normal and ready", cs: s5, pods: cat(times(4, or()), times(1, nr()), times(1, nu())),
			want: Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 1}},
		{name: "7a R5 P99% U3 S2, 5 Or", cs: kcs(5, str("99%"), num(3), num(2)), pods: times(5, or()),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 3}, reason: "P = 4"},
		{name: "7b + 1 Nu", cs: kcs(5, str("99%"), num(3), num(2)), pods: cat(times(5, or()), times(1, nu())),
			want: Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 1, DeleteReadyLimit: 3}},
		{name: "8a R5 P99% U40% S30%", cs: kcs(5, str("99%"), str("40%"), str("30%")), pods: times(5, or()),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 2}, reason: "S = ceil(1.5) = 2 > 0, so U = floor(2.0) = 2"},
		{name: "8b R5 P99% U30% S30%", cs: kcs(5, str("99%"), str("30%"), str("30%")), pods: times(5, or()),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UseSurge: 1, UpdateNum: 1, UpdateMaxUnavailable: 1}, reason: "U = floor(1.5) = 1"},
		{name: "9a consistent R5 P0 U0 S1, 1 NrD + 4 Nr", cs: kcs(5, num(0), num(0), num(1)), consistent: true, pods: cat(times(1, deleted(nr())), times(4, nr())),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UseSurge: 1}, reason: "surge to replace the ready pod before deleting it"},
		{name: "9b + 1 Nu", cs: kcs(5, num(0), num(0), num(1)), consistent: true, pods: cat(times(1, deleted(nr())), times(4, nr()), times(1, nu())),
			want: Diffs{UseSurge: 1}},
		{name: "9c all ready", cs: kcs(5, num(0), num(0), num(1)), consistent: true, pods: cat(times(1, deleted(nr())), times(5, nr())),
			want: Diffs{UseSurge: 1, DeleteReadyLimit: 1}},
		{name: "10a specified delete, no surge: R5 U1, 1 NrD + 4 Nr", cs: kcs(5, num(0), num(1), num(0)), consistent: true, pods: cat(times(1, deleted(nr())), times(4, nr())),
			want: Diffs{DeleteReadyLimit: 1}},
		{name: "10b R4 U1, 2 NuD + 3 Nr", cs: kcs(4, num(0), num(1), num(0)), consistent: true, pods: cat(times(2, deleted(nu())), times(3, nr())),
			want: Diffs{DeleteReadyLimit: 2}, reason: "specified-delete pods are not counted unavailable: 1 + (5-4) - 0"},
		{name: "11a R6 SU2, 2 Nr + 1 Nu", cs: kcs(6, num(0), num(1), num(0)), scaleMaxUnavailable: num(2), consistent: true, pods: cat(times(2, nr()), times(1, nu())),
			want: Diffs{ScaleUpNum: 3, ScaleUpLimit: 1}},
		{name: "11b 2 unready", cs: kcs(6, num(0), num(1), num(0)), scaleMaxUnavailable: num(2), consistent: true, pods: cat(times(1, nr()), times(2, nu())),
			want: Diffs{ScaleUpNum: 3}, reason: "limit max(2-2, 0) = 0"},
		{name: "11c R5 SU2, no pods", cs: kcs(5, num(0), num(1), num(0)), scaleMaxUnavailable: num(2), consistent: true, pods: nil,
			want: Diffs{ScaleUpNum: 5, ScaleUpLimit: 2}},
		{name: "12a consistent R5 P1 U1, 3 O + 2 N", cs: kcs(5, num(1), num(1), num(0)), consistent: true, pods: cat(times(3, or()), times(2, nr())),
			want: Diffs{UpdateNum: 2, UpdateMaxUnavailable: 1}},
		{name: "12b 3 O + 3 N", cs: kcs(5, num(1), num(1), num(0)), consistent: true, pods: cat(times(3, or()), times(3, nr())),
			want: Diffs{ScaleDownNum: 1, ScaleDownNumOldRevision: 2, DeleteReadyLimit: 2, UpdateNum: 1, UpdateMaxUnavailable: 2}},
		{name: "12c R5 P1 U2, 2 O + 2 N", cs: kcs(5, num(1), num(2), num(0)), consistent: true, pods: cat(times(2, or()), times(2, nr())),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UpdateNum: 1, UpdateMaxUnavailable: 1}},
		{name: "13a R3 U1, 2 Nr + 1 N PreparingDelete D, no label", cs: kcs(3, num(0), num(1), num(0)), pods: cat(times(2, nr()), times(1, deleted(withState(nr(), PreparingDelete)))),
			want: Diffs{}, reason: "a PreparingDelete pod is pre-deleting, not specified for deletion"},
		{name: "13b with the label", cs: kcs(3, num(0), num(1), num(0)), excludeLabel: true, pods: cat(times(2, nr()), times(1, deleted(withState(nr(), PreparingDelete)))),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1}},
		{name: "13c with the manager flag", cs: kcs(3, num(0), num(1), num(0)), excludeFlag: true, pods: cat(times(2, nr()), times(1, deleted(withState(nr(), PreparingDelete)))),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1}},
		{name: "14a scale step, PreparingUpdateAsUpdate: R4 P90% U1", cs: kcs(4, str("90%"), num(1), num(0)), step: ForScale, preparingAsUpdate: true, pods: cat(times(1, withState(or(), PreparingUpdate)), times(2, or())),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, ScaleUpNumOldRevision: 1}, reason: "P = 3 (G2); the PreparingUpdate pod counts as new, so 2 old < 3"},
		{name: "14b with P 2", cs: kcs(4, num(2), num(1), num(0)), step: ForScale, preparingAsUpdate: true, pods: cat(times(1, withState(or(), PreparingUpdate)), times(2, or())),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1}},
		{name: "14c scale step without the gate", cs: kcs(4, str("90%"), num(1), num(0)), step: ForScale, pods: cat(times(1, withState(or(), PreparingUpdate)), times(2, or())),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1, UpdateNum: 0}, reason: "3 old = P: no old pod to create"},
		{name: "14d update step ignores the gate", cs: kcs(4, str("90%"), num(1), num(0)), step: ForUpdate, preparingAsUpdate: true, pods: cat(times(1, withState(or(), PreparingUpdate)), times(2, or())),
			want: Diffs{ScaleUpNum: 1, ScaleUpLimit: 1}},
		{name: "15 paused R5 P0 U0 S3, 3 Or (S1)", cs: kcs(5, num(0), num(0), num(3)), paused: true, pods: times(3, or()),
			want: Diffs{ScaleUpNum: 2, ScaleUpLimit: 2, UpdateNum: 3, UpdateMaxUnavailable: -2}, reason: "paused forces S to 0; U stays 0; budget 0+3-5"},
		{name: "15b the same with BudgetClampAtZero", cs: kcs(5, num(0), num(0), num(3)), paused: true, budget: BudgetClampAtZero, pods: times(3, or()),
			want: Diffs{ScaleUpNum: 2, ScaleUpLimit: 2, UpdateNum: 3, UpdateMaxUnavailable: 0}},
		{name: "16 paused R3 P0 U0 S3, 5 Or", cs: kcs(3, num(0), num(0), num(3)), paused: true, pods: times(5, or()),
			want: Diffs{ScaleDownNum: 2, ScaleDownNumOldRevision: 5, DeleteReadyLimit: 2, UpdateNum: 3, UpdateMaxUnavailable: 2}},
		{name: "17a paused R5 P0 U0 S3, 5 Or + 3 Nu", cs: kcs(5, num(0), num(0), num(3)), paused: true, pods: cat(times(5, or()), times(3, nu())),
			want: Diffs{ScaleDownNum: 3, ScaleDownNumOldRevision: 5, UpdateNum: 2, UpdateMaxUnavailable: 3}},
		{name: "17b with P 2", cs: kcs(5, num(2), num(0), num(3)), paused: true, pods: cat(times(5, or()), times(3, nu())),
			want: Diffs{ScaleDownNum: 3, ScaleDownNumOldRevision: 3}},
		{name: "18 R5 P0 U33.3%, 5 Or (S3)", cs: kcs(5, num(0), str("33.3%"), nil), pods: times(5, or()),
			want: Diffs{UpdateNum: 5}, reason: "the legacy parser fails on 33.3, so U = 0 and the budget is 0+5-5 = 0"},
		{name: "S1 R5 SU1, 2 Or + 1 Ou: nothing created, budget -1", cs: kcs(5, nil, nil, nil), scaleMaxUnavailable: num(1), pods: cat(times(2, or()), times(1, ou())),
			want: Diffs{ScaleUpNum: 2, ScaleUpLimit: 0, UpdateNum: 3, UpdateMaxUnavailable: -1}, reason: "U = ceil(20% of 5) = 1; limit max(1-1, 0) = 0"},
		{name: "S1 with BudgetClampAtZero", cs: kcs(5, nil, nil, nil), scaleMaxUnavailable: num(1), budget: BudgetClampAtZero, pods: cat(times(2, or()), times(1, ou())),
			want: Diffs{ScaleUpNum: 2, ScaleUpLimit: 0, UpdateNum: 3, UpdateMaxUnavailable: 0}},
		{name: "minReadySeconds makes ready pods unavailable", cs: kcs(3, nil, nil, nil), minReadySeconds: 9999, consistent: true, pods: times(5, nr()),
			want: Diffs{ScaleDownNum: 2}, reason: "S6: 1 + (5-3) - 5 unavailable < 0, so no ready pod may be deleted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name     string
		cs       *CloneSet[struct{}]
		want     Resolved
		warnings []string
	}{
		{name: "defaults", cs: &CloneSet[struct{}]{Replicas: 10},
			want: Resolved{Replicas: 10, MaxUnavailable: 2, ScaleMaxUnavailable: math.MaxInt32}},
		{name: "surge rounds maxUnavailable down", cs: kcs(10, str("60%"), str("25%"), str("10%")),
			want: Resolved{Replicas: 10, Partition: 6, MaxSurge: 1, MaxUnavailable: 2}},
		{name: "no surge rounds it up", cs: kcs(10, str("60%"), str("25%"), nil),
			want: Resolved{Replicas: 10, Partition: 6, MaxUnavailable: 3}},
		{name: "a string without % is a percent to the controller", cs: kcs(10, nil, str("25"), str("10")),
			want: Resolved{Replicas: 10, MaxSurge: 1, MaxUnavailable: 2}},
		{name: "unreadable values are 0 with warnings", cs: func() *CloneSet[struct{}] {
			cs := kcs(10, str("60"), str("33.3%"), str("%"))
			cs.ScaleStrategy.MaxUnavailable = str("10.5%")
			return cs
		}(),
			want: Resolved{Replicas: 10},
			warnings: []string{
				`cloneset: spec.updateStrategy.partition: "60": invalid type: string is not a percentage`,
				`cloneset: spec.updateStrategy.maxSurge: "%": strconv.Atoi: parsing "": invalid syntax`,
				`cloneset: spec.updateStrategy.maxUnavailable: "33.3%": strconv.Atoi: parsing "33.3": invalid syntax`,
				`cloneset: spec.scaleStrategy.maxUnavailable: "10.5%": strconv.Atoi: parsing "10.5": invalid syntax`,
			}},
		{name: "paused zeroes the surge, so maxUnavailable rounds up", cs: func() *CloneSet[struct{}] {
			cs := kcs(10, nil, str("25%"), num(3))
			cs.UpdateStrategy.Paused = true
			return cs
		}(),
			want: Resolved{Replicas: 10, MaxUnavailable: 3}},
		{name: "negative values pass through", cs: kcs(10, num(-1), str("-10%"), num(-2)),
			want: Resolved{Replicas: 10, MaxSurge: -2, MaxUnavailable: -1, ScaleMaxUnavailable: math.MaxInt32}},
		{name: "huge percentages stay 64-bit", cs: kcs(1000, nil, str("9223372036854775807%"), nil),
			want: Resolved{Replicas: 1000, MaxUnavailable: math.MinInt64, ScaleMaxUnavailable: math.MaxInt32}, warnings: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.cs)
			if err != nil {
				t.Fatal(err)
			}
			var warnings []string
			for _, w := range got.Warnings {
				warnings = append(warnings, w.Error())
			}
			got.Warnings = nil
			if tt.want.ScaleMaxUnavailable == 0 && tt.cs.ScaleStrategy.MaxUnavailable == nil {
				tt.want.ScaleMaxUnavailable = math.MaxInt32
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported()); diff != "" {
				t.Errorf("Resolve mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("Resolve warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCalculateDiffsRejectsBadInput(t *testing.T) {
	good := kcs(3, nil, nil, nil)
	tests := []struct {
		name string
		cs   *CloneSet[struct{}]
		pods []Pod
		step DiffsFor
		want string
	}{
		{"nil cloneset", nil, nil, ForScale, "cloneset: Required value"},
		{"negative replicas", kcs(-1, nil, nil, nil), nil, ForScale, "cloneset: spec.replicas: -1: must not be negative"},
		{"unknown step", good, nil, 0, "cloneset: diffsFor: DiffsFor(0): must be ForScale or ForUpdate"},
		{"unnamed pod", good, []Pod{{}}, ForScale, "cloneset: pods[0].name: must not be empty"},
		{"duplicate names", good, []Pod{{Name: "a"}, {Name: "b"}, {Name: "a"}}, ForScale, `cloneset: pods[2].name: duplicate name "a"`},
		{"negative restarts", good, []Pod{{Name: "a", Restarts: -1}}, ForScale, "cloneset: pods[0].restarts: -1: must not be negative"},
		{"negative sidecar restarts", good, []Pod{{Name: "a"}, {Name: "b", SidecarRestarts: -2}}, ForUpdate, "cloneset: pods[1].sidecarRestarts: -2: must not be negative"},
		{"negative minReadySeconds", &CloneSet[struct{}]{MinReadySeconds: -1}, nil, ForUpdate, "cloneset: spec.minReadySeconds: -1: must not be negative"},
	}
	for _, tt := range tests {
		d, err := CalculateDiffs(tt.cs, tt.pods, Revisions{Update: newRev}, t0, tt.step, Options{})
		if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("CalculateDiffs(%s) error = %v, want %q wrapping field.ErrInvalid", tt.name, err, tt.want)
		}
		if !cmp.Equal(d, Diffs{}, cmp.Comparer(errorsEqual)) {
			t.Errorf("CalculateDiffs(%s) = %+v with an error, want zero", tt.name, d)
		}
	}
}

func TestCalculateDiffsSkipsInactivePods(t *testing.T) {
	cs := kcs(3, nil, nil, nil)
	active := times(3, nr())
	inactive := []Pod{{Name: "t", Revision: newRev, Phase: PodRunning, Terminating: true}, {Name: "s", Revision: oldRev, Phase: PodSucceeded}, {Name: "f", Phase: PodFailed}}
	a, err := CalculateDiffs(cs, named(active), Revisions{Update: newRev}, t0, ForScale, Options{})
	b, err2 := CalculateDiffs(cs, append(named(active), inactive...), Revisions{Update: newRev}, t0, ForScale, Options{})
	if err != nil || err2 != nil || !cmp.Equal(a, b, cmp.Comparer(errorsEqual)) {
		t.Errorf("inactive pods changed the diffs: %+v vs %+v (%v, %v)", a, b, err, err2)
	}
}

func TestCalculateDiffsPodsToDeleteCountsAsSpecified(t *testing.T) {
	for _, n := range []int{1, 20} { // a short list is searched, a long one hashed
		cs := kcs(5, num(0), num(1), num(0))
		for i := range n - 1 {
			cs.ScaleStrategy.PodsToDelete = append(cs.ScaleStrategy.PodsToDelete, "absent"+strings.Repeat("x", i))
		}
		cs.ScaleStrategy.PodsToDelete = append(cs.ScaleStrategy.PodsToDelete, "p0")
		d, err := CalculateDiffs(cs, named(times(5, nr())), Revisions{Update: newRev}, t0, ForScale, Options{})
		if err != nil || d.Counts.ToDeleteNew != 1 || d.DeleteReadyLimit != 1 {
			t.Errorf("podsToDelete of %d names with p0: counts %+v, deleteReadyLimit %d, err %v; want p0 specified, limit 1", n, d.Counts, d.DeleteReadyLimit, err)
		}
	}
}

// drawIOS draws a maxSurge/maxUnavailable as users write them, mostly
// readable.
func drawIOS(t *rapid.T, label string, maxInt int32) *intorpercent.IntOrString {
	switch rapid.IntRange(0, 5).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1, 2:
		return num(rapid.Int32Range(0, maxInt).Draw(t, label))
	case 3, 4:
		return str(strings.TrimSpace(rapid.SampledFrom([]string{"0%", "10%", "20%", "25%", "33%", "50%", "100%", "150%"}).Draw(t, label)))
	}
	return str(rapid.SampledFrom([]string{"25", "33.3%", "-10%", "%", "abc"}).Draw(t, label))
}

// drawPod draws a pod of a random revision, readiness and lifecycle.
func drawPod(t *rapid.T, i int) Pod {
	p := Pod{Name: "p" + strconv.Itoa(i)}
	p.Revision = rapid.SampledFrom([]string{oldRev, newRev, "cs-" + newRev, "older_rev"}).Draw(t, "revision")
	p.Phase = rapid.SampledFrom([]PodPhase{PodRunning, PodRunning, PodRunning, PodPending, "", PodUnknown, PodSucceeded, PodFailed}).Draw(t, "phase")
	p.Ready = rapid.Bool().Draw(t, "ready")
	p.ReadySince = t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "readyFor")) * time.Second)
	p.CreationTime = t0.Add(-time.Duration(rapid.IntRange(0, 1000).Draw(t, "age")) * time.Second)
	p.Lifecycle = rapid.SampledFrom([]LifecycleState{Normal, Normal, Normal, "", PreparingNormal, PreparingUpdate, Updating, Updated, PreparingDelete}).Draw(t, "lifecycle")
	p.SpecifiedDelete = rapid.IntRange(0, 9).Draw(t, "specifiedDelete") == 0
	p.Terminating = rapid.IntRange(0, 19).Draw(t, "terminating") == 0
	if rapid.IntRange(0, 9).Draw(t, "inPlaceCondition") == 0 {
		p.InPlaceUpdateReady = ConditionFalse
	}
	p.NodeName = rapid.SampledFrom([]string{"", "n1", "n2", "n3"}).Draw(t, "node")
	p.DeletionCost = rapid.SampledFrom([]string{"", "", "5", "-3", "+1", "007"}).Draw(t, "deletionCost")
	p.Restarts = int32(rapid.IntRange(0, 3).Draw(t, "restarts"))
	return p
}

// drawCloneSet draws a CloneSet with random replicas and strategy.
func drawCloneSet(t *rapid.T) *CloneSet[struct{}] {
	cs := &CloneSet[struct{}]{Name: "cs", Replicas: rapid.Int32Range(0, 30).Draw(t, "replicas")}
	cs.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 10, 60}).Draw(t, "minReadySeconds")
	cs.UpdateStrategy.Partition = drawPartition(t, "partition")
	cs.UpdateStrategy.MaxSurge = drawIOS(t, "maxSurge", 5)
	cs.UpdateStrategy.MaxUnavailable = drawIOS(t, "maxUnavailable", 5)
	cs.UpdateStrategy.Paused = rapid.IntRange(0, 4).Draw(t, "paused") == 0
	if rapid.Bool().Draw(t, "hasScaleMaxUnavailable") {
		cs.ScaleStrategy.MaxUnavailable = drawIOS(t, "scaleMaxUnavailable", 5)
	}
	if rapid.IntRange(0, 4).Draw(t, "excludeLabel") == 0 {
		cs.Labels = map[string]string{ExcludePreparingDeleteLabel: "true"}
	}
	return cs
}

func drawPods(t *rapid.T, max int) []Pod {
	n := rapid.IntRange(0, max).Draw(t, "pods")
	pods := make([]Pod, n)
	for i := range pods {
		pods[i] = drawPod(t, i)
	}
	if n > 0 && rapid.Bool().Draw(t, "podsToDelete") {
		pods[0].SpecifiedDelete = false
	}
	return pods
}

func drawOptions(t *rapid.T) Options {
	return Options{
		Gates: Gates{
			PartitionRollback:             rapid.Bool().Draw(t, "partitionRollback"),
			PreparingUpdateAsUpdate:       rapid.Bool().Draw(t, "preparingUpdateAsUpdate"),
			ScalingExcludePreparingDelete: rapid.Bool().Draw(t, "scalingExcludePreparingDelete"),
		},
		UpdateBudget: BudgetPolicy(rapid.IntRange(0, 1).Draw(t, "updateBudget")),
		ReadyLimit:   ReadyLimitPolicy(rapid.IntRange(0, 1).Draw(t, "readyLimit")),
	}
}

type diffsDraw struct {
	cs   *CloneSet[struct{}]
	pods []Pod
	revs Revisions
	step DiffsFor
	opts Options
}

func drawDiffsInput(t *rapid.T) diffsDraw {
	cs := drawCloneSet(t)
	pods := drawPods(t, 40)
	if len(pods) > 0 && rapid.Bool().Draw(t, "namePodToDelete") {
		cs.ScaleStrategy.PodsToDelete = []string{pods[rapid.IntRange(0, len(pods)-1).Draw(t, "podToDelete")].Name, "absent"}
	}
	revs := Revisions{Current: rapid.SampledFrom([]string{"", oldRev, newRev}).Draw(t, "current"), Update: newRev}
	return diffsDraw{cs: cs, pods: pods, revs: revs, step: DiffsFor(rapid.IntRange(1, 2).Draw(t, "step")), opts: drawOptions(t)}
}

func (in diffsDraw) calc(t *rapid.T) Diffs {
	d, err := CalculateDiffs(in.cs, in.pods, in.revs, t0, in.step, in.opts)
	if err != nil {
		t.Fatalf("CalculateDiffs: %v", err)
	}
	return d
}

func TestDiffsScaleUpNeverExceedsLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawDiffsInput(t).calc(t)
		if d.ScaleUpLimit > d.ScaleUpNum || d.ScaleUpLimit < 0 {
			t.Fatalf("ScaleUpLimit %d outside [0, ScaleUpNum %d]", d.ScaleUpLimit, d.ScaleUpNum)
		}
	})
}

func TestDiffsNeverScaleUpAndDownTogether(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawDiffsInput(t).calc(t)
		if d.ScaleUpNum > 0 && d.ScaleDownNum > 0 {
			t.Fatalf("ScaleUpNum %d and ScaleDownNum %d both positive", d.ScaleUpNum, d.ScaleDownNum)
		}
	})
}

func TestDiffsCountsAreNeverNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawDiffsInput(t).calc(t)
		for name, v := range map[string]int32{"ScaleUpNum": d.ScaleUpNum, "ScaleUpNumOldRevision": d.ScaleUpNumOldRevision,
			"ScaleDownNum": d.ScaleDownNum, "ScaleDownNumOldRevision": d.ScaleDownNumOldRevision, "ScaleUpLimit": d.ScaleUpLimit,
			"DeleteReadyLimit": d.DeleteReadyLimit, "UseSurge": d.UseSurge, "UseSurgeOldRevision": d.UseSurgeOldRevision} {
			if v < 0 {
				t.Fatalf("%s = %d < 0", name, v)
			}
		}
	})
}

func TestDiffsSurgeNeverExceedsMaxSurge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		d := in.calc(t)
		if int64(d.UseSurge) > max(d.Resolved.MaxSurge, 0) || d.UseSurgeOldRevision > d.UseSurge {
			t.Fatalf("UseSurge %d, UseSurgeOldRevision %d with maxSurge %d", d.UseSurge, d.UseSurgeOldRevision, d.Resolved.MaxSurge)
		}
		if in.cs.UpdateStrategy.Paused && d.UseSurge != 0 {
			t.Fatalf("paused CloneSet uses surge %d", d.UseSurge)
		}
	})
}

func TestDiffsScaleUpNeverExceedsReplicasPlusSurge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		d := in.calc(t)
		total := d.Pods
		if in.opts.Gates.ScalingExcludePreparingDelete || in.cs.Labels[ExcludePreparingDeleteLabel] == "true" {
			total -= d.Counts.PreDeletingNew + d.Counts.PreDeletingOld
		}
		if d.ScaleUpNum > 0 && int64(total)+int64(d.ScaleUpNum) > int64(in.cs.Replicas)+max(d.Resolved.MaxSurge, 0) {
			t.Fatalf("%d pods + ScaleUpNum %d exceed replicas %d + maxSurge %d", total, d.ScaleUpNum, in.cs.Replicas, d.Resolved.MaxSurge)
		}
	})
}

func TestDiffsRollBackOnlyWithGateAndDistinctRevisions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		d := in.calc(t)
		if d.UpdateNum < 0 && (!in.opts.Gates.PartitionRollback || in.revs.current() == in.revs.Update) {
			t.Fatalf("UpdateNum %d < 0 without the rollback gate or with one revision", d.UpdateNum)
		}
	})
}

func TestDiffsBudgetClampNeverNegativeAndOtherwiseKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		in.opts.UpdateBudget = BudgetKruise
		k := in.calc(t)
		in.opts.UpdateBudget = BudgetClampAtZero
		c := in.calc(t)
		if c.UpdateMaxUnavailable < 0 || c.UpdateMaxUnavailable != max(k.UpdateMaxUnavailable, 0) {
			t.Fatalf("clamped budget %d, kruise's %d", c.UpdateMaxUnavailable, k.UpdateMaxUnavailable)
		}
		c.UpdateMaxUnavailable = k.UpdateMaxUnavailable
		if !cmp.Equal(k, c, cmp.Comparer(errorsEqual)) {
			t.Fatalf("the clamp changed more than the budget:\n%s", cmp.Diff(k, c, cmp.Comparer(errorsEqual)))
		}
	})
}

func TestDiffsIndependentOfPodOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		d := in.calc(t)
		perm := rapid.Permutation(in.pods).Draw(t, "order")
		in.pods = perm
		if e := in.calc(t); !cmp.Equal(d, e, cmp.Comparer(errorsEqual)) {
			t.Fatalf("order changed the diffs:\n%s", cmp.Diff(d, e, cmp.Comparer(errorsEqual)))
		}
	})
}

func TestCalculateDiffsDoesNotModifyInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		before := deepCopyInput(in)
		in.calc(t)
		if diff := cmp.Diff(before, in, cmp.AllowUnexported(diffsDraw{})); diff != "" {
			t.Fatalf("CalculateDiffs modified its inputs (-before +after):\n%s", diff)
		}
	})
}

func deepCopyInput(in diffsDraw) diffsDraw {
	out := in
	cs := *in.cs
	cs.Labels = maps.Clone(in.cs.Labels)
	cs.ScaleStrategy.PodsToDelete = slices.Clone(in.cs.ScaleStrategy.PodsToDelete)
	cs.UpdateStrategy.Partition = clonePtr(in.cs.UpdateStrategy.Partition)
	cs.UpdateStrategy.MaxSurge = clonePtr(in.cs.UpdateStrategy.MaxSurge)
	cs.UpdateStrategy.MaxUnavailable = clonePtr(in.cs.UpdateStrategy.MaxUnavailable)
	cs.ScaleStrategy.MaxUnavailable = clonePtr(in.cs.ScaleStrategy.MaxUnavailable)
	if in.cs.Lifecycle != nil {
		l := *in.cs.Lifecycle
		for _, h := range []**LifecycleHook{&l.PreDelete, &l.InPlaceUpdate, &l.PreNormal} {
			if *h != nil {
				c := **h
				c.LabelsHandler = maps.Clone(c.LabelsHandler)
				c.FinalizersHandler = slices.Clone(c.FinalizersHandler)
				*h = &c
			}
		}
		cs.Lifecycle = &l
	}
	out.cs = &cs
	out.pods = slices.Clone(in.pods)
	for i := range out.pods {
		out.pods[i].Labels = maps.Clone(in.pods[i].Labels)
		out.pods[i].Finalizers = slices.Clone(in.pods[i].Finalizers)
	}
	return out
}

func clonePtr[V any](p *V) *V {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func errorsEqual(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// diffsInvariants checks the invariants every Diffs holds.
func diffsInvariants(t *rapid.T) {
	in := drawDiffsInput(t)
	d := in.calc(t)
	if d.ScaleUpLimit < 0 || d.ScaleUpLimit > d.ScaleUpNum || (d.ScaleUpNum > 0 && d.ScaleDownNum > 0) ||
		d.UseSurgeOldRevision > d.UseSurge || int64(d.UseSurge) > max(d.Resolved.MaxSurge, 0) || d.DeleteReadyLimit < 0 {
		t.Fatalf("invariant broken: %+v", d)
	}
}

func FuzzCalculateDiffs(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(diffsInvariants))
}

func TestDiffsAtRestAreZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Every pod active, available and unmarked, exactly P at the
		// current revision and R-P at the update revision: nothing to do.
		replicas := rapid.Int32Range(0, 50).Draw(t, "replicas")
		cs := kcs(replicas, drawPartition(t, "partition"), drawIOS(t, "maxUnavailable", 5), drawIOS(t, "maxSurge", 5))
		p, err := CalculatePartitionReplicas(cs.UpdateStrategy.Partition, replicas)
		if err != nil {
			cs.UpdateStrategy.Partition = nil // kruise reads 0; keep the rest
			p = 0
		}
		var pods []Pod
		for i := range replicas {
			rev := newRev
			if i < p {
				rev = oldRev
			}
			pods = append(pods, ready("p"+strconv.Itoa(int(i)), rev, time.Hour))
		}
		opts := drawOptions(t)
		for _, step := range []DiffsFor{ForScale, ForUpdate} {
			d, err := CalculateDiffs(cs, pods, Revisions{Current: oldRev, Update: newRev}, t0, step, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := outputs(d); !cmp.Equal(got, Diffs{}, cmp.Comparer(errorsEqual)) {
				t.Fatalf("at rest (P %d of %d), %v diffs are %+v, want zero", p, replicas, step, got)
			}
		}
	})
}
