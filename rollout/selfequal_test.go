package rollout

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/revision"
)

// weighted is a pod spec with a float, which may be NaN.
type weighted struct {
	Image  string
	Weight float64
}

// weightedDeployment returns a settled deployment of 3 replicas whose
// template has the given weight, and its ReplicaSet.
func weightedDeployment(w float64) (*Deployment[revision.Template[weighted]], []ReplicaSet[revision.Template[weighted]]) {
	t := revision.Template[weighted]{Labels: map[string]string{"app": "web"}, Spec: weighted{Image: "nginx", Weight: w}}
	d := &Deployment[revision.Template[weighted]]{Name: "web", Generation: 1, Replicas: 3, Template: t,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"}}
	rs := ReplicaSet[revision.Template[weighted]]{Name: "web-1", CreationTime: t0, Template: t,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Replicas:    3, StatusReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, Generation: 1, ObservedGeneration: 1}
	return d, []ReplicaSet[revision.Template[weighted]]{rs}
}

// TestPlanRejectsATemplateThatDoesNotEqualItself is the regression test for
// a template holding a NaN: no ReplicaSet ever matches it, so without the
// check Plan created a new ReplicaSet at every other sync.
func TestPlanRejectsATemplateThatDoesNotEqualItself(t *testing.T) {
	d, rss := weightedDeployment(math.NaN())
	_, err := Plan(d, rss, t0)
	want := `rollout: invalid Deployment "web": spec.template: Forbidden: must equal a copy of itself, but template.Spec.Weight (NaN) does not, so no ReplicaSet would ever match it`
	var ie *field.Error
	if err == nil || !errors.Is(err, field.ErrInvalid) || !errors.As(err, &ie) || err.Error() != want {
		t.Fatalf("Plan(template with NaN weight) error = %v, want %s", err, want)
	}
	_, err = Simulate(d, rss, Config[revision.Template[weighted]]{Start: t0, Interval: 10 * time.Second, MaxSteps: 20})
	if !errors.Is(err, field.ErrInvalid) {
		t.Fatalf("Simulate(template with NaN weight) error = %v, want one wrapping field.ErrInvalid", err)
	}

	// The same deployment with a number settles without creating anything.
	d, rss = weightedDeployment(0.5)
	s, err := Plan(d, rss, t0)
	if err != nil || len(s.Actions) != 0 || s.NewReplicaSet != 0 {
		t.Fatalf("Plan(template with weight 0.5) = actions %+v, new %d, %v; want nothing to do, new ReplicaSet 0", s.Actions, s.NewReplicaSet, err)
	}
}

// TestPlanAcceptsATemplateWhoseEqualMethodAcceptsNaN: a NaN compared by
// its type's own Equal method does not make the template unequal to
// itself.
func TestPlanAcceptsATemplateWhoseEqualMethodAcceptsNaN(t *testing.T) {
	type spec struct{ Weight nanEqual }
	tp := revision.Template[spec]{Spec: spec{Weight: nanEqual(math.NaN())}}
	d := &Deployment[revision.Template[spec]]{Name: "web", Generation: 1, Replicas: 1, Template: tp}
	if _, err := Plan(d, nil, t0); err != nil {
		t.Fatalf("Plan(NaN compared by an Equal method that accepts it) error = %v, want nil", err)
	}
}

// nanEqual is a float whose Equal method takes NaN as equal to NaN.
type nanEqual float64

// Equal reports whether f and g are equal, NaN equal to NaN.
func (f nanEqual) Equal(g nanEqual) bool {
	return f == g || math.IsNaN(float64(f)) && math.IsNaN(float64(g))
}
