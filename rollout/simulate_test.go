package rollout

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// row is one sync of a trace as the tests compare it: the old and new
// ReplicaSets' spec after the sync and available pods seen, and the
// status counters written.
type row struct {
	Sync                                      int
	OldSpec, OldAvail, NewSpec, NewAvail      int32
	Replicas, Updated, Available, Unavailable int32
}

func rows(tr *Trace[tmpl]) []row {
	var out []row
	for _, s := range tr.Steps {
		r := row{Sync: s.Sync, Replicas: s.Status.Replicas, Updated: s.Status.UpdatedReplicas, Available: s.Status.AvailableReplicas, Unavailable: s.Status.UnavailableReplicas}
		for _, rs := range s.ReplicaSets {
			if rs.New {
				r.NewSpec, r.NewAvail = rs.Desired, rs.Available
			} else {
				r.OldSpec += rs.Desired
				r.OldAvail += rs.Available
			}
		}
		out = append(out, r)
	}
	return out
}

// canonical is the classic case: 10 replicas, 25%/25%, a new image at sync
// 1, pods available one interval after they are created.
func canonical(events ...Event[tmpl]) (Deployment[tmpl], []ReplicaSet[tmpl], Config[tmpl]) {
	d, rss := settled(10, "nginx:1.9")
	cfg := Config[tmpl]{Start: t0, Interval: 10 * time.Second, ReadyDelay: 10 * time.Second,
		Events: append([]Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("nginx:1.9.3")}}, events...)}
	return d, rss, cfg
}

// TestSimulateCanonicalTrace pins the canonical trace; it was also
// checked sync by sync against the real v1.36.3 controller (see
// TestSimulateResizeTraces).
func TestSimulateCanonicalTrace(t *testing.T) {
	d, rss, cfg := canonical()
	tr, err := Simulate(&d, rss, cfg)
	if err != nil {
		t.Fatalf("Simulate(canonical) error: %v", err)
	}
	// The status of a sync that scaled is computed from the ReplicaSets as
	// they were before that sync's own scaling: sync 1 reports 3
	// unavailable (13 specified, 10 available) although it just removed 2
	// old pods.
	want := []row{
		{Sync: 1, OldSpec: 8, OldAvail: 10, NewSpec: 3, NewAvail: 0, Replicas: 10, Updated: 0, Available: 10, Unavailable: 3},
		{Sync: 2, OldSpec: 8, OldAvail: 8, NewSpec: 5, NewAvail: 0, Replicas: 11, Updated: 3, Available: 8, Unavailable: 3},
		{Sync: 3, OldSpec: 5, OldAvail: 8, NewSpec: 5, NewAvail: 3, Replicas: 13, Updated: 5, Available: 11, Unavailable: 2},
		{Sync: 4, OldSpec: 5, OldAvail: 5, NewSpec: 8, NewAvail: 5, Replicas: 10, Updated: 5, Available: 10, Unavailable: 0},
		{Sync: 5, OldSpec: 3, OldAvail: 5, NewSpec: 8, NewAvail: 5, Replicas: 13, Updated: 8, Available: 10, Unavailable: 3},
		{Sync: 6, OldSpec: 3, OldAvail: 3, NewSpec: 10, NewAvail: 8, Replicas: 11, Updated: 8, Available: 11, Unavailable: 0},
		{Sync: 7, OldSpec: 0, OldAvail: 3, NewSpec: 10, NewAvail: 8, Replicas: 13, Updated: 10, Available: 11, Unavailable: 2},
		{Sync: 8, OldSpec: 0, OldAvail: 0, NewSpec: 10, NewAvail: 10, Replicas: 10, Updated: 10, Available: 10, Unavailable: 0},
	}
	if diff := cmp.Diff(want, rows(&tr)); diff != "" {
		t.Errorf("Simulate(canonical) trace mismatch (-want +got):\n%s\n%s", diff, tr.String())
	}
	if tr.Outcome != OutcomeComplete {
		t.Errorf("Simulate(canonical).Outcome = %v, want Complete", tr.Outcome)
	}
	c, _ := FindCondition(tr.Deployment.Status.Conditions, DeploymentProgressing)
	if c.Reason != ReasonNewReplicaSetAvailable {
		t.Errorf("final Progressing reason = %q, want %q", c.Reason, ReasonNewReplicaSetAvailable)
	}
	first := tr.Steps[0]
	if len(first.Actions) != 2 || first.Actions[0].Kind != CreateReplicaSet || first.Actions[1].Kind != ScaleReplicaSet {
		t.Errorf("sync 1 actions = %+v, want a create then a scale-down", first.Actions)
	}
}

func TestSimulateResizeMidRollout(t *testing.T) {
	for _, tt := range []struct {
		name             string
		to               int32
		wantOld, wantNew int32
	}{
		{name: "10 to 20", to: 20, wantOld: 15, wantNew: 10},
		{name: "10 to 4", to: 4, wantOld: 3, wantNew: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Before sync 3 the old ReplicaSet has 8 and the new one 5.
			d, rss, cfg := canonical(Event[tmpl]{Sync: 3, Kind: SetReplicas, Replicas: tt.to})
			tr, err := Simulate(&d, rss, cfg)
			if err != nil {
				t.Fatalf("Simulate error: %v", err)
			}
			s := tr.Steps[2]
			if s.Sync != 3 || s.Path != PathScaling {
				t.Fatalf("step 3 = %v, want the scaling sync 3", s)
			}
			got := rows(&Trace[tmpl]{Steps: []Step{s}})[0]
			if got.OldSpec != tt.wantOld || got.NewSpec != tt.wantNew {
				t.Errorf("resize %s: old %d new %d, want old %d new %d\n%s", tt.name, got.OldSpec, got.NewSpec, tt.wantOld, tt.wantNew, tr.String())
			}
			if tr.Outcome != OutcomeComplete || tr.Deployment.Status.AvailableReplicas != tt.to {
				t.Errorf("resize %s: outcome %v with %d available, want Complete with %d\n%s", tt.name, tr.Outcome, tr.Deployment.Status.AvailableReplicas, tt.to, tr.String())
			}
		})
	}
}

func TestSimulateOutcomes(t *testing.T) {
	for _, tt := range []struct {
		name   string
		edit   func(d *Deployment[tmpl], cfg *Config[tmpl])
		want   Outcome
		reason string
	}{
		{name: "pods never ready, 60 s deadline", want: OutcomeTimedOut, edit: func(d *Deployment[tmpl], cfg *Config[tmpl]) {
			d.ProgressDeadlineSeconds = ptr(int32(60))
			cfg.NeverReady = 100
		}},
		{name: "pods never ready, no deadline", want: OutcomeStalled, edit: func(d *Deployment[tmpl], cfg *Config[tmpl]) {
			d.ProgressDeadlineSeconds = ptr(NoLimit)
			cfg.NeverReady = 100
		}},
		{name: "paused mid-rollout", want: OutcomePaused, edit: func(d *Deployment[tmpl], cfg *Config[tmpl]) {
			cfg.Events = append(cfg.Events, Event[tmpl]{Sync: 3, Kind: Pause})
		}},
		{name: "paused then resumed", want: OutcomeComplete, edit: func(d *Deployment[tmpl], cfg *Config[tmpl]) {
			cfg.Events = append(cfg.Events, Event[tmpl]{Sync: 3, Kind: Pause}, Event[tmpl]{Sync: 8, Kind: Resume})
		}},
		{name: "sync limit", want: OutcomeSyncLimit, edit: func(d *Deployment[tmpl], cfg *Config[tmpl]) { cfg.MaxSyncs = 4 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, rss, cfg := canonical()
			tt.edit(&d, &cfg)
			tr, err := Simulate(&d, rss, cfg)
			if err != nil || tr.Outcome != tt.want {
				t.Errorf("Simulate(%s) = %v, %v; want %v\n%s", tt.name, tr.Outcome, err, tt.want, tr.String())
			}
		})
	}
}

func TestSimulateTimedOutCondition(t *testing.T) {
	d, rss, cfg := canonical()
	d.ProgressDeadlineSeconds = ptr(int32(60))
	cfg.NeverReady = 100
	tr, _ := Simulate(&d, rss, cfg)
	last := tr.Steps[len(tr.Steps)-1]
	c, _ := FindCondition(last.Status.Conditions, DeploymentProgressing)
	// The last progress is sync 3 (30 s), whose status first shows the 5
	// new pods; the deadline, 90 s, must be passed strictly, so sync 9 at
	// exactly 90 s is not yet late and sync 10 reports it.
	if c.Reason != ReasonProgressDeadlineExceeded || last.Sync != 10 {
		t.Errorf("last step = sync %d with %+v, want sync 10 with ProgressDeadlineExceeded\n%s", last.Sync, c, tr.String())
	}
}

func TestSimulateRollbackEvent(t *testing.T) {
	d, rss, cfg := canonical(Event[tmpl]{Sync: 12, Kind: Rollback, Revision: 1})
	tr, err := Simulate(&d, rss, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || tr.Deployment.Template.Spec != "nginx:1.9" {
		t.Fatalf("Simulate(rollback) = %v at %q, want Complete at nginx:1.9\n%s", tr.Outcome, tr.Deployment.Template.Spec, tr.String())
	}
	// The old ReplicaSet is new again, renumbered 3 with 1 in its history.
	final := tr.ReplicaSets
	var back *ReplicaSet[tmpl]
	for i := range final {
		if final[i].Name == "nginx-1" {
			back = &final[i]
		}
	}
	if back == nil || back.Replicas != 10 || back.Annotations["deployment.kubernetes.io/revision"] != "3" || back.Annotations["deployment.kubernetes.io/revision-history"] != "1" {
		t.Errorf("rolled-back ReplicaSet = %+v, want 10 replicas, revision 3, history 1", back)
	}
}

func TestSimulateRejectsInvalidEvent(t *testing.T) {
	d, rss, cfg := canonical(Event[tmpl]{Sync: 2, Kind: SetReplicas, Replicas: -4})
	tr, err := Simulate(&d, rss, cfg)
	want := `rollout: invalid Deployment "nginx": spec.replicas: Invalid value: -4: must be greater than or equal to 0`
	if err == nil || err.Error() != want || len(tr.Steps) != 1 {
		t.Errorf("Simulate(replicas -4 at sync 2) = %d steps, %v; want 1 step and %q", len(tr.Steps), err, want)
	}
}

// TestSimulateResizeTraces pins whole traces of resizes during the
// canonical rollout. Each was checked sync by sync against the real
// v1.36.3 controller (pkg/controller/deployment) driven with the same pod
// model, outside this module.
func TestSimulateResizeTraces(t *testing.T) {
	r := func(sync int, oldSpec, oldAvail, newSpec, newAvail, replicas, updated, available, unavailable int32) row {
		return row{Sync: int(sync), OldSpec: oldSpec, OldAvail: oldAvail, NewSpec: newSpec, NewAvail: newAvail, Replicas: replicas, Updated: updated, Available: available, Unavailable: unavailable}
	}
	canon := []row{r(1, 8, 10, 3, 0, 10, 0, 10, 3), r(2, 8, 8, 5, 0, 11, 3, 8, 3)}
	for _, tt := range []struct {
		name string
		at   int
		to   int32
		want []row
	}{
		{name: "10 to 20 at sync 3", at: 3, to: 20, want: append(canon[:2:2],
			r(3, 15, 8, 10, 3, 13, 5, 11, 2), r(4, 10, 8, 10, 5, 25, 10, 13, 12), r(5, 10, 10, 15, 10, 20, 10, 20, 0),
			r(6, 5, 10, 15, 10, 25, 15, 20, 5), r(7, 5, 5, 20, 15, 20, 15, 20, 0), r(8, 0, 5, 20, 15, 25, 20, 20, 5),
			r(9, 0, 0, 20, 20, 20, 20, 20, 0))},
		{name: "10 to 4 at sync 3", at: 3, to: 4, want: append(canon[:2:2],
			r(3, 3, 8, 2, 3, 13, 5, 11, 2), r(4, 1, 3, 2, 2, 5, 2, 5, 0), r(5, 1, 1, 4, 2, 3, 2, 3, 0),
			r(6, 1, 1, 4, 2, 5, 4, 3, 2), r(7, 0, 1, 4, 4, 5, 4, 5, 0), r(8, 0, 0, 4, 4, 4, 4, 4, 0))},
		{name: "10 to 13 at sync 5", at: 5, to: 13, want: append(canon[:2:2],
			r(3, 5, 8, 5, 3, 13, 5, 11, 2), r(4, 5, 5, 8, 5, 10, 5, 10, 0), r(5, 7, 5, 10, 5, 13, 8, 10, 3),
			r(6, 2, 5, 10, 8, 17, 10, 13, 4), r(7, 2, 2, 13, 10, 12, 10, 12, 0), r(8, 0, 2, 13, 10, 15, 13, 12, 3),
			r(9, 0, 0, 13, 13, 13, 13, 13, 0))},
		{name: "10 to 1 at sync 2", at: 2, to: 1, want: []row{canon[0],
			r(2, 1, 8, 1, 0, 11, 3, 8, 3), r(3, 0, 1, 1, 1, 2, 1, 2, 0), r(4, 0, 0, 1, 1, 1, 1, 1, 0)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, rss, cfg := canonical(Event[tmpl]{Sync: tt.at, Kind: SetReplicas, Replicas: tt.to})
			tr, err := Simulate(&d, rss, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rows(&tr)); diff != "" || tr.Outcome != OutcomeComplete {
				t.Errorf("Simulate(%s) = %v, trace mismatch (-want +got):\n%s\n%s", tt.name, tr.Outcome, diff, tr.String())
			}
		})
	}
}
