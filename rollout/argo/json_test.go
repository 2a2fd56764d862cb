package argo

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// TestRolloutJSONUsesCRDNames decodes a Rollout written with the CRD's
// field names and checks every field the math reads landed, then encodes
// it back and decodes again to the same value.
func TestRolloutJSONUsesCRDNames(t *testing.T) {
	const in = `{
	 "name": "web", "generation": 3, "replicas": 10, "template": {"image": "v2"},
	 "paused": true, "revisionHistoryLimit": 5, "minReadySeconds": 2,
	 "strategy": {"canary": {
	   "maxSurge": "20%", "maxUnavailable": 0,
	   "steps": [{"setWeight": 20}, {"pause": {"duration": "30s"}}, {"pause": {"duration": 30}}, {"pause": {}},
	             {"setCanaryScale": {"replicas": 3}}, {"setCanaryScale": {"matchTrafficWeight": true}}, {"analysis": {"templates":[]}}],
	   "trafficRouting": {"nginx": {"stableIngress": "web"}, "maxTrafficWeight": 1000},
	   "dynamicStableScale": true, "minPodsPerReplicaSet": 2, "abortScaleDownDelaySeconds": 0,
	   "scaleDownDelayRevisionLimit": 1, "replicaProgressThreshold": {"type": "Percent", "value": 90}}},
	 "status": {"currentStepIndex": 2, "stableRS": "abc", "currentPodHash": "def", "abort": true, "promoteFull": true,
	   "pauseConditions": [{"reason": "CanaryPauseStep", "startTime": "2026-01-01T00:00:00Z"}], "controllerPause": true,
	   "canary": {"weights": {"canary": {"weight": 20, "podTemplateHash": "def"}, "stable": {"weight": 80, "podTemplateHash": "abc"}}},
	   "blueGreen": {"activeSelector": "abc", "previewSelector": "def"}, "observedGeneration": "3", "HPAReplicas": 10}
	}`
	type tmpl struct {
		Image string `json:"image"`
	}
	var ro Rollout[tmpl]
	if err := json.Unmarshal([]byte(in), &ro); err != nil {
		t.Fatal(err)
	}
	c := ro.Strategy.Canary
	switch {
	case ro.Replicas == nil || *ro.Replicas != 10, ro.Template.Image != "v2", !ro.Paused, *ro.RevisionHistoryLimit != 5:
		t.Errorf("spec = %+v", ro)
	case *c.MaxSurge != intorpercent.FromString("20%"), *c.MaxUnavailable != intorpercent.FromInt(0):
		t.Errorf("fenceposts = %v %v", c.MaxSurge, c.MaxUnavailable)
	case len(c.Steps) != 7 || *c.Steps[0].SetWeight != 20 || *c.Steps[1].Pause.Duration != intorpercent.FromString("30s") ||
		*c.Steps[2].Pause.Duration != intorpercent.FromInt(30) || c.Steps[3].Pause == nil || c.Steps[3].Pause.Duration != nil ||
		*c.Steps[4].SetCanaryScale.Replicas != 3 || !c.Steps[5].SetCanaryScale.MatchTrafficWeight || c.Steps[6].Analysis == nil:
		t.Errorf("steps = %+v", c.Steps)
	case c.TrafficRouting == nil || c.TrafficRouting.Nginx == nil || c.TrafficRouting.Istio != nil || *c.TrafficRouting.MaxTrafficWeight != 1000:
		t.Errorf("trafficRouting = %+v", c.TrafficRouting)
	case !c.DynamicStableScale || *c.MinPodsPerReplicaSet != 2 || *c.AbortScaleDownDelaySeconds != 0 || *c.ScaleDownDelayRevisionLimit != 1 ||
		*c.ReplicaProgressThreshold != (ReplicaProgressThreshold{Type: ProgressPercent, Value: 90}):
		t.Errorf("canary = %+v", c)
	}
	s := ro.Status
	switch {
	case *s.CurrentStepIndex != 2, s.StableRS != "abc", s.CurrentPodHash != "def", !s.Abort, !s.PromoteFull, !s.ControllerPause:
		t.Errorf("status = %+v", s)
	case len(s.PauseConditions) != 1 || s.PauseConditions[0].Reason != PauseCanaryStep:
		t.Errorf("pauseConditions = %+v", s.PauseConditions)
	case s.Canary.Weights == nil || s.Canary.Weights.Canary.Weight != 20 || s.Canary.Weights.Stable.PodTemplateHash != "abc":
		t.Errorf("weights = %+v", s.Canary.Weights)
	case s.BlueGreen.ActiveSelector != "abc", s.ObservedGeneration != "3", s.HPAReplicas != 10:
		t.Errorf("status = %+v", s)
	}
	out, err := json.Marshal(ro)
	if err != nil {
		t.Fatal(err)
	}
	var back Rollout[tmpl]
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, ro) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, ro)
	}
}

// TestTraceJSONRoundTrip: a trace (enums by name, times, pointers)
// decodes back to itself.
func TestTraceJSONRoundTrip(t *testing.T) {
	type tm struct {
		Image string `json:"image"`
	}
	ro := &Rollout[tm]{Name: "web", Replicas: i32(3), Template: tm{Image: "v1"},
		Strategy: Strategy{Canary: &Canary{Steps: []CanaryStep{setWeight(50), pauseFor("")}}}}
	tr, err := Simulate(ro, nil, Config[tm]{Start: t0, Events: []Event[tm]{{Sync: 4, Kind: SetTemplate, Template: tm{Image: "v2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"outcome":"Paused"`) || !strings.Contains(string(b), `"kind":"CreateReplicaSet"`) {
		t.Errorf("enums are not written by name: %.300s", b)
	}
	var back Trace[tm]
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if string(b2) != string(b) {
		t.Errorf("trace JSON does not round-trip")
	}
}
