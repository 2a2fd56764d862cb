package rollout

import (
	"fmt"
	"slices"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// PathSelectingAll: the deployment's selector is empty and so selects
// every pod of its namespace; the controller refuses to act on it and only
// records the generation it saw. Upstream: the "SelectingAll" early return
// of syncDeployment.
const PathSelectingAll Path = PathRollingUpdate + 1

// selectingAll reports whether s is the selector syncDeployment refuses:
// non-nil with nil matchLabels and nil matchExpressions. Upstream compares
// with reflect.DeepEqual against an empty metav1.LabelSelector, so a
// non-nil empty map or slice does not count (that selector selects
// everything, and the sync goes on).
func selectingAll(s *ownership.Selector) bool {
	return s != nil && s.MatchLabels == nil && s.MatchExpressions == nil
}

// planSelector runs the selector checks syncDeployment makes before it
// lists ReplicaSets. done says Plan must return *out and err as they
// are: a deployment whose selector selects everything gets
// PathSelectingAll and only its observed generation (written to *out); an
// invalid selector is an Invalid *field.Error on spec.selector (wrapping
// ownership.ErrInvalidSelector), as upstream's
// getReplicaSetsForDeployment fails on it. A nil d.Selector passes (see
// Deployment.Selector).
func planSelector[T any](d *Deployment[T], rss []ReplicaSet[T], out *Sync[T]) (done bool, err error) {
	if selectingAll(d.Selector) {
		*out = Sync[T]{Path: PathSelectingAll, Deployment: *d, NewReplicaSet: -1}
		out.ReplicaSets = append(make([]ReplicaSet[T], 0, len(rss)), rss...)
		slices.SortFunc(out.ReplicaSets, byCreation[T]) // as on every path: oldest first, whatever the input order
		out.Reason = "the selector is empty and selects every pod (event SelectingAll): a non-empty selector is required, so no ReplicaSet is adopted, created or scaled"
		if d.Status.ObservedGeneration < d.Generation {
			out.Deployment.Status.ObservedGeneration = d.Generation
			out.Reason += fmt.Sprintf("; status.observedGeneration %d -> %d", d.Status.ObservedGeneration, d.Generation)
		} else {
			out.Reason += "; status unchanged"
		}
		return true, nil
	}
	if err := d.Selector.Validate(); err != nil {
		return true, invalidObject("Deployment", d.Name, field.ErrorList{
			{Type: field.TypeInvalid, Field: "spec.selector", Detail: err.Error(), Err: err},
		})
	}
	return false, nil
}
