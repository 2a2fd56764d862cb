// Command clonesetusage is the README's CloneSet snippet: plan one
// reconcile of a CloneSet whose image changed, with partition 50%.
// TestReadmeCloneSet keeps the README's copy and its printed output
// identical to this file and to what it prints.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// Template stands in for your pod template type (or use
// corev1.PodTemplateSpec). Its JSON encoding is what kruise hashes into
// revision names: use the template as the API server stores it.
type Template struct {
	Labels map[string]string `json:"labels"`
	Image  string            `json:"image"`
}

func main() {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	old := Template{Labels: map[string]string{"app": "web"}, Image: "nginx:1.25"}
	// The revision kruise created for the old template, and its pods.
	rev, err := cloneset.NewRevision("web", old, 1, 0)
	if err != nil {
		log.Fatal(err)
	}
	var pods []cloneset.Pod
	for _, name := range []string{"web-a", "web-b", "web-c", "web-d"} {
		pods = append(pods, cloneset.Pod{
			Name: name, Revision: rev.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour),
		})
	}

	// kubectl set image: nginx:1.26, half the pods stay on the old revision.
	partition := intorpercent.FromString("50%")
	cs := &cloneset.CloneSet[Template]{
		Name:           "web",
		Generation:     2,
		Replicas:       4,
		UpdateStrategy: cloneset.UpdateStrategy{Partition: &partition},
		Template:       Template{Labels: old.Labels, Image: "nginx:1.26"},
		Status:         cloneset.Status{ObservedGeneration: 1, CurrentRevision: rev.Name, UpdateRevision: rev.Name},
	}

	s, err := cloneset.Plan(cs, pods, []cloneset.ControllerRevision{rev}, now)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range s.Actions {
		fmt.Printf("%s: %s\n", a.Kind, a.Reason)
	}
}
