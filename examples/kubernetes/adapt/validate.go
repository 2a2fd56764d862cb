package adapt

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Validate checks d as the API server checks a Deployment, for what
// the rollout depends on, and returns nil or an intorpercent.ErrorList
// in the API server's words: the selector is required, not empty, and
// matches the template's labels; then the conversion (Deployment) and
// rollout.Validate on the result (replicas, strategy, rolling-update
// bounds, minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds,
// status counters). Container, volume and other pod-spec rules are not
// checked.
func Validate(d *appsv1.Deployment) error {
	var errs intorpercent.ErrorList
	switch sel := d.Spec.Selector; {
	case sel == nil:
		errs = append(errs, &intorpercent.FieldError{Type: intorpercent.Required, Field: "spec.selector"})
	case len(sel.MatchLabels)+len(sel.MatchExpressions) == 0:
		errs = append(errs, &intorpercent.FieldError{Type: intorpercent.Invalid, Field: "spec.selector",
			Value: "{}", Detail: "empty selector is invalid for deployment"})
	default:
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			errs = append(errs, &intorpercent.FieldError{Type: intorpercent.Invalid, Field: "spec.selector",
				Value: fmt.Sprintf("%q", metav1.FormatLabelSelector(sel)), Detail: err.Error()})
		} else if !s.Matches(labels.Set(d.Spec.Template.Labels)) {
			errs = append(errs, &intorpercent.FieldError{Type: intorpercent.Invalid, Field: "spec.template.metadata.labels",
				Value: fmt.Sprintf("%#v", d.Spec.Template.Labels), Detail: "`selector` does not match template `labels`"})
		}
	}
	converted, err := Deployment(d)
	if err != nil {
		return append(errs, err.(intorpercent.ErrorList)...)
	}
	if err := rollout.Validate(&converted); err != nil {
		var list intorpercent.ErrorList
		if l, ok := err.(intorpercent.ErrorList); ok {
			list = l
		} else {
			return err
		}
		errs = append(errs, list...)
	}
	return errs.ToError()
}
