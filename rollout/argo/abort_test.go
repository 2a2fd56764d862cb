package argo

import (
	"testing"
	"time"
)

// kinds counts a trace's actions by kind and ReplicaSet hash.
func count(tr Trace[tmpl], kind ActionKind, hash string) int {
	n := 0
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if a.Kind == kind && (hash == "" || a.Hash == hash) {
				n++
			}
		}
	}
	return n
}

func hashOf(image string) string {
	h, _ := PodTemplateHash(&tmpl{Image: image}, nil)
	return h
}

func routedCanary(steps ...CanaryStep) *Canary {
	return &Canary{TrafficRouting: &TrafficRouting{Nginx: &Router{}}, CanaryService: "c", StableService: "s", Steps: steps}
}

// TestAbortDelayKeepsCanaryThenScalesItDown: a traffic-routed canary
// aborted keeps its pods for abortScaleDownDelaySeconds (30 s) once the
// stable is fully available, then goes to 0.
func TestAbortDelayKeepsCanaryThenScalesItDown(t *testing.T) {
	ro, rss := deployed(t, 4, routedCanary(setWeight(50), pauseFor("")))
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: Abort}}})
	if err != nil {
		t.Fatal(err)
	}
	v2 := hashOf("v2")
	if tr.Outcome != OutcomeAborted || count(tr, AddScaleDownDeadline, v2) != 1 {
		t.Fatalf("outcome %v, %d deadlines on the canary; want Aborted and 1\n%s", tr.Outcome, count(tr, AddScaleDownDeadline, v2), tr.String())
	}
	var added, scaled time.Duration
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if a.Hash != v2 {
				continue
			}
			if a.Kind == AddScaleDownDeadline {
				added = s.Elapsed
			}
			if a.Kind == ScaleReplicaSet && a.Replicas == 0 {
				scaled = s.Elapsed
			}
		}
	}
	if scaled <= added+30*time.Second-10*time.Second || scaled > added+40*time.Second {
		t.Errorf("canary deadline at +%s, scaled to 0 at +%s; want about 30 s later\n%s", added, scaled, tr.String())
	}
}

// TestAbortDelayZero: abortScaleDownDelaySeconds 0 keeps the canary's
// pods after an abort only where a setCanaryScale sizes it: a canary
// sized by setWeight goes to weight 0, hence 0 pods, at once (the
// explicit 0 only switches the delay off).
func TestAbortDelayZero(t *testing.T) {
	for _, tt := range []struct {
		name string
		step CanaryStep
		want int32
	}{
		{"setCanaryScale replicas 2 is kept", CanaryStep{SetCanaryScale: &SetCanaryScale{Replicas: i32(2)}}, 2},
		{"setWeight 50 goes to 0", setWeight(50), 0},
	} {
		c := routedCanary(tt.step, pauseFor(""))
		c.AbortScaleDownDelaySeconds = i32(0)
		ro, rss := deployed(t, 4, c)
		tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0.Add(time.Hour), Events: []Event[tmpl]{
			{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: Abort}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tr.ReplicaSets {
			if x.PodTemplateHash == hashOf("v2") && x.Replicas != tt.want {
				t.Errorf("%s: canary has %d replicas after the abort, want %d\n%s", tt.name, x.Replicas, tt.want, tr.String())
			}
		}
		if tr.Outcome != OutcomeAborted || count(tr, AddScaleDownDeadline, "") != 0 {
			t.Errorf("%s: outcome %v with %d deadlines, want Aborted and none", tt.name, tr.Outcome, count(tr, AddScaleDownDeadline, ""))
		}
	}
}

// TestRollbackToStableSkipsSteps: going back to the stable template in
// the middle of an update skips the steps and scales the canary down.
func TestRollbackToStableSkipsSteps(t *testing.T) {
	ro, rss := deployed(t, 4, &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("")}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: SetTemplate, Template: tmpl{Image: "v1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || tr.Rollout.Status.StableRS != hashOf("v1") {
		t.Fatalf("outcome %v stable %s, want Complete at v1\n%s", tr.Outcome, tr.Rollout.Status.StableRS, tr.String())
	}
	if i := tr.Rollout.Status.CurrentStepIndex; i == nil || *i != 2 {
		t.Errorf("currentStepIndex %v, want 2 (steps skipped)", i)
	}
	if count(tr, UpdateRevision, hashOf("v1")) != 1 {
		t.Errorf("v1 did not get the next revision\n%s", tr.String())
	}
}

// TestRollbackWithinWindowSkipsSteps: with rollbackWindow, going back to
// a recent revision that is not the stable skips the steps too.
func TestRollbackWithinWindowSkipsSteps(t *testing.T) {
	c := &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("")}}
	ro, rss := deployed(t, 4, c)
	ro.RollbackWindow = &RollbackWindow{Revisions: 3}
	// v2 fully promoted, then back to v1 (older than the stable v2).
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0.Add(time.Hour), Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: PromoteFull},
		{Sync: 30, Kind: SetTemplate, Template: tmpl{Image: "v1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || tr.Rollout.Status.StableRS != hashOf("v1") {
		t.Fatalf("outcome %v stable %s, want Complete at v1\n%s", tr.Outcome, tr.Rollout.Status.StableRS, tr.String())
	}
	for _, s := range tr.Steps {
		if s.Sync > 30 && hasPause(s.Status.PauseConditions, PauseCanaryStep) {
			t.Fatalf("sync %d paused at a step during a rollback within the window\n%s", s.Sync, tr.String())
		}
	}
}

// TestRevisionHistoryLimitDeletesOldReplicaSets: old ReplicaSets with no
// pods beyond revisionHistoryLimit are deleted, oldest first.
func TestRevisionHistoryLimitDeletesOldReplicaSets(t *testing.T) {
	ro, rss := deployed(t, 2, &Canary{})
	ro.RevisionHistoryLimit = i32(1)
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}},
		{Sync: 10, Kind: SetTemplate, Template: tmpl{Image: "v3"}},
		{Sync: 20, Kind: SetTemplate, Template: tmpl{Image: "v4"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v\n%s", tr.Outcome, tr.String())
	}
	if n := len(tr.ReplicaSets); n != 2 {
		t.Errorf("%d ReplicaSets left, want 2 (v4 and one old)\n%s", n, tr.String())
	}
	if count(tr, DeleteReplicaSet, hashOf("v1")) != 1 || count(tr, DeleteReplicaSet, hashOf("v2")) != 1 {
		t.Errorf("v1 and v2 were not deleted once each\n%s", tr.String())
	}
}

// TestBlueGreenRollbackWithinDelayRemovesDeadline: going back to the
// old active while it waits for its scale-down deadline removes the
// deadline and fast-tracks the switch.
func TestBlueGreenRollbackWithinDelayRemovesDeadline(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(3), Template: tmpl{Image: "v1"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", ScaleDownDelaySeconds: i32(300)}}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 5, Kind: SetTemplate, Template: tmpl{Image: "v2"}},
		{Sync: 12, Kind: SetTemplate, Template: tmpl{Image: "v1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	v1 := hashOf("v1")
	if count(tr, AddScaleDownDeadline, v1) != 1 || count(tr, RemoveScaleDownDeadline, v1) != 1 {
		t.Fatalf("v1's deadline was not added then removed\n%s", tr.String())
	}
	if tr.Outcome != OutcomeComplete || tr.Rollout.Status.BlueGreen.ActiveSelector != v1 {
		t.Fatalf("outcome %v active %s, want Complete at v1\n%s", tr.Outcome, tr.Rollout.Status.BlueGreen.ActiveSelector, tr.String())
	}
}
