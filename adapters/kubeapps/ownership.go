package kubeapps

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutmath/rolloutmath/ownership"
)

// Selector converts a label selector. nil stays nil (selects nothing), and
// nil and empty maps and slices stay as they are, because rollout.Plan,
// like syncDeployment, tells them apart (see rollout.Deployment.Selector).
// The maps and value slices are shared with s, which the library never
// modifies.
func Selector(s *metav1.LabelSelector) *ownership.Selector {
	if s == nil {
		return nil
	}
	out := &ownership.Selector{MatchLabels: s.MatchLabels}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]ownership.Requirement, len(s.MatchExpressions))
		for i, e := range s.MatchExpressions {
			out.MatchExpressions[i] = ownership.Requirement{Key: e.Key, Operator: ownership.Operator(e.Operator), Values: e.Values}
		}
	}
	return out
}

// OwnerReferences converts metadata.ownerReferences; a nil Controller or
// BlockOwnerDeletion reads as false, as metav1.GetControllerOf reads it.
func OwnerReferences(refs []metav1.OwnerReference) []ownership.OwnerReference {
	if refs == nil {
		return nil
	}
	out := make([]ownership.OwnerReference, len(refs))
	for i, r := range refs {
		out[i] = ownership.OwnerReference{
			APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: string(r.UID),
			Controller:         r.Controller != nil && *r.Controller,
			BlockOwnerDeletion: r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion,
		}
	}
	return out
}

// Object converts the metadata ownership reads of any object (a
// ReplicaSet, a pod): namespace, name, UID, resource version, labels
// (shared), owner references and whether a deletion timestamp is set.
func Object(o metav1.Object) ownership.Object {
	return ownership.Object{
		Namespace: o.GetNamespace(), Name: o.GetName(), UID: string(o.GetUID()),
		ResourceVersion: o.GetResourceVersion(), Labels: o.GetLabels(),
		OwnerReferences: OwnerReferences(o.GetOwnerReferences()),
		Deleting:        o.GetDeletionTimestamp() != nil,
	}
}

// Objects converts a list of ReplicaSets with Object, in order.
func Objects(rss []*appsv1.ReplicaSet) []ownership.Object {
	out := make([]ownership.Object, len(rss))
	for i, rs := range rss {
		out[i] = Object(rs)
	}
	return out
}

// Controller converts a Deployment as ownership reads it: its identity,
// selector (Selector), deletion and whether its strategy is Recreate.
func Controller(d *appsv1.Deployment) ownership.Controller {
	return ownership.Controller{
		Namespace: d.Namespace, Name: d.Name, UID: string(d.UID),
		Selector: Selector(d.Spec.Selector),
		Deleting: d.DeletionTimestamp != nil,
		Recreate: d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType,
	}
}

// Patch is one patch request: the ReplicaSet to patch, the patch type and
// the body, as upstream's RealRSControl.PatchReplicaSet sends it.
type Patch struct {
	Namespace, Name string
	Type            types.PatchType
	Data            []byte
}

// adoptBody and releaseBody are the JSON shapes of upstream's adoption
// and release patches.
type adoptBody struct {
	Metadata struct {
		OwnerReferences []metav1.OwnerReference `json:"ownerReferences"`
		UID             types.UID               `json:"uid"`
	} `json:"metadata"`
}

type releaseBody struct {
	Metadata struct {
		UID             types.UID           `json:"uid"`
		OwnerReferences []map[string]string `json:"ownerReferences"`
	} `json:"metadata"`
}

// AdoptPatch is the strategic merge patch by which d adopts rs: it adds a
// controller reference to d (apps/v1 Deployment, controller and
// blockOwnerDeletion true) and sets metadata.uid to rs's UID, so that the
// API server rejects the patch if rs was replaced by another object of the
// same name. The bytes are upstream's, byte for byte. Upstream:
// AdoptReplicaSet, ownerRefControllerPatch.
func AdoptPatch(d *appsv1.Deployment, rs *appsv1.ReplicaSet) (Patch, error) {
	var b adoptBody
	b.Metadata.UID = rs.UID
	b.Metadata.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}
	data, err := json.Marshal(&b)
	if err != nil {
		return Patch{}, fmt.Errorf("kubeapps: adoption patch for %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	return Patch{Namespace: rs.Namespace, Name: rs.Name, Type: types.StrategicMergePatchType, Data: data}, nil
}

// ReleasePatch is the strategic merge patch by which d releases rs: it
// deletes the owner reference with d's UID, guarded by rs's UID as in
// AdoptPatch. Upstream treats a NotFound or Invalid answer as done. The
// bytes are upstream's. Upstream: ReleaseReplicaSet,
// GenerateDeleteOwnerRefStrategicMergeBytes.
func ReleasePatch(d *appsv1.Deployment, rs *appsv1.ReplicaSet) (Patch, error) {
	var b releaseBody
	b.Metadata.UID = rs.UID
	b.Metadata.OwnerReferences = []map[string]string{{"$patch": "delete", "uid": string(d.UID)}}
	data, err := json.Marshal(&b)
	if err != nil {
		return Patch{}, fmt.Errorf("kubeapps: release patch for %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	return Patch{Namespace: rs.Namespace, Name: rs.Name, Type: types.StrategicMergePatchType, Data: data}, nil
}

// ClaimPatches returns the patches for what ownership.ClaimAll decided
// for d and rss (the list ClaimAll was given, in the same order):
// adoptions first, then releases, each in list order. Upstream sends them
// interleaved, one per ReplicaSet in list order; the patches touch
// different objects, so the order does not change the result.
func ClaimPatches(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, cl ownership.Claims) ([]Patch, error) {
	var out []Patch
	for _, i := range cl.Adopt {
		if i < 0 || i >= len(rss) {
			return nil, fmt.Errorf("kubeapps: claim index %d out of range for %d ReplicaSets", i, len(rss))
		}
		p, err := AdoptPatch(d, rss[i])
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	for _, i := range cl.Release {
		if i < 0 || i >= len(rss) {
			return nil, fmt.Errorf("kubeapps: claim index %d out of range for %d ReplicaSets", i, len(rss))
		}
		p, err := ReleasePatch(d, rss[i])
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
