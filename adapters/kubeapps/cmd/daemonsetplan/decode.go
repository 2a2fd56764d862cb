package main

import (
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps/internal/manifest"
)

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
// ControllerRevision, or a List of them (package manifest).
func (o *objects) decode(name string, r io.Reader) error {
	return manifest.Reader{Keep: o.keep, Want: wantKinds}.Read(name, r)
}

// keep keeps obj, found at loc, if it is a kind the program reads.
func (o *objects) keep(obj runtime.Object, loc string) bool {
	if o.where == nil {
		o.where = map[any]string{}
	}
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
			o.where[&obj.Items[i]] = manifest.Item(loc, i)
		}
	case *corev1.PodList:
		for i := range obj.Items {
			o.pods = append(o.pods, &obj.Items[i])
			o.where[&obj.Items[i]] = manifest.Item(loc, i)
		}
	case *corev1.NodeList:
		for i := range obj.Items {
			o.nodes = append(o.nodes, &obj.Items[i])
			o.where[&obj.Items[i]] = manifest.Item(loc, i)
		}
	case *appsv1.ControllerRevisionList:
		for i := range obj.Items {
			o.revisions = append(o.revisions, &obj.Items[i])
			o.where[&obj.Items[i]] = manifest.Item(loc, i)
		}
	default:
		return false
	}
	return true
}

// wantKinds says which kinds the program reads, and which it got.
func wantKinds(got schema.GroupVersionKind) string {
	return fmt.Sprintf("want an apps/v1 DaemonSet, a v1 Pod, a v1 Node or an apps/v1 ControllerRevision (or a List of them), got %s %s", got.GroupVersion(), got.Kind)
}
