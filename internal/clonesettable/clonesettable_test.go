package clonesettable

import (
	"bytes"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func TestPodMap(t *testing.T) {
	pods := []cloneset.PodState{
		{Name: "a", Revision: "old", Available: true},
		{Name: "b", Revision: "old"},
		{Name: "c", Revision: "new", Available: true},
		{Name: "d", Revision: "new"},
		{Name: "e", Revision: "new", Available: true, Terminating: true},
	}
	if got := PodMap(pods, "new"); got != "OoNnx" {
		t.Errorf("PodMap(...) = %q, want OoNnx", got)
	}
}

func TestWrite(t *testing.T) {
	tab := Table{Heading: "CloneSet demo: 2 replicas", Name: "demo", Update: "new",
		Rows: []Row{
			{Comment: "before the update", Replicas: 2, Status: cloneset.Status{Replicas: 2, ReadyReplicas: 2},
				Pods: []cloneset.PodState{{Revision: "old", Available: true}, {Revision: "old", Available: true}}},
			{Comment: Comment(&cloneset.Step{Sync: 1, Elapsed: 10 * time.Second, Events: []string{"template changed"}, Reason: "updated 1 pod"}),
				Replicas: 2, Status: cloneset.Status{Replicas: 2, ReadyReplicas: 2, UpdatedReplicas: 1},
				Pods: []cloneset.PodState{{Revision: "old", Available: true}, {Revision: "new"}}},
		},
		Outcome: "Complete", Syncs: 3, Elapsed: 30 * time.Second}
	var b bytes.Buffer
	if err := Write(&b, &tab); err != nil {
		t.Fatal(err)
	}
	want := `CloneSet demo: 2 replicas
` + Legend + `

NAME   DESIRED   UPDATED   UPDATED_READY   READY   TOTAL   PODS
# before the update
demo   2         0         0               2       2       OO
# reconcile 1 (+10s) after template changed: updated 1 pod
demo   2         1         0               2       2       On

Complete after 3 reconciles: 1 shown above changed something, 2 more changed nothing (30s)
`
	if got := b.String(); got != want {
		t.Errorf("Write printed\n%s\nwant\n%s", got, want)
	}
}
