package main

import (
	"strings"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// changedImages returns the images of the containers whose image differs
// between from and to (matched by name), before and after, each
// comma-separated in to's container order: "nginx:1.9" and "nginx:1.9.3"
// for a pod whose sidecar keeps its image. When no image changes, both
// are every container's image.
func changedImages(from, to *kubeapps.Template) (string, string) {
	before := map[string]string{}
	for _, c := range from.Spec.Containers {
		before[c.Name] = c.Image
	}
	var a, b, all []string
	for _, c := range to.Spec.Containers {
		all = append(all, c.Image)
		if old, ok := before[c.Name]; !ok || old != c.Image {
			a, b = append(a, before[c.Name]), append(b, c.Image)
		}
	}
	if len(b) == 0 {
		return strings.Join(all, ","), strings.Join(all, ",")
	}
	return strings.Join(a, ","), strings.Join(b, ",")
}

// templates returns the pod template of every ReplicaSet in the lists, by
// name; a later list wins for a name in both.
func templates(lists ...[]rollout.ReplicaSet[kubeapps.Template]) map[string]*kubeapps.Template {
	out := map[string]*kubeapps.Template{}
	for _, rss := range lists {
		for i := range rss {
			out[rss[i].Name] = &rss[i].Template
		}
	}
	return out
}
