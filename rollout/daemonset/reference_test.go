package daemonset

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// referenceCounts is the rolling update's counts written plainly from
// the rules, per node with maps, without the view: the number of pods it
// deletes and of nodes it creates on, which do not depend on the order
// nodes are visited. Without surge: every unavailable old-only node's pod,
// plus min(available old-only nodes, max(0, maxUnavailable - unavailable)).
// With surge: a creation beside every unavailable old pod on a wanted
// node, plus min(available old-only wanted nodes, max(0, maxSurge -
// surging)); a deletion of every old pod whose new pod is available, of
// every unavailable old pod on an unwanted node, and of min(unwanted
// available old pods, available - desired) more.
func referenceCounts(f *fixture, opts Options) (deletes, creates int) {
	ds := f.ds
	wanted := map[string]bool{}
	known := map[string]bool{}
	var desired int
	for _, n := range f.nodes {
		known[n.Name] = true
		wanted[n.Name] = n.ShouldRun
		if n.ShouldRun {
			desired++
		}
	}
	b, _ := Budgets(ds, f.nodes)
	onNode := map[string][]Pod{}
	for _, p := range f.pods {
		if p.Node == "" || (terminal(&p) && p.Terminating) {
			continue
		}
		onNode[p.Node] = append(onNode[p.Node], p)
	}
	for _, n := range f.nodes {
		if n.ShouldRun {
			if _, ok := onNode[n.Name]; !ok {
				onNode[n.Name] = nil
			}
		}
	}
	avail := func(p Pod) bool { return IsPodAvailable(&p, ds.MinReadySeconds, t0) }
	var unavailable, surging, available, oldAvailWanted, oldUnavailable, unwantedAvail int
	for name, pods := range onNode {
		var news, olds []Pod
		for _, p := range pods {
			if p.Terminating {
				continue
			}
			if IsPodUpdated(&p, f.newHash, ds.TemplateGeneration) {
				news = append(news, p)
			} else {
				olds = append(olds, p)
			}
		}
		if len(news) > 1 || len(olds) > 1 {
			unavailable++
			surging++
			continue
		}
		switch {
		case len(olds) == 1 && avail(olds[0]), len(olds) == 0 && len(news) == 1 && avail(news[0]):
			available++
		}
		switch {
		case len(olds) == 0 && len(news) == 0, len(olds) == 1 && len(news) == 1:
			unavailable++
			if len(olds) == 1 {
				if !avail(news[0]) {
					surging++
				} else if b.MaxSurge > 0 {
					deletes++
				}
			}
		case len(news) == 1:
			if !avail(news[0]) {
				unavailable++
			}
		case !avail(olds[0]):
			unavailable++
			oldUnavailable++
			if b.MaxSurge > 0 {
				if wanted[name] {
					creates++
				} else {
					deletes++
				}
			}
		default:
			if wanted[name] {
				oldAvailWanted++
			} else if known[name] {
				unwantedAvail++
			}
		}
	}
	if b.MaxSurge == 0 {
		all := oldAvailWanted + unwantedAvail
		if opts.UnavailableOldPods == ReplaceWithinBudget {
			return min(all+oldUnavailable, max(0, int(b.MaxUnavailable)-(unavailable-oldUnavailable))), 0
		}
		return oldUnavailable + min(all, max(0, int(b.MaxUnavailable)-unavailable)), 0
	}
	deletes += min(unwantedAvail, max(0, available-desired))
	creates += min(oldAvailWanted, max(0, int(b.MaxSurge)-surging))
	return deletes, creates
}

func TestRollingUpdateCountsMatchReference(t *testing.T) {
	// Three rounds of rapid's default 100 cases: the branch for unwanted
	// nodes with surge is rare in drawn snapshots.
	for range 3 {
		rapid.Check(t, referenceProperty)
	}
}

func referenceProperty(t *rapid.T) {
	f := drawSnapshot(t)
	f.ds.UpdateStrategy.Type = RollingUpdate
	opts := Options{}
	if rapid.Bool().Draw(t, "withinBudget") {
		opts.UnavailableOldPods = ReplaceWithinBudget
	}
	d, err := RollingUpdateStep(f.ds, f.nodes, f.pods, f.newHash, t0, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantDel, wantCreate := referenceCounts(f, opts)
	if len(d.Delete) != wantDel || len(d.Create) != wantCreate {
		t.Fatalf("RollingUpdateStep deletes %v, creates on %v; the reference deletes %d, creates %d", d.Delete, d.Create, wantDel, wantCreate)
	}
	if slices.ContainsFunc(d.Delete, func(name string) bool { return name == "" }) {
		t.Fatalf("empty pod name in %v", d.Delete)
	}
}

// TestPlanAgreesWithItsSteps checks that Plan's manage and rolling update
// are the step functions' on the same snapshot, and that the rolling
// update runs exactly when manage wrote nothing and the strategy is
// RollingUpdate.
func TestPlanAgreesWithItsSteps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawSnapshot(t)
		s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Manage(f.ds, f.nodes, f.pods, s.Hash, t0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Create, s.Manage.Create) || !slices.Equal(m.Delete, s.Manage.Delete) {
			t.Fatalf("Plan's manage %+v, Manage %+v", s.Manage, m)
		}
		wantRolling := len(m.Create)+len(m.Delete) == 0 && f.ds.UpdateStrategy.Type != OnDelete
		if (s.RollingUpdate != nil) != wantRolling {
			t.Fatalf("rolling update ran: %v, want %v", s.RollingUpdate != nil, wantRolling)
		}
		if s.RollingUpdate == nil {
			return
		}
		r, err := RollingUpdateStep(f.ds, f.nodes, f.pods, s.Hash, t0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Create, s.RollingUpdate.Create) || !slices.Equal(r.Delete, s.RollingUpdate.Delete) ||
			r.Unavailable != s.RollingUpdate.Unavailable || r.Surge != s.RollingUpdate.Surge || r.Available != s.RollingUpdate.Available {
			t.Fatalf("Plan's rolling update %+v, RollingUpdateStep %+v", *s.RollingUpdate, r)
		}
		var created, deleted int
		for _, a := range s.Actions {
			switch a.Kind {
			case CreatePod:
				created++
			case DeletePod:
				deleted++
			}
		}
		if created != len(r.Create) || deleted != len(r.Delete) {
			t.Fatalf("Plan writes %d creations and %d deletions, the rolling update decided %+v", created, deleted, r)
		}
	})
}
