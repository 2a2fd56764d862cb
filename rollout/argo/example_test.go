package argo_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// Template is the examples' pod template: any type encoding/json can
// encode.
type Template struct {
	Image string `json:"image"`
}

func ptr[V any](v V) *V { return &v }

// The question users ask most: why does setWeight 20 on 3 replicas give
// 1 canary and 3 stable?
func ExampleSplitForWeight() {
	canary, stable := argo.SplitForWeight(3, 20, 100, 1)
	fmt.Printf("3 replicas at 20%%, maxSurge 1: %d canary, %d stable\n", canary, stable)
	canary, stable = argo.SplitForWeight(3, 20, 100, 0)
	fmt.Printf("3 replicas at 20%%, no surge:  %d canary, %d stable\n", canary, stable)
	canary, stable = argo.SplitForWeight(10, 5, 100, 1)
	fmt.Printf("10 replicas at 5%%, maxSurge 1: %d canary, %d stable\n", canary, stable)
	// Output:
	// 3 replicas at 20%, maxSurge 1: 1 canary, 3 stable
	// 3 replicas at 20%, no surge:  1 canary, 2 stable
	// 10 replicas at 5%, maxSurge 1: 1 canary, 10 stable
}

// canary10 is a basic canary of 10 replicas at its first step.
func canary10() *argo.Rollout[Template] {
	return &argo.Rollout[Template]{
		Name: "web", Generation: 2, Replicas: ptr[int32](10), Template: Template{Image: "web:2"},
		Strategy: argo.Strategy{Canary: &argo.Canary{Steps: []argo.CanaryStep{
			{SetWeight: ptr[int32](20)}, {Pause: &argo.RolloutPause{Duration: ptr(intorpercent.FromString("30s"))}}, {SetWeight: ptr[int32](50)},
		}}},
	}
}

// One sync in the middle of a canary: the stable ReplicaSet is scaled
// first, within maxUnavailable.
func ExamplePlan() {
	ro := canary10()
	hash, _ := argo.PodTemplateHash(&ro.Template, nil)
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: hash, CurrentStepIndex: ptr[int32](0), CurrentStepHash: argo.StepsHash(ro)}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := []argo.ReplicaSet[Template]{
		{Name: "web-v1", PodTemplateHash: "v1", Revision: 1, DesiredReplicas: ptr[int32](10), CreationTime: start,
			Template: Template{Image: "web:1"}, Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "web-" + hash, PodTemplateHash: hash, Revision: 2, DesiredReplicas: ptr[int32](10), CreationTime: start.Add(time.Minute),
			Template: ro.Template, Replicas: 0},
	}
	sync, err := argo.Plan(ro, rss, start.Add(2*time.Minute))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range sync.Actions {
		fmt.Printf("%s %s: %s\n", a.Kind, a.ReplicaSet, a.Reason)
	}
	// Output:
	// ScaleReplicaSet web-v1: 10 → 8: canary 2 / stable 8: weight 20% of 10 is 2 pods
	// WriteStatus : status: step 0/3
}

// A whole canary of 10 replicas, reconcile by reconcile.
func ExampleSimulate() {
	ro := canary10()
	tr, err := argo.Simulate(ro, nil, argo.Config[Template]{
		ReadyDelay: 5 * time.Second,
		Events:     []argo.Event[Template]{{Sync: 5, Kind: argo.SetTemplate, Template: Template{Image: "web:3"}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		if s.Sync < 5 {
			continue // the first deploy
		}
		line := fmt.Sprintf("+%s step %d/%d setWeight %d actual %d:", s.Elapsed, s.StepIndex, s.Steps, s.SetWeight, s.ActualWeight)
		for _, rs := range s.ReplicaSets {
			line += fmt.Sprintf(" %v %d/%d", rs.Roles, rs.Available, rs.Replicas)
		}
		fmt.Println(line)
	}
	fmt.Println(tr.Outcome, "after", tr.Syncs, "syncs")
	// Output:
	// +50s step 3/3 setWeight 100 actual 100: [] 0/0 [stable] 10/10
	// +1m0s step 0/3 setWeight 20 actual 0: [canary] 0/0 [stable] 10/10
	// +1m10s step 0/3 setWeight 20 actual 0: [canary] 0/0 [stable] 8/8
	// +1m20s step 0/3 setWeight 20 actual 0: [canary] 0/2 [stable] 8/8
	// +1m30s step 1/3 setWeight 20 actual 20: [canary] 2/2 [stable] 8/8
	// +1m40s step 1/3 setWeight 20 actual 20: [canary] 2/2 [stable] 8/8
	// +2m20s step 2/3 setWeight 50 actual 20: [canary] 2/2 [stable] 8/8
	// +2m30s step 2/3 setWeight 50 actual 20: [canary] 2/2 [stable] 6/6
	// +2m40s step 2/3 setWeight 50 actual 25: [canary] 2/5 [stable] 6/6
	// +2m50s step 2/3 setWeight 50 actual 45: [canary] 5/5 [stable] 5/5
	// +3m0s step 3/3 setWeight 100 actual 100: [canary] 5/5 [stable] 5/5
	// +3m10s step 3/3 setWeight 100 actual 100: [canary] 5/5 [stable] 3/3
	// +3m20s step 3/3 setWeight 100 actual 100: [canary] 5/10 [stable] 3/3
	// +3m30s step 3/3 setWeight 100 actual 100: [stable] 10/10 [] 0/0
	// +3m40s step 3/3 setWeight 100 actual 100: [stable] 10/10 [] 0/0
	// Complete after 23 syncs
}

// Validate speaks Argo's words.
func ExampleValidate() {
	ro := canary10()
	ro.Strategy.Canary.MaxSurge = ptr(intorpercent.FromString("0%"))
	ro.Strategy.Canary.MaxUnavailable = ptr(intorpercent.FromInt(0))
	ro.Strategy.Canary.Steps[0].SetWeight = ptr[int32](101)
	for _, e := range argo.Validate(ro) {
		fmt.Println(e)
	}
	// Output:
	// spec.strategy.maxSurge: Invalid value: "0%": MaxSurge and MaxUnavailable both can not be zero
	// spec.strategy.steps[0].setWeight: Invalid value: 101: SetWeight needs to be between 0 and 100
}

// The defaults "25"/"25" on a few replica counts, and a maxSurge that
// does not parse.
func ExampleResolveFenceposts() {
	for _, r := range []int32{1, 4, 10} {
		s, u, _ := argo.ResolveFenceposts(ptr(intorpercent.FromString("25")), ptr(intorpercent.FromString("25")), r)
		fmt.Printf("R%d: surge %d, unavailable %d\n", r, s, u)
	}
	s, u, err := argo.ResolveFenceposts(ptr(intorpercent.FromString("abc")), ptr(intorpercent.FromString("25")), 10)
	fmt.Println(s, u, err != nil)
	// Output:
	// R1: surge 1, unavailable 0
	// R4: surge 1, unavailable 1
	// R10: surge 3, unavailable 2
	// 0 0 true
}

func ExampleMaxSurge() {
	ro := canary10()
	fmt.Println(argo.MaxSurge(ro), argo.MaxUnavailable(ro))
	// Output: 3 2
}

// A basic canary steps toward its split: stable first, within the
// fenceposts.
func ExampleBasicCanaryCounts() {
	ro := canary10()
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2"}
	stable := &argo.ReplicaSet[Template]{Name: "web-v1", PodTemplateHash: "v1", Replicas: 10, StatusReplicas: 10, AvailableReplicas: 10}
	canary := &argo.ReplicaSet[Template]{Name: "web-v2", PodTemplateHash: "v2"}
	n, s := argo.BasicCanaryCounts(ro, canary, stable, nil)
	fmt.Printf("canary %d, stable %d\n", n, s)
	// Output: canary 2, stable 8
}

// With traffic routing the canary gets its pods at once and the stable
// keeps all of them.
func ExampleTrafficRoutedCanaryCounts() {
	ro := canary10()
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2"}
	n, s := argo.TrafficRoutedCanaryCounts(ro, nil, nil, nil)
	fmt.Printf("canary %d, stable %d\n", n, s)
	ro.Strategy.Canary.DynamicStableScale = true
	n, s = argo.TrafficRoutedCanaryCounts(ro, nil, nil, &argo.Weights{Canary: argo.WeightDestination{Weight: 20}, Stable: argo.WeightDestination{Weight: 80}})
	fmt.Printf("dynamic: canary %d, stable %d\n", n, s)
	// Output:
	// canary 2, stable 10
	// dynamic: canary 2, stable 8
}

func ExampleCurrentSetWeight() {
	ro := canary10()
	for _, i := range []int32{0, 1, 2, 3} {
		ro.Status.CurrentStepIndex = &i
		fmt.Print(argo.CurrentSetWeight(ro), " ")
	}
	ro.Status.Abort = true
	fmt.Println(argo.CurrentSetWeight(ro))
	// Output: 20 20 50 100 0
}

func ExampleCanaryReplicasOrWeight() {
	ro := canary10()
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
	ro.Strategy.Canary.Steps = []argo.CanaryStep{{SetCanaryScale: &argo.SetCanaryScale{Replicas: ptr[int32](3)}}, {SetWeight: ptr[int32](50)}}
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2", CurrentStepIndex: ptr[int32](1)}
	rep, w := argo.CanaryReplicasOrWeight(ro, nil, nil)
	fmt.Println(*rep, w, argo.UseSetCanaryScale(ro) != nil)
	// Output: 3 0 true
}

// An aborted canary with dynamicStableScale walks back down its steps.
func ExampleDesiredCanaryWeight() {
	ro := canary10()
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
	ro.Strategy.Canary.DynamicStableScale = true
	ro.Strategy.Canary.Steps = []argo.CanaryStep{{SetWeight: ptr[int32](20)}, {SetWeight: ptr[int32](60)}}
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2", Abort: true}
	canary := &argo.ReplicaSet[Template]{Name: "web-v2", PodTemplateHash: "v2", Replicas: 6, AvailableReplicas: 6}
	stable := &argo.ReplicaSet[Template]{Name: "web-v1", PodTemplateHash: "v1", Replicas: 4, AvailableReplicas: 4}
	fmt.Println(argo.DesiredCanaryWeight(ro, canary, stable))
	// Output: 20
}

// Blue-green: the preview gets previewReplicaCount until promotion.
func ExampleNewReplicas() {
	ro := &argo.Rollout[Template]{Name: "web", Replicas: ptr[int32](5),
		Strategy: argo.Strategy{BlueGreen: &argo.BlueGreen{ActiveService: "active", PreviewReplicaCount: ptr[int32](1)}},
		Status:   argo.Status{StableRS: "a", CurrentPodHash: "n", BlueGreen: argo.BlueGreenStatus{ActiveSelector: "a"}}}
	active := &argo.ReplicaSet[Template]{Name: "web-a", PodTemplateHash: "a", Replicas: 5}
	preview := &argo.ReplicaSet[Template]{Name: "web-n", PodTemplateHash: "n", Replicas: 1}
	fmt.Println(argo.NewReplicas(ro, []*argo.ReplicaSet[Template]{active, preview}, preview, nil))
	ro.Status.BlueGreen.ActiveSelector = "n"
	fmt.Println(argo.NewReplicas(ro, []*argo.ReplicaSet[Template]{active, preview}, preview, nil))
	// Output:
	// 1
	// 5
}

func ExampleReplicaProgressThresholdMet() {
	rs := &argo.ReplicaSet[Template]{Name: "web-v2", PodTemplateHash: "v2", Replicas: 10, AvailableReplicas: 9}
	fmt.Println(argo.ReplicaProgressThresholdMet(&argo.ReplicaProgressThreshold{Type: argo.ProgressPercent, Value: 90}, rs, 10))
	fmt.Println(argo.ReplicaProgressThresholdMet(nil, rs, 10))
	// Output:
	// true
	// false
}

func ExampleAtDesiredReplicaCountsForCanary() {
	ro := canary10()
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2"}
	stable := &argo.ReplicaSet[Template]{Name: "web-v1", PodTemplateHash: "v1", Replicas: 8, StatusReplicas: 8, AvailableReplicas: 8}
	canary := &argo.ReplicaSet[Template]{Name: "web-v2", PodTemplateHash: "v2", Replicas: 2, StatusReplicas: 2, AvailableReplicas: 1}
	fmt.Println(argo.AtDesiredReplicaCountsForCanary(ro, canary, stable, nil, nil))
	canary.AvailableReplicas = 2
	fmt.Println(argo.AtDesiredReplicaCountsForCanary(ro, canary, stable, nil, nil))
	// Output:
	// false
	// true
}

func ExampleCheckMinPodsPerReplicaSet() {
	ro := canary10()
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
	ro.Strategy.Canary.MinPodsPerReplicaSet = ptr[int32](2)
	fmt.Println(argo.CheckMinPodsPerReplicaSet(ro, 1), argo.CheckMinPodsPerReplicaSet(ro, 0))
	// Output: 2 0
}

func ExampleDurationSeconds() {
	for _, d := range []string{"30", "1h", "1.5s", "500ms", "abc"} {
		fmt.Print(argo.DurationSeconds(argo.RolloutPause{Duration: ptr(intorpercent.FromString(d))}), " ")
	}
	fmt.Println()
	// Output: 30 3600 1 0 -1
}

func ExampleAbortScaleDownDelayOrDefault() {
	ro := &argo.Rollout[Template]{Strategy: argo.Strategy{BlueGreen: &argo.BlueGreen{ActiveService: "active"}}}
	d, set := argo.AbortScaleDownDelayOrDefault(ro)
	fmt.Println(*d, set)
	ro.Strategy.BlueGreen.AbortScaleDownDelaySeconds = ptr[int32](0)
	d, set = argo.AbortScaleDownDelayOrDefault(ro)
	fmt.Println(d == nil, set)
	// Output:
	// 30s false
	// true true
}

func ExamplePodTemplateHash() {
	h, err := argo.PodTemplateHash(&Template{Image: "web:2"}, nil)
	fmt.Println(h, err)
	h, _ = argo.PodTemplateHash(&Template{Image: "web:2"}, ptr[int32](1))
	fmt.Println(h)
	// Output:
	// 9dd895464 <nil>
	// 7f67dd87fc
}

// A Planner reuses its memory; reasons are written only when asked.
func ExamplePlanner() {
	var p argo.Planner[Template]
	ro := canary10()
	sync, err := p.Plan(ro, nil, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %q\n", sync.Actions[0].Kind, sync.Actions[0].Reason)
	fmt.Println(p.Explain().Actions[0].Reason)
	// Output:
	// CreateReplicaSet ""
	// no ReplicaSet has the current template: create web-9dd895464 at 0 replicas with revision 1; the sync stops there and sizes it next time
}

// ZeroDelayScalesDown answers argo #1992: with scaleDownDelaySeconds 0
// an old blue-green ReplicaSet otherwise keeps its pods for ever.
func ExamplePlanWith() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ro := &argo.Rollout[Template]{Name: "web", Replicas: ptr[int32](3), Template: Template{Image: "web:2"},
		Strategy: argo.Strategy{BlueGreen: &argo.BlueGreen{ActiveService: "active", ScaleDownDelaySeconds: ptr[int32](0)}},
		Status:   argo.Status{StableRS: "b", CurrentPodHash: "b", BlueGreen: argo.BlueGreenStatus{ActiveSelector: "b"}}}
	rss := []argo.ReplicaSet[Template]{
		{Name: "web-a", PodTemplateHash: "a", Revision: 1, DesiredReplicas: ptr[int32](3), Template: Template{Image: "web:1"}, Replicas: 3, StatusReplicas: 3, AvailableReplicas: 3},
		{Name: "web-b", PodTemplateHash: "b", Revision: 2, DesiredReplicas: ptr[int32](3), Template: Template{Image: "web:2"}, Replicas: 3, StatusReplicas: 3, AvailableReplicas: 3, CreationTime: start},
	}
	for _, opts := range []argo.Options{{}, {ZeroDelayScalesDown: true}} {
		sync, _ := argo.PlanWith(ro, rss, start.Add(time.Minute), opts)
		fmt.Printf("ZeroDelayScalesDown %v: web-a keeps %d pods\n", opts.ZeroDelayScalesDown, sync.ReplicaSets[0].Replicas)
	}
	// Output:
	// ZeroDelayScalesDown false: web-a keeps 3 pods
	// ZeroDelayScalesDown true: web-a keeps 0 pods
}

func ExampleStepText() {
	fmt.Println(argo.StepText(argo.CanaryStep{Pause: &argo.RolloutPause{Duration: ptr(intorpercent.FromString("30s"))}}))
	fmt.Println(argo.StepText(argo.CanaryStep{SetCanaryScale: &argo.SetCanaryScale{Replicas: ptr[int32](3)}}))
	// Output:
	// pause: 30s
	// setCanaryScale{replicas: 3}
}

// A pause step with a duration completes once it has run its time.
func ExampleStepComplete() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ro := canary10()
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2", CurrentStepIndex: ptr[int32](1), ControllerPause: true,
		PauseConditions: []argo.PauseCondition{{Reason: argo.PauseCanaryStep, StartTime: start}}}
	fmt.Println(argo.StepComplete(ro, nil, nil, nil, nil, start.Add(20*time.Second)))
	fmt.Println(argo.StepComplete(ro, nil, nil, nil, nil, start.Add(31*time.Second)))
	// Output:
	// false
	// true
}

// Blue-green keeps the old active ReplicaSet for scaleDownDelaySeconds.
func ExampleScaleDownOldReplicaSets() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ro := &argo.Rollout[Template]{Name: "web", Replicas: ptr[int32](3), Template: Template{Image: "web:2"},
		Strategy: argo.Strategy{BlueGreen: &argo.BlueGreen{ActiveService: "active"}},
		Status:   argo.Status{StableRS: "b", CurrentPodHash: "b", BlueGreen: argo.BlueGreenStatus{ActiveSelector: "b"}}}
	rss := []argo.ReplicaSet[Template]{
		{Name: "web-a", PodTemplateHash: "a", Revision: 1, DesiredReplicas: ptr[int32](3), Template: Template{Image: "web:1"}, Replicas: 3, StatusReplicas: 3, AvailableReplicas: 3},
		{Name: "web-b", PodTemplateHash: "b", Revision: 2, DesiredReplicas: ptr[int32](3), Template: Template{Image: "web:2"}, Replicas: 3, StatusReplicas: 3, AvailableReplicas: 3, CreationTime: start},
	}
	actions, requeue, _ := argo.ScaleDownOldReplicaSets(ro, rss, start, argo.Options{})
	for _, a := range actions {
		fmt.Println(a.Kind, a.ReplicaSet, a.Deadline)
	}
	fmt.Println("requeue after", requeue)
	rss[0].ScaleDownDeadline = "2026-01-01T00:00:30Z"
	actions, _, _ = argo.ScaleDownOldReplicaSets(ro, rss, start.Add(time.Minute), argo.Options{})
	fmt.Println(actions[0].Kind, actions[0].ReplicaSet, actions[0].Replicas)
	// Output:
	// AddScaleDownDeadline web-a 2026-01-01T00:00:30Z
	// requeue after 30s
	// ScaleReplicaSet web-a 0
}

// After an abort with dynamicStableScale, traffic leaves the canary as
// the stable's pods become available; it stays at 20 while the canary
// still has the 6 available pods of 60% (the reverse walk counts them).
func ExampleWeightOnAbortOrRollback() {
	ro := canary10()
	ro.Strategy.Canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
	ro.Strategy.Canary.DynamicStableScale = true
	ro.Strategy.Canary.Steps = []argo.CanaryStep{{SetWeight: ptr[int32](20)}, {SetWeight: ptr[int32](60)}}
	ro.Status = argo.Status{StableRS: "v1", CurrentPodHash: "v2", Abort: true,
		Canary: argo.CanaryStatus{Weights: &argo.Weights{Canary: argo.WeightDestination{Weight: 60}, Stable: argo.WeightDestination{Weight: 40}}}}
	canary := &argo.ReplicaSet[Template]{Name: "web-v2", PodTemplateHash: "v2", Replicas: 6, AvailableReplicas: 6}
	for _, avail := range []int32{4, 8, 10} {
		stable := &argo.ReplicaSet[Template]{Name: "web-v1", PodTemplateHash: "v1", Replicas: 10, AvailableReplicas: avail}
		fmt.Printf("stable %d available: canary weight %d\n", avail, argo.WeightOnAbortOrRollback(ro, canary, stable))
	}
	// Output:
	// stable 4 available: canary weight 60
	// stable 8 available: canary weight 20
	// stable 10 available: canary weight 20
}
