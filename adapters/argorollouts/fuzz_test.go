package argorollouts

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// FuzzRead checks that no manifest makes Read, Rollout or ReplicaSets
// panic, and that a Rollout that decodes survives encoding/json: once
// encoded and read again (which truncates times to whole seconds, as
// metav1.Time does), encoding and reading it again converts to the same
// rollout/argo value.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"rollout-web.yaml", "replicasets-web.yaml", "rollout-checkout-bluegreen.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nspec: {strategy: {canary: {trafficRouting: {istio: null}, steps: [{experiment: null}]}}}\n"))
	f.Add([]byte("apiVersion: argoproj.io/v1alpha1\nkind: RolloutList\nitems: [{metadata: {name: a}}]\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		objs, err := Read(bytes.NewReader(in))
		if err != nil {
			return
		}
		_, _ = ReplicaSets(objs.ReplicaSets)
		reread := func(obj *RolloutObject) *RolloutObject {
			js, err := json.Marshal(obj)
			if err != nil {
				t.Fatalf("json.Marshal of a decoded Rollout: %v", err)
			}
			again, err := Read(bytes.NewReader(js))
			if err != nil || len(again.Rollouts) != 1 {
				t.Fatalf("Read(json.Marshal(rollout)) = %d Rollouts, %v; want 1 Rollout\n%s", len(again.Rollouts), err, js)
			}
			return &again.Rollouts[0]
		}
		for i := range objs.Rollouts {
			if _, err := Rollout(&objs.Rollouts[i]); err != nil {
				continue
			}
			once := reread(&objs.Rollouts[i])
			ro, err := Rollout(once)
			if err != nil {
				t.Fatalf("Rollout of the re-read Rollout: %v", err)
			}
			ro2, err := Rollout(reread(once))
			if err != nil {
				t.Fatalf("Rollout of the re-read Rollout: %v", err)
			}
			a, _ := json.Marshal(ro)
			b, _ := json.Marshal(ro2)
			if !bytes.Equal(a, b) {
				t.Errorf("a Rollout converts differently after encoding/json:\nbefore %s\nafter  %s", a, b)
			}
		}
	})
}
