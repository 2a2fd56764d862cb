package kubeapps_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// A controller converts the objects it holds, asks rollout.Plan what one
// sync of kube-controller-manager would do, and sends the writes.
func Example() {
	// Deployment nginx-deployment: 10 replicas, maxSurge and
	// maxUnavailable 25%, settled on nginx:1.9 (revision 1).
	replicas, quarter := int32(10), intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.9"}}}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	// Its ReplicaSet, as the controller created it.
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default", UID: "9b1d2c3e-0000-4000-8000-000000000001",
			Labels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"},
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "1",
				"deployment.kubernetes.io/desired-replicas": "10", "deployment.kubernetes.io/max-replicas": "13"},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"}},
			Template: *d.Spec.Template.DeepCopy()},
		Status: appsv1.ReplicaSetStatus{Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, ObservedGeneration: 1},
	}
	rs.Spec.Template.Labels = rs.Labels
	rss := []*appsv1.ReplicaSet{rs}
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.9.3" // kubectl set image
	d.Generation++

	deployment, err := kubeapps.Deployment(d)
	if err != nil {
		panic(err)
	}
	plan, err := rollout.Plan(&deployment, kubeapps.ReplicaSets(rss), time.Now())
	if err != nil {
		panic(err)
	}
	changes, err := kubeapps.Changes(d, rss, &plan)
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		switch c.Verb {
		case kubeapps.VerbCreateReplicaSet, kubeapps.VerbUpdateReplicaSet, kubeapps.VerbDeleteReplicaSet:
			fmt.Printf("%v %s (%d replicas)\n", c.Verb, c.ReplicaSet.Name, *c.ReplicaSet.Spec.Replicas)
		default:
			fmt.Printf("%v %s\n", c.Verb, c.Deployment.Name)
		}
	}
	// Output:
	// CreateReplicaSet nginx-deployment-585b4cff9c (3 replicas)
	// UpdateReplicaSet nginx-deployment-fbb7cd456 (8 replicas)
	// UpdateDeploymentStatus nginx-deployment
}

func ExampleDeployment() {
	// Deployment nginx-deployment: 10 replicas, maxSurge and
	// maxUnavailable 25%, settled on nginx:1.9 (revision 1).
	replicas, quarter := int32(10), intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.9"}}}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	d.Spec.Replicas = nil // absent: the apps/v1 default 1
	surge := intstr.FromInt32(2)
	d.Spec.Strategy.RollingUpdate.MaxSurge = &surge
	deployment, err := kubeapps.Deployment(d)
	if err != nil {
		panic(err)
	}
	fmt.Println(deployment.Replicas, deployment.MaxSurge, deployment.MaxUnavailable, rollout.MaxSurge(&deployment))

	bad := intstr.FromString("+5%")
	d.Spec.Strategy.RollingUpdate.MaxSurge = &bad
	_, err = kubeapps.Deployment(d)
	fmt.Println(err)
	// Output:
	// 1 2 25% 2
	// spec.strategy.rollingUpdate.maxSurge: Invalid value: "+5%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
}

func ExampleValidate() {
	// Deployment nginx-deployment: 10 replicas, maxSurge and
	// maxUnavailable 25%, settled on nginx:1.9 (revision 1).
	replicas, quarter := int32(10), intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.9"}}}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	fmt.Println(kubeapps.Validate(d))
	// Output:
	// spec.template.metadata.labels: Invalid value: {"app":"nginx"}: `selector` does not match template `labels`
}

func ExampleNewReplicaSetObject() {
	// Deployment nginx-deployment: 10 replicas, maxSurge and
	// maxUnavailable 25%, settled on nginx:1.9 (revision 1).
	replicas, quarter := int32(10), intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.9"}}}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	rs := kubeapps.NewReplicaSetObject(d, "845649975f", 3, map[string]string{"deployment.kubernetes.io/revision": "2"})
	fmt.Println(rs.Name, *rs.Spec.Replicas, rs.Spec.Selector.MatchLabels, rs.OwnerReferences[0].Kind, rs.OwnerReferences[0].Name)
	// Output:
	// nginx-deployment-845649975f 3 map[app:nginx pod-template-hash:845649975f] Deployment nginx-deployment
}

func ExampleReplicaSet() {
	replicas := int32(10)
	obj := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default",
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec:   appsv1.ReplicaSetSpec{Replicas: &replicas},
		Status: appsv1.ReplicaSetStatus{Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	rs := kubeapps.ReplicaSet(obj)
	fmt.Println(rs.Name, rs.Replicas, rs.AvailableReplicas, rs.Annotations["deployment.kubernetes.io/revision"])
	// Output:
	// nginx-deployment-fbb7cd456 10 10 1
}

func ExampleReplicaSets() {
	obj := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default"}}
	rss := kubeapps.ReplicaSets([]*appsv1.ReplicaSet{obj, nil}) // nil is skipped
	fmt.Println(len(rss), rss[0].Name)
	// Output:
	// 1 nginx-deployment-fbb7cd456
}

func ExampleOwned() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"}}
	mine := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default",
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}}}
	orphan := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-5d4c8f7b9", Namespace: "default"}}
	for _, rs := range kubeapps.Owned(d, []*appsv1.ReplicaSet{mine, orphan}) {
		fmt.Println(rs.Name)
	}
	// Output:
	// nginx-deployment-fbb7cd456
}

func ExampleDeploymentObject() {
	// Deployment nginx-deployment: 10 replicas, maxSurge and
	// maxUnavailable 25%, settled on nginx:1.9 (revision 1).
	replicas, quarter := int32(10), intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.9"}}}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	deployment, _ := kubeapps.Deployment(d)
	deployment.Replicas = 20
	fmt.Println(*kubeapps.DeploymentObject(&deployment, d).Spec.Replicas, *d.Spec.Replicas)
	// Output:
	// 20 10
}

func ExampleReplicaSetObject() {
	replicas := int32(10)
	obj := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default"},
		Spec:       appsv1.ReplicaSetSpec{Replicas: &replicas},
	}
	rs := kubeapps.ReplicaSet(obj)
	rs.Replicas = 8
	fmt.Println(*kubeapps.ReplicaSetObject(&rs, obj).Spec.Replicas, *obj.Spec.Replicas)
	// Output:
	// 8 10
}

func ExampleStatus() {
	at := time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)
	status := appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10,
		Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable",
			Message:        `ReplicaSet "nginx-deployment-fbb7cd456" has successfully progressed.`,
			LastUpdateTime: metav1.NewTime(at.Add(30 * time.Second)), LastTransitionTime: metav1.NewTime(at)}}}
	s := kubeapps.Status(&status)
	c, _ := rollout.FindCondition(s.Conditions, rollout.DeploymentProgressing)
	fmt.Println(s.AvailableReplicas, c.Reason)
	// Output:
	// 10 NewReplicaSetAvailable
}

func ExampleStatusObject() {
	s := rollout.Status{Replicas: 3, AvailableReplicas: 2}
	obj := kubeapps.StatusObject(&s)
	fmt.Println(obj.Replicas, obj.AvailableReplicas, obj.Conditions == nil)
	// Output:
	// 3 2 true
}

func ExampleVerb_String() {
	fmt.Println(kubeapps.VerbCreateReplicaSet, kubeapps.VerbUpdateDeploymentStatus)
	// Output:
	// CreateReplicaSet UpdateDeploymentStatus
}

// Changes turns a resize of a settled Deployment into the writes the
// controller sends: the ReplicaSet's new size with its replicas
// annotations, then the Deployment's status.
func ExampleChanges() {
	// Deployment nginx-deployment: 10 replicas, maxSurge and
	// maxUnavailable 25%, settled on nginx:1.9 (revision 1).
	replicas, quarter := int32(10), intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.9"}}}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	// Its ReplicaSet, as the controller created it.
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default", UID: "9b1d2c3e-0000-4000-8000-000000000001",
			Labels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"},
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "1",
				"deployment.kubernetes.io/desired-replicas": "10", "deployment.kubernetes.io/max-replicas": "13"},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"}},
			Template: *d.Spec.Template.DeepCopy()},
		Status: appsv1.ReplicaSetStatus{Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, ObservedGeneration: 1},
	}
	rs.Spec.Template.Labels = rs.Labels
	rss := []*appsv1.ReplicaSet{rs}
	twelve := int32(12)
	d.Spec.Replicas = &twelve // kubectl scale --replicas 12
	d.Generation++

	deployment, err := kubeapps.Deployment(d)
	if err != nil {
		panic(err)
	}
	plan, err := rollout.Plan(&deployment, kubeapps.ReplicaSets(rss), time.Now())
	if err != nil {
		panic(err)
	}
	changes, err := kubeapps.Changes(d, rss, &plan)
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		if c.ReplicaSet != nil {
			fmt.Println(c.Verb, c.ReplicaSet.Name, *c.ReplicaSet.Spec.Replicas, c.ReplicaSet.Annotations["deployment.kubernetes.io/desired-replicas"])
		} else {
			fmt.Println(c.Verb, c.Deployment.Name, c.Deployment.Status.ObservedGeneration)
		}
	}
	// Output:
	// UpdateReplicaSet nginx-deployment-fbb7cd456 12 12
	// UpdateDeploymentStatus nginx-deployment 2
}
