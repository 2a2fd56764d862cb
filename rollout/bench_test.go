package rollout

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
)

// midRollout returns a deployment of r replicas and n ReplicaSets: n-1 old
// ones (the last of which still has pods) and the new one, mid-rollout.
func midRollout(r int32, n int) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
	d := dep(r, nil, nil)
	d.Annotations = map[string]string{revision.RevisionAnnotation: itoa(int64(n))}
	rss := make([]ReplicaSet[tmpl], 0, n)
	for i := 0; i < n-1; i++ {
		var spec int32
		if i == n-2 {
			spec = r / 2
		}
		x := rs(fmt.Sprintf("web-old%d", i), 1000-i, spec, spec)
		x.Annotations = map[string]string{revision.RevisionAnnotation: itoa(int64(i + 1)), revision.DesiredReplicasAnnotation: itoa(int64(r)), revision.MaxReplicasAnnotation: itoa(int64(maxTotal(d)))}
		rss = append(rss, x)
	}
	nw := rs("web-new", 1, r/2, r/4)
	nw.Template = d.Template
	nw.Annotations = map[string]string{revision.RevisionAnnotation: itoa(int64(n)), revision.DesiredReplicasAnnotation: itoa(int64(r)), revision.MaxReplicasAnnotation: itoa(int64(maxTotal(d)))}
	rss = append(rss, nw)
	d.Status = CalculateStatus(d, rss, n-1, t0)
	return d, rss
}

func TestStepMathDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	d, rss := midRollout(100, 10)
	n := len(rss) - 1
	sizes := sizesOf(rss)
	s := d.Status
	for name, f := range map[string]func(){
		"Fenceposts":     func() { Fenceposts(intorpercent.Percent(25), intorpercent.Percent(25), 10) },
		"MaxSurge":       func() { MaxSurge(d) },
		"MaxUnavailable": func() { MaxUnavailable(d) },
		"MinAvailable":   func() { MinAvailable(d) },
		"NewReplicas":    func() { NewReplicas(d, rss, n) },
		"ReconcileNew":   func() { ReconcileNew(d, rss, n) },
		"MaxScaledDown":  func() { MaxScaledDown(d, rss, n) },
		"CleanupUnhealthy": func() {
			for i := range rss {
				sizes[i] = rss[i].Replicas
			}
			CleanupUnhealthy(rss, n, 5, sizes)
		},
		"ScaleDownOld":  func() { ScaleDownOld(d, rss, n, sizes) },
		"ReconcileOld":  func() { ReconcileOld(d, rss, n, sizes) },
		"IsSaturated":   func() { IsSaturated(d, &rss[n]) },
		"Complete":      func() { Complete(d, &s) },
		"Progressing":   func() { Progressing(d, &s) },
		"TimedOut":      func() { TimedOut(d, &s, t0) },
		"Requeue":       func() { Requeue(d, &s, t0) },
		"FindCondition": func() { FindCondition(s.Conditions, DeploymentAvailable) },
	} {
		if got := testing.AllocsPerRun(100, f); got != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, got)
		}
	}
}

func BenchmarkStepMath(b *testing.B) {
	d, rss := midRollout(100, 10)
	n := len(rss) - 1
	sizes := make([]int32, len(rss))
	b.ReportAllocs()
	for b.Loop() {
		MaxSurge(d)
		MaxUnavailable(d)
		if _, err := NewReplicas(d, rss, n); err != nil {
			b.Fatal(err)
		}
		for i := range rss {
			sizes[i] = rss[i].Replicas
		}
		if _, err := ReconcileOld(d, rss, n, sizes); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlan(b *testing.B) {
	for _, n := range []int{2, 10, 100} {
		b.Run(fmt.Sprintf("ReplicaSets=%d", n), func(b *testing.B) {
			d, rss := midRollout(100, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plan(d, rss, t0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSimulate(b *testing.B) {
	for _, r := range []int32{10, 1000, 100000} {
		b.Run(fmt.Sprintf("Replicas=%d", r), func(b *testing.B) {
			d, rss := settled(r, "v1")
			cfg := Config[tmpl]{Interval: 10 * time.Second, ReadyDelay: 10 * time.Second,
				Events: []Event[tmpl]{{Step: 1, Kind: SetTemplate, Template: image("v2")}}}
			b.ReportAllocs()
			for b.Loop() {
				tr, err := Simulate(&d, rss, cfg)
				if err != nil || tr.Outcome != OutcomeComplete {
					b.Fatalf("Simulate = %v, %v", tr.Outcome, err)
				}
			}
		})
	}
}
