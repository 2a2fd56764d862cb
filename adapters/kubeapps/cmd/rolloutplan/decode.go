package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// decoder decodes apps/v1 and core/v1 objects from YAML or JSON with
// apimachinery's universal deserializer, strictly: unknown and duplicate
// fields are errors, as with `kubectl apply --validate=strict`.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	if err := appsv1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// objects holds what the manifests contained.
type objects struct {
	deployments []*appsv1.Deployment
	replicaSets []*appsv1.ReplicaSet
}

// decode reads every object of r, named name in errors: YAML documents
// separated by "---" or JSON values, each an apps/v1 Deployment or
// ReplicaSet, or a List (v1 List, DeploymentList, ReplicaSetList) of them.
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
		if err := o.add(doc); err != nil {
			return fmt.Errorf("%s: document %d: %w", name, n, err)
		}
	}
}

// add decodes one document and keeps the objects it holds.
func (o *objects) add(doc []byte) error {
	apiVersion, kind, err := checkKind(doc)
	if err != nil {
		return err
	}
	obj, _, err := decoder.Decode(doc, nil, nil)
	if err != nil {
		return explain(doc, apiVersion, kind, err)
	}
	switch obj := obj.(type) {
	case *appsv1.Deployment:
		o.deployments = append(o.deployments, obj)
	case *appsv1.ReplicaSet:
		o.replicaSets = append(o.replicaSets, obj)
	case *appsv1.DeploymentList:
		for i := range obj.Items {
			o.deployments = append(o.deployments, &obj.Items[i])
		}
	case *appsv1.ReplicaSetList:
		for i := range obj.Items {
			o.replicaSets = append(o.replicaSets, &obj.Items[i])
		}
	case *corev1.List:
		for i, item := range obj.Items {
			if err := o.add(item.Raw); err != nil {
				return fmt.Errorf("items[%d]: %w", i, err)
			}
		}
	default:
		gvk := obj.GetObjectKind().GroupVersionKind()
		return wrongKind(gvk.GroupVersion().String(), gvk.Kind)
	}
	return nil
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
