package kubeapps_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// logAgent is a DaemonSet "agent" at generation 1 with maxUnavailable
// 2, built inline for the examples.
func logAgent() *appsv1.DaemonSet {
	two := intstr.FromInt32(2)
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: "agent", Namespace: "kube-system", Generation: 1,
			Annotations: map[string]string{daemonset.TemplateGenerationAnnotation: "1"},
		},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec: corev1.PodSpec{
					Containers:   []corev1.Container{{Name: "agent", Image: "agent:1"}},
					NodeSelector: map[string]string{"kubernetes.io/os": "linux"},
				},
			},
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{
				Type:          appsv1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &two},
			},
		},
	}
}

// A first sync over three nodes: one Linux node, one Windows node, one
// Linux node with an untolerated NoSchedule taint. The converted nodes
// say where the pod should run; Plan creates the ControllerRevision and
// one pod.
func ExampleDaemonSet() {
	ds := logAgent()
	linux := map[string]string{"kubernetes.io/os": "linux"}
	nodes := []*corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: linux}},
		{ObjectMeta: metav1.ObjectMeta{Name: "node-b", Labels: map[string]string{"kubernetes.io/os": "windows"}}},
		{
			ObjectMeta: metav1.ObjectMeta{Name: "node-c", Labels: linux},
			Spec:       corev1.NodeSpec{Taints: []corev1.Taint{{Key: "gpu", Effect: corev1.TaintEffectNoSchedule}}},
		},
	}
	dnodes, err := kubeapps.DaemonSetNodes(ds, nodes)
	if err != nil {
		panic(err)
	}
	for _, n := range dnodes {
		fmt.Printf("%s shouldRun=%v shouldContinueRunning=%v\n", n.Name, n.ShouldRun, n.ShouldContinueRunning)
	}
	d := kubeapps.DaemonSet(ds)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sync, err := daemonset.Plan(&d, dnodes, nil, nil, now)
	if err != nil {
		panic(err)
	}
	for _, a := range sync.Actions {
		fmt.Printf("%v revision=%q node=%q\n", a.Kind, a.Revision, a.Node)
	}
	// Output:
	// node-a shouldRun=true shouldContinueRunning=true
	// node-b shouldRun=false shouldContinueRunning=false
	// node-c shouldRun=false shouldContinueRunning=true
	// WriteRevision revision="agent-55794d958" node=""
	// CreatePod revision="" node="node-a"
	// WriteStatus revision="" node=""
}

// Pods and revisions read from the cluster: an unscheduled pod is
// placed on the node its node affinity names, as the controller writes
// it.
func ExampleDaemonSetPods() {
	ready := metav1.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pods := []*corev1.Pod{
		{
			ObjectMeta: metav1.ObjectMeta{Name: "agent-x1", Labels: map[string]string{
				daemonset.HashLabel: "55794d958", daemonset.TemplateGenerationLabel: "1"}},
			Spec: corev1.PodSpec{NodeName: "node-a"},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: ready}}},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: "agent-x2"},
			Spec: corev1.PodSpec{Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
					MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-b"}}},
				}}},
			}}},
		},
	}
	for _, p := range kubeapps.DaemonSetPods(pods) {
		fmt.Printf("%s node=%s unscheduled=%v hash=%q generation=%q ready=%v\n", p.Name, p.Node, p.Unscheduled, p.Hash, p.TemplateGeneration, p.Ready)
	}
	revs := kubeapps.DaemonSetRevisions([]*appsv1.ControllerRevision{{
		ObjectMeta: metav1.ObjectMeta{Name: "agent-55794d958", Labels: map[string]string{daemonset.HashLabel: "55794d958"}},
		Revision:   1,
	}})
	fmt.Println(revs[0].Name, revs[0].Hash, revs[0].Number)
	// Output:
	// agent-x1 node=node-a unscheduled=false hash="55794d958" generation="1" ready=true
	// agent-x2 node=node-b unscheduled=true hash="" generation="" ready=false
	// agent-55794d958 55794d958 1
}

// The revision a sync writes, as the ControllerRevision to create.
func ExampleDaemonSetRevisionObject() {
	ds := logAgent()
	data, err := kubeapps.DaemonSetRevisionData(ds)
	if err != nil {
		panic(err)
	}
	hash := daemonset.Hash(&ds.Spec.Template, nil)
	rev := kubeapps.DaemonSetRevisionObject(ds, &daemonset.ControllerRevision{
		Name: daemonset.RevisionName(ds.Name, hash), Hash: hash, Number: 1, Data: data,
	})
	fmt.Println(rev.Namespace, rev.Name, rev.Labels[daemonset.HashLabel], rev.Revision, rev.OwnerReferences[0].Kind)
	fmt.Println(string(rev.Data.Raw)[:40])
	// Output:
	// kube-system agent-55794d958 55794d958 1 DaemonSet
	// {"spec":{"template":{"$patch":"replace",
}

// A template with a required node affinity is not evaluated by the
// simple predicate.
func ExampleDaemonSetNode() {
	ds := logAgent()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"kubernetes.io/os": "linux"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoExecute}}}}
	n, err := kubeapps.DaemonSetNode(ds, node)
	fmt.Println(n.ShouldRun, n.ShouldContinueRunning, err)

	ds.Spec.Template.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db"}}
	n, err = kubeapps.DaemonSetNode(ds, node)
	fmt.Println(n.ShouldRun, n.ShouldContinueRunning, err)

	ds.Spec.Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}}
	_, err = kubeapps.DaemonSetNode(ds, node)
	fmt.Println(err == kubeapps.ErrNodeAffinity)
	// Output:
	// false false <nil>
	// true true <nil>
	// true
}
