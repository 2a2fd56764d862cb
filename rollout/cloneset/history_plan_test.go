package cloneset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlanDeletesASingleRevisionBeyondTheLimit: with revisionHistoryLimit
// 1 and two unused old revisions, one sync deletes the oldest one, and
// says so, even though it is the only revision it deletes.
func TestPlanDeletesASingleRevisionBeyondTheLimit(t *testing.T) {
	var revs []ControllerRevision
	for i, image := range []string{"nginx:1.24", "nginx:1.25", "nginx:1.26"} {
		r, err := NewRevision("demo", templateOf(image), int64(i+1), 0)
		if err != nil {
			t.Fatal(err)
		}
		revs = append(revs, r)
	}
	limit := int32(1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.26"), RevisionHistoryLimit: &limit}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = revs[2].Name, revs[2].Name
	s, err := Plan(cs, []Pod{upPod("demo-a", revs[2].Name)}, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, a := range s.Actions {
		if a.Kind == DeleteRevision {
			deleted = append(deleted, a.Revision+": "+a.Reason)
		}
	}
	want := []string{revs[0].Name + ": deleted revision " + revs[0].Name + " (number 1): no pod is at it and more than revisionHistoryLimit 1 unused revisions exist"}
	if diff := cmp.Diff(want, deleted); diff != "" {
		t.Errorf("DeleteRevision actions (-want +got):\n%s", diff)
	}
	var left []string
	for _, r := range s.Revisions {
		left = append(left, r.Name)
	}
	if diff := cmp.Diff([]string{revs[1].Name, revs[2].Name}, left); diff != "" {
		t.Errorf("revisions after the sync (-want +got):\n%s", diff)
	}
	if s.Reason != "deleted 1 old revision" {
		t.Errorf("Reason = %q, want %q", s.Reason, "deleted 1 old revision")
	}
}
