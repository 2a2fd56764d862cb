package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/internal/capacity"
)

// podSpec mirrors the fields of a pod template's spec that this program
// reads: the containers' names and images, which the simulation uses,
// and what the scheduler totals a pod's requests from (containers, init
// containers, pod-level resources, overhead). encoding/json ignores the
// rest.
type podSpec struct {
	Containers     []container           `json:"containers"`
	InitContainers []container           `json:"initContainers"`
	Resources      *resourceRequirements `json:"resources"`
	Overhead       map[string]quantity   `json:"overhead"`
}

// container is one container or init container.
type container struct {
	Name          string               `json:"name"`
	Image         string               `json:"image"`
	RestartPolicy string               `json:"restartPolicy"`
	Resources     resourceRequirements `json:"resources"`
}

// resourceRequirements are a container's (or the pod's) requests and
// limits by resource name; only "cpu" and "memory" are read.
type resourceRequirements struct {
	Requests map[string]quantity `json:"requests"`
	Limits   map[string]quantity `json:"limits"`
}

// quantity is a resource quantity as written in the manifest: the text
// of a JSON string ("250m"), or of a JSON number (0.5), which the API
// server's decoder also accepts. It is parsed by capacity.ParseCPU or
// capacity.ParseMemory once the resource is known.
type quantity string

// UnmarshalJSON keeps a string's text, or a number's digits as written.
func (q *quantity) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*q = quantity(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("a quantity must be a string such as \"250m\" or a number, got %s", b)
	}
	*q = quantity(n)
	return nil
}

// clusterSpec returns the part of s the simulation uses: the containers'
// names and images.
func (s *podSpec) clusterSpec() cluster.PodSpec {
	out := cluster.PodSpec{Containers: make([]cluster.Container, len(s.Containers))}
	for i, c := range s.Containers {
		out.Containers[i] = cluster.Container{Name: c.Name, Image: c.Image}
	}
	return out
}

// pod reads s's CPU and memory requests for capacity.Pod.Requests, as the
// API server stores them: a container's missing request defaults to its
// limit, and a pod-level request to the pod-level limit when no container
// requests the resource. An init container with restartPolicy Always is a
// sidecar. A quantity that does not parse is an error naming its field,
// below spec.template.spec.
func (s *podSpec) pod() (*capacity.Pod, error) {
	const path = "spec.template.spec"
	var p capacity.Pod
	for i, c := range s.Containers {
		r, err := c.Resources.requests(fmt.Sprintf("%s.containers[%d].resources", path, i))
		if err != nil {
			return nil, err
		}
		p.Containers = append(p.Containers, r)
	}
	for i, c := range s.InitContainers {
		r, err := c.Resources.requests(fmt.Sprintf("%s.initContainers[%d].resources", path, i))
		if err != nil {
			return nil, err
		}
		p.InitContainers = append(p.InitContainers, capacity.InitContainer{Requests: r, Sidecar: c.RestartPolicy == "Always"})
	}
	if s.Resources != nil {
		var err error
		if p.PodMilliCPU, err = s.podLevel("cpu", path+".resources"); err != nil {
			return nil, err
		}
		if p.PodMemory, err = s.podLevel("memory", path+".resources"); err != nil {
			return nil, err
		}
	}
	cpu, err := parseQuantity(s.Overhead, "cpu", path+".overhead")
	if err != nil {
		return nil, err
	}
	memory, err := parseQuantity(s.Overhead, "memory", path+".overhead")
	if err != nil {
		return nil, err
	}
	p.Overhead = capacity.Resources{MilliCPU: capacity.Request(cpu, nil), Memory: capacity.Request(memory, nil)}
	return &p, nil
}

// podLevel returns the pod-level request for resource as the API server
// defaults it (capacity.PodLevelRequest), reading the fields below path.
func (s *podSpec) podLevel(resource, path string) (*int64, error) {
	request, err := parseQuantity(s.Resources.Requests, resource, path+".requests")
	if err != nil {
		return nil, err
	}
	limit, err := parseQuantity(s.Resources.Limits, resource, path+".limits")
	if err != nil {
		return nil, err
	}
	containersRequest := false
	for _, c := range append(slices.Clone(s.Containers), s.InitContainers...) {
		_, req := c.Resources.Requests[resource]
		_, lim := c.Resources.Limits[resource]
		containersRequest = containersRequest || req || lim
	}
	return capacity.PodLevelRequest(request, limit, containersRequest), nil
}

// requests returns the CPU and memory requests of r, each defaulting to
// its limit, reading the fields below path.
func (r *resourceRequirements) requests(path string) (capacity.Resources, error) {
	var v [4]*int64
	var err error
	for i, f := range []struct {
		m        map[string]quantity
		resource string
		field    string
	}{{r.Requests, "cpu", ".requests"}, {r.Limits, "cpu", ".limits"}, {r.Requests, "memory", ".requests"}, {r.Limits, "memory", ".limits"}} {
		if v[i], err = parseQuantity(f.m, f.resource, path+f.field); err != nil {
			return capacity.Resources{}, err
		}
	}
	return capacity.Resources{MilliCPU: capacity.Request(v[0], v[1]), Memory: capacity.Request(v[2], v[3])}, nil
}

// parseQuantity returns m[resource] ("cpu" in millicores, "memory" in
// bytes), or nil when m has no such key. An error names the field,
// path.resource.
func parseQuantity(m map[string]quantity, resource, path string) (*int64, error) {
	q, ok := m[resource]
	if !ok {
		return nil, nil
	}
	parse := capacity.ParseMemory
	if resource == "cpu" {
		parse = capacity.ParseCPU
	}
	n, err := parse(string(q))
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", path, resource, err)
	}
	return &n, nil
}
