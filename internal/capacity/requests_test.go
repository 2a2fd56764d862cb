package capacity

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func cpu(m int64) Resources { return Resources{MilliCPU: m} }

func int64p(v int64) *int64 { return &v }

func TestPodRequests(t *testing.T) {
	tests := []struct {
		name   string
		pod    Pod
		want   Resources
		reason string
	}{
		{name: "no containers", pod: Pod{}, want: Resources{}},
		{name: "app containers add up", pod: Pod{Containers: []Resources{{250, 64 << 20}, {100, 32 << 20}}},
			want: Resources{350, 96 << 20}},
		{name: "a large init container wins", pod: Pod{Containers: []Resources{cpu(1000)}, InitContainers: []InitContainer{{Requests: cpu(3000)}}},
			want: cpu(3000), reason: "init containers run one at a time before the app containers: max(1, 3)"},
		{name: "init and app resources maximised separately",
			pod:    Pod{Containers: []Resources{{1000, 1 << 30}}, InitContainers: []InitContainer{{Requests: Resources{3000, 1 << 20}}}},
			want:   Resources{3000, 1 << 30},
			reason: "the maximum is taken per resource"},
		{name: "restartable init container (upstream case)",
			pod:  Pod{Containers: []Resources{cpu(1000)}, InitContainers: []InitContainer{{Requests: cpu(1000), Sidecar: true}}},
			want: cpu(2000), reason: "a sidecar runs next to the app containers: 1 + 1"},
		{name: "multiple restartable init containers (upstream case)",
			pod: Pod{Containers: []Resources{cpu(1000)}, InitContainers: []InitContainer{
				{Requests: cpu(5000)}, {Requests: cpu(1000), Sidecar: true}, {Requests: cpu(2000), Sidecar: true}, {Requests: cpu(3000), Sidecar: true}}},
			want: cpu(7000), reason: "max(5, 3+2+1 + 1)"},
		{name: "multiple restartable and regular init containers (upstream case)",
			pod: Pod{Containers: []Resources{cpu(1000)}, InitContainers: []InitContainer{
				{Requests: cpu(5000)}, {Requests: cpu(1000), Sidecar: true}, {Requests: cpu(2000), Sidecar: true},
				{Requests: cpu(5000)}, {Requests: cpu(3000), Sidecar: true}}},
			want: cpu(8000), reason: "init-2 needs 5 plus the sidecars started before it (1+2); the app phase needs 1+2+3+1 = 7"},
		{name: "restartable-init, init and regular (upstream case)",
			pod:  Pod{Containers: []Resources{cpu(100000)}, InitContainers: []InitContainer{{Requests: cpu(10000), Sidecar: true}, {Requests: cpu(200000)}}},
			want: cpu(210000), reason: "the init container runs next to the sidecar before it: 200 + 10"},
		{name: "overhead is added", pod: Pod{Containers: []Resources{{250, 64 << 20}}, Overhead: Resources{100, 32 << 20}},
			want: Resources{350, 96 << 20}},
		{name: "overhead is added after the init maximum",
			pod:  Pod{Containers: []Resources{cpu(1000)}, InitContainers: []InitContainer{{Requests: cpu(3000)}}, Overhead: cpu(500)},
			want: cpu(3500)},
		{name: "pod-level request replaces the container total for its resource",
			pod:  Pod{Containers: []Resources{{250, 64 << 20}, {250, 64 << 20}}, PodMilliCPU: int64p(2000), Overhead: cpu(100)},
			want: Resources{2100, 128 << 20}, reason: "pod-level cpu 2 replaces 500m; memory stays the containers' sum; overhead still adds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.pod.Requests()
			if err != nil {
				t.Fatalf("Requests(%+v) = %v, want nil", tt.pod, err)
			}
			if got != tt.want {
				t.Errorf("Requests(%+v) = %+v, want %+v (%s)", tt.pod, got, tt.want, tt.reason)
			}
		})
	}
}

func TestPodRequestsErrors(t *testing.T) {
	tests := []struct {
		name string
		pod  Pod
		want string
	}{
		{name: "negative container", pod: Pod{Containers: []Resources{cpu(-1)}}, want: "capacity: cpu request -1 is negative"},
		{name: "negative init memory", pod: Pod{InitContainers: []InitContainer{{Requests: Resources{Memory: -5}}}}, want: "capacity: memory request -5 is negative"},
		{name: "negative pod level", pod: Pod{PodMemory: int64p(-1)}, want: "capacity: pod-level memory request -1 is negative"},
		{name: "sum beyond int64", pod: Pod{Containers: []Resources{{Memory: maxInt64}, {Memory: 1}}}, want: "capacity: total memory request: beyond the int64 range"},
		{name: "overhead beyond int64", pod: Pod{Containers: []Resources{cpu(maxInt64)}, Overhead: cpu(1)}, want: "capacity: total cpu request: beyond the int64 range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.pod.Requests()
			if err == nil || err.Error() != tt.want || got != (Resources{}) {
				t.Errorf("Requests(%+v) = %+v, %v; want zero, %s", tt.pod, got, err, tt.want)
			}
		})
	}
	if _, err := (&Pod{Containers: []Resources{cpu(maxInt64), cpu(1)}}).Requests(); !errors.Is(err, ErrOverflow) {
		t.Errorf("Requests(overflowing) = %v, want an error wrapping ErrOverflow", err)
	}
}

func TestRequestDefaultsToLimit(t *testing.T) {
	tests := []struct {
		name           string
		request, limit *int64
		want           int64
	}{
		{name: "neither", want: 0},
		{name: "request only", request: int64p(250), want: 250},
		{name: "limit only: defaulting copies it", limit: int64p(500), want: 500},
		{name: "both: the request", request: int64p(250), limit: int64p(500), want: 250},
		{name: "explicit zero request is kept", request: int64p(0), limit: int64p(500), want: 0},
	}
	for _, tt := range tests {
		if got := Request(tt.request, tt.limit); got != tt.want {
			t.Errorf("%s: Request = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestPodLevelRequestDefaults(t *testing.T) {
	tests := []struct {
		name           string
		request, limit *int64
		containers     bool
		want           *int64
		reason         string
	}{
		{name: "nothing set", want: nil},
		{name: "request set", request: int64p(500), limit: int64p(1000), containers: true, want: int64p(500)},
		{name: "limit only, containers silent", limit: int64p(1000), want: int64p(1000), reason: "the request defaults to the pod-level limit"},
		{name: "limit only, containers request", limit: int64p(1000), containers: true, want: nil,
			reason: "the request defaults to the containers' total, which Requests computes anyway"},
	}
	for _, tt := range tests {
		got := PodLevelRequest(tt.request, tt.limit, tt.containers)
		if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("%s: PodLevelRequest = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

// requestsRef totals a pod's requests by simulating its start-up phase by
// phase: each init container runs with the sidecars started so far, then
// the app containers run with every sidecar. The answer is the most any
// phase holds, plus overhead.
func requestsRef(p *Pod) Resources {
	var peak, sidecars Resources
	phase := func(x Resources) {
		peak.MilliCPU, peak.Memory = max(peak.MilliCPU, x.MilliCPU), max(peak.Memory, x.Memory)
	}
	for _, c := range p.InitContainers {
		running := Resources{sidecars.MilliCPU + c.Requests.MilliCPU, sidecars.Memory + c.Requests.Memory}
		phase(running)
		if c.Sidecar {
			sidecars = running
		}
	}
	app := sidecars
	for _, c := range p.Containers {
		app.MilliCPU += c.MilliCPU
		app.Memory += c.Memory
	}
	phase(app)
	if p.PodMilliCPU != nil {
		peak.MilliCPU = *p.PodMilliCPU
	}
	if p.PodMemory != nil {
		peak.Memory = *p.PodMemory
	}
	return Resources{peak.MilliCPU + p.Overhead.MilliCPU, peak.Memory + p.Overhead.Memory}
}

func drawResources(t *rapid.T, label string) Resources {
	return Resources{MilliCPU: rapid.Int64Range(0, 1<<40).Draw(t, label+".cpu"), Memory: rapid.Int64Range(0, 1<<40).Draw(t, label+".memory")}
}

func drawPod(t *rapid.T) Pod {
	var p Pod
	for i := range rapid.IntRange(0, 4).Draw(t, "containers") {
		p.Containers = append(p.Containers, drawResources(t, "container"+string(rune('0'+i))))
	}
	for i := range rapid.IntRange(0, 4).Draw(t, "initContainers") {
		p.InitContainers = append(p.InitContainers, InitContainer{Requests: drawResources(t, "init"+string(rune('0'+i))),
			Sidecar: rapid.Bool().Draw(t, "sidecar")})
	}
	if rapid.Bool().Draw(t, "podLevelCPU") {
		p.PodMilliCPU = int64p(rapid.Int64Range(0, 1<<40).Draw(t, "podMilliCPU"))
	}
	if rapid.Bool().Draw(t, "podLevelMemory") {
		p.PodMemory = int64p(rapid.Int64Range(0, 1<<40).Draw(t, "podMemory"))
	}
	p.Overhead = drawResources(t, "overhead")
	return p
}

// TestPodRequestsMatchPhaseByPhaseReference checks Requests against a
// reference that walks the pod's start-up phases.
func TestPodRequestsMatchPhaseByPhaseReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := drawPod(t)
		before := clonePod(p)
		got, err := p.Requests()
		if err != nil {
			t.Fatalf("Requests(%+v) = %v", p, err)
		}
		if want := requestsRef(&p); got != want {
			t.Fatalf("Requests(%+v) = %+v, reference %+v", p, got, want)
		}
		if diff := cmp.Diff(before, p); diff != "" {
			t.Fatalf("Requests modified its pod (-before +after):\n%s", diff)
		}
	})
}

// TestPodRequestsIndependentOfAppContainerOrder checks that app containers
// count in any order (init containers do not: their order is the
// start-up order).
func TestPodRequestsIndependentOfAppContainerOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := drawPod(t)
		q := clonePod(p)
		slices.Reverse(q.Containers)
		a, errA := p.Requests()
		b, errB := q.Requests()
		if a != b || errA != nil || errB != nil {
			t.Fatalf("Requests differ with the app containers reversed: %+v, %v vs %+v, %v", a, errA, b, errB)
		}
	})
}

func clonePod(p Pod) Pod {
	p.Containers = slices.Clone(p.Containers)
	p.InitContainers = slices.Clone(p.InitContainers)
	return p
}
