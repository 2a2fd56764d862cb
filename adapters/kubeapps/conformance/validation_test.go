package conformance

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	rmfield "github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// anyIntOrString draws a maxSurge or maxUnavailable as a user may write
// it, valid or not.
func anyIntOrString() *rapid.Generator[*intstr.IntOrString] {
	return rapid.OneOf(
		rapid.Just[*intstr.IntOrString](nil),
		rapid.Map(rapid.Int32Range(-2, 3), func(n int32) *intstr.IntOrString { v := intstr.FromInt32(n); return &v }),
		rapid.Map(rapid.SampledFrom([]string{"0%", "00%", "25%", "100%", "101%", "120%", "abc", "+5%", "-1%", "5", "5.5%", " 5%", "",
			"30000000000%", "2147483647%"}), func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }),
	)
}

// specForValidation draws an apps/v1 Deployment as a user may submit it:
// a valid pod template and name, and spec and status fields that the
// rollout depends on, valid or not.
func specForValidation(t *rapid.T) *appsv1.Deployment {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "web:1"}}},
			},
			MinReadySeconds: rapid.Int32Range(-1, 3).Draw(t, "minReadySeconds"),
		},
	}
	if rapid.Bool().Draw(t, "hasReplicas") {
		r := rapid.Int32Range(-2, 12).Draw(t, "replicas")
		d.Spec.Replicas = &r
	}
	switch rapid.IntRange(0, 9).Draw(t, "selector") {
	case 0:
		d.Spec.Selector = nil
	case 1:
		d.Spec.Selector.MatchLabels = map[string]string{"app": "db"}
	}
	d.Spec.Strategy.Type = appsv1.DeploymentStrategyType(rapid.SampledFrom([]string{"", "RollingUpdate", "Recreate", "BlueGreen"}).Draw(t, "strategy"))
	if rapid.Bool().Draw(t, "hasRollingUpdate") {
		d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{
			MaxSurge: anyIntOrString().Draw(t, "maxSurge"), MaxUnavailable: anyIntOrString().Draw(t, "maxUnavailable")}
	}
	if rapid.Bool().Draw(t, "hasHistoryLimit") {
		n := rapid.Int32Range(-1, 3).Draw(t, "revisionHistoryLimit")
		d.Spec.RevisionHistoryLimit = &n
	}
	if rapid.Bool().Draw(t, "hasDeadline") {
		n := rapid.Int32Range(-1, 4).Draw(t, "progressDeadlineSeconds")
		d.Spec.ProgressDeadlineSeconds = &n
	}
	counter := rapid.Int32Range(-1, 4)
	d.Status = appsv1.DeploymentStatus{
		ObservedGeneration:  int64(counter.Draw(t, "observedGeneration")),
		Replicas:            counter.Draw(t, "statusReplicas"),
		UpdatedReplicas:     counter.Draw(t, "updatedReplicas"),
		ReadyReplicas:       counter.Draw(t, "readyReplicas"),
		AvailableReplicas:   counter.Draw(t, "availableReplicas"),
		UnavailableReplicas: counter.Draw(t, "unavailableReplicas"),
	}
	if rapid.Bool().Draw(t, "hasCollisionCount") {
		n := counter.Draw(t, "collisionCount")
		d.Status.CollisionCount = &n
	}
	if rapid.Bool().Draw(t, "hasTerminating") {
		n := counter.Draw(t, "terminatingReplicas")
		d.Status.TerminatingReplicas = &n
	}
	return d
}

// inScope reports whether an upstream error is about a field kubeapps.Validate
// checks: not metadata, nor the pod template beyond its labels.
func inScope(e *field.Error) bool {
	if strings.HasPrefix(e.Field, "spec.template") {
		return e.Field == "spec.template.metadata.labels"
	}
	return strings.HasPrefix(e.Field, "spec.") || strings.HasPrefix(e.Field, "status.")
}

// TestValidateMatchesTheAPIServer defaults each drawn Deployment as the
// API server does (apps/v1 SetObjectDefaults_Deployment), validates it with
// upstream's ValidateDeployment and ValidateDeploymentStatus on the
// internal type, and compares the full error texts, in order, with
// kubeapps.Validate's.
func TestValidateMatchesTheAPIServer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := specForValidation(t)
		appsv1defaults.SetObjectDefaults_Deployment(d)
		var internal apps.Deployment
		if err := appsv1defaults.Convert_v1_Deployment_To_apps_Deployment(d, &internal, nil); err != nil {
			t.Fatalf("converting to the internal type: %v", err)
		}
		upErrs := appsvalidation.ValidateDeployment(&internal, apivalidation.PodValidationOptions{})
		upErrs = append(upErrs, appsvalidation.ValidateDeploymentStatus(&internal.Status, field.NewPath("status"))...)
		var want []string
		for _, e := range upErrs {
			if inScope(e) {
				want = append(want, e.Error())
			}
		}
		var got []string
		if err := kubeapps.Validate(d); err != nil {
			for _, e := range err.(rmfield.ErrorList) {
				got = append(got, e.Error())
			}
		}
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			count("ValidateDeployment (kubeapps.Validate)", "agree")
			return
		}
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil && ru.MaxSurge.StrVal == "30000000000%" &&
			len(got) == len(want)+1 && strings.Contains(strings.Join(got, "\n"), "rolloutmath keeps percentages in an int32") {
			count("ValidateDeployment (kubeapps.Validate)", "maxSurge percentage beyond int32: valid upstream, rejected here")
			return
		}
		t.Fatalf("kubeapps.Validate:\n  %s\nupstream:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	})
}

// TestValidateReplicaSetMatchesTheAPIServer compares rollout.ValidateReplicaSet
// on converted ReplicaSets with upstream's ValidateReplicaSetSpec and
// ValidateReplicaSetStatus, for the fields the library models: spec.replicas
// and the status counters (not fullyLabeledReplicas, minReadySeconds, the
// selector or the template).
func TestValidateReplicaSetMatchesTheAPIServer(t *testing.T) {
	modelled := func(f string) bool {
		return f == "spec.replicas" || (strings.HasPrefix(f, "status.") && f != "status.fullyLabeledReplicas")
	}
	rapid.Check(t, func(t *rapid.T) {
		counter := rapid.Int32Range(-1, 4)
		spec := counter.Draw(t, "replicas")
		rs := &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default"},
			Spec: appsv1.ReplicaSetSpec{
				Replicas: &spec,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "web:1"}}},
				},
			},
			Status: appsv1.ReplicaSetStatus{
				Replicas:           counter.Draw(t, "statusReplicas"),
				ReadyReplicas:      counter.Draw(t, "readyReplicas"),
				AvailableReplicas:  counter.Draw(t, "availableReplicas"),
				ObservedGeneration: int64(counter.Draw(t, "observedGeneration")),
			},
		}
		if rapid.Bool().Draw(t, "hasTerminating") {
			n := counter.Draw(t, "terminatingReplicas")
			rs.Status.TerminatingReplicas = &n
		}
		appsv1defaults.SetObjectDefaults_ReplicaSet(rs)
		var internal apps.ReplicaSet
		if err := appsv1defaults.Convert_v1_ReplicaSet_To_apps_ReplicaSet(rs, &internal, nil); err != nil {
			t.Fatalf("converting to the internal type: %v", err)
		}
		upErrs := appsvalidation.ValidateReplicaSetSpec(&internal.Spec, nil, field.NewPath("spec"), apivalidation.PodValidationOptions{})
		upErrs = append(upErrs, appsvalidation.ValidateReplicaSetStatus(internal.Status, field.NewPath("status"))...)
		var want []string
		for _, e := range upErrs {
			if modelled(e.Field) {
				want = append(want, e.Error())
			}
		}
		var got []string
		ours := kubeapps.ReplicaSet(rs)
		if err := rollout.ValidateReplicaSet(&ours); err != nil {
			for _, e := range err.(rmfield.ErrorList) {
				got = append(got, e.Error())
			}
		}
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			count("ValidateReplicaSet (rollout.ValidateReplicaSet)", "agree")
			return
		}
		t.Fatalf("rollout.ValidateReplicaSet:\n  %s\nupstream:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	})
}
