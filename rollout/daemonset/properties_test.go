package daemonset

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// drawSnapshot draws a DaemonSet, its nodes, pods and revisions in any
// state the controller can meet.
func drawSnapshot(t *rapid.T) *fixture {
	surge := rapid.Bool().Draw(t, "surge")
	var f *fixture
	if surge {
		f = newFixture(t, nil, str(fmt.Sprintf("%d%%", rapid.IntRange(1, 100).Draw(t, "maxSurgePercent"))))
	} else {
		f = newFixture(t, num(rapid.Int32Range(1, 4).Draw(t, "maxUnavailable")), nil)
	}
	if rapid.Bool().Draw(t, "minReady") {
		f.ds.MinReadySeconds = 60
	}
	if rapid.Bool().Draw(t, "onDelete") {
		f.ds.UpdateStrategy.Type = OnDelete
	}
	n := rapid.IntRange(0, 8).Draw(t, "nodes")
	var words []string
	for range n {
		word := rapid.SampledFrom([]string{"ok:", "ok:", "ns:", "ne:"}).Draw(t, "taint")
		k := rapid.SampledFrom([]int{0, 1, 1, 1, 2, 3}).Draw(t, "podsOnNode")
		if k == 0 {
			words = append(words, word+"(empty)")
			continue
		}
		var ps []string
		for range k {
			ps = append(ps, rapid.SampledFrom([]string{"o", "n", "x"}).Draw(t, "rev")+":"+rapid.SampledFrom([]string{"r", "y", "u", "p", "t", "f", "s"}).Draw(t, "state"))
		}
		words = append(words, word+strings.Join(ps, ","))
	}
	f.layout(t, strings.Join(words, " "))
	if rapid.Bool().Draw(t, "newRevisionMissing") {
		f.revisions = f.revisions[:1]
	}
	return f
}

func TestPlanIgnoresInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawSnapshot(t)
		a, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		nodes := rapid.Permutation(f.nodes).Draw(t, "nodeOrder")
		pods := rapid.Permutation(f.pods).Draw(t, "podOrder")
		revs := rapid.Permutation(f.revisions).Draw(t, "revisionOrder")
		b, err := Plan(f.ds, nodes, pods, revs, t0)
		if err != nil {
			t.Fatal(err)
		}
		byName := func(s Sync[spec]) Sync[spec] {
			s.Pods = slices.Clone(s.Pods)
			slices.SortFunc(s.Pods, func(x, y Pod) int { return strings.Compare(x.Name, y.Name) })
			s.Revisions = slices.Clone(s.Revisions)
			slices.SortFunc(s.Revisions, func(x, y ControllerRevision) int { return strings.Compare(x.Name, y.Name) })
			return s
		}
		if diff := cmp.Diff(byName(a), byName(b)); diff != "" {
			t.Fatalf("Plan depends on input order (-first +shuffled):\n%s", diff)
		}
	})
}

func TestPlanIsPure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawSnapshot(t)
		ds := *f.ds
		nodes, pods := slices.Clone(f.nodes), slices.Clone(f.pods)
		revs := slices.Clone(f.revisions)
		for i := range revs {
			revs[i].Data = slices.Clone(revs[i].Data)
		}
		s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ds, *f.ds); diff != "" {
			t.Fatalf("Plan modified the DaemonSet (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(nodes, f.nodes); diff != "" {
			t.Fatalf("Plan modified the nodes (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(pods, f.pods); diff != "" {
			t.Fatalf("Plan modified the pods (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(revs, f.revisions); diff != "" {
			t.Fatalf("Plan modified the revisions (-before +after):\n%s", diff)
		}
		// And a second Plan gives the same Sync.
		s2, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s, s2); diff != "" {
			t.Fatalf("two Plans differ (-first +second):\n%s", diff)
		}
		// Its status passes Validate too.
		if errs := ValidateStatus(&s.DaemonSet.Status); len(errs) > 0 {
			t.Fatalf("status %+v: %v", s.DaemonSet.Status, errs)
		}
	})
}

// drawRollout draws a whole rollout over healthy nodes: every node runs
// one ready old pod, new pods become ready after a per-node delay,
// deleted pods terminate after a delay.
func drawRollout(t *rapid.T, surge bool) (*fixture, Config[spec]) {
	n := rapid.IntRange(1, 12).Draw(t, "nodes")
	var f *fixture
	if surge {
		f = newFixture(t, num(0), num(rapid.Int32Range(1, int32(n)).Draw(t, "maxSurge")))
	} else {
		mu := rapid.SampledFrom([]string{"1", "2", "3", "25%", "50%", "100%"}).Draw(t, "maxUnavailable")
		if strings.HasSuffix(mu, "%") {
			f = newFixture(t, str(mu), nil)
		} else {
			var v int32
			fmt.Sscan(mu, &v)
			f = newFixture(t, num(v), nil)
		}
	}
	if rapid.Bool().Draw(t, "minReady") {
		f.ds.MinReadySeconds = 15
	}
	f.layout(t, strings.TrimSpace(strings.Repeat("o:r ", n)))
	cfg := Config[spec]{
		Start:            t0,
		Interval:         10 * time.Second,
		ReadyDelay:       time.Duration(rapid.IntRange(0, 60).Draw(t, "readyDelaySeconds")) * time.Second,
		TerminationDelay: time.Duration(rapid.IntRange(0, 40).Draw(t, "terminationDelaySeconds")) * time.Second,
		NodeReadyDelays:  map[string]time.Duration{},
		MaxSyncs:         2000,
		RecordPods:       true,
	}
	for _, node := range f.nodes {
		if rapid.Bool().Draw(t, "slowNode") {
			cfg.NodeReadyDelays[node.Name] = time.Duration(rapid.IntRange(0, 120).Draw(t, "nodeReadyDelaySeconds")) * time.Second
		}
	}
	return f, cfg
}

// checkEnd checks that every node that should run the pod ends with
// exactly one pod, updated and available.
func checkEnd(t *rapid.T, f *fixture, tr *Trace[spec]) {
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("outcome %v after %d syncs, want complete", tr.Outcome, tr.Syncs)
	}
	end := t0.Add(time.Duration(tr.Syncs) * 10 * time.Second)
	for _, node := range tr.Nodes {
		var on []Pod
		for _, p := range tr.Pods {
			if p.Node == node.Name {
				on = append(on, p)
			}
		}
		if len(on) != 1 || !IsPodUpdated(&on[0], f.newHash, tr.DaemonSet.TemplateGeneration) || !IsPodAvailable(&on[0], tr.DaemonSet.MinReadySeconds, end) {
			t.Fatalf("node %s ends with pods %+v, want one updated available pod", node.Name, on)
		}
	}
}

func TestNodesWithoutAvailablePodNeverExceedMaxUnavailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, cfg := drawRollout(t, false)
		b, err := Budgets(f.ds, f.nodes)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range tr.Steps {
			down := 0
			for _, node := range f.nodes {
				if !slices.ContainsFunc(st.Pods, func(p Pod) bool {
					return p.Node == node.Name && !p.Terminating && IsPodAvailable(&p, f.ds.MinReadySeconds, st.Time)
				}) {
					down++
				}
			}
			if down > int(b.MaxUnavailable) {
				t.Fatalf("after sync %d, %d nodes have no available pod, maxUnavailable %d:\n%s", st.Sync, down, b.MaxUnavailable, st)
			}
			if errs := ValidateStatus(&st.Status); len(errs) > 0 {
				t.Fatalf("sync %d status: %v", st.Sync, errs)
			}
		}
		checkEnd(t, f, &tr)
	})
}

func TestSurgeNeverExceedsMaxSurgeNodesWithTwoPods(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, cfg := drawRollout(t, true)
		b, err := Budgets(f.ds, f.nodes)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range tr.Steps {
			per := map[string]int{}
			for _, p := range st.Pods {
				if !p.Terminating {
					per[p.Node]++
				}
			}
			two := 0
			for _, c := range per {
				if c >= 2 {
					two++
				}
			}
			if two > int(b.MaxSurge) {
				t.Fatalf("after sync %d, %d nodes run two pods, maxSurge %d:\n%s", st.Sync, two, b.MaxSurge, st)
			}
		}
		checkEnd(t, f, &tr)
	})
}

func TestEveryNodeEndsWithOneUpdatedAvailablePod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, cfg := drawRollout(t, rapid.Bool().Draw(t, "surge"))
		// Nodes come and go during the rollout.
		if rapid.Bool().Draw(t, "addNode") {
			cfg.Events = append(cfg.Events, Event[spec]{Sync: rapid.IntRange(1, 10).Draw(t, "addAt"), Kind: AddNodes,
				Nodes: []Node{{Name: "late", ShouldRun: true, ShouldContinueRunning: true}}})
		}
		if len(f.nodes) > 1 && rapid.Bool().Draw(t, "removeNode") {
			cfg.Events = append(cfg.Events, Event[spec]{Sync: rapid.IntRange(1, 10).Draw(t, "removeAt"), Kind: RemoveNodes, Names: []string{"n0"}})
		}
		tr, err := Simulate(f.ds, f.nodes, f.pods, f.revisions, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range tr.Steps {
			if errs := ValidateStatus(&st.Status); len(errs) > 0 {
				t.Fatalf("sync %d status: %v", st.Sync, errs)
			}
		}
		checkEnd(t, f, &tr)
	})
}

func TestStatusPassesValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawSnapshot(t)
		s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		if errs := ValidateStatus(&s.DaemonSet.Status); len(errs) > 0 {
			t.Fatalf("status %+v: %v", s.DaemonSet.Status, errs)
		}
		if errs := Validate(&s.DaemonSet); len(errs) > 0 {
			t.Fatalf("DaemonSet after the sync: %v", errs)
		}
	})
}
