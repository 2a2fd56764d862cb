package argo_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

func ExampleCurrentCanaryStep() {
	ro := canary10()
	ro.Status.CurrentStepIndex = ptr[int32](1)
	step, i := argo.CurrentCanaryStep(ro)
	fmt.Println(i, argo.StepText(*step))
	ro.Status.CurrentStepIndex = ptr[int32](3)
	step, i = argo.CurrentCanaryStep(ro)
	fmt.Println(i, step == nil)
	// Output:
	// 1 pause: 30s
	// 3 true
}

func ExampleTrafficWeightToReplicas() {
	fmt.Println(argo.TrafficWeightToReplicas(10, 5, 100), argo.TrafficWeightToReplicas(3, 5, 1000), argo.TrafficWeightToReplicas(10, 0, 100))
	// Output: 1 1 0
}

// Availability counts a ReplicaSet's spec when it is below its
// available pods, or when availability is ignored (the side being
// drained).
func ExampleReplicasForScaleDown() {
	rs := &argo.ReplicaSet[Template]{Name: "web-v1", PodTemplateHash: "v1", Replicas: 8, AvailableReplicas: 6}
	fmt.Println(argo.ReplicasForScaleDown(rs, false), argo.ReplicasForScaleDown(rs, true))
	// Output: 6 8
}

func ExampleStableReplicaSet() {
	ro := canary10()
	ro.Status.StableRS = "v1"
	v1 := &argo.ReplicaSet[Template]{Name: "web-v1", PodTemplateHash: "v1"}
	v2 := &argo.ReplicaSet[Template]{Name: "web-v2", PodTemplateHash: "v2"}
	v3 := &argo.ReplicaSet[Template]{Name: "web-v3", PodTemplateHash: "v3"}
	all := []*argo.ReplicaSet[Template]{v1, v2, v3}
	stable := argo.StableReplicaSet(ro, v3, all)
	for _, o := range argo.OtherReplicaSets(nil, v3, stable, all) {
		fmt.Println("other:", o.Name)
	}
	fmt.Println("stable:", stable.Name)
	// Output:
	// other: web-v2
	// stable: web-v1
}

// The steps hash changes with the steps; Argo resets the steps when it
// does.
func ExampleStepsHash() {
	ro := canary10()
	a := argo.StepsHash(ro)
	ro.Strategy.Canary.Steps[0].SetWeight = ptr[int32](25)
	fmt.Println(a != argo.StepsHash(ro), len(a) > 0)
	// Output: true true
}

func ExampleFormatDeadline() {
	fmt.Println(argo.FormatDeadline(time.Date(2026, 1, 1, 1, 0, 0, 500, time.FixedZone("CET", 3600))))
	// Output: 2026-01-01T00:00:00Z
}

// The readers of absent fields, on a canary with traffic routing.
func ExampleMaxTrafficWeight() {
	ro := canary10()
	ro.Replicas = nil
	fmt.Println(argo.ReplicasOrDefault(ro.Replicas), argo.MaxTrafficWeight(ro))
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}, MaxTrafficWeight: ptr[int32](1000)}
	s, u := argo.MaxSurgeOrDefault(ro), argo.MaxUnavailableOrDefault(ro)
	fmt.Println(argo.MaxTrafficWeight(ro), s.String(), u.String(), argo.ScaleDownDelayOrDefault(ro))
	fmt.Println(argo.RevisionHistoryLimitOrDefault(ro), argo.ProgressDeadlineSecondsOrDefault(ro), argo.ScaleDownRevisionLimit(ro), argo.AutoPromotionEnabledOrDefault(ro))
	// Output:
	// 1 100
	// 1000 25 25 30s
	// 10 600 2147483647 true
}

// PauseStepComplete: a resumed pause (controllerPause set, no
// condition) is complete.
func ExamplePauseStepComplete() {
	ro := canary10()
	ro.Status.ControllerPause = true
	fmt.Println(argo.PauseStepComplete(ro, argo.RolloutPause{}, time.Now()))
	// Output: true
}

func ExampleUseSetCanaryScale() {
	ro := canary10()
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
	ro.Strategy.Canary.Steps = []argo.CanaryStep{{SetCanaryScale: &argo.SetCanaryScale{Weight: ptr[int32](40)}}, {SetWeight: ptr[int32](10)},
		{SetCanaryScale: &argo.SetCanaryScale{MatchTrafficWeight: true}}}
	for _, i := range []int32{1, 2} {
		ro.Status.CurrentStepIndex = &i
		scs := argo.UseSetCanaryScale(ro)
		fmt.Println(i, scs != nil)
	}
	// Output:
	// 1 true
	// 2 false
}

var _ = intorpercent.FromInt
