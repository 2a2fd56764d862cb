package cloneset

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// limitCase builds the pods of one of kruise's TestCalculateUpdateCount
// cases: pod i is ready (Running, Ready, no lifecycle) when ready[i], else
// a bare Pending pod, and at the current revision "current" when i is in
// old, else at "updated".
func limitCasePods(ready []bool, old []int) []Pod {
	pods := make([]Pod, len(ready))
	for i := range pods {
		pods[i] = Pod{Name: fmt.Sprintf("p%d", i), Revision: "updated"}
		if slices.Contains(old, i) {
			pods[i].Revision = "current"
		}
		if ready[i] {
			pods[i].Phase, pods[i].Ready = PodRunning, true
		}
	}
	return pods
}

// Cases of kruise's TestCalculateUpdateCount (pkg/controller/cloneset/sync,
// run with CloneSetPartitionRollback on): the diffs come from
// CalculateDiffs and the candidates are passed unsorted, as kruise's test
// passes them (docs/cloneset.md#update-limit,
// docs/cloneset.md#s10-unsorted-limit-test).
func TestLimitUpdateIndexesKruiseCases(t *testing.T) {
	r, u := true, false
	tests := []struct {
		name     string
		replicas int32
		strategy UpdateStrategy
		old      []int
		ready    []bool
		want     int
	}{
		{name: "3 ready", replicas: 3, old: []int{0, 1, 2}, ready: []bool{r, r, r}, want: 1},
		{name: "unsorted [r,u,r]", replicas: 3, old: []int{0, 1, 2}, ready: []bool{r, u, r}, want: 0},
		{name: "unsorted [u,r,r]", replicas: 3, old: []int{0, 1, 2}, ready: []bool{u, r, r}, want: 1},
		{name: "10 replicas, 2 unready old", replicas: 10, old: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, ready: []bool{u, r, r, r, r, r, r, r, u, r}, want: 1},
		{name: "partition 2, U 3", replicas: 3, strategy: UpdateStrategy{Partition: num(2), MaxUnavailable: num(3)}, old: []int{0, 1}, ready: []bool{u, r, r}, want: 0},
		{name: "partition 2, U 50%", replicas: 8, strategy: UpdateStrategy{Partition: num(2), MaxUnavailable: str("50%")}, old: []int{0, 1, 2, 3, 4, 5, 6}, ready: []bool{u, r, u, r, r, r, r, u}, want: 3},
		{name: "all old unavailable, U 2", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2)}, old: []int{0, 1, 2, 3, 4}, ready: []bool{u, u, u, u, u}, want: 2},
		{name: "all unavailable, 2 updating", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2)}, old: []int{0, 1, 2}, ready: []bool{u, u, u, u, u}, want: 0},
		{name: "1 updated, 1 updating", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2)}, old: []int{0, 1, 2}, ready: []bool{u, u, u, r, u}, want: 1},
		{name: "surge 1, 1 creating", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2), MaxSurge: num(1)}, old: []int{0, 1, 2, 3, 4}, ready: []bool{u, u, u, u, u, u}, want: 2},
		{name: "surge 1, 1 updated 1 updating", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2), MaxSurge: num(1)}, old: []int{0, 1, 2, 3}, ready: []bool{u, u, u, u, r, u}, want: 2},
		{name: "surge 1, 1 updated 2 updating", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2), MaxSurge: num(1)}, old: []int{0, 1, 2}, ready: []bool{u, u, u, u, r, u}, want: 1},
		{name: "surge 1, 3 updating", replicas: 5, strategy: UpdateStrategy{Partition: num(0), MaxUnavailable: num(2), MaxSurge: num(1)}, old: []int{0, 1, 2}, ready: []bool{u, u, u, u, u, u}, want: 0},
		{name: "rollback, new pods unavailable", replicas: 8, strategy: UpdateStrategy{Partition: num(7), MaxUnavailable: num(2)}, old: []int{0, 1, 2}, ready: []bool{r, r, r, u, u, u, u, u}, want: 2},
		{name: "U 0, S 2, surge used 1", replicas: 4, strategy: UpdateStrategy{MaxUnavailable: num(0), MaxSurge: num(2)}, old: []int{0, 1}, ready: []bool{r, r, r, r, r}, want: 1},
		{name: "U 0, S 2, surge used 2", replicas: 4, strategy: UpdateStrategy{MaxUnavailable: num(0), MaxSurge: num(2)}, old: []int{0, 1, 2, 3}, ready: []bool{r, r, r, r, r, r}, want: 2},
	}
	now := ut0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pods := limitCasePods(tt.ready, tt.old)
			cs := &CloneSet[struct{}]{Replicas: tt.replicas, UpdateStrategy: tt.strategy}
			d, err := CalculateDiffs(cs, pods, Revisions{Current: "current", Update: "updated"}, now, ForUpdate, Options{Gates: Gates{PartitionRollback: true}})
			if err != nil {
				t.Fatal(err)
			}
			var cands []int
			target := "updated"
			switch {
			case d.UpdateNum > 0:
				cands = tt.old
			case d.UpdateNum < 0:
				target = "current"
				for i := range pods {
					if !slices.Contains(tt.old, i) {
						cands = append(cands, i)
					}
				}
			}
			got := LimitUpdateIndexes(pods, cands, d.UpdateNum, d.UpdateMaxUnavailable, target, 0, now)
			if len(got) != tt.want {
				t.Errorf("LimitUpdateIndexes(%v, updateNum %d, budget %d) = %v, want %d pods", cands, d.UpdateNum, d.UpdateMaxUnavailable, got, tt.want)
			}
		})
	}
}

// TestLimitUpdateIndexesAfterSort: the controller sorts before limiting,
// so [Or, Ou, Or] updates the unready pod (observed by running kruise;
// docs/cloneset.md#update-limit), where kruise's unit test on unsorted
// input updates none.
func TestLimitUpdateIndexesAfterSort(t *testing.T) {
	pods := limitCasePods([]bool{true, false, true}, []int{0, 1, 2})
	cs := &CloneSet[struct{}]{Replicas: 3}
	d, err := CalculateDiffs(cs, pods, Revisions{Current: "current", Update: "updated"}, ut0, ForUpdate, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sorted, err := SortUpdateIndexes(cs.UpdateStrategy, pods, UpdateCandidates(pods, "updated", d.UpdateNum), UpdateOrderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := LimitUpdateIndexes(pods, sorted, d.UpdateNum, d.UpdateMaxUnavailable, "updated", 0, ut0)
	if diff := cmp.Diff([]int{1}, got); diff != "" {
		t.Errorf("sorted then limited (-want +got):\n%s", diff)
	}
}

// TestLimitNeverExceedsBudget: after the chosen pods are updated (and so
// become unavailable), the unavailable pods at the target revision number
// at most max(budget, those already there), and the unavailable pods overall
// grow only while they stay within the budget; never more than |updateNum|
// pods are taken, and the result is a prefix of the candidates.
func TestLimitNeverExceedsBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "pods")
		pods := make([]Pod, n)
		for i := range pods {
			pods[i] = Pod{
				Name:            fmt.Sprintf("p%02d", i),
				Revision:        rapid.SampledFrom([]string{"current", "updated"}).Draw(t, "revision"),
				Phase:           rapid.SampledFrom([]PodPhase{PodRunning, PodPending}).Draw(t, "phase"),
				Ready:           rapid.Bool().Draw(t, "ready"),
				ReadySince:      ut0.Add(-time.Duration(rapid.IntRange(0, 20).Draw(t, "readyAgo")) * time.Second),
				Lifecycle:       rapid.SampledFrom([]LifecycleState{"", Normal, PreparingDelete, Updating}).Draw(t, "lifecycle"),
				Terminating:     rapid.IntRange(0, 9).Draw(t, "terminating") == 0,
				SpecifiedDelete: rapid.IntRange(0, 5).Draw(t, "specified") == 0,
			}
		}
		target := rapid.SampledFrom([]string{"current", "updated"}).Draw(t, "target")
		var cands []int
		for i := range pods {
			if IsPodActive(&pods[i]) && !IsPodAtRevision(&pods[i], target) && rapid.Bool().Draw(t, "candidate") {
				cands = append(cands, i)
			}
		}
		cands = rapid.Permutation(cands).Draw(t, "order")
		updateNum := rapid.Int32Range(-40, 40).Draw(t, "updateNum")
		budget := rapid.Int32Range(-5, 10).Draw(t, "updateMaxUnavailable")
		minReady := rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
		before := slices.Clone(cands)
		got := LimitUpdateIndexes(pods, cands, updateNum, budget, target, minReady, ut0)
		if !slices.Equal(before, cands) {
			t.Fatalf("candidates modified")
		}
		if !slices.Equal(got, cands[:len(got)]) {
			t.Fatalf("%v is not a prefix of %v", got, cands)
		}
		if abs := max(updateNum, -updateNum); int32(len(got)) > abs {
			t.Fatalf("took %d pods, updateNum %d", len(got), updateNum)
		}
		var unavail, targetUnavail int64
		for i := range pods {
			if IsPodActive(&pods[i]) && !IsPodAvailable(&pods[i], minReady, ut0) {
				unavail++
				if IsPodAtRevision(&pods[i], target) {
					targetUnavail++
				}
			}
		}
		if len(got) > 0 && targetUnavail+int64(len(got)) > int64(budget) {
			t.Fatalf("target unavailable %d + %d updated exceeds budget %d", targetUnavail, len(got), budget)
		}
		var newlyUnavailable int64
		for _, i := range got {
			if IsPodAvailable(&pods[i], minReady, ut0) {
				newlyUnavailable++
			}
		}
		if newlyUnavailable > 0 && unavail+newlyUnavailable > int64(budget) {
			t.Fatalf("unavailable %d + %d newly unavailable exceeds budget %d", unavail, newlyUnavailable, budget)
		}
	})
}
