// Package cluster holds what the example programs share to set up a
// simulated cluster: a small pod template type and a Deployment that has
// settled on its template, the state a rollout starts from.
package cluster

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// PodSpec is the part of a pod's spec the examples keep: the containers'
// names and images. pod-template-hashes are computed over it, so they
// differ from the hashes a cluster computes over a full corev1.PodSpec.
type PodSpec struct {
	Containers []Container `json:"containers"`
}

// Container is one container of a pod template.
type Container struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// Template is the pod template type the examples hand to the library.
type Template = revision.Template[PodSpec]

// Image returns a template with the label app=app and one container
// called app running image.
func Image(app, image string) Template {
	return Template{
		Labels: map[string]string{"app": app},
		Spec:   PodSpec{Containers: []Container{{Name: app, Image: image}}},
	}
}

// FirstImage returns the image of t's first container, or "" when t has
// none.
func FirstImage(t *Template) string {
	if len(t.Spec.Containers) == 0 {
		return ""
	}
	return t.Spec.Containers[0].Image
}

// Settled returns d as the controller leaves it once a rollout of its
// template has completed long before at, and its only ReplicaSet: revision
// 1, named with the template's pod-template-hash, with d.Replicas pods all
// available. d's status and annotations are replaced; its spec is kept.
func Settled(d rollout.Deployment[Template], at time.Time) (rollout.Deployment[Template], rollout.ReplicaSet[Template]) {
	hash := revision.Hash(&d.Template, nil)
	rsTemplate := d.Template
	rsTemplate.Labels = maps.Clone(d.Template.Labels)
	if rsTemplate.Labels == nil {
		rsTemplate.Labels = map[string]string{}
	}
	rsTemplate.Labels[revision.HashLabel] = hash
	r := d.Replicas
	since := at.Add(-time.Hour)
	rs := rollout.ReplicaSet[Template]{
		Name:         revision.ReplicaSetName(d.Name, hash),
		UID:          d.Name + "-rs-1",
		CreationTime: since,
		Annotations: map[string]string{
			revision.RevisionAnnotation:        "1",
			revision.DesiredReplicasAnnotation: strconv.Itoa(int(r)),
			revision.MaxReplicasAnnotation:     strconv.FormatInt(int64(r)+int64(rollout.MaxSurge(&d)), 10),
		},
		Template:           rsTemplate,
		Replicas:           r,
		StatusReplicas:     r,
		ReadyReplicas:      r,
		AvailableReplicas:  r,
		Generation:         1,
		ObservedGeneration: 1,
	}
	if d.Generation == 0 {
		d.Generation = 1
	}
	d.Annotations = map[string]string{revision.RevisionAnnotation: "1"}
	d.Status = rollout.Status{
		ObservedGeneration: d.Generation,
		Replicas:           r, UpdatedReplicas: r, ReadyReplicas: r, AvailableReplicas: r,
		Conditions: []rollout.Condition{
			rollout.NewCondition(rollout.DeploymentAvailable, rollout.ConditionTrue,
				rollout.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", since),
			rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue,
				rollout.ReasonNewReplicaSetAvailable, fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs.Name), since),
		},
	}
	return d, rs
}
