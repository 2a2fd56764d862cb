package kruiseapps_test

import (
	"testing"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// TestRevisionDataGivesKruisesNames checks the revision names RevisionData
// leads to for templates whose names were observed with kruise v1.9.1
// (docs/cloneset.md#revisions): the bytes are kruise's, including
// the "creationTimestamp":null that apimachinery v0.30 still writes.
func TestRevisionDataGivesKruisesNames(t *testing.T) {
	tests := []struct {
		name   string
		image  string
		want   string
		reason string
	}{
		{name: "demo nginx:1.25", image: "nginx:1.25", want: "demo-788944f45", reason: "observed with kruise v1.9.1"},
		{name: "demo nginx:1.26", image: "nginx:1.26", want: "demo-5b54ff9d4d", reason: "observed with kruise v1.9.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := demo(3, tt.image, kruise.RecreateCloneSetUpdateStrategyType)
			data, err := kruiseapps.RevisionData(cs)
			if err != nil {
				t.Fatal(err)
			}
			if got := cloneset.RevisionName(cs.Name, cloneset.HashRevision(data, 0)); got != tt.want {
				t.Errorf("revision name of %s = %s, want %s (%s); data %s", tt.image, got, tt.want, tt.reason, data)
			}
		})
	}
}

// TestTemplateOfRoundTrip checks that TemplateOf reads back the template
// RevisionData recorded, so that Changes creates pods from exactly the
// revision's template.
func TestTemplateOfRoundTrip(t *testing.T) {
	cs := demo(3, "nginx:1.25", kruise.RecreateCloneSetUpdateStrategyType)
	cs.Spec.Template.Annotations = map[string]string{"a": "<&>"}
	cs.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "X", Value: "1"}}
	data, err := kruiseapps.RevisionData(cs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := kruiseapps.TemplateOf(data)
	if err != nil {
		t.Fatal(err)
	}
	again := cs.DeepCopy()
	again.Spec.Template = *got
	data2, err := kruiseapps.RevisionData(again)
	if err != nil {
		t.Fatal(err)
	}
	if string(data2) != string(data) {
		t.Errorf("RevisionData(TemplateOf(data)) = %s, want %s", data2, data)
	}
}

func TestCloneSetErrors(t *testing.T) {
	obj := demo(3, "nginx:1.25", kruise.RecreateCloneSetUpdateStrategyType)
	obj.Spec.UpdateStrategy.PriorityStrategy = nil
	bad := obj.DeepCopy()
	bad.Spec.UpdateStrategy.PriorityStrategy = newWeight("Gt")
	tests := []struct {
		name string
		in   *kruise.CloneSet
		want string
	}{
		{name: "nil", in: nil, want: "kruiseapps: nil CloneSet"},
		{name: "weight selector with an unknown operator", in: bad,
			want: `kruiseapps: spec.updateStrategy.priorityStrategy.weightPriority[0].matchSelector: "Gt" is not a valid label selector operator`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kruiseapps.CloneSet(tt.in)
			if err == nil || err.Error() != tt.want || got.Name != "" {
				t.Errorf("CloneSet() = %q, %v; want the zero CloneSet and %q", got.Name, err, tt.want)
			}
		})
	}
}
