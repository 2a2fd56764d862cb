package kruiserollouts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	kruisebeta "github.com/openkruise/kruise-api/apps/v1beta1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsjson "sigs.k8s.io/json"
)

// Objects holds the objects of a manifest stream, by kind, in the order
// the stream holds them.
type Objects struct {
	// Rollouts are the rollouts.kruise.io Rollouts, v1alpha1 ones
	// converted to v1beta1 (RolloutV1alpha1.ToV1beta1).
	Rollouts []*Rollout
	// BatchReleases are the rollouts.kruise.io BatchReleases, v1alpha1
	// ones converted to v1beta1 (BatchReleaseV1alpha1.ToV1beta1).
	BatchReleases []*BatchRelease
	// CloneSets are the apps.kruise.io/v1alpha1 CloneSets.
	CloneSets []*kruise.CloneSet
	// Deployments are the apps/v1 Deployments.
	Deployments []*appsv1.Deployment
	// StatefulSets are the apps/v1 StatefulSets.
	StatefulSets []*appsv1.StatefulSet
	// AdvancedStatefulSets are the apps.kruise.io/v1beta1 StatefulSets.
	AdvancedStatefulSets []*kruisebeta.StatefulSet
	// Pods are the v1 Pods.
	Pods []*corev1.Pod
}

// Read decodes every object of a manifest stream, as `kubectl get
// rollout,batchrelease,cloneset -o yaml` prints it: YAML documents
// separated by "---" or JSON values, each one object or a List (v1 List,
// or a RolloutList, BatchReleaseList, CloneSetList, DeploymentList,
// StatefulSetList or PodList) of them. The kinds read are Objects'
// fields; rollouts.kruise.io/v1alpha1 Rollouts and BatchReleases are read
// too and converted to v1beta1 as kruise-rollout converts them. Any
// other kind is an error that names it and the document.
//
// Decoding is JSON's as the API server does it (field names match
// exactly; integers stay integers), and lenient: fields the mirror
// types (or the k8s.io/api v0.26 and kruise-api v1.3.0 types) do not
// hold are dropped, so that objects a newer API server prints (Rollout
// traffic routing details, a CloneSet's progressDeadlineSeconds, a
// Deployment's terminatingReplicas) read. Errors name the document
// ("document 2: items[1]") and wrap the decoder's.
func Read(r io.Reader) (*Objects, error) {
	out := &Objects{}
	docs := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for n := 1; ; n++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("kruiserollouts: document %d: %w", n, err)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		js, err := utilyaml.ToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("kruiserollouts: document %d: %w", n, err)
		}
		if err := out.add(js, fmt.Sprintf("document %d", n)); err != nil {
			return nil, fmt.Errorf("kruiserollouts: %w", err)
		}
	}
}

// add decodes one JSON object, found at loc, and keeps what it holds.
func (o *Objects) add(js []byte, loc string) error {
	var tm metav1.TypeMeta
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, &tm); err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if isList(tm) {
		var l struct {
			Items []rawObject `json:"items"`
		}
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, &l); err != nil {
			return fmt.Errorf("%s: %w", loc, err)
		}
		for i, it := range l.Items {
			item := []byte(it)
			if tm.Kind != "List" {
				// Items of a typed list carry no apiVersion and kind
				// when printed by some clients: take the list's.
				var itm metav1.TypeMeta
				if err := sigsjson.UnmarshalCaseSensitivePreserveInts(item, &itm); err == nil && itm.Kind == "" {
					itm = metav1.TypeMeta{APIVersion: tm.APIVersion, Kind: tm.Kind[:len(tm.Kind)-len("List")]}
					if err := o.decode(item, itm, fmt.Sprintf("%s: items[%d]", loc, i)); err != nil {
						return err
					}
					continue
				}
			}
			if err := o.add(item, fmt.Sprintf("%s: items[%d]", loc, i)); err != nil {
				return err
			}
		}
		return nil
	}
	return o.decode(js, tm, loc)
}

// rawObject is one item of a list, kept as its JSON.
type rawObject []byte

// UnmarshalJSON keeps a copy of data.
func (r *rawObject) UnmarshalJSON(data []byte) error {
	*r = append((*r)[:0], data...)
	return nil
}

// listKinds are the typed lists Read takes apart, besides v1 List.
var listKinds = map[string]bool{
	APIVersion + "/RolloutList":              true,
	APIVersion + "/BatchReleaseList":         true,
	APIVersionV1alpha1 + "/RolloutList":      true,
	APIVersionV1alpha1 + "/BatchReleaseList": true,
	"apps.kruise.io/v1alpha1/CloneSetList":   true,
	"apps.kruise.io/v1beta1/StatefulSetList": true,
	"apps/v1/DeploymentList":                 true,
	"apps/v1/StatefulSetList":                true,
	"v1/PodList":                             true,
}

// isList reports whether tm is a list Read takes apart.
func isList(tm metav1.TypeMeta) bool {
	return (tm.APIVersion == "v1" && tm.Kind == "List") || listKinds[tm.APIVersion+"/"+tm.Kind]
}

// decode decodes one object of kind tm.
func (o *Objects) decode(js []byte, tm metav1.TypeMeta, loc string) error {
	var err error
	switch tm.APIVersion + "/" + tm.Kind {
	case APIVersion + "/Rollout":
		v := &Rollout{}
		if err = unmarshal(js, v); err == nil {
			o.Rollouts = append(o.Rollouts, v)
		}
	case APIVersion + "/BatchRelease":
		v := &BatchRelease{}
		if err = unmarshal(js, v); err == nil {
			o.BatchReleases = append(o.BatchReleases, v)
		}
	case APIVersionV1alpha1 + "/Rollout":
		v := &RolloutV1alpha1{}
		if err = unmarshal(js, v); err == nil {
			var r *Rollout
			if r, err = v.ToV1beta1(); err == nil {
				o.Rollouts = append(o.Rollouts, r)
			}
		}
	case APIVersionV1alpha1 + "/BatchRelease":
		v := &BatchReleaseV1alpha1{}
		if err = unmarshal(js, v); err == nil {
			var br *BatchRelease
			if br, err = v.ToV1beta1(); err == nil {
				o.BatchReleases = append(o.BatchReleases, br)
			}
		}
	case "apps.kruise.io/v1alpha1/CloneSet":
		v := &kruise.CloneSet{}
		if err = unmarshal(js, v); err == nil {
			o.CloneSets = append(o.CloneSets, v)
		}
	case "apps/v1/Deployment":
		v := &appsv1.Deployment{}
		if err = unmarshal(js, v); err == nil {
			o.Deployments = append(o.Deployments, v)
		}
	case "apps/v1/StatefulSet":
		v := &appsv1.StatefulSet{}
		if err = unmarshal(js, v); err == nil {
			o.StatefulSets = append(o.StatefulSets, v)
		}
	case "apps.kruise.io/v1beta1/StatefulSet":
		v := &kruisebeta.StatefulSet{}
		if err = unmarshal(js, v); err == nil {
			o.AdvancedStatefulSets = append(o.AdvancedStatefulSets, v)
		}
	case "v1/Pod":
		v := &corev1.Pod{}
		if err = unmarshal(js, v); err == nil {
			o.Pods = append(o.Pods, v)
		}
	default:
		return fmt.Errorf("%s: want a rollouts.kruise.io/v1beta1 or v1alpha1 Rollout or BatchRelease, an apps.kruise.io/v1alpha1 CloneSet, an apps/v1 Deployment or StatefulSet, an apps.kruise.io/v1beta1 StatefulSet or a v1 Pod (or a List of them), got %s %s", loc, orNone(tm.APIVersion), orNone(tm.Kind))
	}
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", loc, tm.APIVersion, tm.Kind, err)
	}
	return nil
}

// unmarshal decodes js into v as the API server's JSON decoder does:
// field names match exactly, unknown fields are dropped.
func unmarshal(js []byte, v any) error {
	return sigsjson.UnmarshalCaseSensitivePreserveInts(js, v)
}

// orNone returns s, or "(none)" when s is empty.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// stripComments removes YAML comment lines, so a document of comments
// only counts as empty.
func stripComments(doc []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(doc, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '#' {
			continue
		}
		out = append(out, line...)
	}
	return out
}
