package argo_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// blueGreen3 is a blue-green Rollout of 3 replicas with every field left
// to its default.
func blueGreen3() *argo.Rollout[Template] {
	return &argo.Rollout[Template]{Name: "web", Replicas: ptr[int32](3), Template: Template{Image: "web:2"},
		Strategy: argo.Strategy{BlueGreen: &argo.BlueGreen{ActiveService: "web-active"}}}
}

// An unset spec.replicas is 1, as Argo reads it.
func ExampleReplicasOrDefault() {
	fmt.Println(argo.ReplicasOrDefault(nil), argo.ReplicasOrDefault(ptr[int32](4)))
	// Output: 1 4
}

func ExampleRevisionHistoryLimitOrDefault() {
	ro := canary10()
	fmt.Println(argo.RevisionHistoryLimitOrDefault(ro))
	ro.RevisionHistoryLimit = ptr[int32](2)
	fmt.Println(argo.RevisionHistoryLimitOrDefault(ro))
	// Output:
	// 10
	// 2
}

// In seconds.
func ExampleProgressDeadlineSecondsOrDefault() {
	fmt.Println(argo.ProgressDeadlineSecondsOrDefault(canary10()))
	// Output: 600
}

// The default is the string "25", without '%': Argo's reader takes it
// as a percentage all the same.
func ExampleMaxSurgeOrDefault() {
	ro := canary10()
	fmt.Printf("%q\n", argo.MaxSurgeOrDefault(ro).String())
	ro.Strategy.Canary.MaxSurge = ptr(intorpercent.FromInt(1))
	fmt.Printf("%q\n", argo.MaxSurgeOrDefault(ro).String())
	// Output:
	// "25"
	// "1"
}

// Blue-green's maxUnavailable first, then the canary's, then "25".
func ExampleMaxUnavailableOrDefault() {
	fmt.Println(argo.MaxUnavailableOrDefault(blueGreen3()).String())
	bg := blueGreen3()
	bg.Strategy.BlueGreen.MaxUnavailable = ptr(intorpercent.FromString("50%"))
	fmt.Println(argo.MaxUnavailableOrDefault(bg).String())
	// Output:
	// 25
	// 50%
}

// Blue-green's maxUnavailable is read alone, rounded down: 25% of 3 is 0.
func ExampleMaxUnavailable() {
	bg := blueGreen3()
	fmt.Println(argo.MaxUnavailable(bg))
	bg.Strategy.BlueGreen.MaxUnavailable = ptr(intorpercent.FromInt(2))
	fmt.Println(argo.MaxUnavailable(bg))
	// Output:
	// 0
	// 2
}

// A basic canary never delays a scale-down; blue-green waits 30 s unless
// told otherwise.
func ExampleScaleDownDelayOrDefault() {
	bg := blueGreen3()
	fmt.Println(argo.ScaleDownDelayOrDefault(canary10()), argo.ScaleDownDelayOrDefault(bg))
	bg.Strategy.BlueGreen.ScaleDownDelaySeconds = ptr[int32](90)
	fmt.Println(argo.ScaleDownDelayOrDefault(bg) == 90*time.Second)
	// Output:
	// 0s 30s
	// true
}

func ExampleAutoPromotionEnabledOrDefault() {
	bg := blueGreen3()
	fmt.Println(argo.AutoPromotionEnabledOrDefault(bg))
	bg.Strategy.BlueGreen.AutoPromotionEnabled = ptr(false)
	fmt.Println(argo.AutoPromotionEnabledOrDefault(bg))
	// Output:
	// true
	// false
}

// Without a limit any number of old ReplicaSets may wait out their delay.
func ExampleScaleDownRevisionLimit() {
	bg := blueGreen3()
	fmt.Println(argo.ScaleDownRevisionLimit(bg))
	bg.Strategy.BlueGreen.ScaleDownDelayRevisionLimit = ptr[int32](1)
	fmt.Println(argo.ScaleDownRevisionLimit(bg))
	// Output:
	// 2147483647
	// 1
}

// The ReplicaSets that are neither new nor stable, in the order given.
func ExampleOtherReplicaSets() {
	rs := func(name string) *argo.ReplicaSet[Template] { return &argo.ReplicaSet[Template]{Name: name} }
	v1, v2, v3, v4 := rs("web-v1"), rs("web-v2"), rs("web-v3"), rs("web-v4")
	for _, r := range argo.OtherReplicaSets(nil, v4, v3, []*argo.ReplicaSet[Template]{v1, v4, v2, v3}) {
		fmt.Println(r.Name)
	}
	// Output:
	// web-v1
	// web-v2
}

// The first deploy of a one-replica canary, as Trace.String prints it.
func ExampleTrace_String() {
	ro := &argo.Rollout[Template]{Name: "web", Replicas: ptr[int32](1), Template: Template{Image: "web:1"},
		Strategy: argo.Strategy{Canary: &argo.Canary{}}}
	tr, err := argo.Simulate(ro, nil, argo.Config[Template]{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(tr.String())
	// Output:
	// sync 1 (+10s) weight 100/100 | 7cb87bd565 0/0 | created the new ReplicaSet web-7cb87bd565
	// sync 2 (+20s) weight 100/100 Progressing | 7cb87bd565(canary) 0/0 | template or steps changed: status reset
	// sync 3 (+30s) weight 100/100 Progressing | 7cb87bd565(stable) 1/1 | 2 writes; promoted: Initial deploy
	// sync 4 (+40s) weight 100/100 Healthy | 7cb87bd565(stable) 1/1 | 1 write
	// Complete after 5 syncs
}

// One step on one line.
func ExampleStep_String() {
	ro := &argo.Rollout[Template]{Name: "web", Replicas: ptr[int32](1), Template: Template{Image: "web:1"},
		Strategy: argo.Strategy{Canary: &argo.Canary{}}}
	tr, err := argo.Simulate(ro, nil, argo.Config[Template]{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Steps[0].String())
	// Output: sync 1 (+10s) weight 100/100 | 7cb87bd565 0/0 | created the new ReplicaSet web-7cb87bd565
}
