package rollout

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkSimulateMillionReplicas is issue 13's Simulate target: an
// image change on 1,000,000 replicas with maxSurge 1% and maxUnavailable
// 0, pods ready one interval after creation, run to completion (302
// syncs, each of the 100 surges creating a new group of pods).
func BenchmarkSimulateMillionReplicas(b *testing.B) {
	benchmarkMillionReplicas(b, Simulate[tmpl])
}

// BenchmarkSimulateMillionReplicasReference is the same case on
// refSimulate, the quadratic cluster Simulate replaced, so that one run
// under one machine load shows both.
func BenchmarkSimulateMillionReplicasReference(b *testing.B) {
	benchmarkMillionReplicas(b, refSimulate[tmpl])
}

func benchmarkMillionReplicas(b *testing.B, simulate func(*Deployment[tmpl], []ReplicaSet[tmpl], Config[tmpl]) (Trace[tmpl], error)) {
	d, rss := settled(1_000_000, "v1")
	d.MaxSurge, d.MaxUnavailable = pct(1), num(0)
	cfg := Config[tmpl]{ReadyDelay: 10 * time.Second, Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("v2")}}}
	b.ReportAllocs()
	syncs := 0
	for b.Loop() {
		tr, err := simulate(&d, rss, cfg)
		if err != nil || tr.Outcome != OutcomeComplete {
			b.Fatalf("Simulate = %v, %v", tr.Outcome, err)
		}
		syncs = tr.Syncs
	}
	b.ReportMetric(float64(syncs), "syncs")
}

// BenchmarkSimulatePerSync shows what one sync costs after a given number
// of syncs: a rollout of 1,000,000 replicas one pod at a time (maxSurge 1,
// maxUnavailable 0) is cut off after Syncs syncs, and the cost is reported
// per sync. Linear total cost shows as ns/sync and B/sync that do not grow
// with Syncs.
func BenchmarkSimulatePerSync(b *testing.B) {
	for _, steps := range []int{100, 1000, 4000} {
		b.Run(fmt.Sprintf("Syncs=%d", steps), func(b *testing.B) {
			d, rss := settled(1_000_000, "v1")
			d.MaxSurge, d.MaxUnavailable = num(1), num(0)
			cfg := Config[tmpl]{Interval: 10 * time.Second, MaxSyncs: steps,
				Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("v2")}}}
			b.ReportAllocs()
			for b.Loop() {
				tr, err := Simulate(&d, rss, cfg)
				if err != nil || tr.Outcome != OutcomeSyncLimit || tr.Syncs != steps {
					b.Fatalf("Simulate = %v after %d syncs, %v", tr.Outcome, tr.Syncs, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps), "ns/sync")
		})
	}
}
