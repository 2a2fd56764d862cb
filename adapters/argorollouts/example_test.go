package argorollouts_test

import (
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
)

// manifest is what `kubectl get rollout web -o yaml` and `kubectl get rs
// -l app=web -o yaml` print, trimmed, one after the other.
const manifest = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
  namespace: shop
  uid: 5b0f8c2e-4d1a-4c55-9a57-2f3e8d1c7a90
  generation: 2
  creationTimestamp: "2026-11-23T09:14:02Z"
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  strategy:
    canary:
      steps:
      - setWeight: 20
      - pause: {}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.27"}]}
status:
  currentPodHash: 699fb74df4
  stableRS: 875b8cbb4
  currentStepIndex: 0
---
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-875b8cbb4
    namespace: shop
    labels: {app: web, rollouts-pod-template-hash: 875b8cbb4}
    annotations: {rollout.argoproj.io/revision: "1", rollout.argoproj.io/desired-replicas: "3"}
    ownerReferences:
    - {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: web, uid: 5b0f8c2e-4d1a-4c55-9a57-2f3e8d1c7a90, controller: true}
  spec: {replicas: 3}
  status: {replicas: 3, readyReplicas: 3, availableReplicas: 3}
`

func ExampleRead() {
	objs, err := argorollouts.Read(strings.NewReader(manifest))
	if err != nil {
		fmt.Println(err)
		return
	}
	ro, err := argorollouts.Rollout(&objs.Rollouts[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	rss, err := argorollouts.ReplicaSets(argorollouts.Owned(&objs.Rollouts[0], objs.ReplicaSets))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Rollout %s/%s: replicas %d, %d steps, stable %s\n", ro.Namespace, ro.Name, *ro.Replicas, len(ro.Strategy.Canary.Steps), ro.Status.StableRS)
	for _, rs := range rss {
		fmt.Printf("ReplicaSet %s: hash %s, revision %d, %d/%d available\n", rs.Name, rs.PodTemplateHash, rs.Revision, rs.AvailableReplicas, rs.Replicas)
	}
	// Output:
	// Rollout shop/web: replicas 3, 2 steps, stable 875b8cbb4
	// ReplicaSet web-875b8cbb4: hash 875b8cbb4, revision 1, 3/3 available
}

func ExampleObjects_Read() {
	var objs argorollouts.Objects
	for _, doc := range []string{
		`{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-699fb74df4"}}`,
		"apiVersion: v1\nkind: Service\nmetadata: {name: web}\n",
	} {
		if err := objs.Read(strings.NewReader(doc)); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(len(objs.ReplicaSets), "ReplicaSet:", objs.ReplicaSets[0].Name)
	// Output:
	// argorollouts: document 1: kind "Service" (v1): want an argoproj.io/v1alpha1 Rollout, an apps/v1 ReplicaSet or a List of them
	// 1 ReplicaSet: web-699fb74df4
}

func ExampleRollout() {
	replicas := int32(10)
	obj := &argorollouts.RolloutObject{
		TypeMeta:   metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: argorollouts.RolloutSpec{
			Replicas: &replicas,
			Strategy: argorollouts.RolloutStrategy{Canary: &argorollouts.CanaryStrategy{
				MaxSurge: &intstr.IntOrString{Type: intstr.String, StrVal: "20%"},
				Steps:    []argorollouts.CanaryStep{{SetWeight: &[]int32{20}[0]}, {Pause: &argorollouts.RolloutPause{}}},
			}},
		},
	}
	ro, err := argorollouts.Rollout(obj)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := ro.Strategy.Canary
	fmt.Printf("maxSurge %q, maxUnavailable unset: %v, first step setWeight %d\n", c.MaxSurge.Str, c.MaxUnavailable == nil, *c.Steps[0].SetWeight)

	obj.Spec.WorkloadRef = []byte(`{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}`)
	_, err = argorollouts.Rollout(obj)
	fmt.Println(err)
	// Output:
	// maxSurge "20%", maxUnavailable unset: true, first step setWeight 20
	// argorollouts: Rollout "web": spec.workloadRef: a Rollout that takes its template from another workload is not supported: copy the workload's template into spec.template
}

func ExampleStatus() {
	step := int32(2)
	st := argorollouts.Status(&argorollouts.RolloutStatus{
		CurrentPodHash:   "699fb74df4",
		StableRS:         "875b8cbb4",
		CurrentStepIndex: &step,
		Canary: argorollouts.CanaryStatus{Weights: &argorollouts.TrafficWeights{
			Canary: argorollouts.WeightDestination{Weight: 20, PodTemplateHash: "699fb74df4"},
			Stable: argorollouts.WeightDestination{Weight: 80, PodTemplateHash: "875b8cbb4"},
		}},
	})
	fmt.Printf("step %d, canary weight %d, stable weight %d\n", *st.CurrentStepIndex, st.Canary.Weights.Canary.Weight, st.Canary.Weights.Stable.Weight)
	// Output:
	// step 2, canary weight 20, stable weight 80
}

func ExampleReplicaSet() {
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:   "web-699fb74df4",
			Labels: map[string]string{"app": "web", "rollouts-pod-template-hash": "699fb74df4"},
			Annotations: map[string]string{
				"rollout.argoproj.io/revision":         "4",
				"rollout.argoproj.io/desired-replicas": "ten", // not a number: absent
				"scale-down-deadline":                  "2026-11-26T10:30:00Z",
			},
		},
		Spec: appsv1.ReplicaSetSpec{Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web", "rollouts-pod-template-hash": "699fb74df4"}},
		}},
		Status: appsv1.ReplicaSetStatus{Replicas: 1, ReadyReplicas: 1, AvailableReplicas: 0},
	}
	got, err := argorollouts.ReplicaSet(rs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("revision %d, replicas %d (spec.replicas nil), desired-replicas absent: %v, deadline %s, template labels %v\n",
		got.Revision, got.Replicas, got.DesiredReplicas == nil, got.ScaleDownDeadline, got.Template.Labels)

	delete(rs.Labels, "rollouts-pod-template-hash")
	_, err = argorollouts.ReplicaSet(rs)
	fmt.Println(err)
	// Output:
	// revision 4, replicas 1 (spec.replicas nil), desired-replicas absent: true, deadline 2026-11-26T10:30:00Z, template labels map[app:web]
	// argorollouts: ReplicaSet "web-699fb74df4": metadata.labels[rollouts-pod-template-hash]: Required value: every ReplicaSet of a Rollout has its pod-template hash
}

func ExampleReplicaSets() {
	rss := []appsv1.ReplicaSet{
		{ObjectMeta: metav1.ObjectMeta{Name: "web-875b8cbb4", Labels: map[string]string{"rollouts-pod-template-hash": "875b8cbb4"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "web-copy"}},
	}
	_, err := argorollouts.ReplicaSets(rss)
	fmt.Println(err)
	// Output:
	// argorollouts: ReplicaSet "web-copy": rss[1].metadata.labels[rollouts-pod-template-hash]: Required value: every ReplicaSet of a Rollout has its pod-template hash
}

func ExampleOwned() {
	ro := &argorollouts.RolloutObject{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-1"}}
	yes := true
	owner := func(kind, name, uid string) []metav1.OwnerReference {
		return []metav1.OwnerReference{{Kind: kind, Name: name, UID: k8stypes.UID(uid), Controller: &yes}}
	}
	rss := []appsv1.ReplicaSet{
		{ObjectMeta: metav1.ObjectMeta{Name: "web-a", Namespace: "shop", OwnerReferences: owner("Rollout", "web", "uid-1")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "web-b", Namespace: "shop", OwnerReferences: owner("Rollout", "web", "uid-0")}},    // an earlier Rollout "web"
		{ObjectMeta: metav1.ObjectMeta{Name: "web-c", Namespace: "shop", OwnerReferences: owner("Deployment", "web", "uid-2")}}, // a Deployment's
		{ObjectMeta: metav1.ObjectMeta{Name: "web-d", Namespace: "test", OwnerReferences: owner("Rollout", "web", "uid-1")}},    // another namespace
	}
	for _, rs := range argorollouts.Owned(ro, rss) {
		fmt.Println(rs.Name)
	}
	// Output:
	// web-a
}
