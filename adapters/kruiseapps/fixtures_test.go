package kruiseapps_test

import (
	"fmt"
	"time"

	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// t0 is the time of the fixtures' last reconcile.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// demo returns a CloneSet "demo" with replicas pods of image, its
// selector app=demo, the given strategy type and maxUnavailable 1.
func demo(replicas int32, image string, strategy kruise.CloneSetUpdateStrategyType) *kruise.CloneSet {
	one := intstr.FromInt32(1)
	return &kruise.CloneSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image}}},
			},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: strategy, MaxUnavailable: &one},
		},
	}
}

// revisionOf returns the ControllerRevision kruise records for cs's
// template, as revision number n.
func revisionOf(cs *kruise.CloneSet, n int64) *appsv1.ControllerRevision {
	data, err := kruiseapps.RevisionData(cs)
	if err != nil {
		panic(err)
	}
	rev := cloneset.ControllerRevision{Name: cloneset.RevisionName(cs.Name, cloneset.HashRevision(data, 0)), Number: n, Data: data}
	obj := kruiseapps.NewRevisionObject(cs, &rev)
	obj.CreationTimestamp = metav1.NewTime(t0.Add(-time.Hour))
	return obj
}

// runningPods returns n ready, running pods of cs at revision rev, named
// demo-a, demo-b, ..., created an hour before t0 and ready since then.
func runningPods(cs *kruise.CloneSet, rev *appsv1.ControllerRevision, n int) []*corev1.Pod {
	var pods []*corev1.Pod
	for i := range n {
		name := fmt.Sprintf("%s-%c", cs.Name, 'a'+i)
		since := metav1.NewTime(t0.Add(-time.Hour))
		pods = append(pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: name, Namespace: cs.Namespace, CreationTimestamp: since,
				Labels: map[string]string{"app": "demo", cloneset.RevisionLabel: rev.Name,
					cloneset.LifecycleStateLabel: "Normal", kruiseapps.InstanceIDLabel: string(rune('a' + i))},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cs, kruiseapps.ControllerKind)},
			},
			Spec: corev1.PodSpec{NodeName: "node-1", Containers: cs.Spec.Template.Spec.Containers,
				ReadinessGates: []corev1.PodReadinessGate{{ConditionType: kruiseapps.InPlaceUpdateReadyCondition}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: since},
				{Type: kruiseapps.InPlaceUpdateReadyCondition, Status: corev1.ConditionTrue, LastTransitionTime: since},
			}, ContainerStatuses: []corev1.ContainerStatus{{Name: "main", Image: cs.Spec.Template.Spec.Containers[0].Image,
				ImageID: "sha256:" + cs.Spec.Template.Spec.Containers[0].Image, Ready: true}}},
		})
	}
	return pods
}

// newWeight returns a priority strategy with one weight term whose
// selector has one expression with operator op.
func newWeight(op string) *appspub.UpdatePriorityStrategy {
	return &appspub.UpdatePriorityStrategy{WeightPriority: []appspub.UpdatePriorityWeightTerm{{Weight: 50,
		MatchSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "zone", Operator: metav1.LabelSelectorOperator(op), Values: []string{"a"}}}}}}}
}
