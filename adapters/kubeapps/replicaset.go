package kubeapps

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// ReplicaSet converts rs into the ReplicaSet the library reads: name,
// UID, creation time, annotations, template (sharing maps with rs),
// spec.replicas (nil is the apps/v1 default 1), spec.minReadySeconds
// (always known, so rollout.Plan rewrites a new ReplicaSet's that differs
// from the Deployment's), the status counters, generations and whether it
// is being deleted.
func ReplicaSet(rs *appsv1.ReplicaSet) rollout.ReplicaSet[Template] {
	minReady := rs.Spec.MinReadySeconds
	out := rollout.ReplicaSet[Template]{
		Name:                rs.Name,
		UID:                 string(rs.UID),
		CreationTime:        rs.CreationTimestamp.Time,
		Annotations:         rs.Annotations,
		Template:            rs.Spec.Template,
		Replicas:            1,
		MinReadySeconds:     &minReady,
		StatusReplicas:      rs.Status.Replicas,
		ReadyReplicas:       rs.Status.ReadyReplicas,
		AvailableReplicas:   rs.Status.AvailableReplicas,
		TerminatingReplicas: rs.Status.TerminatingReplicas,
		Generation:          rs.Generation,
		ObservedGeneration:  rs.Status.ObservedGeneration,
		Deleting:            rs.DeletionTimestamp != nil,
	}
	if rs.Spec.Replicas != nil {
		out.Replicas = *rs.Spec.Replicas
	}
	return out
}

// ReplicaSets converts every ReplicaSet of rss, in order, skipping nil
// entries.
func ReplicaSets(rss []*appsv1.ReplicaSet) []rollout.ReplicaSet[Template] {
	out := make([]rollout.ReplicaSet[Template], 0, len(rss))
	for _, rs := range rss {
		if rs != nil {
			out = append(out, ReplicaSet(rs))
		}
	}
	return out
}

// Owned returns the ReplicaSets of rss whose controller owner reference
// points at the Deployment d (by UID), in order: the ones its controller
// manages. It does not adopt orphans, as upstream's ReplicaSet lister
// with adoption would.
func Owned(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		for _, ref := range rs.OwnerReferences {
			if ref.Controller != nil && *ref.Controller && ref.UID == d.UID {
				out = append(out, rs)
				break
			}
		}
	}
	return out
}

// ReplicaSetObject returns a deep copy of base with the fields rs models
// written back: name, UID, creation time, annotations, template,
// spec.replicas, spec.minReadySeconds (when known: nil leaves base's),
// generations and status counters. A nil base starts from an empty
// ReplicaSet. Deletion is not written back.
func ReplicaSetObject(rs *rollout.ReplicaSet[Template], base *appsv1.ReplicaSet) *appsv1.ReplicaSet {
	out := &appsv1.ReplicaSet{}
	if base != nil {
		out = base.DeepCopy()
	}
	out.Name = rs.Name
	out.UID = types.UID(rs.UID)
	out.CreationTimestamp.Time = rs.CreationTime
	out.Annotations = cloneMap(rs.Annotations)
	out.Spec.Template = *rs.Template.DeepCopy()
	r := rs.Replicas
	out.Spec.Replicas = &r
	if rs.MinReadySeconds != nil {
		out.Spec.MinReadySeconds = *rs.MinReadySeconds
	}
	out.Generation = rs.Generation
	out.Status.ObservedGeneration = rs.ObservedGeneration
	out.Status.Replicas = rs.StatusReplicas
	out.Status.ReadyReplicas = rs.ReadyReplicas
	out.Status.AvailableReplicas = rs.AvailableReplicas
	out.Status.TerminatingReplicas = clonePtr(rs.TerminatingReplicas)
	return out
}
