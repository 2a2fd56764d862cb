package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// decoder decodes apps/v1 and core/v1 objects from YAML or JSON with
// apimachinery's universal deserializer, strictly: unknown and duplicate
// fields are errors, as with `kubectl apply --validate=strict`.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, corev1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err) // the schemes are fixed: this cannot fail at run time
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// objects holds what the manifests contained.
type objects struct {
	sets      []*appsv1.DaemonSet
	pods      []*corev1.Pod
	nodes     []*corev1.Node
	revisions []*appsv1.ControllerRevision
	// where gives each object's place in the input, as errors name it:
	// "cluster.yaml: document 1: items[3]".
	where map[any]string
}

// decode reads every object of r, named name in errors: YAML documents
// separated by "---" or JSON values, each a DaemonSet, Pod, Node or
// ControllerRevision, or a List of them.
func (o *objects) decode(name string, r io.Reader) error {
	docs := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for n := 1; ; n++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		if err := o.add(doc, fmt.Sprintf("%s: document %d", name, n)); err != nil {
			return err
		}
	}
}

// add decodes one document, found at loc in the input, and keeps the
// objects it holds.
func (o *objects) add(doc []byte, loc string) error {
	obj, _, err := decoder.Decode(doc, nil, nil)
	if runtime.IsNotRegisteredError(err) {
		// A kind the scheme lacks in a group it knows (apps/v1
		// StatefulSet is known; apps/v1 Daemonset is not): apimachinery's text names
		// its own source file.
		var tm metav1.TypeMeta
		if js, jerr := utilyaml.ToJSON(doc); jerr == nil && json.Unmarshal(js, &tm) == nil {
			return fmt.Errorf("%s: %s", loc, wantKinds(tm.GroupVersionKind()))
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if o.where == nil {
		o.where = map[any]string{}
	}
	item := func(i int) string { return fmt.Sprintf("%s: items[%d]", loc, i) }
	switch obj := obj.(type) {
	case *appsv1.DaemonSet:
		o.sets = append(o.sets, obj)
		o.where[obj] = loc
	case *corev1.Pod:
		o.pods = append(o.pods, obj)
		o.where[obj] = loc
	case *corev1.Node:
		o.nodes = append(o.nodes, obj)
		o.where[obj] = loc
	case *appsv1.ControllerRevision:
		o.revisions = append(o.revisions, obj)
		o.where[obj] = loc
	case *appsv1.DaemonSetList:
		for i := range obj.Items {
			o.sets = append(o.sets, &obj.Items[i])
			o.where[&obj.Items[i]] = item(i)
		}
	case *corev1.NodeList:
		for i := range obj.Items {
			o.nodes = append(o.nodes, &obj.Items[i])
			o.where[&obj.Items[i]] = item(i)
		}
	case *corev1.PodList:
		for i := range obj.Items {
			o.pods = append(o.pods, &obj.Items[i])
			o.where[&obj.Items[i]] = item(i)
		}
	case *appsv1.ControllerRevisionList:
		for i := range obj.Items {
			o.revisions = append(o.revisions, &obj.Items[i])
			o.where[&obj.Items[i]] = item(i)
		}
	case *corev1.List:
		for i, it := range obj.Items {
			if err := o.add(it.Raw, item(i)); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: %s", loc, wantKinds(obj.GetObjectKind().GroupVersionKind()))
	}
	return nil
}

// wantKinds says which kinds the program reads, and which it got.
func wantKinds(got schema.GroupVersionKind) string {
	return fmt.Sprintf("want an apps/v1 DaemonSet, a v1 Pod, a v1 Node or an apps/v1 ControllerRevision (or a List of them), got %s %s", got.GroupVersion(), got.Kind)
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
