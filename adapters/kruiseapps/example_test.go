package kruiseapps_test

import (
	"fmt"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// A whole reconcile: convert the objects, plan, and turn the plan into
// API writes. The image changed from nginx:1.24 to nginx:1.25 on a
// CloneSet updated in place with maxUnavailable 1.
func ExampleChanges() {
	old := demo(3, "nginx:1.24", kruise.InPlaceIfPossibleCloneSetUpdateStrategyType)
	oldRev := revisionOf(old, 1)
	pods := runningPods(old, oldRev, 3)
	obj := demo(3, "nginx:1.25", kruise.InPlaceIfPossibleCloneSetUpdateStrategyType)
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
	plan, err := cloneset.Plan(&cs, converted, kruiseapps.Revisions(revisions), t0)
	if err != nil {
		panic(err)
	}
	changes, err := kruiseapps.Changes(obj, owned, revisions, &plan, t0)
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
	obj := demo(10, "nginx:1.25", kruise.RecreateCloneSetUpdateStrategyType)
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
	cs := demo(1, "nginx:1.24", kruise.InPlaceIfPossibleCloneSetUpdateStrategyType)
	p := runningPods(cs, revisionOf(cs, 1), 1)[0]
	p.Annotations = map[string]string{cloneset.DeletionCostAnnotation: "-5"}
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
	cs := demo(2, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	pods, err := kruiseapps.Pods(append(runningPods(cs, revisionOf(cs, 1), 2), nil))
	fmt.Println(len(pods), pods[0].Name, pods[1].Name, err)
	// Output:
	// 2 demo-a demo-b <nil>
}

func ExampleOwned() {
	cs := demo(2, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	pods := runningPods(cs, revisionOf(cs, 1), 2)
	orphan := pods[0].DeepCopy()
	orphan.Name, orphan.OwnerReferences = "demo-orphan", nil
	foreign := pods[1].DeepCopy()
	foreign.Name, foreign.OwnerReferences[0].UID = "other-x", "uid-other"
	for _, p := range kruiseapps.Owned(cs, []*corev1.Pod{foreign, pods[1], orphan, pods[0]}) {
		fmt.Println(p.Name)
	}
	// Output:
	// demo-a
	// demo-b
	// demo-orphan
}

func ExampleRevisionData() {
	cs := demo(3, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	data, err := kruiseapps.RevisionData(cs)
	fmt.Println(string(data), err)
	fmt.Println(cloneset.RevisionName(cs.Name, cloneset.HashRevision(data, 0)))
	// Output:
	// {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.24","name":"main","resources":{}}]}}}} <nil>
	// demo-74955794fd
}

func ExampleRevisions() {
	cs := demo(3, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	revs := kruiseapps.Revisions([]*appsv1.ControllerRevision{revisionOf(cs, 4), nil})
	fmt.Println(len(revs), revs[0].Name, revs[0].Number, len(revs[0].Data) > 0)
	// Output:
	// 1 demo-74955794fd 4 true
}

func ExampleNewRevisionObject() {
	cs := demo(3, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	data, _ := kruiseapps.RevisionData(cs)
	rev := cloneset.ControllerRevision{Name: cloneset.RevisionName(cs.Name, cloneset.HashRevision(data, 0)), Number: 1, Data: data}
	obj := kruiseapps.NewRevisionObject(cs, &rev)
	fmt.Println(obj.Name, obj.Revision, obj.Labels, obj.OwnerReferences[0].Kind, *obj.OwnerReferences[0].Controller)
	// Output:
	// demo-74955794fd 1 map[app:demo controller.kubernetes.io/hash:74955794fd] CloneSet true
}

func ExampleTemplateOf() {
	cs := demo(3, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
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
