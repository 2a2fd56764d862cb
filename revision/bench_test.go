package revision

import (
	"strconv"
	"testing"
	"time"
)

func BenchmarkEqualIgnoreHash(b *testing.B) {
	cases := []struct {
		name   string
		change func(*podTemplate)
	}{
		{"equal", func(p *podTemplate) { *p = withHash(*p, "5d4c8f7b9") }},
		{"last container image differs", func(p *podTemplate) { p.Spec.Containers[2].Image = "fluent-bit:3.2" }},
		{"quantity respelled", func(p *podTemplate) {
			*p = withHash(*p, "5d4c8f7b9")
			p.Spec.Containers[0].Resources.Limits["cpu"] = quantity{1000, "1000m"}
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			x, y := realisticTemplate(), realisticTemplate()
			c.change(&y)
			b.ReportAllocs()
			for b.Loop() {
				EqualIgnoreHash(&x, &y)
			}
		})
	}
}

func BenchmarkHash(b *testing.B) {
	b.Run("realistic", func(b *testing.B) {
		x := realisticTemplate()
		count := int32(1)
		b.ReportAllocs()
		for b.Loop() {
			Hash(&x, &count)
		}
	})
	b.Run("empty", func(b *testing.B) {
		var x podTemplate
		b.ReportAllocs()
		for b.Loop() {
			Hash(&x, nil)
		}
	})
}

// replicaSets returns n ReplicaSets with realistic templates, one minute
// apart, each with another image, and the Deployment's template, which
// matches the newest one (the usual state after a rollout).
func replicaSets(n int) ([]ReplicaSet[podTemplate], podTemplate) {
	rss := make([]ReplicaSet[podTemplate], n)
	for i := range rss {
		t := realisticTemplate()
		t.Spec.Containers[0].Image = "nginx:1." + strconv.Itoa(i)
		rss[i] = ReplicaSet[podTemplate]{
			Name:         "web-" + strconv.Itoa(i),
			CreationTime: base.Add(time.Duration(i) * time.Minute),
			Annotations:  map[string]string{RevisionAnnotation: strconv.Itoa(i + 1)},
			Template:     withHash(t, strconv.Itoa(i)),
		}
	}
	deployment := realisticTemplate()
	deployment.Spec.Containers[0].Image = "nginx:1." + strconv.Itoa(n-1)
	return rss, deployment
}

func BenchmarkFindNew(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rss, deployment := replicaSets(n)
			if i, ok := FindNew(&deployment, rss); !ok || i != n-1 {
				b.Fatalf("FindNew = %d, %v, want %d", i, ok, n-1)
			}
			b.ReportAllocs()
			for b.Loop() {
				FindNew(&deployment, rss)
			}
		})
	}
}

func BenchmarkToCleanUp(b *testing.B) {
	rss, _ := replicaSets(100)
	limit := int32(10)
	b.ReportAllocs()
	for b.Loop() {
		ToCleanUp(rss, 99, &limit, CleanupUpstream)
	}
}
