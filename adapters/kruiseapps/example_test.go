package kruiseapps_test

import (
	"fmt"
	"time"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// A whole reconcile: convert the objects, plan, and turn the plan into
// API writes. The image changed from nginx:1.24 to nginx:1.25 on a
// CloneSet updated in place with maxUnavailable 1.
func ExampleChanges() {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// CloneSet demo: 3 pods of nginx:1.24, selector app=demo, maxUnavailable 1.
	replicas, one := int32(3), intstr.FromInt32(1)
	obj := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.24"}}}},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: kruise.InPlaceIfPossibleCloneSetUpdateStrategyType, MaxUnavailable: &one},
		},
	}
	// The ControllerRevision kruise recorded for that template.
	data, err := kruiseapps.RevisionData(obj)
	if err != nil {
		panic(err)
	}
	oldRev := kruiseapps.NewRevisionObject(obj, &cloneset.ControllerRevision{Name: cloneset.RevisionName("demo", cloneset.HashRevision(data, 0)), Number: 1, Data: data})
	// 3 running, ready pods at that revision, as kruise created
	// them an hour ago.
	since := metav1.NewTime(now.Add(-time.Hour))
	var pods []*corev1.Pod
	for _, id := range []string{"a", "b", "c"} {
		pods = append(pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "demo-" + id, Namespace: "default", CreationTimestamp: since,
				Labels: map[string]string{"app": "demo", cloneset.RevisionLabel: oldRev.Name,
					cloneset.LifecycleStateLabel: "Normal", kruiseapps.InstanceIDLabel: id},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(obj, kruiseapps.ControllerKind)}},
			Spec: corev1.PodSpec{NodeName: "node-1", Containers: obj.Spec.Template.Spec.Containers,
				ReadinessGates: []corev1.PodReadinessGate{{ConditionType: kruiseapps.InPlaceUpdateReadyCondition}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: since},
				{Type: kruiseapps.InPlaceUpdateReadyCondition, Status: corev1.ConditionTrue, LastTransitionTime: since},
			}, ContainerStatuses: []corev1.ContainerStatus{{Name: "main", Image: "nginx:1.24", ImageID: "sha256:nginx:1.24", Ready: true}}},
		})
	}
	// kubectl set image: the template moves to nginx:1.25.
	obj.Spec.Template.Spec.Containers = []corev1.Container{{Name: "main", Image: "nginx:1.25"}}
	obj.Status.CurrentRevision, obj.Status.UpdateRevision = oldRev.Name, oldRev.Name

	cs, err := kruiseapps.CloneSet(obj)
	if err != nil {
		panic(err)
	}
	owned := kruiseapps.Owned(obj, pods)
	converted, err := kruiseapps.Pods(owned)
	if err != nil {
		panic(err)
	}
	revisions := []*appsv1.ControllerRevision{oldRev}
	plan, err := cloneset.Plan(&cs, converted, kruiseapps.Revisions(revisions), now)
	if err != nil {
		panic(err)
	}
	changes, err := kruiseapps.Changes(obj, owned, revisions, &plan, now)
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		switch {
		case c.Pod != nil:
			fmt.Println(c.Verb, c.Pod.Name, c.Pod.Spec.Containers[0].Image, c.Pod.Labels[cloneset.LifecycleStateLabel])
		case c.Revision != nil:
			fmt.Println(c.Verb, c.Revision.Name, c.Revision.Revision)
		default:
			fmt.Println(c.Verb, c.CloneSet.Status.UpdatedReplicas, c.CloneSet.Status.UpdateRevision)
		}
	}
	fmt.Println(plan.Update.Branch, plan.Update.Chosen) // plan.Reason says the same in words
	// Output:
	// CreateRevision demo-788944f45 2
	// UpdatePod demo-a nginx:1.25 Updating
	// UpdateCloneSetStatus 0 demo-788944f45
	// UpdatePods [demo-a]
}

func ExampleCloneSet() {
	// CloneSet demo: 10 pods of nginx:1.25, selector app=demo, maxUnavailable 1.
	replicas, one := int32(10), intstr.FromInt32(1)
	obj := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}}},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: kruise.RecreateCloneSetUpdateStrategyType, MaxUnavailable: &one},
		},
	}
	obj.Spec.Replicas = nil // the webhook's default is 1
	cs, err := kruiseapps.CloneSet(obj)
	fmt.Println(cs.Name, cs.Replicas, cs.UpdateStrategy.Type, cs.UpdateStrategy.MaxUnavailable.Int, cs.ProgressDeadlineSeconds, err)
	_, err = kruiseapps.CloneSet(nil)
	fmt.Println(err)
	// Output:
	// demo 1 ReCreate 1 <nil> <nil>
	// kruiseapps: nil CloneSet
}

func ExamplePod() {
	// A running pod of CloneSet demo at revision demo-74955794fd, ready
	// (in place too) since 02:04:05, with a deletion cost.
	since := metav1.NewTime(time.Date(2026, 1, 2, 2, 4, 5, 0, time.UTC))
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "demo-a", Namespace: "default", CreationTimestamp: since,
			Labels:      map[string]string{"app": "demo", cloneset.RevisionLabel: "demo-74955794fd", cloneset.LifecycleStateLabel: "Normal"},
			Annotations: map[string]string{cloneset.DeletionCostAnnotation: "-5"}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "main", Image: "nginx:1.24"}},
			ReadinessGates: []corev1.PodReadinessGate{{ConditionType: kruiseapps.InPlaceUpdateReadyCondition}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: since},
			{Type: kruiseapps.InPlaceUpdateReadyCondition, Status: corev1.ConditionTrue, LastTransitionTime: since},
		}},
	}
	pod, err := kruiseapps.Pod(p)
	fmt.Println(pod.Name, pod.Revision, pod.Phase, pod.Ready, pod.Lifecycle, pod.DeletionCost, pod.InPlaceUpdateReady, err)
	p.Annotations[cloneset.InPlaceUpdateStateAnnotation] = "{"
	_, err = kruiseapps.Pod(p)
	fmt.Println(err)
	// Output:
	// demo-a demo-74955794fd Running true Normal -5 True <nil>
	// kruiseapps: pod demo-a: annotation apps.kruise.io/inplace-update-state: unexpected end of JSON input
}

func ExamplePods() {
	a := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "demo-a", Namespace: "default"}}
	b := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "demo-b", Namespace: "default"}}
	pods, err := kruiseapps.Pods([]*corev1.Pod{a, b, nil}) // nil is skipped
	fmt.Println(len(pods), pods[0].Name, pods[1].Name, err)
	// Output:
	// 2 demo-a demo-b <nil>
}

func ExampleOwned() {
	cs := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo"},
		Spec:       kruise.CloneSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}}},
	}
	pod := func(name string, owners ...metav1.OwnerReference) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default",
			Labels: map[string]string{"app": "demo"}, OwnerReferences: owners}}
	}
	ours := *metav1.NewControllerRef(cs, kruiseapps.ControllerKind)
	theirs := ours
	theirs.UID = "uid-other"
	pods := []*corev1.Pod{pod("other-x", theirs), pod("demo-b", ours), pod("demo-orphan"), pod("demo-a", ours)}
	for _, p := range kruiseapps.Owned(cs, pods) {
		fmt.Println(p.Name)
	}
	// Output:
	// demo-a
	// demo-b
	// demo-orphan
}

func ExampleRevisionData() {
	// CloneSet demo: 3 pods of nginx:1.24, selector app=demo, maxUnavailable 1.
	replicas, one := int32(3), intstr.FromInt32(1)
	cs := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.24"}}}},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: kruise.RecreateCloneSetUpdateStrategyType, MaxUnavailable: &one},
		},
	}
	data, err := kruiseapps.RevisionData(cs)
	fmt.Println(string(data), err)
	fmt.Println(cloneset.RevisionName(cs.Name, cloneset.HashRevision(data, 0)))
	// Output:
	// {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.24","name":"main","resources":{}}]}}}} <nil>
	// demo-74955794fd
}

func ExampleRevisions() {
	// CloneSet demo: 3 pods of nginx:1.24, selector app=demo, maxUnavailable 1.
	replicas, one := int32(3), intstr.FromInt32(1)
	cs := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.24"}}}},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: kruise.RecreateCloneSetUpdateStrategyType, MaxUnavailable: &one},
		},
	}
	// The ControllerRevision kruise recorded for that template.
	data, err := kruiseapps.RevisionData(cs)
	if err != nil {
		panic(err)
	}
	rev := kruiseapps.NewRevisionObject(cs, &cloneset.ControllerRevision{Name: cloneset.RevisionName("demo", cloneset.HashRevision(data, 0)), Number: 4, Data: data})
	revs := kruiseapps.Revisions([]*appsv1.ControllerRevision{rev, nil}) // nil is skipped
	fmt.Println(len(revs), revs[0].Name, revs[0].Number, len(revs[0].Data) > 0)
	// Output:
	// 1 demo-74955794fd 4 true
}

func ExampleNewRevisionObject() {
	// CloneSet demo: 3 pods of nginx:1.24, selector app=demo, maxUnavailable 1.
	replicas, one := int32(3), intstr.FromInt32(1)
	cs := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.24"}}}},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: kruise.RecreateCloneSetUpdateStrategyType, MaxUnavailable: &one},
		},
	}
	data, _ := kruiseapps.RevisionData(cs)
	rev := cloneset.ControllerRevision{Name: cloneset.RevisionName(cs.Name, cloneset.HashRevision(data, 0)), Number: 1, Data: data}
	obj := kruiseapps.NewRevisionObject(cs, &rev)
	fmt.Println(obj.Name, obj.Revision, obj.Labels, obj.OwnerReferences[0].Kind, *obj.OwnerReferences[0].Controller)
	// Output:
	// demo-74955794fd 1 map[app:demo controller.kubernetes.io/hash:74955794fd] CloneSet true
}

func ExampleTemplateOf() {
	// CloneSet demo: 3 pods of nginx:1.24, selector app=demo, maxUnavailable 1.
	replicas, one := int32(3), intstr.FromInt32(1)
	cs := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "uid-demo", Generation: 2},
		Spec: kruise.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.24"}}}},
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Type: kruise.RecreateCloneSetUpdateStrategyType, MaxUnavailable: &one},
		},
	}
	data, _ := kruiseapps.RevisionData(cs)
	t, err := kruiseapps.TemplateOf(data)
	fmt.Println(t.Labels, t.Spec.Containers[0].Image, err)
	_, err = kruiseapps.TemplateOf([]byte(`{"spec":{}}`))
	fmt.Println(err)
	// Output:
	// map[app:demo] nginx:1.24 <nil>
	// kruiseapps: revision data has no spec.template
}

func ExampleStatus() {
	s := kruiseapps.Status(&kruise.CloneSetStatus{Replicas: 3, UpdatedReplicas: 1, UpdateRevision: "demo-abc", CurrentRevision: "demo-xyz"})
	fmt.Println(s.Replicas, s.UpdatedReplicas, s.UpdateRevision, s.CurrentRevision)
	// Output:
	// 3 1 demo-abc demo-xyz
}

func ExampleStatusObject() {
	s := kruiseapps.StatusObject(&cloneset.Status{ObservedGeneration: 2, Replicas: 3, AvailableReplicas: 3, UpdateRevision: "demo-abc"})
	fmt.Println(s.ObservedGeneration, s.Replicas, s.AvailableReplicas, s.UpdateRevision)
	// Output:
	// 2 3 3 demo-abc
}

func ExampleVerb_String() {
	fmt.Println(kruiseapps.VerbCreatePod, kruiseapps.VerbUpdateCloneSetStatus, kruiseapps.Verb(0))
	// Output:
	// CreatePod UpdateCloneSetStatus Verb(0)
}
