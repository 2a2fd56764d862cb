package main

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/internal/capacity"
)

func resources(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func TestPodRequests(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	tests := []struct {
		name   string
		spec   corev1.PodSpec
		want   capacity.Resources
		reason string
	}{
		{name: "no resources", spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}},
		{name: "requests, and a limit defaulting a missing request",
			spec: corev1.PodSpec{Containers: []corev1.Container{
				{Resources: corev1.ResourceRequirements{Requests: resources("cpu", "250m", "memory", "256Mi")}},
				{Resources: corev1.ResourceRequirements{Limits: resources("cpu", "100m", "memory", "64Mi")}},
			}},
			want: capacity.Resources{MilliCPU: 350, Memory: 320 << 20}},
		{name: "init container and sidecar (the scheduler's rule)",
			spec: corev1.PodSpec{
				InitContainers: []corev1.Container{
					{Resources: corev1.ResourceRequirements{Requests: resources("cpu", "500m", "memory", "128Mi")}},
					{RestartPolicy: &always, Resources: corev1.ResourceRequirements{Requests: resources("cpu", "50m", "memory", "32Mi")}},
				},
				Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: resources("cpu", "250m", "memory", "256Mi")}}},
			},
			want:   capacity.Resources{MilliCPU: 500, Memory: 288 << 20},
			reason: "cpu: max(250m + 50m, 500m); memory: max(256Mi + 32Mi, 128Mi)"},
		{name: "pod-level limit defaults the pod request for a resource no container asks for; overhead adds",
			spec: corev1.PodSpec{
				Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: resources("memory", "1Gi")}}},
				Resources:  &corev1.ResourceRequirements{Limits: resources("cpu", "2", "memory", "4Gi")},
				Overhead:   resources("cpu", "100m", "memory", "10Mi"),
			},
			want:   capacity.Resources{MilliCPU: 2100, Memory: 1034 << 20},
			reason: "cpu: the pod limit 2 plus overhead; memory: the container's 1Gi plus overhead"},
		{name: "other resources are ignored; CPU rounds up to a millicore",
			spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{
				Requests: resources("cpu", "100u", "nvidia.com/gpu", "1", "ephemeral-storage", "1Gi")}}}},
			want: capacity.Resources{MilliCPU: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := podRequests(&kubeapps.Template{Spec: tt.spec})
			if err != nil || got != tt.want {
				t.Errorf("podRequests = %+v, %v; want %+v (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestPodRequestsErrors(t *testing.T) {
	tests := []struct {
		name string
		spec corev1.PodSpec
		want string
	}{
		{name: "negative", spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: resources("memory", "-1Mi")}}}},
			want: `spec.template.spec.containers[0].resources.requests.memory: Invalid value: "-1Mi": must be greater than or equal to 0`},
		{name: "CPU beyond int64 millicores", spec: corev1.PodSpec{InitContainers: []corev1.Container{{Resources: corev1.ResourceRequirements{Limits: resources("cpu", "10E")}}}},
			want: `spec.template.spec.initContainers[0].resources.limits.cpu: 10E is beyond the int64 range of millicores`},
		{name: "memory sum beyond int64", spec: corev1.PodSpec{Containers: []corev1.Container{
			{Resources: corev1.ResourceRequirements{Requests: resources("memory", "7Ei")}},
			{Resources: corev1.ResourceRequirements{Requests: resources("memory", "7Ei")}}}},
			want: `capacity: total memory request: beyond the int64 range`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := podRequests(&kubeapps.Template{Spec: tt.spec}); err == nil || err.Error() != tt.want {
				t.Errorf("podRequests = %v, want %s", err, tt.want)
			}
		})
	}
}
