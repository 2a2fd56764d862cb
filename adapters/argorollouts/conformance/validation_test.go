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
		} else if rapid.IntRange(0, 3).Draw(t, "plugins") == 0 {
			c.TrafficRouting.Plugins = map[string]json.RawMessage{"argoproj-labs/gatewayAPI": json.RawMessage(`{}`)}
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
// the same order, with the same full texts.
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
		class := tally.Agree
		// The second documented difference: rollout/argo does not keep
		// trafficRouting.managedRoutes, so it cannot ask for it. Argo
		// reports it once per setHeaderRoute or setMirrorRoute step when
		// trafficRouting is set without managedRoutes (the generator
		// never sets managedRoutes). The model: those errors, and only
		// those, are Argo's alone.
		var managed int
		want, managed = withoutManagedRoutesErrors(want)
		if wantManaged := managedRoutesErrors(ro); managed != wantManaged {
			t.Fatalf("Argo reports %d managedRoutes errors, the model %d\nrollout: %s", managed, wantManaged, strategyText(ro))
		}
		if managed > 0 {
			class = "setHeaderRoute/setMirrorRoute without managedRoutes: Argo asks for managedRoutes, rollout/argo does not"
		}
		argoAsks, oursAsks := servicesRequired(ro)
		if argoAsks != oursAsks {
			// The documented difference: rollout/argo's Router keeps only
			// a router's presence, so it cannot see an Istio
			// destinationRule or a pingPong block, which decide for Argo
			// whether canaryService and stableService are required. The
			// model: both sides agree once the service errors are
			// removed, and the side that asks reports exactly the
			// services that are empty.
			expect := serviceErrors(ro.Spec.Strategy.Canary)
			asker, other := want, got
			class = "Istio without destinationRule: Argo asks for the services, rollout/argo does not"
			if oursAsks {
				asker, other = got, want
				class = "ALB with pingPong: rollout/argo asks for the services, Argo does not"
			}
			if rest, found := withoutServiceErrors(asker); strings.Join(rest, "\n") != strings.Join(other, "\n") || strings.Join(found, "\n") != strings.Join(expect, "\n") {
				t.Fatalf("Validate differs beyond the documented service rule:\nArgo:\n  %s\nrollout/argo:\n  %s\nrollout: %s", strings.Join(want, "\n  "), strings.Join(got, "\n  "), strategyText(ro))
			}
			if len(expect) == 0 && managed == 0 {
				class = tally.Agree
			}
		} else if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Fatalf("Validate differs:\nArgo:\n  %s\nrollout/argo:\n  %s\nrollout: %s", strings.Join(want, "\n  "), strings.Join(got, "\n  "), strategyText(ro))
		}
		count("ValidateRollout", class)
	})
}

const msgTrafficServices = "Canary service and Stable service must to be set to use Traffic Routing"

// servicesRequired says whether each side requires canaryService and
// stableService: Argo as requireCanaryStableServices
// (pkg/apis/rollouts/validation/validation.go) decides, from the routers
// and their settings; rollout/argo from the routers' presence alone (as
// rollout/argo's Validate documents: ALB, SMI, Apisix, Ambassador, Nginx,
// AppMesh or Traefik, never Istio).
func servicesRequired(ro *v1alpha1.Rollout) (argoAsks, oursAsks bool) {
	c := ro.Spec.Strategy.Canary
	if c == nil || ro.Spec.Strategy.BlueGreen != nil || c.TrafficRouting == nil {
		return false, false
	}
	tr := c.TrafficRouting
	others := tr.SMI != nil || tr.Apisix != nil || tr.Ambassador != nil || tr.Nginx != nil || tr.AppMesh != nil || tr.Traefik != nil
	argoAsks = others || (tr.ALB != nil && c.PingPong == nil) || (tr.Istio != nil && tr.Istio.DestinationRule == nil && c.PingPong == nil)
	oursAsks = others || tr.ALB != nil
	return argoAsks, oursAsks
}

// serviceErrors are the errors of the services rule for c, in Argo's
// order.
func serviceErrors(c *v1alpha1.CanaryStrategy) []string {
	var out []string
	if c.StableService == "" {
		out = append(out, `spec.strategy.stableService: Invalid value: "": `+msgTrafficServices)
	}
	if c.CanaryService == "" {
		out = append(out, `spec.strategy.canaryService: Invalid value: "": `+msgTrafficServices)
	}
	return out
}

// withoutServiceErrors splits errs into the rest and the errors of the
// services rule.
func withoutServiceErrors(errs []string) (rest, found []string) {
	for _, e := range errs {
		if strings.HasSuffix(e, ": "+msgTrafficServices) {
			found = append(found, e)
		} else {
			rest = append(rest, e)
		}
	}
	return rest, found
}

const msgManagedRoutes = "spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'"

// managedRoutesErrors is how many managedRoutes errors Argo reports for
// ro: one per setHeaderRoute or setMirrorRoute step of a canary with
// trafficRouting and no managedRoutes.
func managedRoutesErrors(ro *v1alpha1.Rollout) int {
	c := ro.Spec.Strategy.Canary
	if c == nil || ro.Spec.Strategy.BlueGreen != nil || c.TrafficRouting == nil || c.TrafficRouting.ManagedRoutes != nil {
		return 0
	}
	n := 0
	for _, st := range c.Steps {
		if st.SetHeaderRoute != nil || st.SetMirrorRoute != nil {
			n++
		}
	}
	return n
}

// withoutManagedRoutesErrors removes the managedRoutes errors from errs
// and counts them.
func withoutManagedRoutesErrors(errs []string) (rest []string, n int) {
	for _, e := range errs {
		if e == msgManagedRoutes {
			n++
		} else {
			rest = append(rest, e)
		}
	}
	return rest, n
}
