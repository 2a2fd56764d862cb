package adapt_test

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/revision"
)

// benchPodTemplate is the realistic three-container corev1 template of the
// conformance module's benchmarks (env, resources, probes, volume mounts),
// repeated here so that revision.EqualIgnoreHash and revision.Hash can be
// profiled on the real API type without the upstream side.
func benchPodTemplate() corev1.PodTemplateSpec {
	grace := int64(30)
	container := func(name, image string, port int32) corev1.Container {
		return corev1.Container{
			Name:  name,
			Image: image,
			Args:  []string{"--port=" + strconv.Itoa(int(port)), "--log-level=info"},
			Env: []corev1.EnvVar{
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
				{Name: "MODE", Value: "production"},
				{Name: "CACHE_SIZE", Value: "256"},
			},
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: port, Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			},
			LivenessProbe: &corev1.Probe{
				ProbeHandler:        corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(port), Scheme: corev1.URISchemeHTTP}},
				InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
			ReadinessProbe: &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
				PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
			VolumeMounts: []corev1.VolumeMount{
				{Name: "config", MountPath: "/etc/app", ReadOnly: true},
				{Name: "cache", MountPath: "/var/cache/app"},
			},
			TerminationMessagePath:   corev1.TerminationMessagePathDefault,
			TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy:          corev1.PullIfNotPresent,
		}
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{
			Labels:      map[string]string{"app": "shop", "tier": "frontend", "version": "v2"},
			Annotations: map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{
				container("web", "registry.example.com/shop/web:2.4.1", 8080),
				container("sidecar", "registry.example.com/shop/proxy:1.9.0", 9901),
				container("metrics", "registry.example.com/shop/exporter:0.7.3", 9090),
			},
			Volumes: []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "shop-config"}}}},
				{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace,
			DNSPolicy:                     corev1.DNSClusterFirst,
			SchedulerName:                 corev1.DefaultSchedulerName,
			SecurityContext:               &corev1.PodSecurityContext{},
			NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
		},
	}
}

// Typed sinks, so that storing a result does not allocate.
var (
	equalSink bool
	hashSink  string
)

// BenchmarkPodTemplateEqualIgnoreHash compares two equal corev1 templates
// that differ in their hash label only, as FindNew does for the new
// ReplicaSet, and two that differ in the last container's image.
func BenchmarkPodTemplateEqualIgnoreHash(b *testing.B) {
	cases := []struct {
		name   string
		change func(*corev1.PodTemplateSpec)
	}{
		{"equal", func(p *corev1.PodTemplateSpec) { p.Labels[revision.HashLabel] = "6b966d6b4" }},
		{"image differs", func(p *corev1.PodTemplateSpec) {
			p.Spec.Containers[2].Image = "registry.example.com/shop/exporter:0.7.4"
		}},
		{"quantity respelled", func(p *corev1.PodTemplateSpec) {
			p.Labels[revision.HashLabel] = "6b966d6b4"
			p.Spec.Containers[0].Resources.Limits[corev1.ResourceCPU] = resource.MustParse("1000m")
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			x, y := benchPodTemplate(), benchPodTemplate()
			c.change(&y)
			want := c.name != "image differs"
			if got := revision.EqualIgnoreHash(&x, &y); got != want {
				b.Fatalf("EqualIgnoreHash = %v, want %v", got, want)
			}
			b.ReportAllocs()
			for b.Loop() {
				equalSink = revision.EqualIgnoreHash(&x, &y)
			}
		})
	}
}

// BenchmarkPodTemplateHash hashes the realistic corev1 template.
func BenchmarkPodTemplateHash(b *testing.B) {
	x := benchPodTemplate()
	b.ReportAllocs()
	for b.Loop() {
		hashSink = revision.Hash(&x, nil)
	}
}
