package kruiseapps_test

import (
	"encoding/json"
	"testing"

	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// FuzzPod feeds arbitrary in-place update state and grace annotations,
// and a deletion cost, to Pod and checks that it never panics, that it
// fails exactly when kruise could not read an annotation, and that on success the revisions it reports are the
// annotations'.
func FuzzPod(f *testing.F) {
	f.Add(`{"revision":"demo-1","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"sha256:x"}}}`, "", "-5")
	f.Add(`{"revision":"demo-1","updateTimestamp":"2026-01-02T03:04:05Z","nextContainerImages":{"main":"b"}}`, `{"revision":"demo-1","graceSeconds":10}`, "")
	f.Add("{", "", "")
	f.Add("", `{"revision":{}}`, "1e3")
	f.Add("null", "null", "007")
	f.Fuzz(func(t *testing.T, state, grace, cost string) {
		cs := demo(1, "nginx:1.24", kruise.InPlaceIfPossibleCloneSetUpdateStrategyType)
		p := runningPods(cs, revisionOf(cs, 1), 1)[0]
		p.Annotations = map[string]string{cloneset.DeletionCostAnnotation: cost}
		if state != "" {
			p.Annotations[cloneset.InPlaceUpdateStateAnnotation] = state
		}
		if grace != "" {
			p.Annotations[cloneset.InPlaceUpdateGraceAnnotation] = grace
		}
		// The oracle reads the annotations as kruise does: the state into
		// kruise-api's InPlaceUpdateState, the grace into the fields of
		// kruise's UpdateSpec that the math reads.
		var st appspub.InPlaceUpdateState
		stateErr := state != "" && json.Unmarshal([]byte(state), &st) != nil
		var g struct {
			Revision     string `json:"revision"`
			GraceSeconds int32  `json:"graceSeconds"`
		}
		graceErr := grace != "" && json.Unmarshal([]byte(grace), &g) != nil
		got, err := kruiseapps.Pod(p)
		if (err != nil) != (stateErr || graceErr) {
			t.Fatalf("Pod(state %q, grace %q) error = %v, want an error: %v", state, grace, err, stateErr || graceErr)
		}
		if err != nil {
			return
		}
		if state != "" && (got.InPlaceUpdate == nil || got.InPlaceUpdate.Revision != st.Revision) {
			t.Fatalf("Pod(state %q).InPlaceUpdate = %+v, want revision %q", state, got.InPlaceUpdate, st.Revision)
		}
		if grace != "" && (got.InPlaceUpdateGrace == nil || got.InPlaceUpdateGrace.Revision != g.Revision || got.InPlaceUpdateGrace.GraceSeconds != g.GraceSeconds) {
			t.Fatalf("Pod(grace %q).InPlaceUpdateGrace = %+v, want %+v", grace, got.InPlaceUpdateGrace, g)
		}
		if got.DeletionCost != cost {
			t.Fatalf("Pod.DeletionCost = %q, want the annotation %q", got.DeletionCost, cost)
		}
	})
}
