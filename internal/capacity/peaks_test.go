package capacity

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestPeaks(t *testing.T) {
	nginx := Resources{MilliCPU: 250, Memory: 64 << 20}
	heavy := Resources{MilliCPU: 1000, Memory: 64 << 20}
	tests := []struct {
		name   string
		perPod Resources
		steps  []Step
		want   Report
		reason string
	}{
		{
			name: "the nginx rollout: 13 pods for R = 10 at sync 3", perPod: nginx,
			steps: []Step{
				{Sync: 0, Replicas: 10, Groups: []Group{{10, nginx}}},
				{Sync: 1, Replicas: 10, Groups: []Group{{10, nginx}, {0, nginx}}},
				{Sync: 2, Replicas: 10, Groups: []Group{{8, nginx}, {3, nginx}}},
				{Sync: 3, Replicas: 10, Groups: []Group{{8, nginx}, {5, nginx}}},
				{Sync: 4, Replicas: 10, Groups: []Group{{5, nginx}, {5, nginx}}},
				{Sync: 5, Replicas: 10, Groups: []Group{{5, nginx}, {8, nginx}}},
			},
			want: Report{PodRequests: Amount{250, "250m", 64 << 20, "64Mi"}, PeakExtraPods: PodsPeak{3, 3},
				PeakExtraCPU: CPUPeak{750, "750m", 3}, PeakExtraMemory: MemoryPeak{192 << 20, "192Mi", 3}},
			reason: "the first step with 13 pods is sync 3; sync 5 ties and loses",
		},
		{
			name: "no requests: only pods", perPod: Resources{},
			steps: []Step{{Sync: 0, Replicas: 4, Groups: []Group{{4, Resources{}}}}, {Sync: 2, Replicas: 4, Groups: []Group{{4, Resources{}}, {1, Resources{}}}}},
			want:  Report{PodRequests: Amount{0, "0", 0, "0"}, PeakExtraPods: PodsPeak{1, 2}, PeakExtraCPU: CPUPeak{0, "0", 0}, PeakExtraMemory: MemoryPeak{0, "0", 0}},
		},
		{
			name: "lighter new pods: old pods count at their own requests", perPod: nginx,
			steps: []Step{
				{Sync: 0, Replicas: 2, Groups: []Group{{2, heavy}}},
				{Sync: 1, Replicas: 2, Groups: []Group{{2, heavy}, {1, nginx}}},
				{Sync: 2, Replicas: 2, Groups: []Group{{1, heavy}, {2, nginx}}},
			},
			want: Report{PodRequests: Amount{250, "250m", 64 << 20, "64Mi"}, PeakExtraPods: PodsPeak{1, 1},
				PeakExtraCPU: CPUPeak{1750, "1750m", 1}, PeakExtraMemory: MemoryPeak{64 << 20, "64Mi", 1}},
			reason: "sync 1 runs 2*1000m + 250m = 2250m against a steady state of 2*250m = 500m",
		},
		{
			name: "a resize changes the steady state", perPod: nginx,
			steps: []Step{
				{Sync: 0, Replicas: 4, Groups: []Group{{4, nginx}}},
				{Sync: 3, Replicas: 8, Groups: []Group{{7, nginx}, {2, nginx}}},
				{Sync: 4, Replicas: 2, Groups: []Group{{6, nginx}}},
			},
			want: Report{PodRequests: Amount{250, "250m", 64 << 20, "64Mi"}, PeakExtraPods: PodsPeak{4, 4},
				PeakExtraCPU: CPUPeak{1000, "1", 4}, PeakExtraMemory: MemoryPeak{256 << 20, "256Mi", 4}},
			reason: "after scaling down to 2, the 6 pods still running are 4 beyond R",
		},
		{name: "no steps", perPod: nginx, want: Report{PodRequests: Amount{250, "250m", 64 << 20, "64Mi"},
			PeakExtraCPU: CPUPeak{CPU: "0"}, PeakExtraMemory: MemoryPeak{MemoryText: "0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Peaks(tt.perPod, tt.steps)
			if err != nil {
				t.Fatalf("Peaks = %v, want nil", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Peaks mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestPeaksErrors(t *testing.T) {
	tests := []struct {
		name   string
		perPod Resources
		steps  []Step
		want   string
	}{
		{name: "negative pod requests", perPod: cpu(-1), want: "capacity: negative pod requests {MilliCPU:-1 Memory:0}"},
		{name: "negative replicas", steps: []Step{{Sync: 2, Replicas: -1}}, want: "capacity: sync 2: negative replicas -1"},
		{name: "negative pods", steps: []Step{{Sync: 1, Replicas: 1, Groups: []Group{{Pods: -1}}}},
			want: "capacity: sync 1: negative pods or requests {Pods:-1 Requests:{MilliCPU:0 Memory:0}}"},
		{name: "steady state beyond int64", perPod: Resources{Memory: 1 << 40}, steps: []Step{{Sync: 0, Replicas: 1 << 30}}},
		{name: "running pods beyond int64", perPod: Resources{},
			steps: []Step{{Sync: 4, Replicas: 1, Groups: []Group{{Pods: 1 << 31, Requests: Resources{Memory: 1 << 32}}}}},
			want:  "capacity: sync 4: total memory: beyond the int64 range"},
	}
	tests[3].want = "capacity: sync 0: total memory: beyond the int64 range"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Peaks(tt.perPod, tt.steps)
			if err == nil || err.Error() != tt.want || got != (Report{}) {
				t.Errorf("Peaks = %+v, %v; want zero, %s", got, err, tt.want)
			}
		})
	}
	_, err := Peaks(Resources{Memory: 1 << 40}, []Step{{Replicas: 1 << 30}})
	if !errors.Is(err, ErrOverflow) {
		t.Errorf("Peaks(overflowing) = %v, want an error wrapping ErrOverflow", err)
	}
}

func drawSteps(t *rapid.T, per func(*rapid.T, string) Resources) []Step {
	var steps []Step
	for i := range rapid.IntRange(0, 6).Draw(t, "steps") {
		s := Step{Sync: i, Replicas: rapid.Int32Range(0, 1000).Draw(t, "replicas")}
		for range rapid.IntRange(0, 3).Draw(t, "groups") {
			s.Groups = append(s.Groups, Group{Pods: rapid.Int64Range(0, 2000).Draw(t, "pods"), Requests: per(t, "requests")})
		}
		steps = append(steps, s)
	}
	return steps
}

// TestPeaksOfUniformRequestsAreExtraPodsTimesRequests checks that when
// every pod requests the same, the CPU and memory peaks are the pod peak
// times the pod's requests, at the same sync.
func TestPeaksOfUniformRequestsAreExtraPodsTimesRequests(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		perPod := Resources{MilliCPU: rapid.Int64Range(1, 1<<20).Draw(t, "milliCPU"), Memory: rapid.Int64Range(1, 1<<30).Draw(t, "memory")}
		steps := drawSteps(t, func(*rapid.T, string) Resources { return perPod })
		got, err := Peaks(perPod, steps)
		if err != nil {
			t.Fatalf("Peaks = %v", err)
		}
		p := got.PeakExtraPods
		if got.PeakExtraCPU.MilliCPU != p.Pods*perPod.MilliCPU || got.PeakExtraCPU.Sync != p.Sync ||
			got.PeakExtraMemory.Memory != p.Pods*perPod.Memory || got.PeakExtraMemory.Sync != p.Sync {
			t.Fatalf("Peaks = %+v: CPU and memory peaks are not %d extra pods times %+v", got, p.Pods, perPod)
		}
	})
}

// TestPeaksNeverBelowAnyStepsExtra checks that each peak is at least
// every step's extra, is never negative, and is some step's extra (or 0).
func TestPeaksNeverBelowAnyStepsExtra(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		perPod := drawResources(t, "perPod")
		steps := drawSteps(t, drawResources)
		before := slices.Clone(steps)
		for i := range before {
			before[i].Groups = slices.Clone(steps[i].Groups)
		}
		got, err := Peaks(perPod, steps)
		if err != nil {
			t.Fatalf("Peaks = %v", err)
		}
		found := got.PeakExtraMemory.Memory == 0
		for _, s := range steps {
			var mem int64
			for _, g := range s.Groups {
				mem += g.Pods * g.Requests.Memory
			}
			extra := mem - int64(s.Replicas)*perPod.Memory
			if extra > got.PeakExtraMemory.Memory {
				t.Fatalf("sync %d needs %d extra bytes, above the peak %+v", s.Sync, extra, got.PeakExtraMemory)
			}
			if extra == got.PeakExtraMemory.Memory && s.Sync == got.PeakExtraMemory.Sync {
				found = true
			}
		}
		if !found || got.PeakExtraMemory.Memory < 0 || got.PeakExtraPods.Pods < 0 || got.PeakExtraCPU.MilliCPU < 0 {
			t.Fatalf("Peaks = %+v: negative, or the memory peak is no step's extra", got)
		}
		if diff := cmp.Diff(before, steps); diff != "" {
			t.Fatalf("Peaks modified its steps:\n%s", diff)
		}
	})
}
