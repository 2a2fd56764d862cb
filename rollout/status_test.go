package rollout

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCalculateStatus(t *testing.T) {
	// Upstream: calculateStatus, pkg/controller/deployment/sync.go; the
	// numbers are what it returns for these ReplicaSets.
	d := dep(10, pct(25), pct(25))
	d.Generation = 4
	d.Status.CollisionCount = ptr(int32(2))
	newRS := ReplicaSet[tmpl]{Name: "new", Replicas: 5, StatusReplicas: 4, ReadyReplicas: 3, AvailableReplicas: 2, TerminatingReplicas: ptr(int32(1)), ObservedGeneration: 1}
	oldRS := ReplicaSet[tmpl]{Name: "old", Replicas: 6, StatusReplicas: 8, ReadyReplicas: 7, AvailableReplicas: 6, TerminatingReplicas: ptr(int32(2)), ObservedGeneration: 1}
	got := CalculateStatus(d, []ReplicaSet[tmpl]{oldRS, newRS}, 1, t0)
	want := Status{
		ObservedGeneration: 4, Replicas: 12, UpdatedReplicas: 4, ReadyReplicas: 10, AvailableReplicas: 8,
		UnavailableReplicas: 3, TerminatingReplicas: ptr(int32(3)), CollisionCount: ptr(int32(2)),
		Conditions: []Condition{{Type: DeploymentAvailable, Status: ConditionTrue, Reason: ReasonMinimumReplicasAvailable, Message: "Deployment has minimum availability.", LastUpdateTime: t0, LastTransitionTime: t0}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CalculateStatus(10 replicas, new 5 + old 6) mismatch (-want +got):\n%s", diff)
	}
	if got.CollisionCount == d.Status.CollisionCount {
		t.Errorf("CalculateStatus shares the CollisionCount pointer with its input")
	}
}

func TestCalculateStatusUnavailableAndRecreate(t *testing.T) {
	rec := dep(3, nil, nil)
	rec.Strategy = Recreate
	rss := []ReplicaSet[tmpl]{rs("new", 1, 3, 2)}
	s := CalculateStatus(rec, rss, 0, t0)
	c, _ := FindCondition(s.Conditions, DeploymentAvailable)
	if c.Status != ConditionFalse || c.Reason != ReasonMinimumReplicasUnavailable || c.Message != "Deployment does not have minimum availability." {
		t.Errorf("CalculateStatus(Recreate, 2 of 3 available) Available = %+v, want False/MinimumReplicasUnavailable: Recreate needs all", c)
	}
	if s.UpdatedReplicas != 3 || s.UnavailableReplicas != 1 {
		t.Errorf("CalculateStatus(Recreate) updated %d unavailable %d, want 3 and 1", s.UpdatedReplicas, s.UnavailableReplicas)
	}
	none := CalculateStatus(dep(3, nil, nil), nil, -1, t0)
	if none.UpdatedReplicas != 0 || none.UnavailableReplicas != 0 || none.TerminatingReplicas == nil || *none.TerminatingReplicas != 0 {
		t.Errorf("CalculateStatus(no ReplicaSets) = %+v, want zero counters and terminating 0", none)
	}
}

func TestTerminatingReplicas(t *testing.T) {
	// Upstream: GetTerminatingReplicaCountForReplicaSets,
	// pkg/controller/deployment/util/deployment_util.go: nil as soon as a
	// synced ReplicaSet reports nil; never-synced ones are skipped.
	synced := ReplicaSet[tmpl]{TerminatingReplicas: ptr(int32(2)), ObservedGeneration: 1}
	neverSynced := ReplicaSet[tmpl]{}
	syncedNil := ReplicaSet[tmpl]{ObservedGeneration: 3}
	if got := TerminatingReplicas([]ReplicaSet[tmpl]{synced, neverSynced}); got == nil || *got != 2 {
		t.Errorf("TerminatingReplicas(synced 2, never synced) = %v, want 2", got)
	}
	if got := TerminatingReplicas([]ReplicaSet[tmpl]{synced, syncedNil}); got != nil {
		t.Errorf("TerminatingReplicas(synced 2, synced nil) = %d, want nil", *got)
	}
	huge := ReplicaSet[tmpl]{TerminatingReplicas: ptr(int32(math.MaxInt32))}
	if got := TerminatingReplicas([]ReplicaSet[tmpl]{huge, huge}); got == nil || *got != math.MaxInt32 {
		t.Errorf("TerminatingReplicas(2 x MaxInt32) = %v, want MaxInt32 (saturated)", got)
	}
}

func statusOf(replicas, updated, ready, available int32) *Status {
	return &Status{ObservedGeneration: 1, Replicas: replicas, UpdatedReplicas: updated, ReadyReplicas: ready, AvailableReplicas: available}
}

func TestComplete(t *testing.T) {
	for _, tt := range []struct {
		desired, current, updated, available int32
		observed                             int64
		want                                 bool
	}{
		{5, 5, 5, 4, 1, false},
		{5, 5, 5, 5, 1, true},
		{5, 5, 4, 5, 1, false},
		{1, 2, 1, 1, 1, false},
		{1, 1, 1, 0, 1, false},
		{5, 5, 5, 5, 0, false},
	} {
		d := dep(tt.desired, nil, nil)
		s := statusOf(tt.current, tt.updated, tt.available, tt.available)
		s.ObservedGeneration = tt.observed
		if got := Complete(d, s); got != tt.want {
			t.Errorf("Complete(R %d, %+v) = %v, want %v", tt.desired, *s, got, tt.want)
		}
	}
}

func TestProgressing(t *testing.T) {
	for _, tt := range []struct {
		name     string
		old, new *Status
		want     bool
	}{
		{name: "more updated", old: statusOf(10, 4, 7, 7), new: statusOf(8, 8, 5, 5), want: true},
		{name: "fewer updated, nothing else", old: statusOf(10, 7, 3, 3), new: statusOf(10, 6, 3, 3), want: false},
		{name: "fewer old pods", old: statusOf(10, 4, 7, 7), new: statusOf(9, 4, 7, 7), want: true},
		{name: "more ready", old: statusOf(10, 4, 7, 7), new: statusOf(10, 4, 8, 7), want: true},
		{name: "more available", old: statusOf(10, 4, 7, 7), new: statusOf(10, 4, 8, 8), want: true},
		{name: "same", old: statusOf(10, 4, 7, 7), new: statusOf(10, 4, 7, 7), want: false},
		{name: "fewer everything", old: statusOf(10, 4, 7, 7), new: statusOf(11, 3, 6, 6), want: false},
	} {
		d := dep(10, nil, nil)
		d.Status = *tt.old
		if got := Progressing(d, tt.new); got != tt.want {
			t.Errorf("Progressing(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func progressing(reason string, updated time.Time) []Condition {
	return []Condition{{Type: DeploymentProgressing, Status: ConditionTrue, Reason: reason, LastUpdateTime: updated, LastTransitionTime: updated}}
}

func TestTimedOut(t *testing.T) {
	at := func(m, s int) time.Time { return t0.Add(time.Duration(m)*time.Minute + time.Duration(s)*time.Second) }
	for _, tt := range []struct {
		name  string
		pds   *int32
		conds []Condition
		now   time.Time
		want  bool
	}{
		{name: "11 s after a 10 s deadline", pds: ptr(int32(10)), conds: progressing(ReasonReplicaSetUpdated, at(1, 9)), now: at(1, 20), want: true},
		{name: "9 s after", pds: ptr(int32(10)), conds: progressing(ReasonReplicaSetUpdated, at(1, 11)), now: at(1, 20), want: false},
		{name: "exactly at the deadline is not timed out", pds: ptr(int32(10)), conds: progressing(ReasonReplicaSetUpdated, at(1, 10)), now: at(1, 20), want: false},
		{name: "no deadline (NoLimit)", pds: ptr(NoLimit), conds: progressing(ReasonReplicaSetUpdated, at(0, 0)), now: at(100, 0), want: false},
		{name: "nil means 600 s", pds: nil, conds: progressing(ReasonReplicaSetUpdated, at(0, 0)), now: at(10, 1), want: true},
		{name: "complete never times out", pds: ptr(int32(10)), conds: progressing(ReasonNewReplicaSetAvailable, at(0, 0)), now: at(100, 0), want: false},
		{name: "already timed out", pds: ptr(int32(10)), conds: progressing(ReasonProgressDeadlineExceeded, at(1, 0)), now: at(1, 0), want: true},
		{name: "no Progressing condition", pds: ptr(int32(10)), now: at(100, 0), want: false},
	} {
		d := dep(10, nil, nil)
		d.ProgressDeadlineSeconds = tt.pds
		s := &Status{Conditions: tt.conds}
		if got := TimedOut(d, s, tt.now); got != tt.want {
			t.Errorf("TimedOut(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSetCondition(t *testing.T) {
	avail := NewCondition(DeploymentAvailable, ConditionTrue, ReasonMinimumReplicasAvailable, "a", t0)
	prog := NewCondition(DeploymentProgressing, ConditionTrue, ReasonReplicaSetUpdated, "p", t0)
	later := t0.Add(time.Minute)
	in := []Condition{prog, avail}

	same := NewCondition(DeploymentProgressing, ConditionTrue, ReasonReplicaSetUpdated, "other message", later)
	if got := SetCondition(in, same); !cmp.Equal(got, in) {
		t.Errorf("SetCondition(same status and reason) = %+v, want unchanged %+v", got, in)
	}
	sameStatus := NewCondition(DeploymentProgressing, ConditionTrue, ReasonNewReplicaSetAvailable, "done", later)
	got := SetCondition(in, sameStatus)
	want := []Condition{avail, {Type: DeploymentProgressing, Status: ConditionTrue, Reason: ReasonNewReplicaSetAvailable, Message: "done", LastUpdateTime: later, LastTransitionTime: t0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SetCondition(same status, new reason) mismatch (-want +got):\n%s", diff)
	}
	flipped := NewCondition(DeploymentProgressing, ConditionFalse, ReasonProgressDeadlineExceeded, "late", later)
	got = SetCondition(in, flipped)
	want = []Condition{avail, flipped}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SetCondition(new status) mismatch (-want +got):\n%s", diff)
	}
	if !cmp.Equal(in, []Condition{prog, avail}) {
		t.Errorf("SetCondition modified its input: %+v", in)
	}
	if got := RemoveCondition(in, DeploymentProgressing); !cmp.Equal(got, []Condition{avail}) || len(in) != 2 {
		t.Errorf("RemoveCondition(Progressing) = %+v, want [Available] and the input untouched", got)
	}
	if got := RemoveCondition(nil, DeploymentProgressing); got != nil {
		t.Errorf("RemoveCondition(nil) = %+v, want nil", got)
	}
}

func TestRequeue(t *testing.T) {
	pds := ptr(int32(600))
	for _, tt := range []struct {
		name      string
		pds       *int32
		conds     []Condition
		complete  bool
		now       time.Time
		wantAfter time.Duration
		wantOK    bool
	}{
		{name: "no deadline", pds: ptr(NoLimit), conds: progressing(ReasonReplicaSetUpdated, t0), now: t0, wantOK: false},
		{name: "no Progressing condition", pds: pds, now: t0, wantOK: false},
		{name: "complete", pds: pds, conds: progressing(ReasonReplicaSetUpdated, t0), complete: true, now: t0, wantOK: false},
		{name: "already timed out", pds: pds, conds: progressing(ReasonProgressDeadlineExceeded, t0), now: t0, wantOK: false},
		{name: "30 s left", pds: pds, conds: progressing(ReasonReplicaSetUpdated, t0), now: t0.Add(570 * time.Second), wantAfter: 31 * time.Second, wantOK: true},
		{name: "1 s left", pds: pds, conds: progressing(ReasonReplicaSetUpdated, t0), now: t0.Add(599 * time.Second), wantAfter: 2 * time.Second, wantOK: true},
		{name: "under 1 s left: now", pds: pds, conds: progressing(ReasonReplicaSetUpdated, t0), now: t0.Add(599*time.Second + 500*time.Millisecond), wantAfter: 0, wantOK: true},
		{name: "past the deadline: now", pds: pds, conds: progressing(ReasonReplicaSetUpdated, t0), now: t0.Add(time.Hour), wantAfter: 0, wantOK: true},
	} {
		d := dep(10, nil, nil)
		d.ProgressDeadlineSeconds = tt.pds
		d.Status.Conditions = tt.conds
		s := statusOf(10, 5, 5, 5)
		if tt.complete {
			s = statusOf(10, 10, 10, 10)
		}
		after, ok := Requeue(d, s, tt.now)
		if after != tt.wantAfter || ok != tt.wantOK {
			t.Errorf("Requeue(%s) = (%v, %v), want (%v, %v)", tt.name, after, ok, tt.wantAfter, tt.wantOK)
		}
	}
}

func TestRolloutStatus(t *testing.T) {
	later := t0.Add(time.Minute)
	rss := []ReplicaSet[tmpl]{rs("old", 10, 5, 5), rs("new", 1, 5, 5)}
	t.Run("progress keeps LastTransitionTime of a True condition", func(t *testing.T) {
		d := dep(10, nil, nil)
		d.Status = *statusOf(10, 3, 10, 10)
		d.Status.Conditions = progressing(ReasonReplicaSetUpdated, t0)
		s := RolloutStatus(d, rss, 1, later)
		c, _ := FindCondition(s.Conditions, DeploymentProgressing)
		want := Condition{Type: DeploymentProgressing, Status: ConditionTrue, Reason: ReasonReplicaSetUpdated, Message: `ReplicaSet "new" is progressing.`, LastUpdateTime: later, LastTransitionTime: t0}
		if diff := cmp.Diff(want, c); diff != "" {
			t.Errorf("RolloutStatus Progressing mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("timed out is kept", func(t *testing.T) {
		d := dep(10, nil, nil)
		d.ProgressDeadlineSeconds = ptr(int32(10))
		d.Status = *statusOf(10, 5, 10, 10)
		d.Status.Conditions = []Condition{{Type: DeploymentProgressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded, Message: "x", LastUpdateTime: t0, LastTransitionTime: t0}}
		s := RolloutStatus(d, rss, 1, later)
		c, _ := FindCondition(s.Conditions, DeploymentProgressing)
		if c.Reason != ReasonProgressDeadlineExceeded || !c.LastUpdateTime.Equal(t0) {
			t.Errorf("RolloutStatus(timed out) Progressing = %+v, want the old ProgressDeadlineExceeded", c)
		}
	})
	t.Run("times out after the deadline", func(t *testing.T) {
		d := dep(10, nil, nil)
		d.ProgressDeadlineSeconds = ptr(int32(10))
		d.Status = *statusOf(10, 5, 10, 10)
		d.Status.Conditions = progressing(ReasonReplicaSetUpdated, t0)
		s := RolloutStatus(d, rss, 1, t0.Add(11*time.Second))
		c, _ := FindCondition(s.Conditions, DeploymentProgressing)
		if c.Status != ConditionFalse || c.Reason != ReasonProgressDeadlineExceeded || c.Message != `ReplicaSet "new" has timed out progressing.` {
			t.Errorf("RolloutStatus(past deadline) Progressing = %+v, want False/ProgressDeadlineExceeded", c)
		}
	})
	t.Run("no new ReplicaSet names the deployment", func(t *testing.T) {
		d := dep(0, nil, nil)
		s := RolloutStatus(d, []ReplicaSet[tmpl]{rs("old", 10, 0, 0)}, -1, later)
		c, _ := FindCondition(s.Conditions, DeploymentProgressing)
		if c.Reason != ReasonNewReplicaSetAvailable || c.Message != `Deployment "web" has successfully progressed.` {
			t.Errorf("RolloutStatus(no new RS) Progressing = %+v, want %q", c, `Deployment "web" has successfully progressed.`)
		}
	})
	t.Run("no deadline removes Progressing", func(t *testing.T) {
		d := dep(10, nil, nil)
		d.ProgressDeadlineSeconds = ptr(NoLimit)
		d.Status.Conditions = progressing(ReasonReplicaSetUpdated, t0)
		s := RolloutStatus(d, rss, 1, later)
		if _, ok := FindCondition(s.Conditions, DeploymentProgressing); ok {
			t.Errorf("RolloutStatus(no deadline) kept Progressing: %+v", s.Conditions)
		}
	})
	t.Run("complete rollout is not re-estimated", func(t *testing.T) {
		d := dep(10, nil, nil)
		d.Status.Conditions = progressing(ReasonNewReplicaSetAvailable, t0)
		full := []ReplicaSet[tmpl]{rs("new", 1, 10, 10)}
		s := RolloutStatus(d, full, 0, later)
		c, _ := FindCondition(s.Conditions, DeploymentProgressing)
		if !c.LastUpdateTime.Equal(t0) {
			t.Errorf("RolloutStatus(complete) refreshed Progressing: %+v", c)
		}
	})
}

func TestPausedConditions(t *testing.T) {
	d := dep(10, nil, nil)
	d.Paused = true
	conds, changed := PausedConditions(d, t0)
	c, _ := FindCondition(conds, DeploymentProgressing)
	if !changed || c.Status != ConditionUnknown || c.Reason != ReasonDeploymentPaused || c.Message != "Deployment is paused" {
		t.Errorf("PausedConditions(paused) = (%+v, %v), want Unknown/DeploymentPaused", conds, changed)
	}
	d.Status.Conditions = conds
	if _, changed := PausedConditions(d, t0); changed {
		t.Errorf("PausedConditions(paused, already marked) changed = true, want false")
	}
	d.Paused = false
	conds, changed = PausedConditions(d, t0.Add(time.Hour))
	c, _ = FindCondition(conds, DeploymentProgressing)
	if !changed || c.Reason != ReasonDeploymentResumed || c.Message != "Deployment is resumed" || !c.LastUpdateTime.Equal(t0.Add(time.Hour)) {
		t.Errorf("PausedConditions(resumed) = (%+v, %v), want Unknown/DeploymentResumed at the resume time", conds, changed)
	}
	d.Paused = true
	d.Status.Conditions = []Condition{{Type: DeploymentProgressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded}}
	if _, changed := PausedConditions(d, t0); changed {
		t.Errorf("PausedConditions overwrote ProgressDeadlineExceeded")
	}
	d.ProgressDeadlineSeconds = ptr(NoLimit)
	d.Status.Conditions = nil
	if _, changed := PausedConditions(d, t0); changed {
		t.Errorf("PausedConditions without a deadline changed the conditions")
	}
}

// TestRolloutStatusUpstreamCases follows the eleven cases of upstream's
// TestSyncRolloutStatus (progress_test.go); upstream's nil deadline is
// NoLimit here, because nil means the 600 s default.
func TestRolloutStatusUpstreamCases(t *testing.T) {
	testTime := time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)
	now := testTime.Add(24 * time.Hour)
	timedOut := Condition{Type: DeploymentProgressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded}
	available := Condition{Type: DeploymentProgressing, Status: ConditionTrue, Reason: ReasonNewReplicaSetAvailable, LastUpdateTime: testTime, LastTransitionTime: testTime}
	updated := Condition{Type: DeploymentProgressing, Status: ConditionTrue, Reason: ReasonReplicaSetUpdated, LastUpdateTime: testTime, LastTransitionTime: testTime}
	deployment := func(pds int32, replicas, statusReplicas, updatedReplicas, availableReplicas int32, conds ...Condition) *Deployment[tmpl] {
		return &Deployment[tmpl]{Name: "progress-test", Replicas: replicas, Strategy: Recreate, ProgressDeadlineSeconds: &pds,
			Status: Status{Replicas: statusReplicas, UpdatedReplicas: updatedReplicas, AvailableReplicas: availableReplicas, Conditions: conds}}
	}
	withAvailable := func(name string, spec, status, avail int32) ReplicaSet[tmpl] {
		return ReplicaSet[tmpl]{Name: name, Replicas: spec, StatusReplicas: status, AvailableReplicas: avail}
	}
	for _, tt := range []struct {
		name           string
		d              *Deployment[tmpl]
		rss            []ReplicaSet[tmpl]
		newRS          int
		wantNone       bool
		wantStatus     ConditionStatus
		wantReason     string
		keepUpdate     bool // LastUpdateTime stays testTime
		keepTransition bool // LastTransitionTime stays testTime
	}{
		{name: "no deadline: Progressing removed", d: deployment(NoLimit, 3, 2, 2, 2, updated),
			rss: []ReplicaSet[tmpl]{withAvailable("bar", 0, 1, 1), withAvailable("foo", 3, 2, 2)}, newRS: 1, wantNone: true},
		{name: "one active ReplicaSet, already complete: untouched", d: deployment(60, 3, 3, 3, 3, available),
			rss: []ReplicaSet[tmpl]{withAvailable("bar", 3, 3, 3)}, newRS: -1,
			wantStatus: ConditionTrue, wantReason: ReasonNewReplicaSetAvailable, keepUpdate: true, keepTransition: true},
		{name: "progressing: LastTransitionTime kept when already True", d: deployment(60, 3, 2, 2, 2, updated),
			rss: []ReplicaSet[tmpl]{withAvailable("bar", 0, 1, 1), withAvailable("foo", 3, 2, 2)}, newRS: 1,
			wantStatus: ConditionTrue, wantReason: ReasonReplicaSetUpdated, keepTransition: true},
		{name: "progressing: everything updated after Progressing=False", d: deployment(60, 3, 2, 2, 2, timedOut),
			rss: []ReplicaSet[tmpl]{withAvailable("bar", 0, 1, 1), withAvailable("foo", 3, 2, 2)}, newRS: 1,
			wantStatus: ConditionTrue, wantReason: ReasonReplicaSetUpdated},
		{name: "progressing: condition created", d: deployment(60, 3, 2, 2, 2),
			rss: []ReplicaSet[tmpl]{withAvailable("bar", 0, 1, 1), withAvailable("foo", 3, 2, 2)}, newRS: 1,
			wantStatus: ConditionTrue, wantReason: ReasonReplicaSetUpdated},
		{name: "complete: LastTransitionTime kept when already True", d: deployment(60, 3, 3, 3, 3, updated),
			rss: []ReplicaSet[tmpl]{withAvailable("foo", 3, 3, 3)}, newRS: 0,
			wantStatus: ConditionTrue, wantReason: ReasonNewReplicaSetAvailable, keepTransition: true},
		{name: "complete: everything updated after Progressing=False", d: deployment(60, 3, 3, 3, 3, timedOut),
			rss: []ReplicaSet[tmpl]{withAvailable("foo", 3, 3, 3)}, newRS: 0,
			wantStatus: ConditionTrue, wantReason: ReasonNewReplicaSetAvailable},
		{name: "complete: condition created", d: deployment(60, 3, 3, 3, 3),
			rss: []ReplicaSet[tmpl]{withAvailable("foo", 3, 3, 3)}, newRS: 0,
			wantStatus: ConditionTrue, wantReason: ReasonNewReplicaSetAvailable},
		{name: "complete without a new ReplicaSet", d: deployment(60, 0, 3, 3, 3, updated),
			rss: []ReplicaSet[tmpl]{withAvailable("foo", 0, 0, 0)}, newRS: -1,
			wantStatus: ConditionTrue, wantReason: ReasonNewReplicaSetAvailable},
		{name: "timed out past the deadline", d: deployment(60, 3, 2, 2, 2, updated),
			rss: []ReplicaSet[tmpl]{withAvailable("foo", 3, 2, 2)}, newRS: 0,
			wantStatus: ConditionFalse, wantReason: ReasonProgressDeadlineExceeded},
		{name: "timed out stays as it was", d: deployment(60, 3, 2, 2, 2, Condition{Type: DeploymentProgressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded, LastUpdateTime: testTime, LastTransitionTime: testTime}),
			rss: []ReplicaSet[tmpl]{withAvailable("foo", 3, 2, 2)}, newRS: 0,
			wantStatus: ConditionFalse, wantReason: ReasonProgressDeadlineExceeded, keepUpdate: true, keepTransition: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := RolloutStatus(tt.d, tt.rss, tt.newRS, now)
			c, ok := FindCondition(s.Conditions, DeploymentProgressing)
			switch {
			case tt.wantNone:
				if ok {
					t.Errorf("RolloutStatus(%s) Progressing = %+v, want none", tt.name, c)
				}
			case !ok || c.Status != tt.wantStatus || c.Reason != tt.wantReason:
				t.Errorf("RolloutStatus(%s) Progressing = %+v (found %v), want %s/%s", tt.name, c, ok, tt.wantStatus, tt.wantReason)
			case tt.keepUpdate && !c.LastUpdateTime.Equal(testTime):
				t.Errorf("RolloutStatus(%s) LastUpdateTime = %v, want %v", tt.name, c.LastUpdateTime, testTime)
			case tt.keepTransition && !c.LastTransitionTime.Equal(testTime):
				t.Errorf("RolloutStatus(%s) LastTransitionTime = %v, want %v", tt.name, c.LastTransitionTime, testTime)
			case !tt.keepUpdate && !c.LastUpdateTime.Equal(now):
				t.Errorf("RolloutStatus(%s) LastUpdateTime = %v, want now %v", tt.name, c.LastUpdateTime, now)
			}
		})
	}
}
