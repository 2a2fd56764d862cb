package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/validation"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/tally"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// genValidationRollout draws a Rollout whose selector and pod template
// are valid (rollout/argo's Validate does not model them: the template
// type is the caller's) and whose other fields break Argo's rules often.
func genValidationRollout(t *rapid.T) *v1alpha1.Rollout {
	s := genScenario(t, false)
	ro := s.ro
	ro.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	ro.Spec.Template = corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
	}
	if r := rapid.IntRange(0, 9).Draw(t, "negativeReplicas"); r == 0 {
		v := int32(-1)
		ro.Spec.Replicas = &v
	}
	ro.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 0, -1, 10, 600, 700}).Draw(t, "minReadySeconds")
	ro.Spec.RevisionHistoryLimit = optInt32(t, "revisionHistoryLimit", -1, 12)
	ro.Spec.ProgressDeadlineSeconds = optInt32(t, "progressDeadlineSeconds", -1, 700)
	switch rapid.IntRange(0, 19).Draw(t, "strategies") {
	case 0:
		ro.Spec.Strategy = v1alpha1.RolloutStrategy{}
	case 1:
		ro.Spec.Strategy.BlueGreen = &v1alpha1.BlueGreenStrategy{ActiveService: "web-active"}
		ro.Spec.Strategy.Canary = &v1alpha1.CanaryStrategy{}
	}
	if b := ro.Spec.Strategy.BlueGreen; b != nil && ro.Spec.Strategy.Canary == nil {
		b.PreviewService = rapid.SampledFrom([]string{"", "web-preview", "web-active"}).Draw(t, "previewService")
		b.ScaleDownDelayRevisionLimit = optInt32(t, "bgRevisionLimit", -1, 12)
	}
	if c := ro.Spec.Strategy.Canary; c != nil && ro.Spec.Strategy.BlueGreen == nil {
		c.CanaryService = rapid.SampledFrom([]string{"", "web-canary", "web"}).Draw(t, "canaryService")
		c.StableService = rapid.SampledFrom([]string{"", "web-stable", "web"}).Draw(t, "stableService")
		c.ScaleDownDelaySeconds = optInt32(t, "scaleDownDelaySeconds", 0, 60)
		if c.TrafficRouting == nil {
			c.DynamicStableScale = rapid.IntRange(0, 5).Draw(t, "basicDynamic") == 0
		} else {
			if rapid.IntRange(0, 3).Draw(t, "plugins") == 0 {
				c.TrafficRouting.Plugins = map[string]json.RawMessage{"argoproj-labs/gatewayAPI": json.RawMessage(`{}`)}
			}
			// managedRoutes absent, empty (present: every route is
			// missing), or naming some of the steps' routes ("header",
			// "mirror" from the scenario, "h", "m" from breakStep).
			c.TrafficRouting.ManagedRoutes = rapid.SampledFrom([][]v1alpha1.MangedRoutes{
				nil, nil, {}, {{Name: "header"}}, {{Name: "h"}, {Name: "m"}}, {{Name: "mirror"}, {Name: "header"}, {Name: "h"}},
			}).Draw(t, "managedRoutes")
		}
		m := int32(100)
		if c.TrafficRouting != nil && c.TrafficRouting.MaxTrafficWeight != nil {
			m = *c.TrafficRouting.MaxTrafficWeight
		}
		for i := range c.Steps {
			st := &c.Steps[i]
			switch rapid.IntRange(0, 11).Draw(t, "breakStep") {
			case 0:
				v := rapid.SampledFrom([]int32{-1, m + 1, 1500}).Draw(t, "badWeight")
				*st = v1alpha1.CanaryStep{SetWeight: &v}
			case 1:
				d := genIntOrString(t, "pauseDuration", -5, 60)
				*st = v1alpha1.CanaryStep{Pause: &v1alpha1.RolloutPause{Duration: &d}}
			case 2:
				*st = v1alpha1.CanaryStep{}
			case 3:
				*st = v1alpha1.CanaryStep{SetHeaderRoute: &v1alpha1.SetHeaderRoute{Name: "h"}}
			case 4:
				*st = v1alpha1.CanaryStep{SetMirrorRoute: &v1alpha1.SetMirrorRoute{Name: "m"}}
			case 5:
				*st = v1alpha1.CanaryStep{Analysis: &v1alpha1.RolloutAnalysis{Templates: []v1alpha1.AnalysisTemplateRef{{TemplateName: "success"}}}}
			}
		}
		if rapid.IntRange(0, 4).Draw(t, "zeroFenceposts") == 0 {
			z := rapid.SampledFrom([]intstr.IntOrString{intstr.FromInt32(0), intstr.FromString("0%"), intstr.FromString("abc"), intstr.FromString("0")}).Draw(t, "zeroSurge")
			c.MaxSurge = &z
			z2 := rapid.SampledFrom([]intstr.IntOrString{intstr.FromInt32(0), intstr.FromString("0%"), intstr.FromString("x")}).Draw(t, "zeroUnavailable")
			c.MaxUnavailable = &z2
		}
	}
	return ro
}

// TestValidateMatchesArgosValidateRollout: on the same Rollout, Argo's
// ValidateRollout and rollout/argo's Validate return the same errors, in
// the same order, with the same full texts. Among the drawn Rollouts:
// Istio with and without a destinationRule (which decides whether the
// canary and stable Services are required), and setHeaderRoute and
// setMirrorRoute steps with managedRoutes absent, empty, or naming some
// of their routes.
func TestValidateMatchesArgosValidateRollout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ro := genValidationRollout(t)
		var want []string
		for _, e := range validation.ValidateRollout(ro) {
			want = append(want, e.Error())
		}
		l := fromArgo(ro)
		var got []string
		for _, e := range argo.Validate(&l) {
			got = append(got, e.Error())
		}
		if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Fatalf("Validate differs:\nArgo:\n  %s\nrollout/argo:\n  %s\nrollout: %s", strings.Join(want, "\n  "), strings.Join(got, "\n  "), strategyText(ro))
		}
		count("ValidateRollout", tally.Agree)
	})
}
