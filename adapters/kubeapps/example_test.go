package kubeapps_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// A controller converts the objects it holds, asks rollout.Plan what one
// sync of kube-controller-manager would do, and sends the writes.
func Example() {
	d := nginxDeployment() // 10 replicas, 25%/25%, settled on nginx:1.9
	rss := []*appsv1.ReplicaSet{nginxReplicaSet(d, "fbb7cd456")}
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
	// CreateReplicaSet nginx-deployment-845649975f (3 replicas)
	// UpdateReplicaSet nginx-deployment-fbb7cd456 (8 replicas)
	// UpdateDeploymentStatus nginx-deployment
}

func ExampleDeployment() {
	d := nginxDeployment()
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
	d := nginxDeployment()
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	fmt.Println(kubeapps.Validate(d))
	// Output:
	// spec.template.metadata.labels: Invalid value: {"app":"nginx"}: `selector` does not match template `labels`
}

func ExampleNewReplicaSetObject() {
	d := nginxDeployment()
	rs := kubeapps.NewReplicaSetObject(d, "845649975f", 3, map[string]string{"deployment.kubernetes.io/revision": "2"})
	fmt.Println(rs.Name, *rs.Spec.Replicas, rs.Spec.Selector.MatchLabels, rs.OwnerReferences[0].Kind, rs.OwnerReferences[0].Name)
	// Output:
	// nginx-deployment-845649975f 3 map[app:nginx pod-template-hash:845649975f] Deployment nginx-deployment
}

func ExampleReplicaSet() {
	rs := kubeapps.ReplicaSet(nginxReplicaSet(nginxDeployment(), "fbb7cd456"))
	fmt.Println(rs.Name, rs.Replicas, rs.AvailableReplicas, rs.Annotations["deployment.kubernetes.io/revision"])
	// Output:
	// nginx-deployment-fbb7cd456 10 10 1
}

func ExampleReplicaSets() {
	d := nginxDeployment()
	rss := kubeapps.ReplicaSets([]*appsv1.ReplicaSet{nginxReplicaSet(d, "fbb7cd456"), nil})
	fmt.Println(len(rss), rss[0].Name)
	// Output:
	// 1 nginx-deployment-fbb7cd456
}

func ExampleOwned() {
	d := nginxDeployment()
	mine, orphan := nginxReplicaSet(d, "fbb7cd456"), nginxReplicaSet(d, "5d4c8f7b9")
	orphan.OwnerReferences = nil
	for _, rs := range kubeapps.Owned(d, []*appsv1.ReplicaSet{mine, orphan}) {
		fmt.Println(rs.Name)
	}
	// Output:
	// nginx-deployment-fbb7cd456
}

func ExampleDeploymentObject() {
	d := nginxDeployment()
	deployment, _ := kubeapps.Deployment(d)
	deployment.Replicas = 20
	fmt.Println(*kubeapps.DeploymentObject(&deployment, d).Spec.Replicas, *d.Spec.Replicas)
	// Output:
	// 20 10
}

func ExampleReplicaSetObject() {
	obj := nginxReplicaSet(nginxDeployment(), "fbb7cd456")
	rs := kubeapps.ReplicaSet(obj)
	rs.Replicas = 8
	fmt.Println(*kubeapps.ReplicaSetObject(&rs, obj).Spec.Replicas, *obj.Spec.Replicas)
	// Output:
	// 8 10
}

func ExampleStatus() {
	s := kubeapps.Status(&nginxDeployment().Status)
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
	d := nginxDeployment() // 10 replicas, settled on nginx:1.9
	rss := []*appsv1.ReplicaSet{nginxReplicaSet(d, "fbb7cd456")}
	d.Spec.Replicas = ptr(int32(12)) // kubectl scale --replicas 12
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
