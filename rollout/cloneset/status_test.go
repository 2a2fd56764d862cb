package cloneset

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestCalculateStatusSpecExample(t *testing.T) {
	// The example of docs/cloneset.md#status.
	cs := &CloneSet[struct{}]{Name: "demo", Generation: 3, Replicas: 4, MinReadySeconds: 10, Status: Status{ObservedGeneration: 2, LabelSelector: "app=demo"}}
	pods := []Pod{
		ready("a", "r1", time.Minute), ready("b", "r1", time.Minute), ready("c", "r2", 5*time.Second),
		{Name: "d", Revision: "r2", Phase: PodPending, Lifecycle: PreparingNormal, CreationTime: t0},
	}
	got, err := CalculateStatus(cs, pods, Revisions{Current: "r1", Update: "r2"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	zero := int32(0)
	want := StatusUpdate{
		Status: Status{ObservedGeneration: 3, Replicas: 4, ReadyReplicas: 3, AvailableReplicas: 2, UpdatedReplicas: 2, UpdatedReadyReplicas: 1,
			UpdatedAvailableReplicas: 0, ExpectedUpdatedReplicas: 4, UpdateRevision: "r2", CurrentRevision: "r1", CollisionCount: &zero, LabelSelector: "app=demo"},
		Write:           true,
		MinReadyRequeue: 10 * time.Second,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CalculateStatus mismatch (-want +got):\n%s", diff)
	}
}

func TestCalculateStatusCurrentRevision(t *testing.T) {
	// docs/cloneset.md#revisions: R3, 3 pods at r2 (one Pending) -> current r2; 4 pods
	// at r2 (surge) -> not yet.
	three := []Pod{ready("a", "r2", time.Minute), ready("b", "r2", time.Minute), {Name: "c", Revision: "r2", Phase: PodPending}}
	cs := kcs(3, nil, nil, nil)
	got, _ := CalculateStatus(cs, three, Revisions{Current: "r1", Update: "r2"}, t0)
	if got.Status.CurrentRevision != "r2" {
		t.Errorf("3 of 3 pods at r2: current %q, want r2", got.Status.CurrentRevision)
	}
	four := append(three, ready("d", "r2", time.Minute))
	got, _ = CalculateStatus(cs, four, Revisions{Current: "r1", Update: "r2"}, t0)
	if got.Status.CurrentRevision != "r1" {
		t.Errorf("4 pods at r2 for 3 replicas: current %q, want r1", got.Status.CurrentRevision)
	}
	bad := kcs(3, str("60"), nil, nil)
	got, _ = CalculateStatus(bad, three, Revisions{Current: "r1", Update: "r2"}, t0)
	if got.Status.ExpectedUpdatedReplicas != 0 {
		t.Errorf("unreadable partition: expectedUpdatedReplicas %d, want 0 (not written)", got.Status.ExpectedUpdatedReplicas)
	}
}

func TestCalculateStatusProgressing(t *testing.T) {
	pds := func(n int32) *int32 { return &n }
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	cond := func(status ConditionStatus, reason string, upd, trans int) Condition {
		return Condition{Type: ConditionProgressing, Status: status, Reason: reason, LastUpdateTime: at(upd), LastTransitionTime: at(trans)}
	}
	updating := []Pod{ready("a", "r1", time.Hour), ready("b", "r2", time.Hour), unready("c", "r2", time.Hour)}
	tests := []struct {
		name        string
		pds         *int32
		paused      bool
		partition   int32
		pods        []Pod
		old         []Condition
		now         int
		wantStatus  ConditionStatus
		wantReason  string
		wantUpdate  int
		wantRequeue time.Duration
		hasRequeue  bool
		reasonOnly  bool // the status stays True: lastTransitionTime is kept
	}{
		{name: "no deadline removes Progressing", pds: nil, pods: updating, old: []Condition{cond(ConditionTrue, ReasonUpdated, 0, 0)}, now: 5},
		{name: "MaxInt32 is no deadline", pds: pds(math.MaxInt32), pods: updating, old: []Condition{cond(ConditionTrue, ReasonUpdated, 0, 0)}, now: 5},
		{name: "first progress: requeue at the deadline + 1 s", pds: pds(10), pods: updating, now: 1,
			wantStatus: ConditionTrue, wantReason: ReasonUpdated, wantUpdate: 1, wantRequeue: 11 * time.Second, hasRequeue: true},
		{name: "S11 Updated at 1, now 8: requeue 4 s", pds: pds(10), pods: updating, old: []Condition{cond(ConditionTrue, ReasonUpdated, 1, 1)}, now: 8,
			wantStatus: ConditionTrue, wantReason: ReasonUpdated, wantUpdate: 1, wantRequeue: 4 * time.Second, hasRequeue: true},
		{name: "under a second left: no extra second", pds: pds(10), pods: updating, old: []Condition{cond(ConditionTrue, ReasonUpdated, 1, 1)}, now: 11,
			wantStatus: ConditionTrue, wantReason: ReasonUpdated, wantUpdate: 1, wantRequeue: 0, hasRequeue: true},
		{name: "S11 at 12: exceeded though pods keep updating", pds: pds(10), pods: updating, old: []Condition{cond(ConditionTrue, ReasonUpdated, 1, 1)}, now: 12,
			wantStatus: ConditionFalse, wantReason: ReasonProgressDeadlineExceeded, wantUpdate: 12},
		{name: "exceeded sticks", pds: pds(10), pods: updating, old: []Condition{cond(ConditionFalse, ReasonProgressDeadlineExceeded, 12, 12)}, now: 13,
			wantStatus: ConditionFalse, wantReason: ReasonProgressDeadlineExceeded, wantUpdate: 12},
		{name: "paused", pds: pds(10), paused: true, pods: updating, old: []Condition{cond(ConditionFalse, ReasonProgressDeadlineExceeded, 12, 12)}, now: 13,
			wantStatus: ConditionTrue, wantReason: ReasonPaused, wantUpdate: 13},
		{name: "partition available", pds: pds(10), partition: 2, pods: updating, old: []Condition{cond(ConditionTrue, ReasonUpdated, 1, 1)}, now: 5,
			wantStatus: ConditionTrue, wantReason: ReasonPartitionAvailable, wantUpdate: 5, reasonOnly: true},
		{name: "available", pds: pds(10), pods: []Pod{ready("a", "r2", time.Hour), ready("b", "r2", time.Hour), ready("c", "r2", time.Hour)}, old: []Condition{cond(ConditionTrue, ReasonUpdated, 1, 1)}, now: 5,
			wantStatus: ConditionTrue, wantReason: ReasonAvailable, wantUpdate: 5, reasonOnly: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := kcs(3, num(tt.partition), nil, nil)
			cs.ProgressDeadlineSeconds = tt.pds
			cs.UpdateStrategy.Paused = tt.paused
			failed := Condition{Type: ConditionFailedScale, Status: ConditionTrue, Message: "boom"}
			cs.Status.Conditions = append([]Condition{failed}, tt.old...)
			got, err := CalculateStatus(cs, tt.pods, Revisions{Current: "r1", Update: "r2"}, at(tt.now))
			if err != nil {
				t.Fatal(err)
			}
			if f := findCondition(got.Status.Conditions, ConditionFailedScale); f == nil || *f != failed {
				t.Errorf("FailedScale not kept: %+v", got.Status.Conditions)
			}
			c := findCondition(got.Status.Conditions, ConditionProgressing)
			if tt.wantReason == "" {
				if c != nil {
					t.Errorf("Progressing = %+v, want none", *c)
				}
				return
			}
			if c == nil || c.Status != tt.wantStatus || c.Reason != tt.wantReason || !c.LastUpdateTime.Equal(at(tt.wantUpdate)) {
				t.Fatalf("Progressing = %+v, want %s/%s updated at %d s", c, tt.wantStatus, tt.wantReason, tt.wantUpdate)
			}
			if tt.reasonOnly && !c.LastTransitionTime.Equal(at(1)) {
				t.Errorf("status unchanged, reason changed: lastTransitionTime %v, want it kept at 1 s", c.LastTransitionTime)
			}
			if got.HasDeadlineRequeue != tt.hasRequeue || got.DeadlineRequeue != tt.wantRequeue {
				t.Errorf("deadline requeue = %v, %v, want %v, %v", got.DeadlineRequeue, got.HasDeadlineRequeue, tt.wantRequeue, tt.hasRequeue)
			}
		})
	}
}

func TestStatusDiffers(t *testing.T) {
	base := Status{ObservedGeneration: 2, Replicas: 3, UpdateRevision: "r2", Conditions: []Condition{{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonUpdated}}}
	same := base
	same.Conditions = []Condition{{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonUpdated, Message: "other", LastUpdateTime: t0}, {Type: ConditionFailedScale}}
	if StatusDiffers(&base, &same) {
		t.Error("a new FailedScale or message alone is written, want not (S12)")
	}
	lower := base
	lower.ObservedGeneration = 1
	if StatusDiffers(&base, &lower) {
		t.Error("a lower observed generation is written, want not")
	}
	for name, f := range map[string]func(*Status){
		"generation": func(s *Status) { s.ObservedGeneration = 3 }, "replicas": func(s *Status) { s.Replicas = 4 },
		"expected": func(s *Status) { s.ExpectedUpdatedReplicas = 1 }, "current": func(s *Status) { s.CurrentRevision = "r1" },
		"selector": func(s *Status) { s.LabelSelector = "a=b" }, "reason": func(s *Status) { s.Conditions[0].Reason = ReasonPaused },
		"status": func(s *Status) { s.Conditions[0].Status = ConditionFalse }, "removed": func(s *Status) { s.Conditions = nil },
	} {
		next := base
		next.Conditions = append([]Condition(nil), base.Conditions...)
		f(&next)
		if !StatusDiffers(&base, &next) {
			t.Errorf("a change of %s is not written", name)
		}
	}
	if StatusDiffers(nil, nil) || !StatusDiffers(&base, nil) {
		t.Error("nil statuses")
	}
}

func TestCalculateStatusCountsAreConsistent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawDiffsInput(t)
		before := deepCopyInput(in)
		u, err := CalculateStatus(in.cs, in.pods, in.revs, t0)
		if err != nil {
			t.Fatal(err)
		}
		s := u.Status
		if s.AvailableReplicas > s.ReadyReplicas || s.ReadyReplicas > s.Replicas || s.UpdatedReplicas > s.Replicas ||
			s.UpdatedReadyReplicas > min(s.UpdatedReplicas, s.ReadyReplicas) || s.UpdatedAvailableReplicas > min(s.UpdatedReadyReplicas, s.AvailableReplicas) ||
			s.ExpectedUpdatedReplicas < 0 || s.ExpectedUpdatedReplicas > in.cs.Replicas {
			t.Fatalf("inconsistent status %+v", s)
		}
		if diff := cmp.Diff(before, in, cmp.AllowUnexported(diffsDraw{})); diff != "" {
			t.Fatalf("CalculateStatus modified its inputs:\n%s", diff)
		}
		perm := rapid.Permutation(in.pods).Draw(t, "order")
		v, _ := CalculateStatus(in.cs, perm, in.revs, t0)
		if !cmp.Equal(u, v) {
			t.Fatalf("order changed the status:\n%s", cmp.Diff(u, v))
		}
	})
}

// TestStatusHelpersKruiseCases holds kruise v1.9.1's
// TestCloneSetDeadlineExceeded and TestSetCloneSetCondition
// (pkg/controller/cloneset/utils). Kruise's condition test lists an
// updated lastUpdateTime for an unchanged condition but does not check
// it; kruise's code, and ours, keep the condition as it was.
func TestStatusHelpersKruiseCases(t *testing.T) {
	progressing := func(status ConditionStatus, reason string, upd time.Time) Condition {
		return Condition{Type: ConditionProgressing, Status: status, Reason: reason, LastUpdateTime: upd}
	}
	for _, tc := range []struct {
		name string
		cond []Condition
		want bool
	}{
		{"deadline exceeded", []Condition{progressing(ConditionTrue, "other", t0.Add(-700*time.Second))}, true},
		{"already exceeded", []Condition{progressing(ConditionTrue, ReasonProgressDeadlineExceeded, t0.Add(-700*time.Second))}, true},
		{"recently updated", []Condition{progressing(ConditionTrue, "other", t0)}, false},
		{"no progressing condition", nil, false},
	} {
		if got := deadlineExceeded(&Status{Conditions: tc.cond}, 600, t0); got != tc.want {
			t.Errorf("deadlineExceeded(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}

	at := func(d time.Duration) time.Time { return t0.Add(d) }
	for _, tc := range []struct {
		name    string
		initial []Condition
		status  ConditionStatus
		reason  string
		now     time.Time
		want    Condition
	}{
		{"add new condition", nil, ConditionTrue, ReasonAvailable, t0,
			Condition{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonAvailable, Message: "m", LastUpdateTime: t0, LastTransitionTime: t0}},
		{"different status", []Condition{{Type: ConditionProgressing, Status: ConditionTrue, Reason: "old", Message: "old", LastUpdateTime: at(-time.Minute), LastTransitionTime: at(-time.Minute)}},
			ConditionFalse, ReasonProgressDeadlineExceeded, at(time.Second),
			Condition{Type: ConditionProgressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded, Message: "m", LastUpdateTime: at(time.Second), LastTransitionTime: at(time.Second)}},
		{"same condition", []Condition{{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonAvailable, LastUpdateTime: at(-time.Minute), LastTransitionTime: at(-time.Minute)}},
			ConditionTrue, ReasonAvailable, at(time.Second),
			Condition{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonAvailable, LastUpdateTime: at(-time.Minute), LastTransitionTime: at(-time.Minute)}},
		{"same status", []Condition{{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonPartitionAvailable, LastUpdateTime: at(-time.Minute), LastTransitionTime: at(-10 * time.Minute)}},
			ConditionTrue, ReasonAvailable, at(time.Second),
			Condition{Type: ConditionProgressing, Status: ConditionTrue, Reason: ReasonAvailable, Message: "m", LastUpdateTime: at(time.Second), LastTransitionTime: at(-10 * time.Minute)}},
	} {
		st := Status{Conditions: tc.initial}
		setCondition(&st, tc.status, tc.reason, "m", tc.now)
		if len(st.Conditions) != 1 || !cmp.Equal(st.Conditions[0], tc.want) {
			t.Errorf("setCondition(%s) = %+v, want [%+v]", tc.name, st.Conditions, tc.want)
		}
	}
}
