package daemonset

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func simConfig() Config[spec] {
	return Config[spec]{Start: t0, Interval: 10 * time.Second, ReadyDelay: 15 * time.Second, TerminationDelay: 5 * time.Second, RecordPods: true}
}

// TestSimulateTwoUpdates is a 10-node DaemonSet updated with
// maxUnavailable 2, then again with maxSurge 1.
func TestSimulateTwoUpdates(t *testing.T) {
	f := newFixture(t, num(2), nil).layout(t, strings.TrimSpace(strings.Repeat("o:r ", 10)))
	cfg := simConfig()
	cfg.Events = []Event[spec]{
		{Sync: 30, Kind: SetMaxUnavailable, Value: num(0)},
		{Sync: 30, Kind: SetMaxSurge, Value: num(1)},
		{Sync: 30, Kind: SetTemplate, Template: spec{Image: "v3"}},
	}
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v after %d syncs", tr.Outcome, tr.Syncs)
	}
	v3 := Hash(&spec{Image: "v3"}, nil)
	for _, p := range tr.Pods {
		if p.Hash != v3 || !p.Ready || p.Terminating {
			t.Errorf("pod %+v at the end, want ready at %s", p, v3)
		}
	}
	var creates, deletes, maxDeletesNoSurge int
	for _, st := range tr.Steps {
		c, d := 0, 0
		for _, a := range st.Actions {
			switch a.Kind {
			case CreatePod:
				c++
			case DeletePod:
				d++
			}
		}
		creates, deletes = creates+c, deletes+d
		if st.Sync < 30 {
			maxDeletesNoSurge = max(maxDeletesNoSurge, d)
		}
	}
	if creates != 20 || deletes != 20 {
		t.Errorf("%d creations and %d deletions over both updates, want 20 and 20", creates, deletes)
	}
	if maxDeletesNoSurge != 2 {
		t.Errorf("at most %d deletions in one sync with maxUnavailable 2, want 2", maxDeletesNoSurge)
	}
	if tr.DaemonSet.Generation != 5 || tr.DaemonSet.Status.ObservedGeneration != 5 || *tr.DaemonSet.TemplateGeneration != 3 {
		t.Errorf("DaemonSet generation %d observed %d template generation %d, want 5, 5, 3",
			tr.DaemonSet.Generation, tr.DaemonSet.Status.ObservedGeneration, *tr.DaemonSet.TemplateGeneration)
	}
	if len(tr.Revisions) != 3 {
		t.Errorf("revisions %d, want 3", len(tr.Revisions))
	}
}

func TestSimulateNeverReadyStalls(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r o:r o:r")
	cfg := simConfig()
	cfg.NeverReadyHashes = []string{f.newHash}
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeStalled {
		t.Fatalf("outcome %v, want stalled", tr.Outcome)
	}
	old := 0
	for _, p := range tr.Pods {
		if p.Hash == f.oldHash && p.Ready {
			old++
		}
	}
	if old != 2 {
		t.Errorf("%d old ready pods at the stall, want 2 (maxUnavailable 1 holds)", old)
	}
}

func TestSimulateStuckTerminatingStalls(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r o:r o:r")
	cfg := simConfig()
	cfg.NodeTerminationDelays = map[string]time.Duration{"n0": -1}
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeStalled {
		t.Fatalf("outcome %v, want stalled (the pod on n0 never finishes terminating)", tr.Outcome)
	}
	if st := tr.DaemonSet.Status; st.UpdatedNumberScheduled != 0 {
		t.Errorf("updated %d, want 0: the first deletion hits n0 and blocks everything", st.UpdatedNumberScheduled)
	}
}

func TestSimulateNodeEvents(t *testing.T) {
	f := newFixture(t, nil, num(1)).layout(t, "o:r o:r o:r")
	cfg := simConfig()
	cfg.Events = []Event[spec]{
		{Sync: 2, Kind: AddNodes, Nodes: []Node{{Name: "n9", ShouldRun: true, ShouldContinueRunning: true}}},
		{Sync: 3, Kind: RemoveNodes, Names: []string{"n1"}},
		{Sync: 4, Kind: UpdateNodes, Nodes: []Node{{Name: "n2", ShouldContinueRunning: true}}},
	}
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// n2 gets a NoSchedule taint while it runs an available old pod: with
	// surge, the old pod goes once more nodes than desired have an
	// available pod (the fix of kubernetes#118823), and the rollout
	// completes on n0 and n9.
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v, want complete", tr.Outcome)
	}
	var on []string
	for _, p := range tr.Pods {
		on = append(on, p.Node+":"+map[bool]string{true: "new", false: "old"}[p.Hash == f.newHash])
	}
	if diff := cmp.Diff([]string{"n0:new", "n9:new"}, on); diff != "" {
		t.Errorf("pods at the end mismatch (-want +got):\n%s", diff)
	}
	var taintDelete bool
	for _, st := range tr.Steps {
		for _, a := range st.Actions {
			if a.Kind == DeletePod && a.Pod == "n2-0" && st.Sync == 4 {
				taintDelete = true
				if want := "node n2 should no longer run the daemon pod and more nodes than the 2 desired have an available pod: deleted n2-0"; a.Reason != want {
					t.Errorf("reason %q, want %q", a.Reason, want)
				}
			}
		}
	}
	if !taintDelete {
		t.Errorf("n2-0 not deleted by the rolling update of sync 4")
	}
	wantEvents := [][]string{{"1 node added"}, {"removed n1"}, {"1 node changed"}}
	var got [][]string
	for _, st := range tr.Steps {
		if len(st.Events) > 0 {
			got = append(got, st.Events)
		}
	}
	if diff := cmp.Diff(wantEvents, got); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
}

func TestSimulateErrors(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r")
	cfg := simConfig()
	cfg.Events = []Event[spec]{{Sync: 0, Kind: SetTemplate}}
	if _, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg); err == nil || err.Error() != "daemonset: events[0].sync: 0: must be at least 1" {
		t.Errorf("Simulate error = %v", err)
	}
	cfg.Events = []Event[spec]{{Sync: 1, Kind: 42}}
	if _, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg); err == nil || err.Error() != "daemonset: events[0].kind: 42: unknown kind" {
		t.Errorf("Simulate error = %v", err)
	}
	// An event that makes the DaemonSet invalid fails at that sync.
	cfg.Events = []Event[spec]{{Sync: 3, Kind: SetMaxSurge, Value: num(1)}}
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	want := `daemonset: invalid DaemonSet "agent": spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`
	if err == nil || err.Error() != want || tr.Syncs != 3 {
		t.Errorf("Simulate = %d syncs, %v; want 3 syncs, %s", tr.Syncs, err, want)
	}
}

// TestSimulateRemovesInputTerminatingPods is a pod that is already
// Terminating when the simulation starts: it is gone TerminationDelay
// (on its node, NodeTerminationDelays) after Config.Start, and the
// rollout completes without it.
func TestSimulateRemovesInputTerminatingPods(t *testing.T) {
	f := newFixture(t, nil, nil)
	nodes := []Node{{Name: "n1", ShouldRun: true, ShouldContinueRunning: true}}
	old := Pod{Name: "ds-old", Node: "n1", Hash: f.newHash, TemplateGeneration: "1", Phase: PodRunning,
		Ready: true, ReadySince: t0.Add(-time.Hour), Terminating: true, Created: t0.Add(-time.Hour)}
	for _, tc := range []struct {
		name   string
		delays map[string]time.Duration
		goneBy int // the first sync that no longer sees it
	}{
		{"TerminationDelay", nil, 2}, // 5 s: gone by the sync at 10 s
		{"NodeTerminationDelays", map[string]time.Duration{"n1": 25 * time.Second}, 4}, // gone by the sync at 30 s
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := simConfig()
			cfg.MaxSyncs, cfg.NodeTerminationDelays = 50, tc.delays
			tr, err := Simulate(f.ds, nodes, []Pod{old}, f.revisions, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Outcome != OutcomeComplete {
				t.Fatalf("outcome %v after %d syncs, want OutcomeComplete", tr.Outcome, tr.Syncs)
			}
			if len(tr.Pods) != 1 || tr.Pods[0].Name == "ds-old" || !tr.Pods[0].Ready || tr.Pods[0].Terminating {
				t.Errorf("pods at the end %+v, want one new ready pod", tr.Pods)
			}
			var syncs []int
			for _, st := range tr.Steps {
				syncs = append(syncs, st.Sync)
				held := slices.ContainsFunc(st.Pods, func(p Pod) bool { return p.Name == "ds-old" })
				if held != (st.Sync < tc.goneBy) {
					t.Errorf("sync %d holds ds-old: %v, want it gone from sync %d", st.Sync, held, tc.goneBy)
				}
			}
			// The steps must show a sync before the one at which it goes
			// and that one, or the timing above is not checked.
			if len(syncs) == 0 || syncs[0] >= tc.goneBy || !slices.Contains(syncs, tc.goneBy) {
				t.Errorf("recorded syncs %v, want one before %d and %d", syncs, tc.goneBy, tc.goneBy)
			}
		})
	}
}

// TestSimulateReadyAt is an input pod that is not ready: without ReadyAt
// it is ready ReadyDelay after its creation (long before Start); with
// ReadyAt, at its own time, and the rollout completes only then.
func TestSimulateReadyAt(t *testing.T) {
	f := newFixture(t, nil, nil).layout(t, "n:u n:r")
	cfg := simConfig()
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Sync 1 writes the status, sync 2 writes nothing.
	if tr.Outcome != OutcomeComplete || tr.Syncs != 2 {
		t.Fatalf("without ReadyAt: %v after %d syncs, want OutcomeComplete after 2", tr.Outcome, tr.Syncs)
	}
	at := t0.Add(25 * time.Second)
	cfg.ReadyAt = map[string]time.Time{"n0-0": at}
	tr, err = Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Sync 4 (30 s) sees it ready and writes the status, sync 5 nothing.
	if tr.Outcome != OutcomeComplete || tr.Syncs != 5 {
		t.Fatalf("with ReadyAt: %v after %d syncs, want OutcomeComplete after 5", tr.Outcome, tr.Syncs)
	}
	i := slices.IndexFunc(tr.Pods, func(p Pod) bool { return p.Name == "n0-0" })
	if i < 0 || !tr.Pods[i].Ready || !tr.Pods[i].ReadySince.Equal(at) {
		t.Errorf("pods at the end %+v, want n0-0 ready since %v", tr.Pods, at)
	}
}

// TestSimulateIgnoresPodsForNoNode is a pod for no node, at the old
// revision: the controller ignores it, so the rollout completes beside it.
func TestSimulateIgnoresPodsForNoNode(t *testing.T) {
	f := newFixture(t, nil, nil).layout(t, "n:r")
	f.pods = append(f.pods, Pod{Name: "stray", Hash: f.oldHash, Phase: PodRunning, Ready: true, ReadySince: t0.Add(-time.Hour), Created: t0.Add(-time.Hour)})
	tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, simConfig())
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || len(tr.Pods) != 2 {
		t.Fatalf("%v after %d syncs with pods %+v, want OutcomeComplete with the stray pod kept", tr.Outcome, tr.Syncs, tr.Pods)
	}
}
