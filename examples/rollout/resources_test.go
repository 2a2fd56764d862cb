package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/capacity"
)

func int64p(v int64) *int64 { return &v }

// TestPodSpecRequests checks how a template's resources become a
// capacity.Pod: requests default to limits, restartPolicy Always marks a
// sidecar, and pod-level requests and overhead are read.
func TestPodSpecRequests(t *testing.T) {
	tests := []struct {
		name   string
		spec   string
		want   capacity.Pod
		reason string
	}{
		{name: "no resources", spec: `{"containers": [{"name": "a"}]}`, want: capacity.Pod{Containers: []capacity.Resources{{}}}},
		{name: "requests as strings and numbers", spec: `{"containers": [{"resources": {"requests": {"cpu": 0.5, "memory": "128Mi"}}}]}`,
			want: capacity.Pod{Containers: []capacity.Resources{{MilliCPU: 500, Memory: 128 << 20}}}},
		{name: "a missing request defaults to the limit",
			spec:   `{"containers": [{"resources": {"requests": {"cpu": "100m"}, "limits": {"cpu": "1", "memory": "1Gi"}}}]}`,
			want:   capacity.Pod{Containers: []capacity.Resources{{MilliCPU: 100, Memory: 1 << 30}}},
			reason: "the API server copies limits.memory into the missing requests.memory; requests.cpu is set and kept"},
		{name: "other resources are ignored", spec: `{"containers": [{"resources": {"requests": {"nvidia.com/gpu": "1", "ephemeral-storage": "1e9"}}}]}`,
			want: capacity.Pod{Containers: []capacity.Resources{{}}}},
		{name: "init containers keep their order; Always marks a sidecar",
			spec: `{"containers": [{}], "initContainers": [{"resources": {"requests": {"cpu": "2"}}}, {"restartPolicy": "Always", "resources": {"limits": {"memory": "64Mi"}}}]}`,
			want: capacity.Pod{Containers: []capacity.Resources{{}}, InitContainers: []capacity.InitContainer{
				{Requests: capacity.Resources{MilliCPU: 2000}}, {Requests: capacity.Resources{Memory: 64 << 20}, Sidecar: true}}}},
		{name: "pod-level requests and overhead",
			spec:   `{"containers": [{}], "resources": {"requests": {"memory": "2Gi"}}, "overhead": {"cpu": "250m", "memory": "120Mi"}}`,
			want:   capacity.Pod{Containers: []capacity.Resources{{}}, PodMemory: int64p(2 << 30), Overhead: capacity.Resources{MilliCPU: 250, Memory: 120 << 20}},
			reason: "pod-level cpu is not set, so PodMilliCPU stays nil"},
		{name: "a pod-level limit defaults the pod-level request when no container requests the resource",
			spec:   `{"containers": [{"resources": {"limits": {"memory": "1Gi"}}}], "resources": {"limits": {"cpu": "2", "memory": "4Gi"}}}`,
			want:   capacity.Pod{Containers: []capacity.Resources{{Memory: 1 << 30}}, PodMilliCPU: int64p(2000)},
			reason: "cpu: no container asks, so the pod request is the pod limit; memory: the container's limit defaults its request, so the pod request is the containers' total"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s podSpec
			if err := json.Unmarshal([]byte(tt.spec), &s); err != nil {
				t.Fatalf("decoding %s: %v", tt.spec, err)
			}
			got, err := s.pod()
			if err != nil {
				t.Fatalf("pod(%s) = %v, want nil", tt.spec, err)
			}
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("pod(%s) mismatch (-want +got) (%s):\n%s", tt.spec, tt.reason, diff)
			}
		})
	}
}

func TestPodSpecRequestsErrors(t *testing.T) {
	tests := []struct{ name, spec, want string }{
		{name: "negative request", spec: `{"containers": [{"resources": {"requests": {"cpu": "-1"}}}]}`,
			want: `spec.template.spec.containers[0].resources.requests.cpu: capacity: parsing "-1": negative quantities are not allowed`},
		{name: "unknown suffix in a limit", spec: `{"containers": [{}, {"resources": {"limits": {"memory": "1GB"}}}]}`,
			want: `spec.template.spec.containers[1].resources.limits.memory: capacity: parsing "1GB": unknown suffix "GB": want n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei`},
		{name: "init container", spec: `{"initContainers": [{"resources": {"requests": {"memory": ""}}}]}`,
			want: `spec.template.spec.initContainers[0].resources.requests.memory: capacity: parsing "": empty quantity`},
		{name: "pod level", spec: `{"resources": {"requests": {"cpu": "1e3"}}}`,
			want: `spec.template.spec.resources.requests.cpu: capacity: parsing "1e3": exponents are not supported; write the number out, with a suffix if you like (1e3 is 1k)`},
		{name: "overhead", spec: `{"overhead": {"memory": "12 Mi"}}`,
			want: `spec.template.spec.overhead.memory: capacity: parsing "12 Mi": unknown suffix " Mi": want n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s podSpec
			if err := json.Unmarshal([]byte(tt.spec), &s); err != nil {
				t.Fatalf("decoding %s: %v", tt.spec, err)
			}
			if _, err := s.pod(); err == nil || err.Error() != tt.want {
				t.Errorf("pod(%s) = %v, want %s", tt.spec, err, tt.want)
			}
		})
	}
}

func TestQuantityUnmarshalJSON(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: `"250m"`, want: "250m"},
		{in: `0.25`, want: "0.25"},
		{in: `1e3`, want: "1e3"},
		{in: `true`, err: "a quantity must be a string such as \"250m\" or a number, got true"},
		{in: `{}`, err: "a quantity must be a string such as \"250m\" or a number, got {}"},
	}
	for _, tt := range tests {
		var q quantity
		err := q.UnmarshalJSON([]byte(tt.in))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("UnmarshalJSON(%s) = %v, want %s", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || string(q) != tt.want {
			t.Errorf("UnmarshalJSON(%s) = %q, %v; want %q", tt.in, q, err, tt.want)
		}
	}
}
