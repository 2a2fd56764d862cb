package argorollouts

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Objects are the Rollouts and ReplicaSets a manifest stream holds, in
// the order the stream holds them.
type Objects struct {
	// Rollouts are the argoproj.io/v1alpha1 Rollouts.
	Rollouts []RolloutObject
	// ReplicaSets are the apps/v1 ReplicaSets.
	ReplicaSets []appsv1.ReplicaSet
}

// Read decodes every object of r, as `kubectl get rollout NAME -o yaml`
// and `kubectl get rollout,rs -o yaml` print them: YAML documents
// separated by "---", or JSON values, each an argoproj.io/v1alpha1
// Rollout, an apps/v1 ReplicaSet, or a List (v1 List, RolloutList,
// ReplicaSetList) of them, and appends them to o. Documents holding only
// comments or white space are skipped.
//
// Decoding is encoding/json's after YAML is turned into JSON: fields the
// mirror types do not name are ignored (so that a newer Argo's manifests
// still read), and everything the math reads must have its API type (a
// string where a number is due is an error).
//
// Errors name the document (counted from 1) and the item of a list:
// `document 2: items[1]: kind "Service" (v1): want an argoproj.io/v1alpha1
// Rollout, an apps/v1 ReplicaSet or a List of them`. On error, o holds the
// objects of the documents before the failing one.
func (o *Objects) Read(r io.Reader) error {
	docs := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for n := 1; ; n++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: document %d: %w", errPrefix, n, err)
		}
		js, err := utilyaml.ToJSON(doc)
		if err != nil {
			return fmt.Errorf("%s: document %d: %w", errPrefix, n, err)
		}
		if t := bytes.TrimSpace(js); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		if err := o.add(js, fmt.Sprintf("document %d", n)); err != nil {
			return fmt.Errorf("%s: %w", errPrefix, err)
		}
	}
}

// Read returns the objects of r; see [Objects.Read].
func Read(r io.Reader) (Objects, error) {
	var o Objects
	err := o.Read(r)
	return o, err
}

// add decodes one JSON object found at loc.
func (o *Objects) add(js []byte, loc string) error {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	switch {
	case tm.APIVersion == APIVersion && tm.Kind == Kind:
		var ro RolloutObject
		if err := json.Unmarshal(js, &ro); err != nil {
			return fmt.Errorf("%s: Rollout: %w", loc, err)
		}
		o.Rollouts = append(o.Rollouts, ro)
	case tm.APIVersion == "apps/v1" && tm.Kind == "ReplicaSet":
		var rs appsv1.ReplicaSet
		if err := json.Unmarshal(js, &rs); err != nil {
			return fmt.Errorf("%s: ReplicaSet: %w", loc, err)
		}
		o.ReplicaSets = append(o.ReplicaSets, rs)
	case tm.APIVersion == "v1" && tm.Kind == "List",
		tm.APIVersion == APIVersion && tm.Kind == ListKind,
		tm.APIVersion == "apps/v1" && tm.Kind == "ReplicaSetList":
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(js, &list); err != nil {
			return fmt.Errorf("%s: %s: %w", loc, tm.Kind, err)
		}
		for i, it := range list.Items {
			it = withKind(it, tm.Kind)
			if err := o.add(it, fmt.Sprintf("%s: items[%d]", loc, i)); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: kind %q (%s): want an %s Rollout, an apps/v1 ReplicaSet or a List of them", loc, tm.Kind, tm.APIVersion, APIVersion)
	}
	return nil
}

// withKind gives an item of a typed list (RolloutList, ReplicaSetList),
// whose items may omit apiVersion and kind, the list's item kind.
func withKind(item json.RawMessage, listKind string) json.RawMessage {
	var apiVersion, kind string
	switch listKind {
	case ListKind:
		apiVersion, kind = APIVersion, Kind
	case "ReplicaSetList":
		apiVersion, kind = "apps/v1", "ReplicaSet"
	default:
		return item
	}
	var tm metav1.TypeMeta
	if json.Unmarshal(item, &tm) != nil || (tm.APIVersion != "" && tm.Kind != "") {
		return item
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(item, &m) != nil {
		return item
	}
	m["apiVersion"], _ = json.Marshal(apiVersion)
	m["kind"], _ = json.Marshal(kind)
	out, err := json.Marshal(m)
	if err != nil {
		return item
	}
	return out
}
