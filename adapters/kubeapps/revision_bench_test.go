package kubeapps_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps/internal/fixture"
	"github.com/rolloutmath/rolloutmath/revision"
)

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
			x, y := fixture.PodTemplate(), fixture.PodTemplate()
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
	x := fixture.PodTemplate()
	b.ReportAllocs()
	for b.Loop() {
		hashSink = revision.Hash(&x, nil)
	}
}
