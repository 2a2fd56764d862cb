package daemonset

import (
	"strings"
	"testing"
)

// rollingFixture is n nodes in the middle of a rollout: a fifth updated,
// the rest old, all ready.
func rollingFixture(b *testing.B, n int) *fixture {
	var line strings.Builder
	for k := range n {
		if k%5 == 0 {
			line.WriteString("n:r ")
		} else {
			line.WriteString("o:r ")
		}
	}
	return newFixture(b, str("10%"), nil).layout(b, strings.TrimSpace(line.String()))
}

func benchmarkPlan(b *testing.B, n int) {
	f := rollingFixture(b, n)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlan10(b *testing.B)    { benchmarkPlan(b, 10) }
func BenchmarkPlan1000(b *testing.B)  { benchmarkPlan(b, 1000) }
func BenchmarkPlan10000(b *testing.B) { benchmarkPlan(b, 10000) }

func benchmarkPlanner(b *testing.B, n int) {
	f := converged(b, n)
	var p Planner[spec]
	// Two warm-up syncs fill both of the Planner's buffers.
	for range 2 {
		if _, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlannerSteady10(b *testing.B)    { benchmarkPlanner(b, 10) }
func BenchmarkPlannerSteady1000(b *testing.B)  { benchmarkPlanner(b, 1000) }
func BenchmarkPlannerSteady10000(b *testing.B) { benchmarkPlanner(b, 10000) }

func benchmarkPlannerRolling(b *testing.B, n int) {
	f := rollingFixture(b, n)
	var p Planner[spec]
	for range 2 {
		if _, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Plan(f.ds, f.nodes, f.pods, f.revisions, t0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlannerRolling1000(b *testing.B) { benchmarkPlannerRolling(b, 1000) }
