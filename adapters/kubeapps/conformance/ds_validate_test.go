package conformance

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// dsInScope reports whether an upstream DaemonSet validation error is
// about a field daemonset.Validate checks: the spec, but not the pod
// template (the caller's type).
func dsInScope(e *k8sfield.Error) bool {
	return strings.HasPrefix(e.Field, "spec.") && e.Field != "spec.template" && !strings.HasPrefix(e.Field, "spec.template.")
}

// TestValidateMatchesValidateDaemonSetSpec draws DaemonSets as users may
// submit them (selectors, minReadySeconds, revisionHistoryLimit, the
// template generation annotation, every update strategy with any
// maxUnavailable and maxSurge), defaults them as the API server does
// (apps/v1 SetObjectDefaults_DaemonSet), validates them with upstream's
// ValidateDaemonSetSpec on the internal type, and compares the full error
// texts, in order, with daemonset.Validate's on the converted DaemonSet.
// One difference is documented and checked against its model: a nil
// selector (see below).
func TestValidateMatchesValidateDaemonSetSpec(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		counter := rapid.Int32Range(-1, 4)
		ds := &appsv1.DaemonSet{
			ObjectMeta: metav1.ObjectMeta{Name: dsName, Namespace: traceNamespace},
			Spec: appsv1.DaemonSetSpec{
				Template:        dsTemplate("agent:1", false),
				MinReadySeconds: counter.Draw(t, "minReadySeconds"),
				UpdateStrategy: appsv1.DaemonSetUpdateStrategy{
					Type: appsv1.DaemonSetUpdateStrategyType(rapid.SampledFrom([]string{"", "RollingUpdate", "OnDelete", "Foo"}).Draw(t, "strategy"))},
			},
		}
		// Selectors well-formed and malformed: matchExpressions with any
		// operator (an unknown one included), good and bad keys and
		// values; matchLabels with at most one bad entry, since upstream
		// reads them in map order.
		switch rapid.SampledFrom([]string{"nil", "empty", "labels", "labels", "expressions", "drawn", "drawn", "drawn"}).Draw(t, "selector") {
		case "nil":
		case "empty":
			ds.Spec.Selector = &metav1.LabelSelector{}
		case "expressions":
			ds.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"agent", "other"}},
				{Key: "app", Operator: metav1.LabelSelectorOpExists}}}
		case "drawn":
			ds.Spec.Selector = drawSelector(t)
		default:
			ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
		}
		if rapid.Bool().Draw(t, "hasLimit") {
			ds.Spec.RevisionHistoryLimit = ptr32(counter.Draw(t, "revisionHistoryLimit"))
		}
		if rapid.Bool().Draw(t, "hasGeneration") {
			ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: rapid.SampledFrom([]string{"-1", "0", "3"}).Draw(t, "templateGeneration")}
		}
		if rapid.Bool().Draw(t, "hasRollingUpdate") {
			ds.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: drawIntOrString(t, "maxUnavailable"), MaxSurge: drawIntOrString(t, "maxSurge")}
		}
		appsv1defaults.SetObjectDefaults_DaemonSet(ds)
		var internal apps.DaemonSet
		if err := appsv1defaults.Convert_v1_DaemonSet_To_apps_DaemonSet(ds, &internal, nil); err != nil {
			t.Fatalf("converting to the internal type: %v", err)
		}
		var want []string
		class := "agree"
		mismatch := false
		for _, e := range appsvalidation.ValidateDaemonSetSpec(&internal.Spec, k8sfield.NewPath("spec"), apivalidation.PodValidationOptions{}) {
			if dsInScope(e) {
				want = append(want, e.Error())
			}
			mismatch = mismatch || e.Field == "spec.template.metadata.labels"
		}
		if ds.Spec.Selector == nil {
			// The documented difference: upstream reports a nil selector
			// as not matching the template's labels (a nil selector
			// selects nothing), a field this package does not see;
			// daemonset.Validate reports it as spec.selector Required.
			if !mismatch {
				t.Fatalf("nil selector: upstream did not report the template labels")
			}
			want = append([]string{"spec.selector: Required value"}, want...)
			class = "nil selector: Required here, labels mismatch upstream"
		}
		ours := kubeapps.DaemonSet(ds)
		var got []string
		for _, e := range daemonset.Validate(&ours) {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("Validate:\n%s\nupstream ValidateDaemonSetSpec:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if class == "agree" && strings.Contains(strings.Join(want, "\n"), "spec.selector.") {
			class = "agree, malformed selector"
		}
		count("ValidateDaemonSetSpec", class)
	})
}

// dsSelectorKeys and dsSelectorValues are label keys and values, valid
// and not, for drawn selectors.
var (
	dsSelectorKeys   = []string{"app", "example.com/tier", "bad key", "-app", "a/b/c", "/app", "Bad_Prefix.com/app", strings.Repeat("k", 64), ""}
	dsSelectorValues = []string{"agent", "", "bad value", "-x", strings.Repeat("v", 64)}
)

// drawSelector draws a label selector that may be malformed: matchLabels
// with app=agent and at most one more entry (valid or not), then up to
// three matchExpressions with any operator, key and values.
func drawSelector(t *rapid.T) *metav1.LabelSelector {
	sel := &metav1.LabelSelector{}
	if rapid.Bool().Draw(t, "hasMatchLabels") {
		sel.MatchLabels = map[string]string{"app": "agent"}
		if rapid.Bool().Draw(t, "extraLabel") {
			sel.MatchLabels[rapid.SampledFrom(dsSelectorKeys[1:]).Draw(t, "labelKey")] = rapid.SampledFrom(dsSelectorValues).Draw(t, "labelValue")
		}
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "expressions") {
		r := metav1.LabelSelectorRequirement{
			Key:      rapid.SampledFrom(dsSelectorKeys).Draw(t, fmt.Sprintf("key%d", i)),
			Operator: metav1.LabelSelectorOperator(rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", ""}).Draw(t, fmt.Sprintf("operator%d", i))),
		}
		for j := range rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("values%d", i)) {
			r.Values = append(r.Values, rapid.SampledFrom(dsSelectorValues).Draw(t, fmt.Sprintf("value%d.%d", i, j)))
		}
		sel.MatchExpressions = append(sel.MatchExpressions, r)
	}
	return sel
}
