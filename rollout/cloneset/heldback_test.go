package cloneset

import (
	"testing"
	"time"
)

// TestHeldBackReason compares the full Sync.Reason of reconciles whose
// update step leaves pods to move: the sentence must name the budget as
// it is, 0 and negative included, and say when pods already unavailable
// use all of a positive one.
func TestHeldBackReason(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
	unready := func(name, rev string) Pod {
		p := readyPod(name, rev, time.Hour)
		p.Ready = false
		return p
	}
	tests := []struct {
		name           string
		maxUnavailable int32
		maxSurge       int32
		opts           Options
		pods           []Pod
		budget         int32
		want           string
		reason         string
	}{
		{
			name:           "budget 1 used up by the unready surge pod",
			maxUnavailable: 0, maxSurge: 1,
			pods:   []Pod{readyPod("demo-a", r1.Name, time.Hour), readyPod("demo-b", r1.Name, time.Hour), readyPod("demo-c", r1.Name, time.Hour), readyPod("demo-d", r1.Name, time.Hour), unready("demo-e", r2.Name)},
			budget: 1,
			want:   "3 more pods to move to " + r2.Name + ", held back: pods already unavailable use all of the update budget 1 (maxUnavailable 0 + 5 pods - 4 replicas)",
			reason: "U 0 + N 5 - R 4 = 1, and demo-e at the update revision is unavailable: LimitUpdateIndexes takes nothing",
		},
		{
			name:           "budget 1 spent on the unready old pod",
			maxUnavailable: 1,
			pods:           []Pod{readyPod("demo-a", r1.Name, time.Hour), readyPod("demo-b", r1.Name, time.Hour), readyPod("demo-c", r1.Name, time.Hour), unready("demo-d", r1.Name)},
			budget:         1,
			want:           "marked 1 pod for recreation at " + r2.Name + " (update budget 1); 3 more pods to move to " + r2.Name + ", held back by the update budget 1 (maxUnavailable 1 + 4 pods - 4 replicas)",
		},
		{
			name:           "budget 0: one pod missing, its creation blocked",
			maxUnavailable: 1,
			pods:           []Pod{readyPod("demo-a", r1.Name, time.Hour), readyPod("demo-b", r1.Name, time.Hour), unready("demo-c", r1.Name)},
			budget:         0,
			want: "no pod created: 4 pods wanted (4 replicas + surge 0), 3 exist; 0 may be created while 1 are unavailable (scaleStrategy.maxUnavailable 1); " +
				"3 more pods to move to " + r2.Name + ", held back: the update budget is 0 (maxUnavailable 1 + 3 pods - 4 replicas), so no pod may be updated",
			reason: "scaleStrategy.maxUnavailable 1 with 1 unavailable pod blocks the create, so the update step runs with N 3 < R 4",
		},
		{
			name:           "negative budget: two pods missing",
			maxUnavailable: 1,
			pods:           []Pod{readyPod("demo-a", r1.Name, time.Hour), unready("demo-b", r1.Name)},
			budget:         -1,
			want: "no pod created: 4 pods wanted (4 replicas + surge 0), 2 exist; 0 may be created while 1 are unavailable (scaleStrategy.maxUnavailable 1); " +
				"2 more pods to move to " + r2.Name + ", held back: the update budget is -1 (maxUnavailable 1 + 2 pods - 4 replicas: more pods are missing than maxUnavailable allows), so no pod may be updated",
			reason: "kruise's budget U + N - R goes negative (docs/cloneset.md#s1-negative-update-budget)",
		},
		{
			name:           "negative budget clamped at 0",
			maxUnavailable: 1,
			opts:           Options{UpdateBudget: BudgetClampAtZero},
			pods:           []Pod{readyPod("demo-a", r1.Name, time.Hour), unready("demo-b", r1.Name)},
			budget:         0,
			want: "no pod created: 4 pods wanted (4 replicas + surge 0), 2 exist; 0 may be created while 1 are unavailable (scaleStrategy.maxUnavailable 1); " +
				"2 more pods to move to " + r2.Name + ", held back: the update budget is 0 (maxUnavailable 1 + 2 pods - 4 replicas = -1, clamped at 0), so no pod may be updated",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[podTemplate]{Name: "demo", Generation: 2, Replicas: 4, Template: templateOf("nginx:1.26")}
			cs.UpdateStrategy.MaxUnavailable = num(tt.maxUnavailable)
			if tt.maxSurge != 0 {
				cs.UpdateStrategy.MaxSurge = num(tt.maxSurge)
			}
			cs.ScaleStrategy.MaxUnavailable = num(1)
			cs.Status.ObservedGeneration = 2
			cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r2.Name
			s, err := PlanWith(cs, tt.pods, []ControllerRevision{r1, r2}, t0, tt.opts)
			if err != nil {
				t.Fatalf("PlanWith() error = %v", err)
			}
			if s.Update == nil || s.Update.Diffs.UpdateMaxUnavailable != tt.budget {
				t.Fatalf("PlanWith() update = %+v, want budget %d", s.Update, tt.budget)
			}
			if s.Reason != tt.want {
				t.Errorf("PlanWith() reason =\n%s\nwant\n%s\n(%s)", s.Reason, tt.want, tt.reason)
			}
		})
	}
}
