package rollout_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// A Deployment whose selector is empty selects every pod: the controller
// does not roll it out and only records the generation it saw.
func ExamplePlan_selectingAll() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	d.Selector = &ownership.Selector{}
	s, err := rollout.Plan(d, rss, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Path, len(s.Actions), s.Deployment.Status.ObservedGeneration)
	fmt.Println(s.Reason)
	// Output:
	// selecting all 0 2
	// the selector is empty and selects every pod (event SelectingAll): a non-empty selector is required, so no ReplicaSet is adopted, created or scaled; status.observedGeneration 1 -> 2
}

// Plan does not decide ownership: claim first, then plan with the owned
// ReplicaSets.
func ExamplePlan_claimFirst() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	d.Selector = &ownership.Selector{MatchLabels: map[string]string{"app": "nginx"}}
	// What the cache lists in the namespace: nginx's ReplicaSet (owned)
	// and one relabelled by hand (to be released).
	listed := []ownership.Object{
		{Name: rss[0].Name, UID: "u-rs", Labels: map[string]string{"app": "nginx"}, OwnerReferences: []ownership.OwnerReference{{Kind: "Deployment", Name: "nginx", UID: "u-nginx", Controller: true}}},
		{Name: "nginx-debug", UID: "u-dbg", Labels: map[string]string{"app": "debug"}, OwnerReferences: []ownership.OwnerReference{{Kind: "Deployment", Name: "nginx", UID: "u-nginx", Controller: true}}},
	}
	c := ownership.Controller{Name: "nginx", UID: "u-nginx", Selector: d.Selector}
	cl, err := ownership.ClaimAll(&c, listed, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("release:", listed[cl.Release[0]].Name)
	var owned []rollout.ReplicaSet[revision.Template[string]]
	for _, i := range cl.Owned {
		owned = append(owned, rss[i]) // rss[i] is listed[i] as rollout reads it
	}
	s, err := rollout.Plan(d, owned, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Path, s.Actions[0].Kind)
	// Output:
	// release: nginx-debug
	// RollingUpdate CreateReplicaSet
}
