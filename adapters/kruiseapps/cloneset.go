package kruiseapps

import (
	"fmt"

	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// Template is the pod template type the converted CloneSet carries: the
// CloneSet's spec.template, shared with the input object.
type Template = corev1.PodTemplateSpec

// CloneSet converts cs into the CloneSet the cloneset package reads:
// name, generation, deletion, labels, spec (replicas, minReadySeconds,
// revisionHistoryLimit, update and scale strategies, lifecycle,
// template) and status. A nil spec.replicas becomes 1, the webhook's
// default (kruise's controller never sees a nil one); every other nil
// field keeps its nil meaning, which the cloneset package reads as
// kruise's default. Int-or-percent fields are kept as written, for
// cloneset to read with kruise's parsers.
//
// kruise-api v1.8.0 has no spec.progressDeadlineSeconds, so the result's
// ProgressDeadlineSeconds is nil: no deadline, as for a CloneSet created
// without the field under kruise v1.9.1. Conditions carry no
// lastUpdateTime in v1.8.0; the result's LastUpdateTime is the
// condition's lastTransitionTime.
//
// An error reports a nil cs, or a weight-priority selector that
// metav1.LabelSelectorAsSelector rejects, in its words (the result is
// then the zero value; kruise's webhook rejects such a selector too). Validate the result with cloneset.Validate to
// get the webhook's verdict.
// Upstream: the CloneSet as kruise's reconcile reads it
// (ReconcileCloneSet.doReconcile).
func CloneSet(cs *kruise.CloneSet) (cloneset.CloneSet[Template], error) {
	if cs == nil {
		return cloneset.CloneSet[Template]{}, fmt.Errorf("kruiseapps: nil CloneSet")
	}
	u := &cs.Spec.UpdateStrategy
	out := cloneset.CloneSet[Template]{
		Name:                 cs.Name,
		Generation:           cs.Generation,
		Deleting:             cs.DeletionTimestamp != nil,
		Labels:               cs.Labels,
		Replicas:             1,
		MinReadySeconds:      cs.Spec.MinReadySeconds,
		RevisionHistoryLimit: clonePtr(cs.Spec.RevisionHistoryLimit),
		UpdateStrategy: cloneset.UpdateStrategy{
			Type:           cloneset.UpdateStrategyType(u.Type),
			Partition:      intOrString(u.Partition),
			MaxUnavailable: intOrString(u.MaxUnavailable),
			MaxSurge:       intOrString(u.MaxSurge),
			Paused:         u.Paused,
		},
		ScaleStrategy: cloneset.ScaleStrategy{
			PodsToDelete:   cs.Spec.ScaleStrategy.PodsToDelete,
			MaxUnavailable: intOrString(cs.Spec.ScaleStrategy.MaxUnavailable),
		},
		Lifecycle: lifecycle(cs.Spec.Lifecycle),
		Template:  cs.Spec.Template,
		Status:    Status(&cs.Status),
	}
	if cs.Spec.Replicas != nil {
		out.Replicas = *cs.Spec.Replicas
	}
	if u.InPlaceUpdateStrategy != nil {
		out.UpdateStrategy.InPlaceGracePeriodSeconds = u.InPlaceUpdateStrategy.GracePeriodSeconds
	}
	for _, t := range u.ScatterStrategy {
		out.UpdateStrategy.ScatterStrategy = append(out.UpdateStrategy.ScatterStrategy, cloneset.ScatterTerm{Key: t.Key, Value: t.Value})
	}
	if p := u.PriorityStrategy; p != nil {
		ps := &cloneset.PriorityStrategy{}
		for i, w := range p.WeightPriority {
			sel, err := selector(&w.MatchSelector)
			if err != nil {
				return cloneset.CloneSet[Template]{}, fmt.Errorf("kruiseapps: spec.updateStrategy.priorityStrategy.weightPriority[%d].matchSelector: %w", i, err)
			}
			ps.WeightPriority = append(ps.WeightPriority, cloneset.WeightTerm{Weight: w.Weight, MatchSelector: sel})
		}
		for _, o := range p.OrderPriority {
			ps.OrderPriority = append(ps.OrderPriority, cloneset.OrderTerm{OrderedKey: o.OrderedKey})
		}
		out.UpdateStrategy.PriorityStrategy = ps
	}
	return out, nil
}

// selector converts a label selector and checks it as
// metav1.LabelSelectorAsSelector does (ownership.Selector.Validate, in
// upstream's words).
func selector(s *metav1.LabelSelector) (cloneset.LabelSelector, error) {
	out := cloneset.LabelSelector{MatchLabels: s.MatchLabels}
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, cloneset.LabelSelectorRequirement{
			Key: r.Key, Operator: ownership.Operator(r.Operator), Values: r.Values})
	}
	if err := out.Validate(); err != nil {
		return cloneset.LabelSelector{}, err
	}
	return out, nil
}

// lifecycle converts spec.lifecycle; nil stays nil.
func lifecycle(l *appspub.Lifecycle) *cloneset.Lifecycle {
	if l == nil {
		return nil
	}
	hook := func(h *appspub.LifecycleHook) *cloneset.LifecycleHook {
		if h == nil {
			return nil
		}
		return &cloneset.LifecycleHook{LabelsHandler: h.LabelsHandler, FinalizersHandler: h.FinalizersHandler, MarkPodNotReady: h.MarkPodNotReady}
	}
	return &cloneset.Lifecycle{PreDelete: hook(l.PreDelete), InPlaceUpdate: hook(l.InPlaceUpdate), PreNormal: hook(l.PreNormal)}
}

// intOrString converts an IntOrString as written; nil stays nil.
func intOrString(v *intstr.IntOrString) *intorpercent.IntOrString {
	if v == nil {
		return nil
	}
	return &intorpercent.IntOrString{IsString: v.Type == intstr.String, Int: v.IntVal, Str: v.StrVal}
}

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Status converts a CloneSet's status: counters, revisions, collision
// count (copied), selector and conditions, in order. kruise-api v1.8.0's
// conditions have no lastUpdateTime; LastUpdateTime is set to
// lastTransitionTime.
func Status(s *kruise.CloneSetStatus) cloneset.Status {
	out := cloneset.Status{
		ObservedGeneration:       s.ObservedGeneration,
		Replicas:                 s.Replicas,
		ReadyReplicas:            s.ReadyReplicas,
		AvailableReplicas:        s.AvailableReplicas,
		UpdatedReplicas:          s.UpdatedReplicas,
		UpdatedReadyReplicas:     s.UpdatedReadyReplicas,
		UpdatedAvailableReplicas: s.UpdatedAvailableReplicas,
		ExpectedUpdatedReplicas:  s.ExpectedUpdatedReplicas,
		UpdateRevision:           s.UpdateRevision,
		CurrentRevision:          s.CurrentRevision,
		CollisionCount:           clonePtr(s.CollisionCount),
		LabelSelector:            s.LabelSelector,
	}
	for _, c := range s.Conditions {
		out.Conditions = append(out.Conditions, cloneset.Condition{
			Type:               cloneset.ConditionType(c.Type),
			Status:             cloneset.ConditionStatus(c.Status),
			Reason:             c.Reason,
			Message:            c.Message,
			LastUpdateTime:     c.LastTransitionTime.Time,
			LastTransitionTime: c.LastTransitionTime.Time,
		})
	}
	return out
}

// StatusObject converts a status back to the kruise-api type. Every
// condition's LastUpdateTime is dropped: kruise-api v1.8.0 has no field
// for it (kruise v1.9.1 writes it). The collision count and conditions
// are copies.
func StatusObject(s *cloneset.Status) kruise.CloneSetStatus {
	out := kruise.CloneSetStatus{
		ObservedGeneration:       s.ObservedGeneration,
		Replicas:                 s.Replicas,
		ReadyReplicas:            s.ReadyReplicas,
		AvailableReplicas:        s.AvailableReplicas,
		UpdatedReplicas:          s.UpdatedReplicas,
		UpdatedReadyReplicas:     s.UpdatedReadyReplicas,
		UpdatedAvailableReplicas: s.UpdatedAvailableReplicas,
		ExpectedUpdatedReplicas:  s.ExpectedUpdatedReplicas,
		UpdateRevision:           s.UpdateRevision,
		CurrentRevision:          s.CurrentRevision,
		CollisionCount:           clonePtr(s.CollisionCount),
		LabelSelector:            s.LabelSelector,
	}
	for _, c := range s.Conditions {
		out.Conditions = append(out.Conditions, kruise.CloneSetCondition{
			Type:               kruise.CloneSetConditionType(c.Type),
			Status:             corev1.ConditionStatus(c.Status),
			Reason:             c.Reason,
			Message:            c.Message,
			LastTransitionTime: metav1.NewTime(c.LastTransitionTime),
		})
	}
	return out
}
