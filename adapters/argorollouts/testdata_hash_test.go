package argorollouts_test

import (
	"os"
	"testing"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// TestTestdataHashesAreArgos keeps the fixtures honest: a Rollout's
// status.currentPodHash is Argo's hash of its spec.template, and each
// ReplicaSet is named for the hash of the Rollout's template as it was
// when that ReplicaSet was created (the same template with the
// ReplicaSet's image), as the controller names them.
func TestTestdataHashesAreArgos(t *testing.T) {
	var objs argorollouts.Objects
	for _, name := range []string{"testdata/rollout-web.yaml", "testdata/replicasets-web.yaml"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		o, err := argorollouts.Read(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		objs.Rollouts = append(objs.Rollouts, o.Rollouts...)
		objs.ReplicaSets = append(objs.ReplicaSets, o.ReplicaSets...)
	}
	ro, err := argorollouts.Rollout(&objs.Rollouts[0])
	if err != nil {
		t.Fatal(err)
	}
	want, err := argo.PodTemplateHash(&ro.Template, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Status.CurrentPodHash != want {
		t.Errorf("status.currentPodHash %q, want Argo's hash of spec.template %q", ro.Status.CurrentPodHash, want)
	}
	rss, err := argorollouts.ReplicaSets(objs.ReplicaSets)
	if err != nil {
		t.Fatal(err)
	}
	if len(rss) != 2 {
		t.Fatalf("%d ReplicaSets, want 2", len(rss))
	}
	for _, rs := range rss {
		tmpl := ro.Template.DeepCopy()
		tmpl.Spec.Containers[0].Image = rs.Template.Spec.Containers[0].Image
		h, err := argo.PodTemplateHash(tmpl, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rs.PodTemplateHash != h || rs.Name != ro.Name+"-"+h {
			t.Errorf("ReplicaSet %s has hash %q, want %q", rs.Name, rs.PodTemplateHash, h)
		}
	}
}
