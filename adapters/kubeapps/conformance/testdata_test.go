package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/revision"
)

// TestTestdataHashesMatchUpstream checks the manifests rolloutplan's
// tests and goldens use: every ReplicaSet is named and labelled with the
// hash upstream's ComputeHash gives its template, and revision.Hash, which
// rolloutplan's own test uses, agrees with ComputeHash on every template
// in them.
func TestTestdataHashesMatchUpstream(t *testing.T) {
	dir := filepath.Join("..", "cmd", "rolloutplan", "testdata")
	files := []string{"nginx-deployment.yaml", "nginx-midrollout.yaml", "nginx-replicasets.yaml"}
	var deployments, replicaSets int
	for _, name := range files {
		for _, doc := range objectsIn(t, filepath.Join(dir, name)) {
			var meta struct{ Kind string }
			if err := json.Unmarshal(doc, &meta); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			switch meta.Kind {
			case "Deployment":
				var d appsv1.Deployment
				if err := strictJSON(doc, &d); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				deployments++
				up := controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
				if got := revision.Hash(&d.Spec.Template, d.Status.CollisionCount); got != up {
					t.Errorf("%s: Deployment %s: revision.Hash = %s, ComputeHash = %s", name, d.Name, got, up)
				}
			case "ReplicaSet":
				var rs appsv1.ReplicaSet
				if err := strictJSON(doc, &rs); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				replicaSets++
				tmpl := rs.Spec.Template.DeepCopy()
				delete(tmpl.Labels, "pod-template-hash")
				up := controller.ComputeHash(tmpl, nil)
				if got := revision.Hash(tmpl, nil); got != up {
					t.Errorf("%s: ReplicaSet %s: revision.Hash = %s, ComputeHash = %s", name, rs.Name, got, up)
				}
				if want := "nginx-deployment-" + up; rs.Name != want || rs.Labels["pod-template-hash"] != up {
					t.Errorf("%s: ReplicaSet %s (label %s) should be %s", name, rs.Name, rs.Labels["pod-template-hash"], want)
				}
			}
		}
	}
	if deployments == 0 || replicaSets == 0 {
		t.Fatalf("read %d Deployments and %d ReplicaSets from %v, want some of each", deployments, replicaSets, files)
	}
}

// objectsIn returns the objects of a YAML file as JSON, one per document,
// with a List's items in place of the List.
func objectsIn(t *testing.T, path string) []json.RawMessage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var objs []json.RawMessage
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var list struct {
			Kind  string
			Items []json.RawMessage
		}
		if err := json.Unmarshal(js, &list); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if list.Kind == "List" {
			objs = append(objs, list.Items...)
		} else {
			objs = append(objs, js)
		}
	}
}

// strictJSON decodes an object, failing on fields the type lacks.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
