package argo

import (
	"strconv"
	"testing"
	"time"
)

// TestSyncSummaries pins Sync.Reason and Sync.Halted for each kind of
// sync.
func TestSyncSummaries(t *testing.T) {
	paused := synced(basic(10, 20, ioi(1), ioi(0)))
	paused.Paused = true
	rss := steady(10, rs("web-stable", "stable", 10, 10), rs("web-new", "new", 0, 0))
	rss[1].Revision = 9
	noReplicas := basic(10, 20, nil, nil)
	noReplicas.Replicas = nil
	scaled := synced(basic(12, 20, ioi(1), ioi(0)))
	tests := []struct {
		name, want, halted string
		ro                 *Rollout[tmpl]
		rss                []ReplicaSet[tmpl]
	}{
		{"spec.paused", "scaling halted (user paused)", "user paused", paused, rss},
		{"no replicas", "spec.replicas defaulted to 1", "", noReplicas, nil},
		{"create", "created the new ReplicaSet web-5b947d5cfb", "", basic(10, 20, nil, nil), nil},
		{"scaling event", "replicas changed from 10 to 12: scale-only pass", "", scaled, rss},
		{"reset", "template or steps changed: status reset", "", basic(10, 20, nil, nil), steady(10, rs("web-x", hashOf("v2"), 0, 0))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Plan(tt.ro, tt.rss, t0)
			if err != nil {
				t.Fatal(err)
			}
			if s.Reason != tt.want || s.Halted != tt.halted {
				t.Errorf("Plan: Reason %q, Halted %q; want %q, %q\n%s", s.Reason, s.Halted, tt.want, tt.halted, dump(s))
			}
		})
	}
}

// TestScalingEventIgnoresScaledDownReplicaSets: a stale desired-replicas
// annotation on a new or stable ReplicaSet with no pods is not a
// scaling event.
func TestScalingEventIgnoresScaledDownReplicaSets(t *testing.T) {
	ro := synced(basic(10, 20, ioi(1), ioi(0)))
	rss := steady(10, rs("web-stable", "stable", 10, 10), rs("web-new", "new", 0, 0))
	rss[1].Revision = 9
	rss[1].DesiredReplicas = i32(4)
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.ScalingEvent {
		t.Errorf("a new ReplicaSet at 0 with desired-replicas 4 made a scaling event\n%s", dump(s))
	}
}

// TestBlueGreenTemplateChangeSyncOnlyWritesStatus: the sync that sees a
// blue-green template change points the preview Service and resets the
// status, and scales nothing.
func TestBlueGreenTemplateChangeSyncOnlyWritesStatus(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(3), Template: tmpl{Image: "v1"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", PreviewService: "preview"}}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0, Events: []Event[tmpl]{{Sync: 5, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range tr.Steps {
		if s.Sync != 6 {
			continue
		}
		var kinds []ActionKind
		for _, a := range s.Actions {
			kinds = append(kinds, a.Kind)
		}
		if len(kinds) != 2 || kinds[0] != SwitchPreviewService || kinds[1] != WriteStatus {
			t.Errorf("sync 6 writes %v, want [SwitchPreviewService WriteStatus]\n%s", kinds, tr.String())
		}
		_ = i
	}
}

// TestBlueGreenAutoPromotionCompletes: an auto-promotion wait that ends
// exactly on a sync still promotes.
func TestBlueGreenAutoPromotionCompletes(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(3), Template: tmpl{Image: "v1"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", PreviewService: "preview", AutoPromotionSeconds: 20}}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0, ReadyDelay: 5 * time.Second, Events: []Event[tmpl]{{Sync: 6, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || tr.Rollout.Status.BlueGreen.ActiveSelector != hashOf("v2") {
		t.Fatalf("outcome %v, active %s; want Complete on v2\n%s", tr.Outcome, tr.Rollout.Status.BlueGreen.ActiveSelector, tr.String())
	}
}

// TestEventsRaiseTheGeneration: spec changes raise the generation and
// the status records it.
func TestEventsRaiseTheGeneration(t *testing.T) {
	ro, rss := deployed(t, 4, &Canary{Steps: []CanaryStep{setWeight(50)}})
	gen := ro.Generation
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: Pause}, {Sync: 2, Kind: Pause}, {Sync: 3, Kind: Resume}, {Sync: 4, Kind: SetReplicas, Replicas: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Rollout.Generation != gen+3 {
		t.Errorf("generation %d, want %d (pause, resume, resize; the second pause changes nothing)", tr.Rollout.Generation, gen+3)
	}
	if tr.Rollout.Status.ObservedGeneration != strconv.FormatInt(tr.Rollout.Generation, 10) {
		t.Errorf("observedGeneration %q, generation %d", tr.Rollout.Status.ObservedGeneration, tr.Rollout.Generation)
	}
	if s := stepWith(tr, "pause"); s == nil || s.Status.ObservedGeneration != strconv.FormatInt(gen+1, 10) {
		t.Errorf("the pause's sync did not record generation %d: %+v", gen+1, s)
	}
}
