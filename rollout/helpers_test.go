package rollout

import (
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
)

// tmpl is the template type the tests use: an image name as the spec.
type tmpl = revision.Template[string]

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func image(img string) tmpl {
	return tmpl{Labels: map[string]string{"app": "nginx"}, Spec: img}
}

func ptr[V any](v V) *V { return &v }

func pct(p int32) *intorpercent.Value { v := intorpercent.Percent(p); return &v }
func num(n int32) *intorpercent.Value { v := intorpercent.Int(n); return &v }

// settledOld returns a deployment at image and its settled ReplicaSet, as
// after a completed rollout of revision 1.
func settled(replicas int32, img string) (Deployment[tmpl], []ReplicaSet[tmpl]) {
	d := Deployment[tmpl]{
		Name:        "nginx",
		Generation:  1,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Replicas:    replicas,
		Template:    image(img),
	}
	rs := ReplicaSet[tmpl]{
		Name:         "nginx-1",
		CreationTime: t0.Add(-time.Hour),
		Annotations: map[string]string{
			revision.RevisionAnnotation:        "1",
			revision.DesiredReplicasAnnotation: itoa(int64(replicas)),
			revision.MaxReplicasAnnotation:     itoa(int64(replicas + MaxSurge(&d))),
		},
		Template:            image(img),
		Replicas:            replicas,
		StatusReplicas:      replicas,
		ReadyReplicas:       replicas,
		AvailableReplicas:   replicas,
		TerminatingReplicas: ptr(int32(0)),
		Generation:          1,
		ObservedGeneration:  1,
	}
	rss := []ReplicaSet[tmpl]{rs}
	d.Status = CalculateStatus(&d, rss, 0, t0.Add(-time.Hour))
	d.Status = RolloutStatus(&d, rss, 0, t0.Add(-time.Hour))
	return d, rss
}

// dep returns a RollingUpdate deployment of r replicas with the given
// bounds (nil: the 25% default).
func dep(r int32, surge, unavailable *intorpercent.Value) *Deployment[tmpl] {
	return &Deployment[tmpl]{Name: "web", Generation: 1, Replicas: r, MaxSurge: surge, MaxUnavailable: unavailable, Template: image("nginx:new")}
}

// rs returns a ReplicaSet created age minutes before t0 with spec pods of
// which avail are ready and available.
func rs(name string, age int, spec, avail int32) ReplicaSet[tmpl] {
	return ReplicaSet[tmpl]{
		Name:                name,
		CreationTime:        t0.Add(-time.Duration(age) * time.Minute),
		Template:            image("nginx:" + name),
		Replicas:            spec,
		StatusReplicas:      max(spec, avail),
		ReadyReplicas:       avail,
		AvailableReplicas:   avail,
		TerminatingReplicas: ptr(int32(0)),
		Generation:          1,
		ObservedGeneration:  1,
	}
}
