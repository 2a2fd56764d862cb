package main

import (
	"fmt"
	"maps"
	"math"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/internal/capacity"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// maxMilliCPU and maxMemory are the largest quantities that fit in an
// int64 of millicores and of bytes.
var (
	maxMilliCPU = resource.NewMilliQuantity(math.MaxInt64, resource.DecimalSI)
	maxMemory   = resource.NewQuantity(math.MaxInt64, resource.BinarySI)
)

// podRequests returns what the scheduler reserves for one pod of t, CPU
// in millicores and memory in bytes (capacity.Pod.Requests): containers'
// requests, each defaulting to its limit as the API server defaults a
// pod; init containers, with restartPolicy Always marking a sidecar;
// pod-level requests, defaulting to pod-level limits when no container
// requests the resource; and overhead. Other resources are left out. A
// negative quantity, or one beyond int64 in its unit, is an error that
// names the field below spec.template.spec.
func podRequests(t *kubeapps.Template) (capacity.Resources, error) {
	const path = "spec.template.spec"
	var p capacity.Pod
	for i := range t.Spec.Containers {
		r, err := containerRequests(&t.Spec.Containers[i].Resources, fmt.Sprintf("%s.containers[%d].resources", path, i))
		if err != nil {
			return capacity.Resources{}, err
		}
		p.Containers = append(p.Containers, r)
	}
	for i := range t.Spec.InitContainers {
		c := &t.Spec.InitContainers[i]
		r, err := containerRequests(&c.Resources, fmt.Sprintf("%s.initContainers[%d].resources", path, i))
		if err != nil {
			return capacity.Resources{}, err
		}
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		p.InitContainers = append(p.InitContainers, capacity.InitContainer{Requests: r, Sidecar: sidecar})
	}
	var err error
	if t.Spec.Resources != nil {
		if p.PodMilliCPU, err = podLevel(&t.Spec, corev1.ResourceCPU, path+".resources"); err != nil {
			return capacity.Resources{}, err
		}
		if p.PodMemory, err = podLevel(&t.Spec, corev1.ResourceMemory, path+".resources"); err != nil {
			return capacity.Resources{}, err
		}
	}
	cpu, err := amount(t.Spec.Overhead, corev1.ResourceCPU, path+".overhead")
	if err != nil {
		return capacity.Resources{}, err
	}
	memory, err := amount(t.Spec.Overhead, corev1.ResourceMemory, path+".overhead")
	if err != nil {
		return capacity.Resources{}, err
	}
	p.Overhead = capacity.Resources{MilliCPU: capacity.Request(cpu, nil), Memory: capacity.Request(memory, nil)}
	return p.Requests()
}

// podLevel returns the pod-level request for name as the API server
// defaults it (capacity.PodLevelRequest), reading the fields below path.
func podLevel(spec *corev1.PodSpec, name corev1.ResourceName, path string) (*int64, error) {
	request, err := amount(spec.Resources.Requests, name, path+".requests")
	if err != nil {
		return nil, err
	}
	limit, err := amount(spec.Resources.Limits, name, path+".limits")
	if err != nil {
		return nil, err
	}
	containersRequest := false
	for _, cs := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			_, req := cs[i].Resources.Requests[name]
			_, lim := cs[i].Resources.Limits[name]
			containersRequest = containersRequest || req || lim
		}
	}
	return capacity.PodLevelRequest(request, limit, containersRequest), nil
}

// containerRequests returns a container's CPU and memory requests, each
// defaulting to its limit.
func containerRequests(r *corev1.ResourceRequirements, path string) (capacity.Resources, error) {
	var v [4]*int64
	var err error
	for i, f := range []struct {
		list     corev1.ResourceList
		resource corev1.ResourceName
		field    string
	}{{r.Requests, corev1.ResourceCPU, ".requests"}, {r.Limits, corev1.ResourceCPU, ".limits"},
		{r.Requests, corev1.ResourceMemory, ".requests"}, {r.Limits, corev1.ResourceMemory, ".limits"}} {
		if v[i], err = amount(f.list, f.resource, path+f.field); err != nil {
			return capacity.Resources{}, err
		}
	}
	return capacity.Resources{MilliCPU: capacity.Request(v[0], v[1]), Memory: capacity.Request(v[2], v[3])}, nil
}

// amount returns list[name], CPU in millicores rounded up and memory in
// bytes rounded up (Quantity.MilliValue and Value), or nil when list has
// no such entry.
func amount(list corev1.ResourceList, name corev1.ResourceName, path string) (*int64, error) {
	q, ok := list[name]
	if !ok {
		return nil, nil
	}
	limit, n := maxMemory, func() int64 { return q.Value() }
	if name == corev1.ResourceCPU {
		limit, n = maxMilliCPU, func() int64 { return q.MilliValue() }
	}
	switch {
	case q.Sign() < 0:
		return nil, fmt.Errorf("%s.%s: Invalid value: %q: must be greater than or equal to 0", path, name, q.String())
	case q.Cmp(*limit) > 0:
		return nil, fmt.Errorf("%s.%s: %s is beyond the int64 range of %s", path, name, q.String(), unit(name))
	}
	v := n()
	return &v, nil
}

func unit(name corev1.ResourceName) string {
	if name == corev1.ResourceCPU {
		return "millicores"
	}
	return "bytes"
}

// peaks returns what t's rollout needs beyond its steady state, R pods of
// the template rolled out. Each ReplicaSet's running pods (terminating
// ones included) count at the requests of its own template, found by name
// in templates; a name it lacks counts at the new template's.
func peaks(t *trace, templates map[string]*kubeapps.Template, newTemplate *kubeapps.Template) (*capacity.Report, error) {
	perPod, err := podRequests(newTemplate)
	if err != nil {
		return nil, err
	}
	byName := map[string]capacity.Resources{}
	for _, name := range slices.Sorted(maps.Keys(templates)) {
		if byName[name], err = podRequests(templates[name]); err != nil {
			return nil, fmt.Errorf("ReplicaSet %s: %w", name, err)
		}
	}
	step := func(sync int, r int32, rss []rollout.ReplicaSetState) capacity.Step {
		s := capacity.Step{Sync: sync, Replicas: r}
		for _, rs := range rss {
			req, ok := byName[rs.Name]
			if !ok {
				req = perPod
			}
			s.Groups = append(s.Groups, capacity.Group{Pods: int64(rs.Current) + int64(rs.Terminating), Requests: req})
		}
		return s
	}
	steps := []capacity.Step{step(0, t.d.Replicas, t.initial)}
	for _, s := range t.t.Steps {
		steps = append(steps, step(s.Sync, s.Replicas, s.ReplicaSets))
	}
	rep, err := capacity.Peaks(perPod, steps)
	if err != nil {
		return nil, err
	}
	return &rep, nil
}
