package kruiseapps

import (
	"encoding/json"
	"fmt"
	"maps"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// ControllerKind is the kind a CloneSet's pods and revisions name in
// their controller owner reference.
var ControllerKind = kruise.SchemeGroupVersion.WithKind("CloneSet")

// RevisionData returns the bytes kruise records in the ControllerRevision
// of cs's spec.template: cloneset.RevisionData of the template encoded
// by encoding/json. With k8s.io/apimachinery v0.30, which this module
// uses, a zero metadata.creationTimestamp encodes as null, as in kruise
// v1.9.1's own encoding, so the bytes (and the revision hash) are kruise's
// for a template as the API server stored it (defaults included).
// Errors: a nil cs.
// Upstream: the CloneSet revision control's getPatch.
func RevisionData(cs *kruise.CloneSet) ([]byte, error) {
	if cs == nil {
		return nil, fmt.Errorf("kruiseapps: nil CloneSet")
	}
	template, err := json.Marshal(&cs.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("kruiseapps: encoding spec.template: %w", err)
	}
	return cloneset.RevisionData(template)
}

// Revisions converts ControllerRevisions: name, revision number,
// creation time and data.raw (shared). nil entries are skipped.
func Revisions(revs []*appsv1.ControllerRevision) []cloneset.ControllerRevision {
	out := make([]cloneset.ControllerRevision, 0, len(revs))
	for _, r := range revs {
		if r == nil {
			continue
		}
		var created int64
		if !r.CreationTimestamp.IsZero() {
			created = r.CreationTimestamp.UnixNano()
		}
		out = append(out, cloneset.ControllerRevision{Name: r.Name, Number: r.Revision, CreatedUnixNano: created, Data: r.Data.Raw})
	}
	return out
}

// NewRevisionObject returns the ControllerRevision kruise creates for cs
// from rev (a revision cloneset.ActiveRevisions chose to create): named
// rev.Name in cs's namespace, labelled with cs's template labels plus the
// controller.kubernetes.io/hash label holding the hash (the part of the
// name after the CloneSet's name), annotated with cs's annotations, with
// a controller owner reference to cs, revision rev.Number and data.raw a
// copy of rev.Data. The volumeClaimTemplates hash annotation kruise adds
// is not written.
// Upstream: the CloneSet revision control's NewRevision with
// history.NewControllerRevision.
func NewRevisionObject(cs *kruise.CloneSet, rev *cloneset.ControllerRevision) *appsv1.ControllerRevision {
	labels := maps.Clone(cs.Spec.Template.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[RevisionHashLabel] = shortHash(rev.Name)
	var annotations map[string]string
	if len(cs.Annotations) > 0 {
		annotations = maps.Clone(cs.Annotations)
	}
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name:            rev.Name,
			Namespace:       cs.Namespace,
			Labels:          labels,
			Annotations:     annotations,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cs, ControllerKind)},
		},
		Data:     runtime.RawExtension{Raw: append([]byte(nil), rev.Data...)},
		Revision: rev.Number,
	}
}

// RevisionHashLabel is the ControllerRevision label holding its hash.
const RevisionHashLabel = "controller.kubernetes.io/hash"

// shortHash returns the part of a revision name after its last '-'.
func shortHash(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '-' {
			return name[i+1:]
		}
	}
	return name
}
