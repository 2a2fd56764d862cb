package kruiserollouts_test

import (
	"fmt"
	"strings"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	kruisebeta "github.com/openkruise/kruise-api/apps/v1beta1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
)

// Read a `kubectl get rollout,batchrelease,cloneset -o yaml` stream and
// convert what it holds.
func ExampleRead() {
	manifests := `apiVersion: v1
kind: List
items:
- apiVersion: rollouts.kruise.io/v1beta1
  kind: Rollout
  metadata: {name: demo, namespace: default}
  spec:
    workloadRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: demo}
    strategy:
      canary:
        steps:
        - {replicas: 20%}
        - {replicas: 50%, pause: {duration: 60}}
        - {replicas: 100%}
  status:
    canaryStatus: {currentStepIndex: 1, currentStepState: StepPaused}
- apiVersion: rollouts.kruise.io/v1beta1
  kind: BatchRelease
  metadata: {name: demo, namespace: default, generation: 1}
  spec:
    workloadRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: demo}
    releasePlan:
      batchPartition: 0
      batches: [{canaryReplicas: 20%}, {canaryReplicas: 50%}, {canaryReplicas: 100%}]
      rollingStyle: Partition
  status:
    canaryStatus: {batchState: Ready, currentBatch: 0, updatedReplicas: 2, updatedReadyReplicas: 2}
- apiVersion: apps.kruise.io/v1alpha1
  kind: CloneSet
  metadata: {name: demo, namespace: default}
  spec:
    replicas: 10
    updateStrategy: {partition: 80%, maxUnavailable: 20%}
  status: {replicas: 10, updatedReplicas: 2, updatedReadyReplicas: 2}
`
	objs, err := kruiserollouts.Read(strings.NewReader(manifests))
	if err != nil {
		panic(err)
	}
	ro, err := kruiserollouts.ConvertRollout(objs.Rollouts[0])
	if err != nil {
		panic(err)
	}
	br, err := kruiserollouts.ConvertBatchRelease(objs.BatchReleases[0])
	if err != nil {
		panic(err)
	}
	cs, err := kruiserollouts.CloneSet(objs.CloneSets[0])
	if err != nil {
		panic(err)
	}
	fmt.Printf("rollout %s: %s, %d steps, at step %d\n", ro.Name, ro.WorkloadKind, len(ro.Canary.Steps), ro.CurrentStepIndex)
	fmt.Printf("batch release %s: %s, batch %d of %d %s, partition %d\n", br.Name, br.RollingStyle, br.Status.CurrentBatch, len(br.Batches), br.Status.BatchState, *br.BatchPartition)
	fmt.Printf("cloneset %s: %d replicas, partition %s, %d updated\n", cs.Name, cs.Replicas, cs.Partition, cs.Status.UpdatedReplicas)
	// Output:
	// rollout demo: CloneSet, 3 steps, at step 1
	// batch release demo: Partition, batch 0 of 3 Ready, partition 0
	// cloneset demo: 10 replicas, partition 80%, 2 updated
}

func ExampleConvertRollout() {
	five, sixty := intstr.FromInt(5), int32(60)
	r := &kruiserollouts.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: kruiserollouts.RolloutSpec{
			WorkloadRef: kruiserollouts.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			Strategy: kruiserollouts.RolloutStrategy{Canary: &kruiserollouts.CanaryStrategy{
				Steps: []kruiserollouts.CanaryStep{{Replicas: &five, Pause: kruiserollouts.RolloutPause{Duration: &sixty}}},
			}},
		},
	}
	ro, err := kruiserollouts.ConvertRollout(r)
	fmt.Println(ro.WorkloadKind, ro.Canary.Steps[0].Replicas, *ro.Canary.Steps[0].Pause.Duration, err)

	r.Spec.WorkloadRef.Kind = "ReplicaSet"
	_, err = kruiserollouts.ConvertRollout(r)
	fmt.Println(err)
	// Output:
	// Deployment 5 60 <nil>
	// kruiserollouts: invalid Rollout "web": spec.workloadRef.kind: "apps/v1/ReplicaSet": supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet
}

func ExampleConvertBatchRelease() {
	noNeed := int32(4)
	br := &kruiserollouts.BatchRelease{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: kruiserollouts.BatchReleaseSpec{
			WorkloadRef: kruiserollouts.ObjectRef{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"},
			ReleasePlan: kruiserollouts.ReleasePlan{
				Batches:   []kruiserollouts.ReleaseBatch{{CanaryReplicas: intstr.FromString("20%")}, {CanaryReplicas: intstr.FromString("100%")}},
				RolloutID: "v2",
			},
		},
		Status: kruiserollouts.BatchReleaseStatus{CanaryStatus: kruiserollouts.BatchReleaseCanaryStatus{
			CurrentBatchState: "Verifying", CurrentBatch: 1, NoNeedUpdateReplicas: &noNeed,
		}},
	}
	rel, err := kruiserollouts.ConvertBatchRelease(br)
	fmt.Println(len(rel.Batches), rel.RolloutID, rel.Status.CurrentBatch, rel.Status.BatchState, *rel.Status.NoNeedUpdateReplicas, err)
	// Output:
	// 2 v2 1 Verifying 4 <nil>
}

func ExampleCloneSet() {
	replicas, partition := int32(10), intstr.FromString("50%")
	cs := &kruise.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "demo"},
		Spec: kruise.CloneSetSpec{
			Replicas:       &replicas,
			UpdateStrategy: kruise.CloneSetUpdateStrategy{Partition: &partition},
		},
		Status: kruise.CloneSetStatus{UpdatedReplicas: 5, UpdatedReadyReplicas: 4, UpdateRevision: "demo-7b9", CurrentRevision: "demo-5c8"},
	}
	w, err := kruiserollouts.CloneSet(cs)
	fmt.Println(w.Kind, w.Replicas, w.Partition, w.Status.UpdatedReplicas, w.Status.UpdatedReadyReplicas, w.Status.StableRevision, err)
	// Output:
	// CloneSet 10 50% 5 4 demo-5c8 <nil>
}

func ExampleDeployment() {
	replicas := int32(10)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: map[string]string{
			kruiserollouts.DeploymentStrategyAnnotation:    `{"rollingStyle":"Partition","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"},"partition":"50%"}`,
			kruiserollouts.DeploymentExtraStatusAnnotation: `{"updatedReadyReplicas":3,"expectedUpdatedReplicas":5}`,
		}},
		Spec:   appsv1.DeploymentSpec{Replicas: &replicas, Paused: true},
		Status: appsv1.DeploymentStatus{Replicas: 10, UpdatedReplicas: 5},
	}
	w, err := kruiserollouts.Deployment(d)
	fmt.Println(w.Kind, w.Partition, w.MaxSurge, w.Status.UpdatedReplicas, w.Status.UpdatedReadyReplicas, err)

	d.Annotations[kruiserollouts.DeploymentStrategyAnnotation] = `{"partition":`
	_, err = kruiserollouts.Deployment(d)
	fmt.Println(err)
	// Output:
	// Deployment 50% 25% 5 3 <nil>
	// kruiserollouts: invalid Deployment "web": metadata.annotations["rollouts.kruise.io/deployment-strategy"]: not the JSON kruise-rollout writes: unexpected end of JSON input
}

func ExampleStatefulSet() {
	replicas, partition := int32(5), int32(3)
	s := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec: appsv1.StatefulSetSpec{Replicas: &replicas, UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
			Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition},
		}},
		Status: appsv1.StatefulSetStatus{Replicas: 5, UpdatedReplicas: 2, UpdateRevision: "db-6d7", CurrentRevision: "db-5c8"},
	}
	w, err := kruiserollouts.StatefulSet(s)
	fmt.Println(w.Kind, w.Replicas, w.Partition, w.Status.UpdatedReplicas, err)
	// Output:
	// StatefulSet 5 3 2 <nil>
}

func ExampleAdvancedStatefulSet() {
	replicas, partition := int32(5), int32(4)
	s := &kruisebeta.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec: kruisebeta.StatefulSetSpec{Replicas: &replicas, UpdateStrategy: kruisebeta.StatefulSetUpdateStrategy{
			RollingUpdate: &kruisebeta.RollingUpdateStatefulSetStrategy{Partition: &partition, UnorderedUpdate: &kruisebeta.UnorderedUpdateStrategy{}},
		}},
	}
	w, err := kruiserollouts.AdvancedStatefulSet(s)
	fmt.Println(w.Kind, w.Partition, w.UnorderedUpdate, err)
	// Output:
	// AdvancedStatefulSet 4 true <nil>
}

// Count what the release reads from a StatefulSet's pods: ready pods at
// the update revision, pods labelled with the rollout ID, and pods a
// rollback in batches need not update.
func ExamplePods() {
	replicas := int32(3)
	s := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec:       appsv1.StatefulSetSpec{Replicas: &replicas},
		Status:     appsv1.StatefulSetStatus{Replicas: 3, UpdatedReplicas: 2, UpdateRevision: "db-6d7"},
	}
	pod := func(name, rev string, ready bool, labels ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{appsv1.ControllerRevisionHashLabelKey: rev}}}
		for i := 0; i+1 < len(labels); i += 2 {
			p.Labels[labels[i]] = labels[i+1]
		}
		status := corev1.ConditionFalse
		if ready {
			status = corev1.ConditionTrue
		}
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
		return p
	}
	pods := []*corev1.Pod{
		pod("db-0", "db-5c8", true),
		pod("db-1", "db-6d7", true, kruiserollouts.RolloutIDLabel, "v2"),
		pod("db-2", "db-6d7", false, kruiserollouts.RolloutIDLabel, "v2", kruiserollouts.NoNeedUpdateLabel, "v2"),
	}
	w, err := kruiserollouts.StatefulSet(s)
	if err != nil {
		panic(err)
	}
	err = kruiserollouts.Pods(&w, pods, "v2")
	fmt.Println(w.Status.UpdatedReadyReplicas, w.Status.Pods.Listed, w.Status.Pods.RolloutIDLabeled, w.Status.Pods.NoNeedUpdate, err)
	// Output:
	// 1 3 2 1 <nil>
}

func ExampleWorkloadKind() {
	for _, ref := range []kruiserollouts.ObjectRef{
		{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
		{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet"},
		{APIVersion: "apps/v1", Kind: "DaemonSet"},
	} {
		k, err := kruiserollouts.WorkloadKind(ref, "spec.workloadRef")
		fmt.Println(k, err)
	}
	// Output:
	// CloneSet <nil>
	// AdvancedStatefulSet <nil>
	// Kind(0) spec.workloadRef.kind: "apps/v1/DaemonSet": supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet
}

// A workload is controlled by the BatchRelease whose UID its control-info
// annotation (or its controller owner reference) holds.
func ExampleControlledBy() {
	br := &kruiserollouts.BatchRelease{ObjectMeta: metav1.ObjectMeta{Name: "demo", UID: "0f3e8a5d"}}
	cs := &kruise.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "demo", Annotations: map[string]string{
		kruiserollouts.ControlInfoAnnotation: `{"apiVersion":"rollouts.kruise.io/v1beta1","kind":"BatchRelease","name":"demo","uid":"0f3e8a5d","controller":true}`,
	}}}
	fmt.Println(kruiserollouts.ControlledBy(cs, br))
	br.UID = "another"
	fmt.Println(kruiserollouts.ControlledBy(cs, br))
	// Output:
	// true
	// false
}

// The Canary style's extra Deployment, attached to the stable one.
func ExampleCanaryDeployment() {
	stableReplicas, canaryReplicas := int32(10), int32(2)
	stable := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{Replicas: &stableReplicas}}
	canary := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d9c4", Labels: map[string]string{kruiserollouts.CanaryDeploymentLabel: "web"}},
		Spec:       appsv1.DeploymentSpec{Replicas: &canaryReplicas},
		Status:     appsv1.DeploymentStatus{Replicas: 2, AvailableReplicas: 1},
	}
	w, err := kruiserollouts.Deployment(stable)
	if err != nil {
		panic(err)
	}
	w.Canary, err = kruiserollouts.CanaryDeployment(canary, nil, "")
	fmt.Println(w.Replicas, w.Canary.Name, w.Canary.Replicas, w.Canary.StatusReplicas, w.Canary.AvailableReplicas, err)
	// Output:
	// 10 web-7d9c4 2 2 1 <nil>
}

// A v1alpha1 Rollout converts as kruise-rollout converts it: weight 20
// without replicas becomes traffic and replicas "20%", and without the
// rolling-style annotation "partition" the Deployment is released in the
// Canary style.
func ExampleRolloutV1alpha1_ToV1beta1() {
	objs, err := kruiserollouts.Read(strings.NewReader(`apiVersion: rollouts.kruise.io/v1alpha1
kind: Rollout
metadata: {name: web}
spec:
  objectRef:
    workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  strategy:
    canary:
      steps:
      - weight: 20
      - replicas: 5
`))
	if err != nil {
		panic(err)
	}
	r := objs.Rollouts[0] // already converted: Read calls ToV1beta1
	s := r.Spec.Strategy.Canary
	fmt.Println(r.APIVersion, s.EnableExtraWorkloadForCanary, *s.Steps[0].Traffic, s.Steps[0].Replicas.String(), s.Steps[1].Replicas.String())

	var old kruiserollouts.RolloutV1alpha1
	old.Name = "broken"
	_, err = old.ToV1beta1()
	fmt.Println(err)
	// Output:
	// rollouts.kruise.io/v1beta1 true 20% 20% 5
	// kruiserollouts: invalid v1alpha1 Rollout "broken": spec.objectRef.workloadRef: required: kruise-rollout cannot convert a Rollout without it
}

// A v1alpha1 BatchRelease takes its rolling style from the annotation.
func ExampleBatchReleaseV1alpha1_ToV1beta1() {
	objs, err := kruiserollouts.Read(strings.NewReader(`apiVersion: rollouts.kruise.io/v1alpha1
kind: BatchRelease
metadata:
  name: web
  annotations: {rollouts.kruise.io/rolling-style: partition}
spec:
  targetReference:
    workloadRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}
  releasePlan:
    batches: [{canaryReplicas: 20%}, {canaryReplicas: 100%}]
`))
	if err != nil {
		panic(err)
	}
	br := objs.BatchReleases[0]
	fmt.Println(br.APIVersion, br.Spec.WorkloadRef.Kind, br.Spec.ReleasePlan.RollingStyle, len(br.Spec.ReleasePlan.Batches))
	// Output:
	// rollouts.kruise.io/v1beta1 CloneSet Partition 2
}

// The BlueGreen style reads a Deployment's updated ready pods from its
// new ReplicaSet (the one at the Deployment's template).
func ExampleNewReplicaSetReady() {
	replicas := int32(4)
	tpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "web:2"}}},
	}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "d-uid"},
		Spec:       appsv1.DeploymentSpec{Replicas: &replicas, Template: tpl},
	}
	owner := *metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))
	rs := func(name, image string, ready int32) *appsv1.ReplicaSet {
		t := *tpl.DeepCopy()
		t.Spec.Containers[0].Image = image
		t.Labels[appsv1.DefaultDeploymentUniqueLabelKey] = name
		return &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: name, OwnerReferences: []metav1.OwnerReference{owner}},
			Spec:       appsv1.ReplicaSetSpec{Template: t},
			Status:     appsv1.ReplicaSetStatus{ReadyReplicas: ready},
		}
	}
	w, err := kruiserollouts.Deployment(d)
	if err != nil {
		panic(err)
	}
	err = kruiserollouts.NewReplicaSetReady(&w, d, []*appsv1.ReplicaSet{rs("web-old", "web:1", 4), rs("web-new", "web:2", 2)})
	fmt.Println(w.Status.UpdatedReadyReplicas, err)
	// Output:
	// 2 <nil>
}
