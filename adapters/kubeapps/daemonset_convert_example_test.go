package kubeapps_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
)

// Which of two nodes should run the pod of a DaemonSet that selects Linux
// nodes.
func ExampleDaemonSetNodes() {
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system"},
		Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			Containers:   []corev1.Container{{Name: "agent", Image: "agent:1"}},
			NodeSelector: map[string]string{"kubernetes.io/os": "linux"}}}}}
	nodes := []*corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"kubernetes.io/os": "linux"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "node-b", Labels: map[string]string{"kubernetes.io/os": "windows"}}},
	}
	out, err := kubeapps.DaemonSetNodes(ds, nodes)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range out {
		fmt.Println(n.Name, n.ShouldRun, n.ShouldContinueRunning)
	}
	// Output:
	// node-a true true
	// node-b false false
}

// A daemon pod as the controller reads it: its node, its labels, and when
// it became ready.
func ExampleDaemonSetPod() {
	readyAt := metav1.NewTime(time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC))
	p := kubeapps.DaemonSetPod(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "agent-x7k2p", CreationTimestamp: readyAt,
			Labels: map[string]string{"controller-revision-hash": "55794d958", "pod-template-generation": "1"}},
		Spec: corev1.PodSpec{NodeName: "node-a"},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: readyAt}}},
	})
	fmt.Println(p.Name, p.Node, p.Hash, p.TemplateGeneration, p.Phase, p.Ready, p.ReadySince.Format(time.RFC3339))
	// Output:
	// agent-x7k2p node-a 55794d958 1 Running true 2026-11-26T10:00:00Z
}

// The bytes the controller stores in a ControllerRevision: the template
// under spec, marked to replace.
func ExampleDaemonSetRevisionData() {
	ds := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "agent:1"}}}}}}
	data, err := kubeapps.DaemonSetRevisionData(ds)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(data))
	// Output:
	// {"spec":{"template":{"$patch":"replace","metadata":{},"spec":{"containers":[{"image":"agent:1","name":"agent","resources":{}}]}}}}
}

// ControllerRevisions as the controller lists them; nil entries are
// skipped.
func ExampleDaemonSetRevisions() {
	revs := kubeapps.DaemonSetRevisions([]*appsv1.ControllerRevision{nil, {
		ObjectMeta: metav1.ObjectMeta{Name: "agent-55794d958", Labels: map[string]string{"controller-revision-hash": "55794d958"}},
		Revision:   2, Data: runtime.RawExtension{Raw: []byte(`{"spec":{}}`)},
	}})
	for _, r := range revs {
		fmt.Println(r.Name, r.Hash, r.Number, string(r.Data))
	}
	// Output:
	// agent-55794d958 55794d958 2 {"spec":{}}
}

// A status as the controller reads it.
func ExampleDaemonSetStatus() {
	collisions := int32(1)
	s := kubeapps.DaemonSetStatus(&appsv1.DaemonSetStatus{ObservedGeneration: 3, DesiredNumberScheduled: 5, CurrentNumberScheduled: 5,
		NumberReady: 4, UpdatedNumberScheduled: 2, NumberAvailable: 4, NumberUnavailable: 1, CollisionCount: &collisions})
	fmt.Println(s.ObservedGeneration, s.DesiredNumberScheduled, s.NumberReady, s.UpdatedNumberScheduled, s.NumberUnavailable, *s.CollisionCount)
	// Output:
	// 3 5 4 2 1 1
}

// A status read from apps/v1 and written back: the same counts, the
// collision count copied rather than shared.
func ExampleDaemonSetStatusObject() {
	collisions := int32(1)
	in := appsv1.DaemonSetStatus{ObservedGeneration: 3, DesiredNumberScheduled: 5, CurrentNumberScheduled: 5,
		NumberReady: 4, UpdatedNumberScheduled: 2, NumberAvailable: 4, NumberUnavailable: 1, CollisionCount: &collisions}
	s := kubeapps.DaemonSetStatus(&in)
	back := kubeapps.DaemonSetStatusObject(&s)
	fmt.Println(back.ObservedGeneration, back.NumberAvailable, *back.CollisionCount, back.CollisionCount != in.CollisionCount)
	// Output:
	// 3 4 1 true
}
