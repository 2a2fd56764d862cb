package argo

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// deployed returns a canary of r replicas with steps, deployed and
// settled at template v1, as Simulate leaves it.
func deployed(t *testing.T, r int32, c *Canary) (*Rollout[tmpl], []ReplicaSet[tmpl]) {
	t.Helper()
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(r), Template: tmpl{Image: "v1"}, Strategy: Strategy{Canary: c}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("setup: %v\n%s", tr.Outcome, tr.String())
	}
	return &tr.Rollout, tr.ReplicaSets
}

// lastStep returns the last recorded step whose events include ev.
func stepWith(tr Trace[tmpl], ev string) *Step {
	for i := range tr.Steps {
		for _, e := range tr.Steps[i].Events {
			if e == ev {
				return &tr.Steps[i]
			}
		}
	}
	return nil
}

func TestSimulateIndefinitePauseWaitsForPromote(t *testing.T) {
	ro, rss := deployed(t, 4, &Canary{Steps: []CanaryStep{setWeight(25), pauseFor("")}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomePaused || !hasPause(tr.Rollout.Status.PauseConditions, PauseCanaryStep) {
		t.Fatalf("outcome %v, want Paused at the pause step\n%s", tr.Outcome, tr.String())
	}
	ro2 := tr.Rollout
	tr2, err := Simulate(&ro2, tr.ReplicaSets, Config[tmpl]{Start: t0, Events: []Event[tmpl]{{Sync: 1, Kind: Promote}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr2.Outcome != OutcomeComplete {
		t.Fatalf("after promote: %v, want Complete\n%s", tr2.Outcome, tr2.String())
	}
}

func TestSimulateAbortReturnsToStableAndRetryResumes(t *testing.T) {
	ro, rss := deployed(t, 10, &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("")}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 20, Kind: Abort},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeAborted {
		t.Fatalf("outcome %v, want Aborted\n%s", tr.Outcome, tr.String())
	}
	for _, x := range tr.ReplicaSets {
		want := int32(10)
		if x.PodTemplateHash != tr.Rollout.Status.StableRS {
			want = 0
		}
		if x.Replicas != want {
			t.Errorf("aborted: %s has %d replicas, want %d\n%s", x.Name, x.Replicas, want, tr.String())
		}
	}
	if i := tr.Rollout.Status.CurrentStepIndex; i == nil || *i != 0 {
		t.Errorf("aborted: currentStepIndex %v, want 0", i)
	}
	ro2 := tr.Rollout
	tr2, err := Simulate(&ro2, tr.ReplicaSets, Config[tmpl]{Start: t0, Events: []Event[tmpl]{{Sync: 1, Kind: Retry}, {Sync: 30, Kind: PromoteFull}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr2.Outcome != OutcomeComplete {
		t.Fatalf("after retry and promote --full: %v, want Complete\n%s", tr2.Outcome, tr2.String())
	}
}

func TestSimulateTemplateChangeMidRolloutDrainsIntermediate(t *testing.T) {
	ro, rss := deployed(t, 6, &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("60s")}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}},
		{Sync: 8, Kind: SetTemplate, Template: tmpl{Image: "v3"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v, want Complete\n%s", tr.Outcome, tr.String())
	}
	if len(tr.ReplicaSets) != 3 {
		t.Fatalf("%d ReplicaSets, want 3 (v1, v2, v3)", len(tr.ReplicaSets))
	}
	v3, _ := PodTemplateHash(&tmpl{Image: "v3"}, nil)
	if tr.Rollout.Status.StableRS != v3 {
		t.Errorf("stable %s, want v3's %s", tr.Rollout.Status.StableRS, v3)
	}
	if s := stepWith(tr, "new template"); s == nil {
		t.Error("no step records the template change")
	}
}

func TestSimulateHPAResizeDuringRollout(t *testing.T) {
	ro, rss := deployed(t, 4, &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("")}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}},
		{Sync: 10, Kind: SetReplicas, Replicas: 8},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomePaused {
		t.Fatalf("outcome %v, want Paused\n%s", tr.Outcome, tr.String())
	}
	var total int32
	for _, x := range tr.ReplicaSets {
		total += x.Replicas
	}
	if total != 8 {
		t.Errorf("after the resize to 8 at 50%%: %d pods, want 8\n%s", total, tr.String())
	}
	s := stepWith(tr, "replicas 8")
	if s == nil || !strings.Contains(s.Reason, "scale-only pass") {
		t.Errorf("the resize's sync is not a scale-only pass: %+v", s)
	}
}

func TestSimulateSpecPausedBlocksCanaryScalingEvenForHPA(t *testing.T) {
	ro, rss := deployed(t, 4, &Canary{Steps: []CanaryStep{setWeight(50)}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, Events: []Event[tmpl]{
		{Sync: 1, Kind: Pause}, {Sync: 2, Kind: SetReplicas, Replicas: 6},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomePaused {
		t.Fatalf("outcome %v, want Paused\n%s", tr.Outcome, tr.String())
	}
	if got := tr.ReplicaSets[0].Replicas; got != 4 {
		t.Errorf("spec.paused: the HPA's 6 was applied (%d pods); argo #4261 keeps 4", got)
	}
	// With PausedScales the resize is applied while paused.
	tr, err = Simulate(ro, rss, Config[tmpl]{Start: t0, Options: Options{PausedScales: true}, Events: []Event[tmpl]{
		{Sync: 1, Kind: Pause}, {Sync: 2, Kind: SetReplicas, Replicas: 6},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.ReplicaSets[0].Replicas; tr.Outcome != OutcomeComplete || got != 6 {
		t.Errorf("PausedScales: %v with %d pods, want Complete (the stable at 6, though paused)\n%s", tr.Outcome, got, tr.String())
	}
}

func TestSimulateBlueGreenWithPreviewAndManualPromotion(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(4), Template: tmpl{Image: "v1"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", PreviewService: "preview", PreviewReplicaCount: i32(1), AutoPromotionEnabled: new(bool)}}}
	tr, err := Simulate(ro, nil, Config[tmpl]{Start: t0, ReadyDelay: 5 * time.Second, Events: []Event[tmpl]{
		{Sync: 5, Kind: SetTemplate, Template: tmpl{Image: "v2"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomePaused {
		t.Fatalf("outcome %v, want Paused before promotion\n%s", tr.Outcome, tr.String())
	}
	v2, _ := PodTemplateHash(&tmpl{Image: "v2"}, nil)
	for _, x := range tr.ReplicaSets {
		if x.PodTemplateHash == v2 && x.Replicas != 1 {
			t.Errorf("preview has %d replicas before promotion, want previewReplicaCount 1\n%s", x.Replicas, tr.String())
		}
	}
	ro2 := tr.Rollout
	tr2, err := Simulate(&ro2, tr.ReplicaSets, Config[tmpl]{Start: t0.Add(time.Hour), ReadyDelay: 5 * time.Second, Events: []Event[tmpl]{{Sync: 1, Kind: Promote}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr2.Outcome != OutcomeComplete || tr2.Rollout.Status.BlueGreen.ActiveSelector != v2 {
		t.Fatalf("after promote: %v, active %s\n%s", tr2.Outcome, tr2.Rollout.Status.BlueGreen.ActiveSelector, tr2.String())
	}
	// The old ReplicaSet waited scaleDownDelaySeconds (30 s) at 4 pods.
	var sawDeadline bool
	for _, s := range tr2.Steps {
		for _, a := range s.Actions {
			if a.Kind == AddScaleDownDeadline {
				sawDeadline = true
			}
		}
	}
	if !sawDeadline {
		t.Errorf("no scale-down deadline was written\n%s", tr2.String())
	}
}

func TestSimulatePodsThatNeverBecomeReadyStall(t *testing.T) {
	ro, rss := deployed(t, 4, &Canary{Steps: []CanaryStep{setWeight(50)}})
	tr, err := Simulate(ro, rss, Config[tmpl]{Start: t0, NeverReady: 100, Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeStalled {
		t.Fatalf("outcome %v, want Stalled\n%s", tr.Outcome, tr.String())
	}
}

func TestSimulateRejectsBadInput(t *testing.T) {
	ro := basic(10, 101, nil, nil)
	_, err := Simulate(ro, nil, Config[tmpl]{})
	want := `argo: invalid Rollout "web": spec.strategy.steps[0].setWeight: Invalid value: 101: SetWeight needs to be between 0 and 100`
	if err == nil || err.Error() != want {
		t.Fatalf("Simulate error = %v, want %s", err, want)
	}
	if !errors.Is(err, field.ErrInvalid) || !errors.Is(err, field.ErrRange) {
		t.Errorf("error does not wrap field.ErrInvalid and field.ErrRange")
	}
}

func TestPlanInputErrors(t *testing.T) {
	ro := synced(basic(10, 20, nil, nil))
	tests := []struct {
		name string
		ro   *Rollout[tmpl]
		rss  []ReplicaSet[tmpl]
		want string
		kind error
	}{
		{"nil rollout", nil, nil, "argo: rollout: must not be nil", field.ErrRequired},
		{"duplicate name", ro, []ReplicaSet[tmpl]{{Name: "a", PodTemplateHash: "x"}, {Name: "a", PodTemplateHash: "y"}},
			`argo: replicaSets[1].name: duplicate name "a"`, field.ErrDuplicate},
		{"duplicate hash", ro, []ReplicaSet[tmpl]{{Name: "a", PodTemplateHash: "x"}, {Name: "b", PodTemplateHash: "x"}},
			`argo: replicaSets[1].podTemplateHash: duplicate hash "x"`, field.ErrDuplicate},
		{"negative count", ro, []ReplicaSet[tmpl]{{Name: "a", PodTemplateHash: "x", AvailableReplicas: -1}},
			"argo: replicaSets[0].availableReplicas: -1: must not be negative", field.ErrNegative},
		{"empty name", ro, []ReplicaSet[tmpl]{{PodTemplateHash: "x"}}, "argo: replicaSets[0].name: must not be empty", field.ErrRequired},
	}
	for _, tt := range tests {
		_, err := Plan(tt.ro, tt.rss, t0)
		if err == nil || err.Error() != tt.want || !errors.Is(err, tt.kind) || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("%s: Plan error = %v, want %s (wrapping %v)", tt.name, err, tt.want, tt.kind)
		}
	}
}

func TestEnumsEncodeByName(t *testing.T) {
	a := Action{Kind: ScaleReplicaSet}
	b, err := json.Marshal(a)
	if err != nil || !strings.Contains(string(b), `"kind":"ScaleReplicaSet"`) {
		t.Fatalf("Action JSON = %s, %v", b, err)
	}
	var back Action
	if err := json.Unmarshal(b, &back); err != nil || back.Kind != ScaleReplicaSet {
		t.Fatalf("round trip = %v, %v", back.Kind, err)
	}
	var k EventKind
	if err := k.UnmarshalText([]byte("PromoteFull")); err != nil || k != PromoteFull {
		t.Errorf("EventKind PromoteFull = %v, %v", k, err)
	}
	err = k.UnmarshalText([]byte("Nope"))
	if err == nil || err.Error() != `argo: EventKind: "Nope": unknown name` || !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("unknown name error = %v", err)
	}
	if _, err := ActionKind(200).MarshalText(); err == nil || err.Error() != "argo: ActionKind: 200: has no name" {
		t.Errorf("unnamed kind error = %v", err)
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("Complete")); err != nil || o != OutcomeComplete {
		t.Errorf("Outcome Complete = %v, %v", o, err)
	}
}

func TestZeroDelayScalesDownOption(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Replicas: i32(3), Template: tmpl{Image: "b"},
		Strategy: Strategy{Canary: &Canary{TrafficRouting: &TrafficRouting{Nginx: &Router{}}, CanaryService: "c", StableService: "s", ScaleDownDelaySeconds: i32(0)}},
		Status:   Status{StableRS: "b", CurrentPodHash: "b"}}
	ro.Status.CurrentStepHash = StepsHash(ro)
	rss := steady(3, rs("web-a", "a", 3, 3), rs("web-b", "b", 3, 3))
	for _, tt := range []struct {
		opts Options
		want string
	}{{Options{}, "none"}, {Options{ZeroDelayScalesDown: true}, "web-a 3→0"}} {
		s, err := PlanWith(ro, rss, t0, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := writes(s); got != tt.want {
			t.Errorf("ZeroDelayScalesDown %v: Plan scales %s, want %s\n%s", tt.opts.ZeroDelayScalesDown, got, tt.want, dump(s))
		}
	}
}

// TestDynamicStableFollowsTrafficOneSyncBehind: with dynamicStableScale
// the stable ReplicaSet shrinks only once the weights recorded by an
// earlier sync have moved traffic off it, abort included.
func TestDynamicStableFollowsTrafficOneSyncBehind(t *testing.T) {
	c := &Canary{TrafficRouting: &TrafficRouting{Nginx: &Router{}}, CanaryService: "c", StableService: "s", DynamicStableScale: true,
		Steps: []CanaryStep{setWeight(20), setWeight(60), pauseFor("")}}
	ro, rss := deployed(t, 10, c)
	var shrank int
	tr, err := simulate(ro, rss, Config[tmpl]{Start: t0, ReadyDelay: 5 * time.Second, Events: []Event[tmpl]{
		{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "v2"}}, {Sync: 15, Kind: Abort}}},
		func(k int, in *Rollout[tmpl], rss []ReplicaSet[tmpl], s *Sync[tmpl]) {
			for _, a := range s.Actions {
				if a.Kind != ScaleReplicaSet || a.Hash != in.Status.StableRS || a.Replicas >= a.From {
					continue
				}
				shrank++
				w := in.Status.Canary.Weights
				if w == nil || int64(a.Replicas) < (int64(w.Stable.Weight)*10+99)/100 {
					t.Errorf("sync %d: stable %d → %d while the recorded stable weight is %+v", k, a.From, a.Replicas, w)
				}
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	if shrank == 0 || tr.Outcome != OutcomeAborted {
		t.Fatalf("the stable never shrank (%d) or outcome %v\n%s", shrank, tr.Outcome, tr.String())
	}
}
