package argo

import (
	"testing"
	"time"
)

// Benchmarks of the hot paths; run with
//
//	go test -run '^$' -bench . -benchmem ./rollout/argo

func BenchmarkSplitForWeight(b *testing.B) {
	b.ReportAllocs()
	var sink int32
	for b.Loop() {
		c, s := SplitForWeight(10, 20, 100, 3)
		sink += c + s
	}
	_ = sink
}

func BenchmarkBasicCanaryCounts(b *testing.B) {
	ro := basic(10, 20, ios("25%"), nil)
	newRS, stable := rs("web-new", "new", 1, 1), rs("web-stable", "stable", 10, 10)
	b.ReportAllocs()
	var sink int32
	for b.Loop() {
		n, s := BasicCanaryCounts(ro, newRS, stable, nil)
		sink += n + s
	}
	_ = sink
}

func BenchmarkTrafficRoutedCanaryCounts(b *testing.B) {
	ro := routed(10, setWeight(20))
	ro.Strategy.Canary.DynamicStableScale = true
	w := &Weights{Canary: WeightDestination{Weight: 10}, Stable: WeightDestination{Weight: 90}}
	newRS, stable := rs("web-new", "new", 1, 1), rs("web-stable", "stable", 10, 10)
	b.ReportAllocs()
	var sink int32
	for b.Loop() {
		n, s := TrafficRoutedCanaryCounts(ro, newRS, stable, w)
		sink += n + s
	}
	_ = sink
}

// BenchmarkPlannerSteady is a sync that writes nothing (a canary held
// at a pause), on a reused Planner.
func BenchmarkPlannerSteady(b *testing.B) {
	ro, rss := steadyCanary(b)
	now := t0.Add(time.Hour)
	var p Planner[tmpl]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Plan(ro, rss, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanStep is Plan (explained) of a sync that scales the
// stable ReplicaSet and writes the status.
func BenchmarkPlanStep(b *testing.B) {
	ro := synced(basic(10, 20, ioi(1), ioi(1)))
	rss := steady(10, rs("web-stable", "stable", 10, 10), rs("web-new", "new", 0, 0))
	rss[1].Revision = 9
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Plan(ro, rss, t0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulateCanary is a whole canary of 10 replicas through
// setWeight 20, pause 30s, setWeight 50, pause 30s.
func BenchmarkSimulateCanary(b *testing.B) {
	ro := &Rollout[tmpl]{Name: "web", Generation: 1, Replicas: i32(10), Template: tmpl{Image: "v1"},
		Strategy: Strategy{Canary: &Canary{Steps: []CanaryStep{setWeight(20), pauseFor("30s"), setWeight(50), pauseFor("30s")}}}}
	cfg := Config[tmpl]{Start: t0, ReadyDelay: 5 * time.Second, Events: []Event[tmpl]{{Sync: 6, Kind: SetTemplate, Template: tmpl{Image: "v2"}}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Simulate(ro, nil, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
