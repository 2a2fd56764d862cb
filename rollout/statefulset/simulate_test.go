package statefulset

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// drawRollout draws a settled set of R available pods at o and a
// scripted rollout of it: a template change, partition steps, scale
// events, gate switches, delays and pods that never become ready.
func drawRollout(t *rapid.T) (*world, Config[tmpl], bool) {
	r := rapid.Int32Range(0, 7).Draw(t, "replicas")
	w := newWorld(r, false)
	w.set.Ordinals.Start = rapid.Int32Range(0, 2).Draw(t, "start")
	for k := int32(0); k < r; k++ {
		w.pods = append(w.pods, pod(fmt.Sprintf("%d:o:r", w.set.Ordinals.Start+k)))
	}
	w.set.Status = ComputeStatus(w.pods, 0, revO.Name, revO.Name, t0)
	w.set.Status.ObservedGeneration = w.set.Generation
	if rapid.Bool().Draw(t, "parallel") {
		w.set.PodManagementPolicy = Parallel
	}
	w.set.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 15}).Draw(t, "minReadySeconds")
	if rapid.IntRange(0, 5).Draw(t, "ruNil") == 0 {
		w.set.UpdateStrategy = UpdateStrategy{Type: RollingUpdate}
	} else {
		w.partition(rapid.Int32Range(0, r).Draw(t, "partition"))
		if rapid.Bool().Draw(t, "hasMaxUnavailable") {
			w.maxUnavailable(intorpercent.FromInt(rapid.Int32Range(1, 4).Draw(t, "maxUnavailable")))
		}
	}
	cfg := Config[tmpl]{Start: t0, MaxSyncs: 400}
	cfg.Options.Gates.MaxUnavailableStatefulSet = rapid.Bool().Draw(t, "gate")
	cfg.Options.Budget = BudgetPolicy(rapid.IntRange(0, 1).Draw(t, "budget"))
	cfg.ReadyDelay = time.Duration(rapid.IntRange(0, 40).Draw(t, "readyDelaySeconds")) * time.Second
	cfg.TerminationDelay = time.Duration(rapid.IntRange(0, 30).Draw(t, "terminationDelaySeconds")) * time.Second
	cfg.NeverReady = int32(rapid.IntRange(0, 3).Draw(t, "neverReadyKind") / 3) // mostly 0
	cfg.Events = append(cfg.Events, Event[tmpl]{Sync: rapid.IntRange(1, 3).Draw(t, "templateSync"), Kind: SetTemplate, Template: tmpl{Image: "new"}})
	scaled, toggled := false, false
	for i, n := 0, rapid.IntRange(0, 3).Draw(t, "events"); i < n; i++ {
		ev := Event[tmpl]{Sync: rapid.IntRange(2, 30).Draw(t, fmt.Sprintf("eventSync%d", i))}
		switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("eventKind%d", i)) {
		case 0:
			ev.Kind, ev.Replicas = SetReplicas, rapid.Int32Range(0, 7).Draw(t, fmt.Sprintf("eventReplicas%d", i))
			scaled = true
		case 1:
			ev.Kind, ev.Partition = SetPartition, rapid.Int32Range(0, 7).Draw(t, fmt.Sprintf("eventPartition%d", i))
		case 2:
			ev.Kind = GateOn
			if rapid.Bool().Draw(t, fmt.Sprintf("gateOff%d", i)) {
				ev.Kind = GateOff
			}
			toggled = true
		}
		cfg.Events = append(cfg.Events, ev)
	}
	// The last word on the partition: 0, so a healthy rollout completes.
	cfg.Events = append(cfg.Events, Event[tmpl]{Sync: 31, Kind: SetPartition, Partition: 0})
	bounded := !scaled && !toggled && cfg.NeverReady == 0
	return w, cfg, bounded
}

// TestGateOnNeverExceedsMaxUnavailable: with the gate on, replicas
// that do not change and no pod failing on its own, the slots
// unavailable after a sync (counting those it deletes) never exceed
// maxUnavailable, checked after every sync of random rollouts.
func TestGateOnNeverExceedsMaxUnavailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, cfg, bounded := drawRollout(t)
		check := func(k int, set *StatefulSet[tmpl], pods []Pod, revs []ControllerRevision, now time.Time, opts Options, s *Sync[tmpl]) {
			if !bounded || !opts.Gates.MaxUnavailableStatefulSet || set.UpdateStrategy.Type == OnDelete {
				return
			}
			mu := int32(1)
			if ru := set.UpdateStrategy.RollingUpdate; ru != nil {
				mu, _ = MaxUnavailable(ru.MaxUnavailable, set.Replicas)
			}
			slots := syncInput{set: set, pods: pods}.bySlot()
			deleted := map[int64]bool{}
			for _, a := range s.Actions {
				if a.Kind == DeletePod {
					deleted[int64(a.Ordinal)-int64(set.Ordinals.Start)] = true
				}
			}
			u := int32(0)
			for k := int64(0); k < int64(set.Replicas); k++ {
				if deleted[k] || IsUnavailable(slots[k], set.MinReadySeconds, now) {
					u++
				}
			}
			if u > mu {
				t.Fatalf("sync %d: %d slots unavailable after the sync, maxUnavailable %d", k, u, mu)
			}
		}
		if _, err := simulate(&w.set, w.pods, w.revisions, cfg, check); err != nil {
			t.Fatalf("Simulate: %v", err)
		}
	})
}

// TestHealthyRolloutsComplete: a random rollout whose pods all become
// ready and whose partition ends at 0 ends Complete, every invariant
// checked after every sync on the way.
func TestHealthyRolloutsComplete(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, cfg, _ := drawRollout(t)
		cfg.NeverReady = 0
		check := func(k int, set *StatefulSet[tmpl], pods []Pod, revs []ControllerRevision, now time.Time, opts Options, s *Sync[tmpl]) {
			checkSync(t, set, pods, opts, now, s)
		}
		tr, err := simulate(&w.set, w.pods, w.revisions, cfg, check)
		if err != nil {
			t.Fatalf("Simulate: %v", err)
		}
		if tr.Outcome != OutcomeComplete {
			t.Fatalf("a rollout whose pods all become ready ended %s:\n%s", tr.Outcome, tr.String())
		}
	})
}

// TestSimulateStagedRollout is the staged rollout of the docs: five
// pods, OrderedReady, partition steps 4, 2, 0.
func TestSimulateStagedRollout(t *testing.T) {
	w := newWorld(5, false, "0:r", "1:r", "2:r", "3:r", "4:r").partition(5)
	w.set.Status = ComputeStatus(w.pods, 0, revO.Name, revO.Name, t0)
	w.set.Status.ObservedGeneration = 2
	tr, err := Simulate(&w.set, w.pods, w.revisions, Config[tmpl]{Start: t0, ReadyDelay: 15 * time.Second, TerminationDelay: 5 * time.Second,
		Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "new"}}}, Partitions: []int32{4, 2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || tr.Syncs != 20 {
		t.Errorf("outcome %s after %d syncs, want Complete after 20:\n%s", tr.Outcome, tr.Syncs, tr.String())
	}
	// Each partition step deletes its pods from the top, one per sync,
	// and the update waits for each replacement to be ready.
	var deleted []string
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if a.Kind == DeletePod {
				deleted = append(deleted, a.Pod)
			}
		}
	}
	if got, want := fmt.Sprint(deleted), "[web-4 web-3 web-2 web-1 web-0]"; got != want {
		t.Errorf("deleted %s, want %s", got, want)
	}
}

// TestSimulateStuckBudget is #137409 over a whole rollout: with the gate
// on and Parallel, two old pods that never become ready use up
// maxUnavailable 2 and the rollout never starts; the option replaces them.
func TestSimulateStuckBudget(t *testing.T) {
	w := newWorld(5, false, "0:r", "1:r", "2:r", "3:u", "4:u").parallel().maxUnavailable(intorpercent.FromInt(2))
	cfg := Config[tmpl]{Start: t0, ReadyAt: map[string]time.Time{"web-3": t0.Add(1000 * time.Hour), "web-4": t0.Add(1000 * time.Hour)},
		Events:  []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: tmpl{Image: "new"}}},
		Options: Options{Gates: Gates{MaxUnavailableStatefulSet: true}}, MaxSyncs: 50}
	tr, err := Simulate(&w.set, w.pods, w.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeSyncLimit || tr.StatefulSet.Status.UpdatedReplicas != 0 {
		t.Errorf("upstream: %s with %d updated, want no progress:\n%s", tr.Outcome, tr.StatefulSet.Status.UpdatedReplicas, tr.String())
	}
	cfg.Options.Budget = BudgetReplaceUnavailableFirst
	tr, err = Simulate(&w.set, w.pods, w.revisions, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Errorf("BudgetReplaceUnavailableFirst: %s, want Complete:\n%s", tr.Outcome, tr.String())
	}
}
