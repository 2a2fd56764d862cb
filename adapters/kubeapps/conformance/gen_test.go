package conformance

import (
	"fmt"
	"math"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// count32 draws a replica count: mostly small, sometimes near MaxInt32 or
// anywhere in [0, MaxInt32], so that upstream's int32 sums and products
// overflow in a fair share of cases.
func count32() *rapid.Generator[int32] {
	return rapid.OneOf(
		rapid.Int32Range(0, 12),
		rapid.Int32Range(0, 1000),
		rapid.Int32Range(40000, 70000),
		rapid.Int32Range(math.MaxInt32-50, math.MaxInt32),
		rapid.Int32Min(0),
	)
}

// anyInt32 draws an int32 of either sign, biased to small values.
func anyInt32() *rapid.Generator[int32] {
	return rapid.OneOf(rapid.Int32Range(-5, 20), count32(), rapid.Int32())
}

// intOrPercent draws a maxSurge or maxUnavailable the library can
// represent: an Int of any int32 (negative ones are rejected by validation
// but scaled by upstream all the same), or a "N%" string with N in
// [0, MaxInt32], sometimes with leading zeros. Large percentages
// overflow int32 once scaled.
func intOrPercent() *rapid.Generator[intstr.IntOrString] {
	return rapid.Custom(func(t *rapid.T) intstr.IntOrString {
		if rapid.Bool().Draw(t, "isInt") {
			return intstr.FromInt32(anyInt32().Draw(t, "int"))
		}
		p := rapid.OneOf(rapid.Int32Range(0, 150), rapid.Int32Range(0, 100000), count32()).Draw(t, "percent")
		s := strconv.Itoa(int(p))
		if rapid.IntRange(0, 9).Draw(t, "leadingZero") == 0 {
			s = "0" + s
		}
		return intstr.FromString(s + "%")
	})
}

// deployment draws an apps/v1 Deployment as the controller sees it, that
// is after defaulting: RollingUpdate with both bounds set, or Recreate
// without rollingUpdate.
func deployment() *rapid.Generator[*appsv1.Deployment] {
	return rapid.Custom(func(t *rapid.T) *appsv1.Deployment {
		r := count32().Draw(t, "replicas")
		d := &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "d-uid", Generation: rapid.Int64Range(0, 5).Draw(t, "generation")},
			Spec: appsv1.DeploymentSpec{
				Replicas: &r,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: podTemplate().Draw(t, "template"),
			},
			Status: appsv1.DeploymentStatus{Replicas: count32().Draw(t, "statusReplicas")},
		}
		if rapid.IntRange(0, 4).Draw(t, "recreate") == 0 {
			d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
		} else {
			surge, unavailable := intOrPercent().Draw(t, "maxSurge"), intOrPercent().Draw(t, "maxUnavailable")
			d.Spec.Strategy = appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable},
			}
		}
		return d
	})
}

// convert turns d into the library's Deployment, failing the property if
// the adapter rejects it (every generated value is representable).
func convert(t *rapid.T, d *appsv1.Deployment) rollout.Deployment[kubeapps.Template] {
	out, err := kubeapps.Deployment(d)
	if err != nil {
		t.Fatalf("kubeapps.Deployment: %v", err)
	}
	return out
}

// replicasAnnotation draws a desired-replicas or max-replicas annotation
// value: absent (""), a valid count, or one of the forms upstream's
// readers treat differently (signs, junk, values beyond int32 or
// uint32, leading zeros).
func replicasAnnotation() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.Just(""),
		rapid.Map(count32(), func(n int32) string { return strconv.Itoa(int(n)) }),
		rapid.SampledFrom([]string{"0", "007", "+3", "-1", "abc", "1.5", " 3",
			"2147483648", "4294967295", "4294967296", "4294967306", "-2147483639", "9223372036854775808"}),
	)
}

// replicaSet draws a ReplicaSet with the given name, its template from
// templates, counters that may exceed int32 when summed, and revision and
// replicas annotations.
func replicaSet(name string, templates []corev1.PodTemplateSpec) *rapid.Generator[*appsv1.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) *appsv1.ReplicaSet {
		spec := count32().Draw(t, "spec")
		tmpl := *templates[rapid.IntRange(0, len(templates)-1).Draw(t, "template")].DeepCopy()
		if rapid.Bool().Draw(t, "hashLabel") {
			if tmpl.Labels == nil {
				tmpl.Labels = map[string]string{}
			}
			tmpl.Labels[revision.HashLabel] = rapid.SampledFrom([]string{"5d4c8f7b9", "6b966d6b4", ""}).Draw(t, "hash")
		}
		rs := &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{
				Name:              name,
				UID:               types.UID("uid-" + name),
				CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, rapid.IntRange(0, 3).Draw(t, "minute"), 0, 0, time.UTC)),
				Annotations:       map[string]string{},
			},
			Spec: appsv1.ReplicaSetSpec{Replicas: &spec, Template: tmpl},
			Status: appsv1.ReplicaSetStatus{
				Replicas:          count32().Draw(t, "statusReplicas"),
				AvailableReplicas: rapid.OneOf(rapid.Just(spec), count32()).Draw(t, "available"),
			},
		}
		if v := replicasAnnotation().Draw(t, "desired"); v != "" {
			rs.Annotations[revision.DesiredReplicasAnnotation] = v
		}
		if v := replicasAnnotation().Draw(t, "max"); v != "" {
			rs.Annotations[revision.MaxReplicasAnnotation] = v
		}
		if v := revisionAnnotation().Draw(t, "revision"); v != "<none>" {
			rs.Annotations[revision.RevisionAnnotation] = v
		}
		return rs
	})
}

// replicaSets draws up to max ReplicaSets named rs-0, rs-1, ... whose
// templates come from a small pool, so that several may match a
// Deployment's template.
func replicaSets(templates []corev1.PodTemplateSpec, max int) *rapid.Generator[[]*appsv1.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) []*appsv1.ReplicaSet {
		n := rapid.IntRange(0, max).Draw(t, "n")
		out := make([]*appsv1.ReplicaSet, n)
		for i := range out {
			out[i] = replicaSet(fmt.Sprintf("rs-%d", i), templates).Draw(t, fmt.Sprintf("rs%d", i))
		}
		return out
	})
}

// revisionAnnotation draws a revision annotation value; "<none>" means
// absent.
func revisionAnnotation() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.Map(rapid.Int64Range(0, 12), func(n int64) string { return strconv.FormatInt(n, 10) }),
		rapid.Map(rapid.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) }),
		rapid.SampledFrom([]string{"<none>", "", "abc", "+5", "-3", "007", "9223372036854775807", "9223372036854775808", " 1"}),
	)
}
