package cloneset

import (
	"strconv"
	"testing"
	"time"
)

// planBenchState is a CloneSet of n replicas mid-rollout to nginx:1.26
// under partition 60% with maxSurge 1, ReCreate: a third of its pods
// updated, the rest ready on nginx:1.25, spread over 10 nodes.
func planBenchState(b *testing.B, n int) (*CloneSet[podTemplate], []Pod, []ControllerRevision) {
	r1 := revisionOf(b, templateOf("nginx:1.25"), 1)
	r2 := revisionOf(b, templateOf("nginx:1.26"), 2)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: int32(n), Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.Partition = str("60%")
	cs.UpdateStrategy.MaxSurge = num(1)
	cs.Status.CurrentRevision = r1.Name
	pods := make([]Pod, n)
	for i := range pods {
		rev := r1.Name
		if i%3 == 0 {
			rev = r2.Name
		}
		pods[i] = Pod{Name: "demo-" + strconv.Itoa(i), Revision: rev, Phase: PodRunning, Ready: true, Lifecycle: Normal,
			ReadySince: t0.Add(-time.Duration(i%97) * time.Second), CreationTime: t0.Add(-time.Duration(i) * time.Second),
			NodeName: "node-" + strconv.Itoa(i%10)}
	}
	return cs, pods, []ControllerRevision{r1, r2}
}

// BenchmarkPlan: one reconcile. The cost grows as O(n log n) in the
// pods: the steps count them in O(n) and sort the update candidates.
func BenchmarkPlan(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		cs, pods, revs := planBenchState(b, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plan(cs, pods, revs, t0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSimulate: a whole rollout of 1,000 replicas from nginx:1.25 to
// nginx:1.26, maxSurge 10%, maxUnavailable 10%, pods ready 10 s after
// creation.
func BenchmarkSimulate(b *testing.B) {
	cs, pods, revs := planBenchState(b, 1000)
	for i := range pods {
		pods[i].Revision = revs[0].Name
	}
	cs.UpdateStrategy.Partition = nil
	cs.UpdateStrategy.MaxSurge = str("10%")
	cs.UpdateStrategy.MaxUnavailable = str("10%")
	cfg := Config[podTemplate]{ReadyDelay: 10 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Simulate(cs, pods, revs, cfg)
		if err != nil || tr.Outcome != OutcomeComplete {
			b.Fatal(tr.Outcome, err)
		}
	}
}
