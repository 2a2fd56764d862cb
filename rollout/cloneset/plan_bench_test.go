package cloneset

import (
	"strconv"
	"testing"
	"time"
)

// planBenchState is a CloneSet of n replicas mid-rollout to nginx:1.26
// under partition 60% with maxSurge 1, ReCreate: a third of its pods
// updated, the rest ready on nginx:1.25, spread over 10 nodes.
func planBenchState(b testing.TB, n int) (*CloneSet[podTemplate], []Pod, []ControllerRevision) {
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

// planUpdateState is a CloneSet of n replicas at rest on nginx:1.25
// whose template just changed to nginx:1.26: a rolling update, ReCreate,
// maxUnavailable 20%, no partition, so that the update step chooses a
// fifth of the pods (sorting the ones it acts on).
func planUpdateState(b testing.TB, n int) (*CloneSet[podTemplate], []Pod, []ControllerRevision) {
	cs, pods, revs := planBenchState(b, n)
	cs.UpdateStrategy.Partition = nil
	cs.UpdateStrategy.MaxSurge = nil
	cs.UpdateStrategy.MaxUnavailable = str("20%")
	for i := range pods {
		pods[i].Revision = revs[0].Name
		pods[i].ReadySince = t0.Add(-time.Hour)
	}
	return cs, pods, revs
}

// planBenchSizes are the pod counts of BenchmarkPlan: a realistic small
// one, then doublings from 1,000 to 128,000 to show the cost linear, and
// 100,000.
var planBenchSizes = []int{10, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 100000, 128000}

// BenchmarkPlan: one reconcile, in two states. scaleout: the state of
// planBenchState, whose sync creates the surge pod. update: the state of
// planUpdateState, whose sync marks a fifth of the pods for recreation.
// planner-update: the update state planned by one Planner, again and
// again, as a controller's loop does (its memory reused, no pods copied
// into new memory). read: no planning, one read of every pod's name and
// of whether it is active, the least any plan of the pods costs: the
// machine's own cost of reading the pods, for comparison.
//
// The work is linear in the pods but for the sorts of the update
// candidates and of the pods the steps act on (O(n log n)). The time is
// not quite: past about 32,000 pods (232 bytes each, 7 MB) the pods no
// longer stay in the processor's caches between passes, and read's
// cost per pod grows too. Besides ns/op, cpu-ns/op is the process's CPU
// time per op, the garbage collector's included: so Plan's is not
// linear where the collector's work per op changes, from below Go's 4 MB
// minimum heap goal (where a cycle comes only every few ops) to above it
// (about 16,000 to 32,000 pods in the update state, whose sync copies
// the pods into new memory). scripts/benchratio.sh prints each size's
// least cpu-ns/op over runs and its ratio to half the size.
func BenchmarkPlan(b *testing.B) {
	for _, st := range []struct {
		name  string
		state func(testing.TB, int) (*CloneSet[podTemplate], []Pod, []ControllerRevision)
		plan  func() func(*CloneSet[podTemplate], []Pod, []ControllerRevision) error
	}{
		{"scaleout", planBenchState, planOnce},
		{"update", planUpdateState, planOnce},
		{"planner-update", planUpdateState, planLoop},
		{"read", planUpdateState, readPods},
	} {
		for _, n := range planBenchSizes {
			cs, pods, revs := st.state(b, n)
			b.Run(st.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				plan := st.plan()
				b.ReportAllocs()
				cpu0, ok := processCPU()
				for b.Loop() {
					if err := plan(cs, pods, revs); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu0, ok)
			})
		}
	}
}

// planOnce plans with Plan.
func planOnce() func(*CloneSet[podTemplate], []Pod, []ControllerRevision) error {
	return func(cs *CloneSet[podTemplate], pods []Pod, revs []ControllerRevision) error {
		_, err := Plan(cs, pods, revs, t0)
		return err
	}
}

// planLoop plans with one Planner.
func planLoop() func(*CloneSet[podTemplate], []Pod, []ControllerRevision) error {
	var p Planner[podTemplate]
	return func(cs *CloneSet[podTemplate], pods []Pod, revs []ControllerRevision) error {
		_, err := p.Plan(cs, pods, revs, t0)
		return err
	}
}

// readSink keeps readPods' reads from being optimised away.
var readSink int

// readPods reads every pod's name and whether it is active.
func readPods() func(*CloneSet[podTemplate], []Pod, []ControllerRevision) error {
	return func(_ *CloneSet[podTemplate], pods []Pod, _ []ControllerRevision) error {
		n := 0
		for i := range pods {
			if IsPodActive(&pods[i]) {
				n += len(pods[i].Name)
			}
		}
		readSink = n
		return nil
	}
}

// reportCPU reports the process's CPU time per op since cpu0 as
// "cpu-ns/op": on a shared machine it varies less than the wall time
// ns/op, since time spent waiting for a CPU does not count. It includes
// the garbage collector's work on other threads.
func reportCPU(b *testing.B, cpu0 time.Duration, ok bool) {
	if cpu1, ok1 := processCPU(); ok && ok1 && b.N > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
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
