package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/openkruise/rollouts/api/v1beta1"
	"github.com/openkruise/rollouts/pkg/webhook/rollout/validating"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// The Rollout webhook's validation, reached through its admission
// handler: RolloutCreateUpdateHandler.Handle with a v1beta1 Create
// request (so validateRolloutSpec, then the conflict check, which finds
// no other Rollout on the fake client), against the adapter's reading of
// the same JSON and batchrelease.Validate. Allowed or denied must agree,
// and the denial's text must be the library's, error by error.
//
// One documented difference: where upstream prints a Go value that
// holds pointers (the step list, whose %#v shows addresses) or the
// workload reference (which the library's Rollout does not keep), the
// library's error omits the value. For those errors the value part of
// upstream's text is checked against what upstream prints there (the
// step list's type, the reference's %#v), and the rest of the text
// compared exactly.

// validSupportedRefs are the workload references drawn: each kind the
// library models (the adapter refuses the others before validation).
var validSupportedRefs = []v1beta1.ObjectRef{
	{APIVersion: "apps/v1", Kind: "Deployment", Name: "demo"},
	{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "demo"},
	{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "demo"},
	{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet", Name: "demo"},
}

// genValidationSteps draws steps whose replicas and traffic exercise
// each rule: missing, malformed, out of range, decreasing, mixed kinds.
func genValidationSteps(t *rapid.T) []v1beta1.CanaryStep {
	n := rapid.IntRange(-1, 4).Draw(t, "steps")
	if n < 0 {
		return nil
	}
	steps := make([]v1beta1.CanaryStep, n)
	for i := range steps {
		s := &steps[i]
		if rapid.IntRange(0, 14).Draw(t, "replicasNil") > 0 {
			v := genValue(t, "replicas")
			s.Replicas = &v
		}
		if rapid.IntRange(0, 2).Draw(t, "traffic") == 0 {
			s.Traffic = genStringPtr(t, "trafficText", "0%", "5%", "50%", "100%", "101%", "-1%", "abc", "5", "")
		}
		if rapid.IntRange(0, 4).Draw(t, "matches") == 0 {
			s.Matches = []v1beta1.HttpRouteMatch{{}}
		}
	}
	return steps
}

// genValidRoutings draws 0 to 2 traffic routings that pass the webhook's
// own checks of a routing (which the library does not model).
func genValidRoutings(t *rapid.T) []v1beta1.TrafficRoutingRef {
	var out []v1beta1.TrafficRoutingRef
	for j := rapid.IntRange(0, 2).Draw(t, "routings"); j > 0; j-- {
		out = append(out, v1beta1.TrafficRoutingRef{Service: "demo", Ingress: &v1beta1.IngressTrafficRouting{Name: "demo"}})
	}
	return out
}

func genValidationRollout(t *rapid.T) *v1beta1.Rollout {
	r := &v1beta1.Rollout{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "Rollout"},
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default"},
	}
	r.Spec.WorkloadRef = rapid.SampledFrom(validSupportedRefs).Draw(t, "workloadRef")
	switch rapid.IntRange(0, 9).Draw(t, "strategy") {
	case 0:
	case 1:
		r.Spec.Strategy.Canary = &v1beta1.CanaryStrategy{Steps: genValidationSteps(t)}
		r.Spec.Strategy.BlueGreen = &v1beta1.BlueGreenStrategy{Steps: genValidationSteps(t)}
	case 2, 3, 4:
		r.Spec.Strategy.BlueGreen = &v1beta1.BlueGreenStrategy{Steps: genValidationSteps(t), TrafficRoutings: genValidRoutings(t)}
	default:
		r.Spec.Strategy.Canary = &v1beta1.CanaryStrategy{
			Steps: genValidationSteps(t), TrafficRoutings: genValidRoutings(t),
			EnableExtraWorkloadForCanary: rapid.Bool().Draw(t, "enableExtraWorkloadForCanary"),
		}
	}
	return r
}

var rolloutHandler = func() *validating.RolloutCreateUpdateHandler {
	dec, err := admission.NewDecoder(scheme)
	if err != nil {
		panic(err)
	}
	return &validating.RolloutCreateUpdateHandler{
		Client:  fake.NewClientBuilder().WithScheme(scheme).Build(),
		Decoder: dec,
	}
}()

// webhookVerdict sends r to the webhook as a v1beta1 Create request and
// returns "" when allowed, the denial's message otherwise.
func webhookVerdict(t tb, r *v1beta1.Rollout) string {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		Operation: admissionv1.Create,
		Kind:      metav1.GroupVersionKind{Group: "rollouts.kruise.io", Version: "v1beta1", Kind: "Rollout"},
		Object:    runtime.RawExtension{Raw: raw},
		Name:      r.Name, Namespace: r.Namespace,
	}}
	resp := rolloutHandler.Handle(context.Background(), req)
	if resp.Allowed {
		return ""
	}
	if resp.Result == nil {
		t.Fatalf("denied without a result")
	}
	return resp.Result.Message
}

// expectedPattern turns the library's errors into the regular expression
// upstream's message must match: each error's text exactly, except the
// value the library omits, which must be what upstream prints there.
func expectedPattern(errs field.ErrorList, r *v1beta1.Rollout) (pattern string, omitted bool) {
	var parts []string
	for _, e := range errs {
		if e.Type != field.TypeInvalid || e.Value != "" {
			parts = append(parts, regexp.QuoteMeta(e.Error()))
			continue
		}
		omitted = true
		var value string
		switch {
		case strings.HasSuffix(e.Field, ".WorkloadRef"):
			ref := r.Spec.WorkloadRef
			value = regexp.QuoteMeta(fmt.Sprintf("%#v", ref))
		case strings.HasSuffix(e.Field, ".steps") || strings.HasSuffix(e.Field, ".CanaryReplicas"):
			value = regexp.QuoteMeta("[]v1beta1.CanaryStep{") + `.*` + regexp.QuoteMeta("}")
		default: // the traffic routings
			value = regexp.QuoteMeta("[]v1beta1.TrafficRoutingRef{") + `.*` + regexp.QuoteMeta("}")
		}
		parts = append(parts, regexp.QuoteMeta(e.Field+": "+string(e.Type)+": ")+value+regexp.QuoteMeta(": "+e.Detail))
	}
	if len(parts) == 1 {
		return "^" + parts[0] + "$", omitted
	}
	return `^\[` + strings.Join(parts, ", ") + `\]$`, omitted
}

func TestValidateMatchesRolloutWebhook(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		up := genValidationRollout(t)
		msg := webhookVerdict(t, up)

		objs := readOne(t, up)
		ro, err := kruiserollouts.ConvertRollout(objs.Rollouts[0])
		if err != nil {
			t.Fatalf("ConvertRollout: %v", err)
		}
		verr := batchrelease.Validate(&ro)
		if verr == nil {
			if msg != "" {
				t.Fatalf("library allows, webhook denies: %s", msg)
			}
			count("webhook: Rollout create (validateRolloutSpec)", "agree")
			return
		}
		errs, ok := verr.(field.ErrorList)
		if !ok {
			t.Fatalf("Validate returned %T, want field.ErrorList", verr)
		}
		if msg == "" {
			t.Fatalf("library denies (%v), webhook allows", verr)
		}
		pattern, omitted := expectedPattern(errs, up)
		if !regexp.MustCompile(pattern).MatchString(msg) {
			t.Fatalf("webhook: %s\nlibrary: %v\n(pattern %s)", msg, verr, pattern)
		}
		class := "agree"
		if omitted {
			class = "value omitted (upstream prints pointers or the workload reference)"
		}
		count("webhook: Rollout create (validateRolloutSpec)", class)
	})
}

// TestValidateWebhookCases are the step-validation acceptance cases,
// through the webhook and the library.
func TestValidateWebhookCases(t *testing.T) {
	pct, num := intstr.FromString, func(n int) intstr.IntOrString { return intstr.FromInt(n) }
	traffic := func(s string) *string { return &s }
	for _, tc := range []struct {
		name  string
		style string // "canary", "partition" (canary on a CloneSet) or "blueGreen"
		steps []v1beta1.CanaryStep
		want  string // the library's text; "" allowed
	}{
		{"replicas 0%", "partition", []v1beta1.CanaryStep{{Replicas: ptrTo(pct("0%"))}},
			`Spec.Strategy.Canary.Steps[0].Replicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
		{"int 150", "partition", []v1beta1.CanaryStep{{Replicas: ptrTo(num(150))}}, ""},
		{"101%", "partition", []v1beta1.CanaryStep{{Replicas: ptrTo(pct("101%"))}},
			`Spec.Strategy.Canary.Steps[0].Replicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
		{"partition + traffic 10% + 60%", "partition", []v1beta1.CanaryStep{{Replicas: ptrTo(pct("60%")), TrafficRoutingStrategy: v1beta1.TrafficRoutingStrategy{Traffic: traffic("10%")}}},
			`Spec.Strategy.Canary.Steps[0].steps: Invalid value: For partition style rollout: step[x].replicas must not greater than partition-percent-limit if traffic specified`},
		{"traffic 0% canary", "canary", []v1beta1.CanaryStep{{Replicas: ptrTo(num(1)), TrafficRoutingStrategy: v1beta1.TrafficRoutingStrategy{Traffic: traffic("0%")}}},
			`Spec.Strategy.Canary.Steps[0].steps: Invalid value: traffic must be percentage with "0%" < traffic <= "100%" in canary strategy`},
		{"traffic 0% blue-green", "blueGreen", []v1beta1.CanaryStep{{Replicas: ptrTo(num(1)), TrafficRoutingStrategy: v1beta1.TrafficRoutingStrategy{Traffic: traffic("0%")}}}, ""},
		{"[3, 2]", "partition", []v1beta1.CanaryStep{{Replicas: ptrTo(num(3))}, {Replicas: ptrTo(num(2))}},
			`Spec.Strategy.Canary.Steps.CanaryReplicas: Invalid value: Steps.CanaryReplicas must be a non decreasing sequence`},
		{`["50%", 2]`, "partition", []v1beta1.CanaryStep{{Replicas: ptrTo(pct("50%"))}, {Replicas: ptrTo(num(2))}}, ""},
	} {
		t.Run(tc.name, func(rt *testing.T) {
			{
				up := &v1beta1.Rollout{
					TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "Rollout"},
					ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default"},
				}
				switch tc.style {
				case "partition":
					up.Spec.WorkloadRef = validSupportedRefs[2]
					up.Spec.Strategy.Canary = &v1beta1.CanaryStrategy{Steps: tc.steps}
				case "canary":
					up.Spec.WorkloadRef = validSupportedRefs[0]
					up.Spec.Strategy.Canary = &v1beta1.CanaryStrategy{Steps: tc.steps, EnableExtraWorkloadForCanary: true}
				default:
					up.Spec.WorkloadRef = validSupportedRefs[0]
					up.Spec.Strategy.BlueGreen = &v1beta1.BlueGreenStrategy{Steps: tc.steps}
				}
				msg := webhookVerdict(rt, up)
				ro, err := kruiserollouts.ConvertRollout(readOne(rt, up).Rollouts[0])
				if err != nil {
					rt.Fatal(err)
				}
				got := ""
				if err := batchrelease.Validate(&ro); err != nil {
					got = err.Error()
					pattern, _ := expectedPattern(err.(field.ErrorList), up)
					if !regexp.MustCompile(pattern).MatchString(msg) {
						rt.Fatalf("webhook %q does not match the library's %q", msg, got)
					}
				} else if msg != "" {
					rt.Fatalf("webhook denies: %s", msg)
				}
				if got != tc.want {
					rt.Fatalf("library: %q\nwant:    %q", got, tc.want)
				}
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
