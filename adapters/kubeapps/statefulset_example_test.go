package kubeapps_test

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// webStatefulSet is a StatefulSet "web" of 3 replicas running nginx:1.25,
// as a user writes it (no API defaults in the template).
func webStatefulSet() *appsv1.StatefulSet {
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web", Generation: 2,
			Annotations: map[string]string{"team": "db"}},
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.25"}}},
			},
			PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
				Type:          appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr(int32(2))},
			},
		},
		Status: appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, CurrentReplicas: 3,
			CurrentRevision: "web-6bd8cfcb95", UpdateRevision: "web-6bd8cfcb95", CollisionCount: ptr(int32(0))},
	}
}

func ExampleStatefulSet() {
	s := webStatefulSet()
	s.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: 5}
	mu := intstr.FromString("50%")
	s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &mu
	set := kubeapps.StatefulSet(s)
	ru := set.UpdateStrategy.RollingUpdate
	fmt.Println(set.Name, set.Replicas, set.Ordinals.Start, set.PodManagementPolicy, set.UpdateStrategy.Type, ru.Partition, ru.MaxUnavailable.String())

	// An explicit RollingUpdate without a rollingUpdate block stays
	// without one, as the API server stores it.
	s.Spec.UpdateStrategy.RollingUpdate = nil
	s.Spec.Replicas = nil // absent: the apps/v1 default 1
	set = kubeapps.StatefulSet(s)
	fmt.Println(set.Replicas, set.UpdateStrategy.RollingUpdate == nil)
	// Output:
	// web 3 5 OrderedReady RollingUpdate 2 50%
	// 1 true
}

func ExampleStatefulSetPod() {
	isController := true
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "web-1",
			Labels: map[string]string{"app": "web", appsv1.StatefulSetRevisionLabel: "web-6bd8cfcb95",
				appsv1.StatefulSetPodNameLabel: "web-1"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "uid-web", Controller: &isController}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at)},
		}},
	}
	pod := kubeapps.StatefulSetPod(p)
	fmt.Println(pod.Name, pod.Revision, pod.ControllerUID, pod.Phase, pod.Ready, pod.ReadySince.Format("15:04"), pod.Terminating)
	// Output:
	// web-1 web-6bd8cfcb95 uid-web Running true 11:00 false
}

func ExampleStatefulSetPods() {
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "web-0"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		nil,
		{ObjectMeta: metav1.ObjectMeta{Name: "web-1", DeletionTimestamp: ptr(metav1.NewTime(at))}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
	}
	for _, p := range kubeapps.StatefulSetPods(pods) {
		fmt.Println(p.Name, p.Terminating)
	}
	// Output:
	// web-0 false
	// web-1 true
}

func ExampleStatefulSetStatus() {
	st := kubeapps.StatefulSetStatus(&webStatefulSet().Status)
	fmt.Println(st.Replicas, st.CurrentReplicas, st.CurrentRevision, *st.CollisionCount)
	// Output:
	// 3 3 web-6bd8cfcb95 0
}

func ExampleStatefulSetStatusObject() {
	st := statefulset.Status{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, CurrentReplicas: 2, UpdatedReplicas: 0,
		CurrentRevision: "web-6bd8cfcb95", UpdateRevision: "web-84bb6ff5c6", CollisionCount: ptr(int32(0))}
	out := kubeapps.StatefulSetStatusObject(&st)
	fmt.Println(out.ObservedGeneration, out.CurrentReplicas, out.UpdateRevision, *out.CollisionCount)
	// Output:
	// 2 2 web-84bb6ff5c6 0
}

// The revision bytes and name of the template are the controller's:
// "web-6bd8cfcb95" is the name kube-controller-manager v1.36 gives this
// template with collision count 0.
func ExampleStatefulSetRevisionData() {
	data, err := kubeapps.StatefulSetRevisionData(webStatefulSet())
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))
	fmt.Println(statefulset.RevisionName("web", statefulset.HashRevision(data, 0)))
	// Output:
	// {"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx","resources":{}}]}}}}
	// web-6bd8cfcb95
}

func ExampleStatefulSetRevisions() {
	revs := []*appsv1.ControllerRevision{{
		ObjectMeta: metav1.ObjectMeta{Name: "web-6bd8cfcb95", CreationTimestamp: metav1.NewTime(at),
			Labels: map[string]string{statefulset.RevisionHashLabel: "6bd8cfcb95"}},
		Revision: 1,
		Data:     runtime.RawExtension{Raw: []byte(`{"spec":{}}`)},
	}, nil}
	for _, r := range kubeapps.StatefulSetRevisions(revs) {
		fmt.Println(r.Name, r.Number, r.Hash, string(r.Data))
	}
	// Output:
	// web-6bd8cfcb95 1 6bd8cfcb95 {"spec":{}}
}

func ExampleStatefulSetRevisionObject() {
	s := webStatefulSet()
	data, err := kubeapps.StatefulSetRevisionData(s)
	if err != nil {
		panic(err)
	}
	rev := statefulset.ControllerRevision{Name: "web-6bd8cfcb95", Number: 1, Hash: "6bd8cfcb95", Data: data}
	obj := kubeapps.StatefulSetRevisionObject(s, &rev)
	fmt.Println(obj.Namespace, obj.Name, obj.Revision, obj.Labels, obj.Annotations, obj.OwnerReferences[0].Kind, *obj.OwnerReferences[0].Controller)
	// Output:
	// default web-6bd8cfcb95 1 map[app:web controller.kubernetes.io/hash:6bd8cfcb95] map[team:db] StatefulSet true
}
