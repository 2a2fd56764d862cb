package kubeapps

import (
	"encoding/json"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Validate checks d as the API server checks a Deployment it has
// defaulted, for what the rollout depends on, and returns nil or an
// field.ErrorList with the API server's errors, in its order and
// words: spec.replicas; the selector (required, not empty) and whether it
// matches the template's labels; the strategy and its rolling-update
// bounds, invalid strings included; minReadySeconds, revisionHistoryLimit
// and progressDeadlineSeconds; the status counters. The pod template
// itself (containers, volumes, ...) and metadata are not checked.
//
// One value the API server accepts is rejected: a maxSurge percentage
// beyond 2147483647% (see Deployment).
func Validate(d *appsv1.Deployment) error {
	var errs field.ErrorList
	switch sel := d.Spec.Selector; {
	case sel == nil:
		errs = append(errs, &field.Error{Type: field.TypeRequired, Field: "spec.selector"})
	case len(sel.MatchLabels)+len(sel.MatchExpressions) == 0:
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.selector",
			Value: jsonText(sel), Detail: "empty selector is invalid for deployment"})
	}
	if s, err := metav1.LabelSelectorAsSelector(d.Spec.Selector); err != nil {
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.selector",
			Value: jsonText(d.Spec.Selector), Detail: "invalid label selector"})
	} else if !s.Empty() && !s.Matches(labels.Set(d.Spec.Template.Labels)) {
		// A nil selector selects nothing, so it never matches.
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.template.metadata.labels",
			Value: jsonText(d.Spec.Template.Labels), Detail: "`selector` does not match template `labels`"})
	}
	converted, _ := convert(d)
	rolling := d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType || d.Spec.Strategy.Type == ""
	if rolling {
		// The bounds as written, in the API server's words; other
		// strategies' bounds are not read: the API server forbids them
		// or rejects the strategy first.
		errs = append(errs, validateBounds(d)...)
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge == nil && ru.MaxUnavailable == nil &&
		d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		// rollingUpdate: {} converts to no bounds at all, which the
		// library cannot tell from an absent rollingUpdate.
		errs = append(errs, &field.Error{Type: field.TypeForbidden, Field: rollingUpdateField,
			Detail: "may not be specified when strategy `type` is 'Recreate'"})
	}
	if err := rollout.Validate(&converted); err != nil {
		list, ok := err.(field.ErrorList)
		if !ok {
			return err
		}
		for _, e := range list {
			if rolling && (e.Field == rollingUpdateField+".maxUnavailable" || e.Field == rollingUpdateField+".maxSurge") {
				continue // the converted bounds' errors: validateBounds has them as written
			}
			if e.Type == field.TypeNotSupported && e.Field == "spec.strategy" {
				// rollout.Validate renders the converted strategy, which
				// cannot hold "rollingUpdate: {}" nor a bound as written
				// ("00%", "abc"); the API server renders the object's.
				c := *e
				c.Value = internalStrategyText(&d.Spec.Strategy)
				e = &c
			}
			errs = append(errs, e)
		}
	}
	slices.SortStableFunc(errs, func(a, b *field.Error) int { return rank(a) - rank(b) })
	return errs.ToError()
}

// rank orders field errors as the API server reports them.
func rank(e *field.Error) int {
	switch f := e.Field; {
	case f == "spec.replicas":
		return 0
	case f == "spec.selector":
		return 1
	case strings.HasPrefix(f, "spec.template"):
		return 2
	case f == rollingUpdateField+".maxUnavailable":
		switch e.Detail {
		case "may not be 0 when `maxSurge` is 0":
			return 5
		case "must not be greater than 100%":
			return 6
		}
		return 3
	case f == rollingUpdateField+".maxSurge":
		return 4
	case strings.HasPrefix(f, "spec.strategy"):
		return 3
	case f == "spec.minReadySeconds":
		return 7
	case f == "spec.revisionHistoryLimit":
		return 8
	case f == "spec.progressDeadlineSeconds":
		return 9
	case strings.HasPrefix(f, "spec."):
		return 10
	}
	return 11
}

// jsonText renders a value as the API server renders a complex invalid
// value in an error: its JSON.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<unrenderable>"
	}
	return string(b)
}

// internalStrategyText renders a strategy as the API server renders it in
// an error: the JSON of its internal type, which has no JSON tags, with
// nil bounds as their zero value.
func internalStrategyText(s *appsv1.DeploymentStrategy) string {
	type rollingUpdate struct{ MaxUnavailable, MaxSurge intstr.IntOrString }
	var out struct {
		Type          string
		RollingUpdate *rollingUpdate
	}
	out.Type = string(s.Type)
	if ru := s.RollingUpdate; ru != nil {
		out.RollingUpdate = &rollingUpdate{}
		if ru.MaxUnavailable != nil {
			out.RollingUpdate.MaxUnavailable = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			out.RollingUpdate.MaxSurge = *ru.MaxSurge
		}
	}
	return jsonText(out)
}
