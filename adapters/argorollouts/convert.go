package argorollouts

import (
	"bytes"
	"encoding/json"
	"maps"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// Template is the pod template type of the Rollouts and ReplicaSets this
// package converts: spec.template as the API holds it.
type Template = corev1.PodTemplateSpec

// errPrefix opens every error this package returns.
const errPrefix = "argorollouts"

// Rollout converts a Rollout as the Argo Rollouts controller reads it:
// metadata.name, namespace and generation, the spec fields and the status
// the replica math reads, each copied as written (nil stays nil: the
// defaults are rollout/argo's to apply, as Argo applies them when it
// reads a field). Maps, slices and the pod template are shared with obj,
// which is safe because rollout/argo never modifies its inputs; pointers
// to numbers are copied.
//
// A JSON null where an object was expected (a router, a step's
// experiment) reads as absent, as it does for Argo's Go types.
//
// Errors (a *field.Error wrapping field.ErrInvalid): obj nil; apiVersion
// or kind set to something else than argoproj.io/v1alpha1 Rollout
// (field.ErrUnsupported); spec.workloadRef set (field.ErrUnsupported: the
// template lives in another object; resolve it into spec.template and
// clear workloadRef first). Whether the values are acceptable to Argo is
// argo.Validate's question, not this function's.
//
// Upstream: the Rollout as rollout.Controller's syncHandler reads it
// (rollout/controller.go newRolloutContext).
func Rollout(obj *RolloutObject) (argo.Rollout[Template], error) {
	if obj == nil {
		return argo.Rollout[Template]{}, &field.Error{Prefix: errPrefix, Field: "rollout", Detail: "must not be nil", Err: field.ErrRequired}
	}
	if err := checkKind(obj.TypeMeta); err != nil {
		return argo.Rollout[Template]{}, err
	}
	s := &obj.Spec
	if present(s.WorkloadRef) {
		return argo.Rollout[Template]{}, &field.Error{
			Prefix: errPrefix + ": Rollout " + strconv.Quote(obj.Name),
			Field:  "spec.workloadRef",
			Detail: "a Rollout that takes its template from another workload is not supported: copy the workload's template into spec.template",
			Err:    field.ErrUnsupported,
		}
	}
	out := argo.Rollout[Template]{
		Name:                    obj.Name,
		Namespace:               obj.Namespace,
		Generation:              obj.Generation,
		Replicas:                clonePtr(s.Replicas),
		Template:                s.Template,
		MinReadySeconds:         s.MinReadySeconds,
		RevisionHistoryLimit:    clonePtr(s.RevisionHistoryLimit),
		Paused:                  s.Paused,
		ProgressDeadlineSeconds: clonePtr(s.ProgressDeadlineSeconds),
		Status:                  Status(&obj.Status),
	}
	if s.RollbackWindow != nil {
		out.RollbackWindow = &argo.RollbackWindow{Revisions: s.RollbackWindow.Revisions}
	}
	if c := s.Strategy.Canary; c != nil {
		out.Strategy.Canary = canary(c)
	}
	if b := s.Strategy.BlueGreen; b != nil {
		out.Strategy.BlueGreen = &argo.BlueGreen{
			ActiveService:               b.ActiveService,
			PreviewService:              b.PreviewService,
			PreviewReplicaCount:         clonePtr(b.PreviewReplicaCount),
			AutoPromotionEnabled:        clonePtr(b.AutoPromotionEnabled),
			AutoPromotionSeconds:        b.AutoPromotionSeconds,
			MaxUnavailable:              intOrString(b.MaxUnavailable),
			ScaleDownDelaySeconds:       clonePtr(b.ScaleDownDelaySeconds),
			ScaleDownDelayRevisionLimit: clonePtr(b.ScaleDownDelayRevisionLimit),
			AbortScaleDownDelaySeconds:  clonePtr(b.AbortScaleDownDelaySeconds),
		}
	}
	return out, nil
}

// checkKind accepts an object whose apiVersion and kind are Argo's
// Rollout's, or unset (a Go value built in code).
func checkKind(tm metav1.TypeMeta) error {
	if tm.APIVersion != "" && tm.APIVersion != APIVersion {
		return &field.Error{Prefix: errPrefix, Field: "apiVersion", Type: field.TypeNotSupported, Value: strconv.Quote(tm.APIVersion), Detail: `supported values: "` + APIVersion + `"`, Err: field.ErrUnsupported}
	}
	if tm.Kind != "" && tm.Kind != Kind {
		return &field.Error{Prefix: errPrefix, Field: "kind", Type: field.TypeNotSupported, Value: strconv.Quote(tm.Kind), Detail: `supported values: "` + Kind + `"`, Err: field.ErrUnsupported}
	}
	return nil
}

// canary converts spec.strategy.canary.
func canary(c *CanaryStrategy) *argo.Canary {
	out := &argo.Canary{
		CanaryService:               c.CanaryService,
		StableService:               c.StableService,
		MaxSurge:                    intOrString(c.MaxSurge),
		MaxUnavailable:              intOrString(c.MaxUnavailable),
		ScaleDownDelaySeconds:       clonePtr(c.ScaleDownDelaySeconds),
		ScaleDownDelayRevisionLimit: clonePtr(c.ScaleDownDelayRevisionLimit),
		AbortScaleDownDelaySeconds:  clonePtr(c.AbortScaleDownDelaySeconds),
		DynamicStableScale:          c.DynamicStableScale,
		MinPodsPerReplicaSet:        clonePtr(c.MinPodsPerReplicaSet),
	}
	if t := c.ReplicaProgressThreshold; t != nil {
		out.ReplicaProgressThreshold = &argo.ReplicaProgressThreshold{Type: argo.ProgressType(t.Type), Value: t.Value}
	}
	for _, st := range c.Steps {
		step := argo.CanaryStep{
			SetWeight:      clonePtr(st.SetWeight),
			Experiment:     raw(st.Experiment),
			Analysis:       raw(st.Analysis),
			SetHeaderRoute: raw(st.SetHeaderRoute),
			SetMirrorRoute: raw(st.SetMirrorRoute),
			Plugin:         raw(st.Plugin),
		}
		if p := st.Pause; p != nil {
			step.Pause = &argo.RolloutPause{Duration: intOrString(p.Duration)}
		}
		if sc := st.SetCanaryScale; sc != nil {
			step.SetCanaryScale = &argo.SetCanaryScale{Weight: clonePtr(sc.Weight), Replicas: clonePtr(sc.Replicas), MatchTrafficWeight: sc.MatchTrafficWeight}
		}
		out.Steps = append(out.Steps, step)
	}
	if t := c.TrafficRouting; t != nil {
		out.TrafficRouting = &argo.TrafficRouting{
			Istio:            istio(t.Istio),
			Nginx:            router(t.Nginx),
			ALB:              router(t.ALB),
			SMI:              router(t.SMI),
			Ambassador:       router(t.Ambassador),
			AppMesh:          router(t.AppMesh),
			Traefik:          router(t.Traefik),
			Apisix:           router(t.Apisix),
			Plugins:          t.Plugins,
			MaxTrafficWeight: clonePtr(t.MaxTrafficWeight),
		}
		if t.ManagedRoutes != nil {
			out.TrafficRouting.ManagedRoutes = make([]argo.ManagedRoute, len(t.ManagedRoutes))
			for i, r := range t.ManagedRoutes {
				out.TrafficRouting.ManagedRoutes[i] = argo.ManagedRoute{Name: r.Name}
			}
		}
	}
	return out
}

// istio converts trafficRouting.istio: its presence, and whether it
// names a destinationRule.
func istio(r *IstioTrafficRouting) *argo.Istio {
	if r == nil {
		return nil
	}
	out := &argo.Istio{}
	if present(r.DestinationRule) {
		out.DestinationRule = &argo.IstioDestinationRule{}
	}
	return out
}

// Status converts a Rollout's status: every field rollout/argo's Status
// has, copied as written. Times keep their location; pointers are copied.
// Upstream: v1alpha1.RolloutStatus.
func Status(s *RolloutStatus) argo.Status {
	out := argo.Status{
		Abort:              s.Abort,
		ControllerPause:    s.ControllerPause,
		CurrentPodHash:     s.CurrentPodHash,
		CurrentStepHash:    s.CurrentStepHash,
		Replicas:           s.Replicas,
		UpdatedReplicas:    s.UpdatedReplicas,
		ReadyReplicas:      s.ReadyReplicas,
		AvailableReplicas:  s.AvailableReplicas,
		CurrentStepIndex:   clonePtr(s.CurrentStepIndex),
		CollisionCount:     clonePtr(s.CollisionCount),
		ObservedGeneration: s.ObservedGeneration,
		BlueGreen: argo.BlueGreenStatus{
			PreviewSelector:          s.BlueGreen.PreviewSelector,
			ActiveSelector:           s.BlueGreen.ActiveSelector,
			ScaleUpPreviewCheckPoint: s.BlueGreen.ScaleUpPreviewCheckPoint,
		},
		HPAReplicas: s.HPAReplicas,
		StableRS:    s.StableRS,
		PromoteFull: s.PromoteFull,
		Phase:       argo.Phase(s.Phase),
		Message:     s.Message,
	}
	for _, c := range s.PauseConditions {
		out.PauseConditions = append(out.PauseConditions, argo.PauseCondition{Reason: argo.PauseReason(c.Reason), StartTime: c.StartTime.Time})
	}
	if s.AbortedAt != nil {
		t := s.AbortedAt.Time
		out.AbortedAt = &t
	}
	if w := s.Canary.Weights; w != nil {
		out.Canary.Weights = &argo.Weights{
			Canary:   argo.WeightDestination(w.Canary),
			Stable:   argo.WeightDestination(w.Stable),
			Verified: clonePtr(w.Verified),
		}
		for _, d := range w.Additional {
			out.Canary.Weights.Additional = append(out.Canary.Weights.Additional, argo.WeightDestination(d))
		}
	}
	return out
}

// ReplicaSet converts one ReplicaSet as Argo's controller reads it: the
// name, the rollouts-pod-template-hash label, the revision,
// desired-replicas and scale-down-deadline annotations, the creation time,
// the template without the hash label, spec.replicas (nil is 1) and the
// status counts.
//
// The revision annotation is read as a decimal int64 (strconv.Atoi, as
// Argo's ReplicaSetsByRevisionNumber does) and reads as 0 when absent or
// not a number; desired-replicas as a decimal int32 and reads as absent
// (nil) when it is not one, as Argo's GetDesiredReplicasAnnotation does;
// the deadline is kept as written (rollout/argo reads unparsable text as a
// deadline already passed). The template's labels are a copy without the
// hash label (nil when nothing else is left); the rest of the template is
// shared with rs.
//
// Errors (a *field.Error wrapping field.ErrInvalid): rs nil; no
// rollouts-pod-template-hash label, or an empty one (field.ErrRequired):
// every ReplicaSet Argo creates has one, and the math finds the new and
// stable ReplicaSets by it.
//
// Upstream: the ReplicaSet as utils/replicaset reads it (GetPodTemplateHash,
// annotations.GetDesiredReplicasAnnotation, ReplicaSetsByRevisionNumber,
// GetReplicasOrDefault-style nil spec.replicas).
func ReplicaSet(rs *appsv1.ReplicaSet) (argo.ReplicaSet[Template], error) {
	if rs == nil {
		return argo.ReplicaSet[Template]{}, &field.Error{Prefix: errPrefix, Field: "replicaSet", Detail: "must not be nil", Err: field.ErrRequired}
	}
	hash := rs.Labels[argo.PodTemplateHashLabel]
	if hash == "" {
		return argo.ReplicaSet[Template]{}, &field.Error{
			Prefix: errPrefix + ": ReplicaSet " + strconv.Quote(rs.Name),
			Field:  "metadata.labels[" + argo.PodTemplateHashLabel + "]",
			Type:   field.TypeRequired,
			Detail: "every ReplicaSet of a Rollout has its pod-template hash",
			Err:    field.ErrRequired,
		}
	}
	out := argo.ReplicaSet[Template]{
		Name:              rs.Name,
		PodTemplateHash:   hash,
		ScaleDownDeadline: rs.Annotations[argo.ScaleDownDeadlineAnnotation],
		CreationTime:      rs.CreationTimestamp.Time,
		Template:          rs.Spec.Template,
		Replicas:          1,
		StatusReplicas:    rs.Status.Replicas,
		ReadyReplicas:     rs.Status.ReadyReplicas,
		AvailableReplicas: rs.Status.AvailableReplicas,
	}
	if rs.Spec.Replicas != nil {
		out.Replicas = *rs.Spec.Replicas
	}
	if v, err := strconv.ParseInt(rs.Annotations[argo.RevisionAnnotation], 10, 64); err == nil {
		out.Revision = v
	}
	if a, ok := rs.Annotations[argo.DesiredReplicasAnnotation]; ok {
		if v, err := strconv.ParseInt(a, 10, 32); err == nil {
			n := int32(v)
			out.DesiredReplicas = &n
		}
	}
	if _, ok := out.Template.Labels[argo.PodTemplateHashLabel]; ok {
		labels := maps.Clone(out.Template.Labels)
		delete(labels, argo.PodTemplateHashLabel)
		if len(labels) == 0 {
			labels = nil
		}
		out.Template.Labels = labels
	}
	return out, nil
}

// ReplicaSets converts rss with [ReplicaSet], in order. Errors: the first
// ReplicaSet that does not convert, with its index in the field path
// ("rss[2].metadata.labels[rollouts-pod-template-hash]"). Whether names
// and hashes are unique is argo.Validate's (and Plan's) question.
func ReplicaSets(rss []appsv1.ReplicaSet) ([]argo.ReplicaSet[Template], error) {
	out := make([]argo.ReplicaSet[Template], 0, len(rss))
	for i := range rss {
		rs, err := ReplicaSet(&rss[i])
		if err != nil {
			if fe, ok := err.(*field.Error); ok {
				fe.Field = "rss[" + strconv.Itoa(i) + "]." + fe.Field
			}
			return nil, err
		}
		out = append(out, rs)
	}
	return out, nil
}

// Owned returns the ReplicaSets of rss whose controller owner reference
// names ro (by UID when both have one, else by kind Rollout and name), in
// the order given, and in ro's namespace. Argo's controller also adopts
// orphans that match the selector; Owned does not.
// Upstream: the ReplicaSets rollout.Controller lists for a Rollout
// (getReplicaSetsForRollouts, rollout/replicaset.go).
func Owned(ro *RolloutObject, rss []appsv1.ReplicaSet) []appsv1.ReplicaSet {
	var out []appsv1.ReplicaSet
	if ro == nil {
		return nil
	}
	for _, rs := range rss {
		if rs.Namespace != ro.Namespace {
			continue
		}
		ref := metav1.GetControllerOfNoCopy(&rs)
		if ref == nil || ref.Kind != Kind || ref.Name != ro.Name {
			continue
		}
		if ref.UID != "" && ro.UID != "" && ref.UID != ro.UID {
			continue
		}
		out = append(out, rs)
	}
	return out
}

// present reports whether a subtree kept as written holds a value: JSON
// null reads as absent, as it does for a pointer.
func present(r json.RawMessage) bool {
	return len(r) > 0 && !bytes.Equal(bytes.TrimSpace(r), []byte("null"))
}

// raw returns r, or nil when it is absent or null.
func raw(r json.RawMessage) json.RawMessage {
	if !present(r) {
		return nil
	}
	return r
}

// router marks a router present unless it is absent or null.
func router(r json.RawMessage) *argo.Router {
	if !present(r) {
		return nil
	}
	return &argo.Router{}
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
