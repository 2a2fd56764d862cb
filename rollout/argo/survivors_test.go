package argo

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Tests written for the survivors of a mutation sample (seed 25).

func TestReasonSaysOnePod(t *testing.T) {
	ro := synced(routed(4, CanaryStep{SetCanaryScale: &SetCanaryScale{Replicas: i32(1)}}))
	rss := steady(4, rs("web-stable", "stable", 4, 4), rs("web-new", "new", 0, 0))
	rss[1].Revision = 9
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range s.Actions {
		if a.Kind == ScaleReplicaSet && a.ReplicaSet == "web-new" {
			if want := "0 → 1: setCanaryScale asks for 1 pod"; a.Reason != want {
				t.Errorf("reason %q, want %q", a.Reason, want)
			}
			return
		}
	}
	t.Errorf("the canary was not scaled\n%s", dump(s))
}

func TestStepString(t *testing.T) {
	s := Step{Sync: 3, Elapsed: 30 * time.Second, Events: []string{"abort"}, StepIndex: 1, Steps: 2, SetWeight: 0, ActualWeight: 50,
		Status: Status{Phase: PhaseDegraded}, Reason: "2 writes",
		ReplicaSets: []ReplicaSetState{{Hash: "b", Roles: []string{"canary"}, Replicas: 2, Available: 1}, {Hash: "a", Replicas: 4, Available: 4}}}
	want := "sync 3 (+30s) [abort] step 1/2 weight 0/50 Degraded | b(canary) 1/2 a 4/4 | 2 writes"
	if got := s.String(); got != want {
		t.Errorf("Step.String() =\n %s\nwant\n %s", got, want)
	}
}

func TestHeaderAndMirrorRouteStepsCompleteAtOnce(t *testing.T) {
	for _, step := range []CanaryStep{{SetHeaderRoute: json.RawMessage(`{"name":"h"}`)}, {SetMirrorRoute: json.RawMessage(`{"name":"m"}`)}} {
		ro := routed(4, step)
		if !StepComplete(ro, nil, nil, nil, nil, t0) {
			t.Errorf("StepComplete(%s) = false, want true", StepText(step))
		}
	}
}

// TestPromoteFullWithoutStepsKeepsNoIndex: a canary without steps has
// no currentStepIndex, also while promoteFull waits for the canary.
func TestPromoteFullWithoutStepsKeepsNoIndex(t *testing.T) {
	ro := synced(basic(4, 50, ioi(1), ioi(0)))
	ro.Strategy.Canary.Steps = nil
	ro.Status.CurrentStepIndex = nil
	ro.Status.CurrentStepHash = StepsHash(ro)
	ro.Status.PromoteFull = true
	rss := steady(4, rs("web-stable", "stable", 4, 4), rs("web-new", "new", 1, 0))
	rss[1].Revision = 9
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	if i := s.Rollout.Status.CurrentStepIndex; i != nil {
		t.Errorf("currentStepIndex %d, want nil\n%s", *i, dump(s))
	}
}

// TestBlueGreenRollbackWithinDelaySkipsPause: without auto-promotion,
// going back to the previous active while it waits for its deadline is
// a fast rollback: no pause, the active Service switches back.
func TestBlueGreenRollbackWithinDelaySkipsPause(t *testing.T) {
	f := false
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(3), Template: tmpl{Image: "v1"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", ScaleDownDelaySeconds: i32(300), AutoPromotionEnabled: &f}}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 5, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 10, Kind: Promote},
		{Sync: 15, Kind: SetTemplate, Template: tmpl{Image: "v1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || tr.Rollout.Status.BlueGreen.ActiveSelector != hashOf("v1") {
		t.Fatalf("outcome %v active %s, want Complete back on v1 without a promote\n%s", tr.Outcome, tr.Rollout.Status.BlueGreen.ActiveSelector, tr.String())
	}
}

// TestRemovedDeadlineIsNotReadAgain: with 0 replicas, a deadline removed
// from the new ReplicaSet earlier in the sync does not make its
// desired-replicas annotation stale.
func TestRemovedDeadlineIsNotReadAgain(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Replicas: i32(0), Template: tmpl{Image: "a"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active"}},
		Status:   Status{StableRS: "a", CurrentPodHash: "a", BlueGreen: BlueGreenStatus{ActiveSelector: "a"}}}
	rss := steady(0, rs("web-a", "a", 0, 0))
	rss[0].ScaleDownDeadline = FormatDeadline(t0.Add(time.Minute))
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, a := range s.Actions {
		if a.Kind != WriteStatus {
			kinds = append(kinds, a.Kind.String())
		}
	}
	if got := strings.Join(kinds, ","); got != "RemoveScaleDownDeadline" {
		t.Errorf("writes %s, want RemoveScaleDownDeadline only\n%s", got, dump(s))
	}
}

func TestSimulateStopsAtTheDefaultSyncLimit(t *testing.T) {
	ro, rss := deployed(t, 2, &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("24h")}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeSyncLimit || tr.Syncs != 1000 {
		t.Errorf("outcome %v after %d syncs, want SyncLimit after 1000", tr.Outcome, tr.Syncs)
	}
}
