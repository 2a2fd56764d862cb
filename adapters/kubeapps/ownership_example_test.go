package kubeapps_test

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/ownership"
)

func ExampleSelector() {
	sel := kubeapps.Selector(&metav1.LabelSelector{
		MatchLabels:      map[string]string{"app": "nginx"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"canary"}}},
	})
	ok, err := sel.Matches(map[string]string{"app": "nginx", "tier": "stable"})
	fmt.Println(ok, err, kubeapps.Selector(nil) == nil)
	// Output: true <nil> true
}

func ExampleOwnerReferences() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}
	refs := kubeapps.OwnerReferences([]metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))})
	fmt.Printf("%+v\n", refs[0])
	// Output: {APIVersion:apps/v1 Kind:Deployment Name:nginx-deployment UID:2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11 Controller:true BlockOwnerDeletion:true}
}

func ExampleObject() {
	// A ReplicaSet created by hand with the Deployment's pod labels, and
	// no owner.
	orphan := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-manual", Namespace: "default",
		UID: "7c0e5b1d-0000-4000-8000-000000000002", ResourceVersion: "99", Labels: map[string]string{"app": "nginx"}}}
	o := kubeapps.Object(orphan)
	_, owned := o.ControllerRef()
	fmt.Println(o.Namespace, o.Name, o.ResourceVersion, o.Labels, owned)
	// Output: default nginx-manual 99 map[app:nginx] false
}

func ExampleController() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}
	c := kubeapps.Controller(d)
	fmt.Println(c.Namespace, c.Name, c.Selector.MatchLabels, c.Deleting, c.Recreate)
	// Output: default nginx-deployment map[app:nginx] false false
}

// A controller lists the ReplicaSets of the namespace, claims them and
// sends the patches; then it plans with the owned ones.
func ExampleObjects() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}
	// The ReplicaSet the Deployment controller created.
	owned := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default",
		UID: "9b1d2c3e-0000-4000-8000-000000000001", Labels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"},
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}}}
	// A ReplicaSet created by hand with the Deployment's pod labels, and
	// no owner.
	orphan := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-manual", Namespace: "default",
		UID: "7c0e5b1d-0000-4000-8000-000000000002", ResourceVersion: "99", Labels: map[string]string{"app": "nginx"}}}
	rss := []*appsv1.ReplicaSet{owned, orphan}
	c := kubeapps.Controller(d)
	cl, err := ownership.ClaimAll(&c, kubeapps.Objects(rss), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, claim := range cl.Claims {
		fmt.Println(rss[i].Name, claim.Decision)
	}
	// Output:
	// nginx-deployment-fbb7cd456 Keep
	// nginx-manual Adopt
}

func ExampleAdoptPatch() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}
	// A ReplicaSet created by hand with the Deployment's pod labels, and
	// no owner.
	orphan := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-manual", Namespace: "default",
		UID: "7c0e5b1d-0000-4000-8000-000000000002", ResourceVersion: "99", Labels: map[string]string{"app": "nginx"}}}
	p, err := kubeapps.AdoptPatch(d, orphan)
	fmt.Println(p.Namespace, p.Name, p.Type, err)
	fmt.Println(string(p.Data))
	// Output:
	// default nginx-manual application/strategic-merge-patch+json <nil>
	// {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"nginx-deployment","uid":"2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11","controller":true,"blockOwnerDeletion":true}],"uid":"7c0e5b1d-0000-4000-8000-000000000002"}}
}

func ExampleReleasePatch() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}
	// The ReplicaSet the Deployment controller created.
	owned := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default",
		UID: "9b1d2c3e-0000-4000-8000-000000000001", Labels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"},
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}}}
	p, err := kubeapps.ReleasePatch(d, owned)
	fmt.Println(p.Name, err)
	fmt.Println(string(p.Data))
	// Output:
	// nginx-deployment-fbb7cd456 <nil>
	// {"metadata":{"uid":"9b1d2c3e-0000-4000-8000-000000000001","ownerReferences":[{"$patch":"delete","uid":"2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"}]}}
}

func ExampleClaimPatches() {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}
	// The ReplicaSet the Deployment controller created.
	owned := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-deployment-fbb7cd456", Namespace: "default",
		UID: "9b1d2c3e-0000-4000-8000-000000000001", Labels: map[string]string{"app": "nginx", "pod-template-hash": "fbb7cd456"},
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}}}
	owned.Labels = map[string]string{"app": "debug"} // relabelled by hand
	// A ReplicaSet created by hand with the Deployment's pod labels, and
	// no owner.
	orphan := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "nginx-manual", Namespace: "default",
		UID: "7c0e5b1d-0000-4000-8000-000000000002", ResourceVersion: "99", Labels: map[string]string{"app": "nginx"}}}
	rss := []*appsv1.ReplicaSet{owned, orphan}
	c := kubeapps.Controller(d)
	cl, err := ownership.ClaimAll(&c, kubeapps.Objects(rss), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	patches, err := kubeapps.ClaimPatches(d, rss, cl)
	for _, p := range patches {
		fmt.Println(p.Name, len(p.Data) > 0)
	}
	fmt.Println(err)
	// Output:
	// nginx-manual true
	// nginx-deployment-fbb7cd456 true
	// <nil>
}
