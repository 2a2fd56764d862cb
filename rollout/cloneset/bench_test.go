package cloneset

import (
	"strconv"
	"testing"
)

func TestPredicatesDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	p := ready("p", newRev, 0)
	p.DeletionCost = "-5"
	if n := testing.AllocsPerRun(100, func() {
		_ = IsPodAvailable(&p, 10, t0)
		_ = IsPodUpdateReady(&p, 0, t0)
		_ = IsPodAtRevision(&p, "cs-"+newRev[:3])
		_, _ = ParseDeletionCost(p.DeletionCost)
		_ = IsSpecifiedDelete(&p, []string{"a", "b"})
	}); n != 0 {
		t.Errorf("the pod predicates allocate %v times per call, want 0", n)
	}
}

// benchCloneSet is a CloneSet mid-rollout: partition 60%, maxSurge 1.
func benchCloneSet(n int) *CloneSet[struct{}] {
	return kcs(int32(n), str("60%"), str("20%"), num(1))
}

func BenchmarkCalculateDiffs(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		pods := benchPods(n)
		for i := range pods[:n/3] {
			pods[i].Revision = "web-2"
		}
		cs := benchCloneSet(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CalculateDiffs(cs, pods, Revisions{Current: "web-1", Update: "web-2"}, t0, ForScale, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScale(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		pods := benchPods(n)
		cs := benchCloneSet(n / 2) // scale in by half: the deletion order decides
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Scale(cs, pods, Revisions{Current: "web-1", Update: "web-1"}, t0, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
