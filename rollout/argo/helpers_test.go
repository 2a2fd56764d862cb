package argo

import (
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// tmpl is the template type of the tests.
type tmpl struct {
	Image string `json:"image"`
}

func i32(v int32) *int32 { return &v }

func ios(s string) *intorpercent.IntOrString {
	v := intorpercent.FromString(s)
	return &v
}

func ioi(n int32) *intorpercent.IntOrString {
	v := intorpercent.FromInt(n)
	return &v
}

// t0 is the tests' epoch.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// basic returns a basic canary of r replicas with one step setWeight w
// at index 0, stable "stable" and current "new" hashes (so the weight
// applies), and the given fenceposts (nil: Argo's default).
func basic(r, w int32, surge, unav *intorpercent.IntOrString) *Rollout[tmpl] {
	return &Rollout[tmpl]{
		Name: "web", Replicas: i32(r), Template: tmpl{Image: "v2"},
		Strategy: Strategy{Canary: &Canary{MaxSurge: surge, MaxUnavailable: unav, Steps: []CanaryStep{{SetWeight: i32(w)}}}},
		Status:   Status{StableRS: "stable", CurrentPodHash: "new", CurrentStepIndex: i32(0)},
	}
}

// routed returns a traffic-routed (nginx) canary of r replicas with
// steps, at index 0.
func routed(r int32, steps ...CanaryStep) *Rollout[tmpl] {
	return &Rollout[tmpl]{
		Name: "web", Replicas: i32(r), Template: tmpl{Image: "v2"},
		Strategy: Strategy{Canary: &Canary{Steps: steps, CanaryService: "canary", StableService: "stable",
			TrafficRouting: &TrafficRouting{Nginx: &Router{}}}},
		Status: Status{StableRS: "stable", CurrentPodHash: "new", CurrentStepIndex: i32(0)},
	}
}

// rs returns a ReplicaSet with spec replicas, available avail and
// status.replicas = spec.
func rs(name, hash string, spec, avail int32) *ReplicaSet[tmpl] {
	return &ReplicaSet[tmpl]{Name: name, PodTemplateHash: hash, Replicas: spec, StatusReplicas: spec, ReadyReplicas: avail, AvailableReplicas: avail}
}

func setWeight(w int32) CanaryStep { return CanaryStep{SetWeight: i32(w)} }

func pauseFor(d string) CanaryStep {
	if d == "" {
		return CanaryStep{Pause: &RolloutPause{}}
	}
	return CanaryStep{Pause: &RolloutPause{Duration: ios(d)}}
}
