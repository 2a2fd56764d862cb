package dstable

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

var t0 = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

func TestNodeMap(t *testing.T) {
	gen := int64(3)
	nodes := []daemonset.Node{
		{Name: "b", ShouldRun: true, ShouldContinueRunning: true},
		{Name: "a", ShouldRun: true, ShouldContinueRunning: true},
		{Name: "c", ShouldRun: true, ShouldContinueRunning: true},
		{Name: "d"},
		{Name: "e", ShouldRun: true, ShouldContinueRunning: true},
	}
	pods := []daemonset.Pod{
		// a: a new pod beside an older old one; the old one comes first.
		{Name: "p2", Node: "a", Hash: "new", Phase: daemonset.PodPending, Created: t0.Add(time.Minute)},
		{Name: "p1", Node: "a", Hash: "old", Phase: daemonset.PodRunning, Ready: true, ReadySince: t0, Created: t0},
		// b: terminating old pod.
		{Name: "p3", Node: "b", Hash: "old", Terminating: true, Ready: true, Created: t0},
		// c: ready but not yet available (minReadySeconds 30), updated
		// by the template-generation label only.
		{Name: "p4", Node: "c", Hash: "other", TemplateGeneration: "3", Ready: true, ReadySince: t0.Add(4 * time.Minute), Created: t0},
		// a pod on a node that is gone.
		{Name: "p5", Node: "z", Hash: "new", Ready: true, ReadySince: t0, Created: t0},
	}
	got := NodeMap(nodes, pods, "new", &gen, 30, t0.Add(4*time.Minute+10*time.Second))
	if want := "On x n . - | N"; got != want {
		t.Errorf("NodeMap = %q, want %q", got, want)
	}
}

func TestChangesSeesAReusedName(t *testing.T) {
	prev := states([]daemonset.Pod{{Name: "ds-x", Node: "a", Hash: "old", Terminating: true, Ready: true, Created: t0}}, 0, t0)
	next := states([]daemonset.Pod{{Name: "ds-x", Node: "a", Hash: "new", Phase: daemonset.PodPending, Created: t0.Add(time.Hour)}}, 0, t0)
	got := changes(prev, next)
	if len(got) != 2 || !got[0].gone || got[0].Hash != "old" || got[1].gone || got[1].Hash != "new" {
		t.Errorf("changes = %+v, want the old pod gone, then the new one", got)
	}
}

func TestWrite(t *testing.T) {
	nodes := []daemonset.Node{{Name: "n1", ShouldRun: true, ShouldContinueRunning: true}}
	before := []daemonset.Pod{{Name: "ds-a", Node: "n1", Hash: "h1", Phase: daemonset.PodRunning, Ready: true, Created: t0}}
	after := []daemonset.Pod{{Name: "ds-a", Node: "n1", Hash: "h1", Phase: daemonset.PodRunning, Ready: true, Terminating: true, Created: t0}}
	tab := Table{Heading: "H", Name: "ds", Update: "h2", Outcome: "Complete", Syncs: 2, Elapsed: 10 * time.Second,
		Rows: []Row{
			{Comment: "before", Status: daemonset.Status{DesiredNumberScheduled: 1, CurrentNumberScheduled: 1, NumberReady: 1, NumberAvailable: 1}, Nodes: nodes, Pods: before, Now: t0},
			{Comment: "sync 1", Status: daemonset.Status{DesiredNumberScheduled: 1, CurrentNumberScheduled: 1, NumberReady: 1, NumberAvailable: 1}, Nodes: nodes, Pods: after, Now: t0,
				Actions: []daemonset.Action{{Kind: daemonset.DeletePod, Pod: "ds-a", Reason: "old"}, {Kind: daemonset.WriteStatus, Reason: "status"}}},
		}}
	var b bytes.Buffer
	if err := Write(&b, &tab); err != nil {
		t.Fatal(err)
	}
	want := "H\n" + Legend + "\n\n" +
		"NAME                DESIRED  CURRENT  READY  UP-TO-DATE  AVAILABLE  NODES\n" +
		"# before\n" +
		"daemonset.apps/ds   1        1        1      0           1          O\n" +
		"# sync 1\n" +
		"daemonset.apps/ds   1        1        1      0           1          x\n" +
		"  pod/ds-a          1/1    Terminating  n1        h1   old\n" +
		"\nComplete after 2 syncs: 1 shown above changed something, 1 more changed nothing (10s)\n"
	if got := b.String(); got != want {
		t.Errorf("Write:\n%s\nwant:\n%s", got, want)
	}
	if strings.Count(b.String(), "status") != 0 {
		t.Errorf("a status write has no pod line")
	}
}
