// Package capacity works out what a rollout costs a cluster beyond its
// steady state: the peak extra pods, and from the pod templates' resource
// requests the peak extra CPU and memory, each with the sync at which it
// is reached. It serves the example programs examples/rollout and
// adapters/kubeapps/cmd/rolloutplan, which read requests from their
// manifests in their own ways and share the arithmetic here.
//
// The calls most users of the package need:
//
//	req, err := pod.Requests()              // one pod, as the scheduler counts it
//	rep, err := capacity.Peaks(req, steps)  // the peaks over a simulated rollout
//	fmt.Println(capacity.FormatCPU(rep.PeakExtraCPU.MilliCPU))
//
// CPU is in millicores and memory in bytes, both int64. Arithmetic that
// could pass math.MaxInt64 is checked and reported as an error, never
// wrapped. Only CPU and memory are counted: extended resources, hugepages
// and ephemeral storage are left out.
package capacity

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Resources are CPU and memory amounts: requests of a container or a
// pod, or a sum over pods. Both are >= 0 in values this package returns.
type Resources struct {
	// MilliCPU is CPU in millicores (1000 = one core).
	MilliCPU int64 `json:"cpuMillis"`
	// Memory is in bytes.
	Memory int64 `json:"memoryBytes"`
}

// InitContainer is one init container's requests.
type InitContainer struct {
	Requests Resources
	// Sidecar marks a restartable init container (restartPolicy: Always),
	// which keeps running next to the app containers.
	Sidecar bool
}

// Pod holds what the scheduler reads from a pod template to total its
// requests.
type Pod struct {
	// Containers are the app containers' requests, in any order.
	Containers []Resources
	// InitContainers are in the order the pod spec lists them; the order
	// matters for sidecars (see Requests).
	InitContainers []InitContainer
	// PodMilliCPU and PodMemory are pod-level requests
	// (spec.resources.requests); nil when not set. They are honoured as
	// with the PodLevelResources feature gate on, its default since
	// Kubernetes v1.34 (beta).
	PodMilliCPU, PodMemory *int64
	// Overhead is spec.overhead, zero when not set.
	Overhead Resources
}

// ErrOverflow is wrapped by the errors of sums and products that do not
// fit in an int64.
var ErrOverflow = errors.New("beyond the int64 range")

// Request returns the request of one container for one resource as the
// API server defaults it: the request when set, else the limit when set
// (defaulting copies a limit into a missing request), else 0.
// Upstream: the container defaulting in SetDefaults_Pod.
func Request(request, limit *int64) int64 {
	switch {
	case request != nil:
		return *request
	case limit != nil:
		return *limit
	}
	return 0
}

// PodLevelRequest returns a pod-level request for one resource as the API
// server defaults it: request when set; else limit (the pod-level limit),
// when no container or init container requests the resource, counting a
// container limit that defaults its request; else nil, and the
// containers' total applies (the API server would write that total in).
// Upstream: defaultPodRequests in pkg/apis/core/v1.
func PodLevelRequest(request, limit *int64, containersRequest bool) *int64 {
	switch {
	case request != nil:
		return request
	case limit != nil && !containersRequest:
		return limit
	}
	return nil
}

// Requests returns what the scheduler reserves on a node for one pod p,
// resource by resource:
//
//	max(sum of app containers + sum of sidecars, max over init containers i of init(i))
//
// where init(i) is a sidecar's own request plus the sidecars before it,
// and a regular init container's request plus every sidecar listed before
// it (those keep running while it runs). A pod-level request, when set,
// replaces that total for its resource. Overhead is added last. A
// negative amount or a total beyond int64 is an error; the Resources are
// then zero.
// Upstream: PodRequests and AggregateContainerRequests in
// k8s.io/component-helpers/resource, without the status-based resize
// handling (a template has no status).
func (p *Pod) Requests() (Resources, error) {
	var out [2]int64
	for r := range 2 {
		var app, sidecars, inits int64
		var err error
		for _, c := range p.Containers {
			if app, err = add(app, c.get(r), r); err != nil {
				return Resources{}, err
			}
		}
		for _, c := range p.InitContainers {
			v := c.Requests.get(r)
			if c.Sidecar {
				if app, err = add(app, v, r); err != nil {
					return Resources{}, err
				}
				if sidecars, err = add(sidecars, v, r); err != nil {
					return Resources{}, err
				}
				inits = max(inits, sidecars)
				continue
			}
			running, err := add(sidecars, v, r)
			if err != nil {
				return Resources{}, err
			}
			inits = max(inits, running)
		}
		out[r] = max(app, inits)
		if pod := p.pod(r); pod != nil {
			if *pod < 0 {
				return Resources{}, fmt.Errorf("capacity: pod-level %s request %d is negative", names[r], *pod)
			}
			out[r] = *pod
		}
		if out[r], err = add(out[r], p.Overhead.get(r), r); err != nil {
			return Resources{}, err
		}
	}
	return Resources{MilliCPU: out[0], Memory: out[1]}, nil
}

// names are the resources by index, as the API names them.
var names = [2]string{"cpu", "memory"}

// get returns resource r of x: 0 is CPU, 1 memory.
func (x Resources) get(r int) int64 {
	if r == 0 {
		return x.MilliCPU
	}
	return x.Memory
}

func (p *Pod) pod(r int) *int64 {
	if r == 0 {
		return p.PodMilliCPU
	}
	return p.PodMemory
}

// add returns a+b for resource r, rejecting a negative b and a sum beyond
// int64.
func add(a, b int64, r int) (int64, error) {
	if b < 0 {
		return 0, fmt.Errorf("capacity: %s request %d is negative", names[r], b)
	}
	if a > math.MaxInt64-b {
		return 0, fmt.Errorf("capacity: total %s request: %w", names[r], ErrOverflow)
	}
	return a + b, nil
}

// mul returns n*v for non-negative n and v, and false when the product
// does not fit in an int64.
func mul(n, v int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(n), uint64(v))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}
