package ststable

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

func TestPodMap(t *testing.T) {
	pods := []statefulset.PodState{
		{Name: "web-7", Revision: "web-new", Phase: statefulset.PodRunning, Ready: true, Available: true},
		{Name: "web-3", Revision: "web-old", Phase: statefulset.PodRunning, Ready: true, Available: true},
		{Name: "web-5", Revision: "web-new", Phase: statefulset.PodPending},
		{Name: "web-9", Revision: "web-old", Phase: statefulset.PodRunning, Terminating: true},
		{Name: "web-4", Revision: "web-third", Phase: statefulset.PodRunning},
	}
	// Ordinals 3 to 6 are the slots; 7 and 9 are condemned.
	if got, want := PodMap(pods, 3, 4, "web-new"), "Oon. Nx"; got != want {
		t.Errorf("PodMap = %q, want %q", got, want)
	}
	if got, want := PodMap(nil, 0, 3, "web-new"), "..."; got != want {
		t.Errorf("PodMap of no pods = %q, want %q", got, want)
	}
}

func TestChanges(t *testing.T) {
	prev := []statefulset.PodState{
		{Name: "web-0", Revision: "a", Phase: statefulset.PodRunning, Ready: true},
		{Name: "web-1", Revision: "a", Phase: statefulset.PodRunning, Ready: true, Available: true},
		{Name: "web-2", Revision: "a", Phase: statefulset.PodRunning, Ready: true, Available: true},
	}
	next := []statefulset.PodState{
		{Name: "web-0", Revision: "a", Phase: statefulset.PodRunning, Ready: true, Available: true},
		{Name: "web-1", Revision: "a", Phase: statefulset.PodRunning, Ready: true, Available: true},
		{Name: "web-3", Revision: "b", Phase: statefulset.PodPending},
	}
	got := Changes(prev, next)
	var b strings.Builder
	for _, l := range got {
		b.WriteString(l.Name + " " + l.ReadyText() + " " + l.Status())
		if l.AvailableOnly {
			b.WriteString(" available-only")
		}
		b.WriteString("; ")
	}
	if want := "web-0 1/1 Running available-only; web-3 0/1 Pending; web-2 0/1 (gone); "; b.String() != want {
		t.Errorf("Changes = %q, want %q", b.String(), want)
	}
}

func TestWrite(t *testing.T) {
	tab := Table{Heading: "StatefulSet web", Name: "web", Update: "web-b", Outcome: "Complete", Syncs: 3, Elapsed: 30e9,
		Rows: []Row{
			{Comment: "before", Replicas: 1, Status: statefulset.Status{ReadyReplicas: 1, CurrentReplicas: 1, UpdatedReplicas: 1},
				Pods: []statefulset.PodState{{Name: "web-0", Revision: "web-a", Phase: statefulset.PodRunning, Ready: true, Available: true}}},
			{Comment: "sync 1", Replicas: 1, Status: statefulset.Status{ReadyReplicas: 1},
				Pods:    []statefulset.PodState{{Name: "web-0", Revision: "web-a", Phase: statefulset.PodRunning, Ready: true, Terminating: true}},
				Actions: []statefulset.Action{{Kind: statefulset.DeletePod, Pod: "web-0", Reason: "outdated"}, {Kind: statefulset.WriteStatus, Reason: "status"}}},
		}}
	var out bytes.Buffer
	if err := Write(&out, &tab); err != nil {
		t.Fatal(err)
	}
	want := "StatefulSet web\n" + Legend + "\n\n" +
		"NAME                   READY    CURRENT  UPDATED  PARTITION  PODS\n" +
		"# before\n" +
		"statefulset.apps/web   1/1      1        1        0          O\n" +
		"# sync 1\n" +
		"statefulset.apps/web   1/1      0        0        0          x\n" +
		"  pod/web-0            1/1      Terminating       web-a   outdated\n" +
		"\nComplete after 3 syncs: 1 shown above changed something, 2 more changed nothing (30s)\n"
	if out.String() != want {
		t.Errorf("Write printed\n%s\nwant\n%s", out.String(), want)
	}
}
