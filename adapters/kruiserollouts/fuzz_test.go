package kruiserollouts

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// FuzzRead feeds Read arbitrary streams (seeded with the testdata
// manifests): it must not panic, and whatever it reads must convert
// without panicking, every conversion error being a *field.Error.
func FuzzRead(f *testing.F) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"apiVersion":"rollouts.kruise.io/v1beta1","kind":"BatchRelease","spec":{"releasePlan":{"batches":[{"canaryReplicas":"50%"}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		check := func(err error) {
			var fe *field.Error
			if err != nil && !errors.As(err, &fe) {
				t.Fatalf("conversion error %T %v, want a *field.Error", err, err)
			}
		}
		for _, r := range objs.Rollouts {
			_, err := ConvertRollout(r)
			check(err)
		}
		for _, br := range objs.BatchReleases {
			_, err := ConvertBatchRelease(br)
			check(err)
		}
		var ws []batchrelease.Workload
		for _, cs := range objs.CloneSets {
			w, err := CloneSet(cs)
			check(err)
			ws = append(ws, w)
		}
		for _, d := range objs.Deployments {
			w, err := Deployment(d)
			check(err)
			ws = append(ws, w)
			_, err = CanaryDeployment(d, objs.Pods, "v1")
			check(err)
		}
		for _, s := range objs.StatefulSets {
			w, err := StatefulSet(s)
			check(err)
			ws = append(ws, w)
		}
		for _, s := range objs.AdvancedStatefulSets {
			w, err := AdvancedStatefulSet(s)
			check(err)
			ws = append(ws, w)
		}
		for i := range ws {
			check(Pods(&ws[i], objs.Pods, "v1"))
		}
	})
}
