// Command usage is the README's Usage snippet: plan one sync of an nginx
// Deployment whose image changed. TestReadmeUsage keeps the README's copy
// and its printed output identical to this file and to what it prints.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// PodSpec stands in for your pod spec type (or use corev1.PodTemplateSpec
// as the template). Its name and package are part of the pod-template-hash:
// renaming or moving it renames every ReplicaSet.
type PodSpec struct{ Image string }

// Template is the pod template the Deployment and its ReplicaSets carry.
type Template = revision.Template[PodSpec]

func main() {
	surge := intorpercent.Percent(25)
	d := &rollout.Deployment[Template]{
		Name:     "nginx",
		Replicas: 10,
		MaxSurge: &surge, // maxUnavailable stays nil: 25%, as the API server defaults it
		Template: Template{Labels: map[string]string{"app": "nginx"}, Spec: PodSpec{Image: "nginx:1.9.3"}},
	}
	old := rollout.ReplicaSet[Template]{
		Name:     "nginx-6d4cf56db6",
		Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    Template{Labels: map[string]string{"app": "nginx"}, Spec: PodSpec{Image: "nginx:1.9"}},
	}

	step, err := rollout.Plan(d, []rollout.ReplicaSet[Template]{old}, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range step.Actions {
		fmt.Println(a.Reason)
	}
}
