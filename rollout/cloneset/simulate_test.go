package cloneset

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// scenario is a random rollout: a CloneSet at rest on nginx:1.25, the
// template changed to nginx:1.26 at reconcile 1, and random events.
type scenario struct {
	cs   *CloneSet[podTemplate]
	pods []Pod
	revs []ControllerRevision
	cfg  Config[podTemplate]
	// What the events do, for the properties' preconditions.
	shrinks bool // replicas go down at some point
}

// settle brings a fresh CloneSet to rest on its template.
func settle(t *rapid.T, cs *CloneSet[podTemplate]) ([]Pod, []ControllerRevision, CloneSet[podTemplate]) {
	tr, err := Simulate(cs, nil, nil, Config[podTemplate]{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete {
		t.Fatalf("a fresh CloneSet did not settle: %v\n%s", tr.Outcome, tr.String())
	}
	return tr.Pods, tr.Revisions, tr.CloneSet
}

// drawScenario draws a scenario; with failing, some pods never become
// ready; with batches, the partition is lowered in batches to 0.
func drawScenario(t *rapid.T, failing bool) scenario {
	cs := drawPlanCloneSet(t)
	pods, revs, rest := settle(t, cs)
	sc := scenario{cs: &rest, pods: pods, revs: revs}
	// The events below resize the CloneSet through kruise's webhook,
	// which Simulate applies: keep the strategy one the webhook admits
	// at any size the events draw, not only at the size drawn above
	// (maxUnavailable and maxSurge both 0 pass at 0 replicas only).
	for _, r := range []int32{1, 200} {
		c := rest
		c.Replicas = r
		if Validate(&c) != nil {
			rest.UpdateStrategy.MaxUnavailable = num(1)
			if rest.UpdateStrategy.Type == InPlaceOnly {
				rest.UpdateStrategy.Type = InPlaceIfPossible
			}
		}
	}
	sec := func(label string, hi int) time.Duration {
		return time.Duration(rapid.IntRange(0, hi).Draw(t, label)) * time.Second
	}
	sc.cfg = Config[podTemplate]{
		ReadyDelay:       sec("readyDelay", 40),
		InPlaceDelay:     sec("inPlaceDelay", 10),
		TerminationDelay: sec("terminationDelay", 30),
		Nodes:            rapid.IntRange(1, 4).Draw(t, "nodes"),
		MaxSyncs:         3000,
		RecordPods:       true,
	}
	if failing {
		sc.cfg.NeverReady = rapid.Int32Range(0, 3).Draw(t, "neverReady")
	}
	sc.cfg.Events = []Event[podTemplate]{{Sync: 1, Kind: SetTemplate, Template: templateOf("nginx:1.26")}}
	if rapid.Bool().Draw(t, "batches") {
		// A progressive-delivery tool: start at 100% (nothing updated),
		// then lower the partition batch by batch.
		rest.UpdateStrategy.Partition = str("100%")
		n := rapid.IntRange(1, 5).Draw(t, "batchCount")
		for i := n - 1; i >= 0; i-- {
			sc.cfg.Partitions = append(sc.cfg.Partitions, intorpercent.IntOrString{IsString: true, Str: fmt.Sprintf("%d%%", i*100/n)})
		}
	}
	for n := rapid.IntRange(0, 4).Draw(t, "events"); n > 0; n-- {
		ev := Event[podTemplate]{Sync: rapid.IntRange(1, 40).Draw(t, "eventStep")}
		switch rapid.IntRange(0, 3).Draw(t, "eventKind") {
		case 0:
			ev.Kind, ev.Replicas = SetReplicas, rapid.Int32Range(0, 200).Draw(t, "eventReplicas")
		case 1:
			ev.Kind = Pause
			sc.cfg.Events = append(sc.cfg.Events, ev)
			ev = Event[podTemplate]{Sync: ev.Sync + rapid.IntRange(1, 20).Draw(t, "pauseFor"), Kind: Resume}
		case 2:
			ev.Kind, ev.Count = DeletePods, rapid.Int32Range(1, 3).Draw(t, "deleteCount")
		case 3:
			ev.Kind, ev.Partition = SetPartition, drawIntOrPercent(t, "eventPartition", rest.Replicas, true)
		}
		sc.cfg.Events = append(sc.cfg.Events, ev)
	}
	// Does spec.replicas ever go down? Events apply by step, then in
	// their order in the list.
	evs := slices.Clone(sc.cfg.Events)
	slices.SortStableFunc(evs, func(a, b Event[podTemplate]) int { return a.Sync - b.Sync })
	r := rest.Replicas
	for _, ev := range evs {
		if ev.Kind == SetReplicas {
			if ev.Replicas < r {
				sc.shrinks = true
			}
			r = ev.Replicas
		}
	}
	return sc
}

func run(t *rapid.T, sc scenario) Trace[podTemplate] {
	tr, err := Simulate(sc.cs, sc.pods, sc.revs, sc.cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// surge returns maxSurge resolved against r as if not paused: pause
// forces it to 0 but leaves the pods it made.
func surge(cs *CloneSet[podTemplate], r int32) int64 {
	c := *cs
	c.Replicas, c.UpdateStrategy.Paused = r, false
	return resolve(&c).MaxSurge
}

// TestSimulateActivePodsNeverExceedReplicasPlusMaxSurge: as long as
// replicas never go down, the pods kruise counts (active: not
// terminating) never exceed replicas + maxSurge after any reconcile.
// Terminating pods are not counted, as kruise does not count them: they
// can push the pods on the nodes above the bound.
func TestSimulateActivePodsNeverExceedReplicasPlusMaxSurge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, true)
		if sc.shrinks {
			t.Skip("replicas go down")
		}
		tr := run(t, sc)
		for _, s := range tr.Steps {
			if limit := int64(s.Replicas) + surge(sc.cs, s.Replicas); int64(s.Active) > limit {
				t.Fatalf("reconcile %d: %d active pods > %d replicas + maxSurge %d\n%s", s.Sync, s.Active, s.Replicas, limit-int64(s.Replicas), tr.String())
			}
		}
	})
}

// TestSimulateUpdatedPodsAtRestMatchPartition: when a rollout comes to
// rest (complete, or held by the partition) and the resolved partition
// never rose, the pods at the update revision number replicas minus the
// partition as CalculatePartitionReplicas resolves it.
func TestSimulateUpdatedPodsAtRestMatchPartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, false)
		tr := run(t, sc)
		if tr.Outcome != OutcomeComplete && tr.Outcome != OutcomePartitioned {
			t.Skip("not at rest: " + tr.Outcome.String())
		}
		// The resolved partition, whether a new value or more replicas
		// under a percentage raised it (kruise then leaves updated pods
		// alone, without the rollback gate).
		prev := int32(-1)
		for _, s := range tr.Steps {
			if prev >= 0 && s.Partition > prev {
				t.Skip("the partition rose")
			}
			prev = s.Partition
		}
		cs := &tr.CloneSet
		p, err := CalculatePartitionReplicas(cs.UpdateStrategy.Partition, cs.Replicas)
		if err != nil {
			t.Fatal(err)
		}
		if cs.Status.CurrentRevision == cs.Status.UpdateRevision {
			// Once every pod is at the update revision and their number
			// is replicas (here after a scale to 0 and back), kruise
			// makes the update revision current: the partition then
			// keeps pods on that revision, and every pod is updated.
			p = 0
		}
		var updated int32
		for i := range tr.Pods {
			if IsPodActive(&tr.Pods[i]) && IsPodAtRevision(&tr.Pods[i], cs.Status.UpdateRevision) {
				updated++
			}
		}
		if want := cs.Replicas - p; updated != want {
			t.Fatalf("at rest (%v): %d pods at the update revision, want %d replicas - partition %d\n%s", tr.Outcome, updated, cs.Replicas, p, tr.String())
		}
	})
}

// TestSimulateAvailableNeverFallsBelowReplicasMinusMaxUnavailable: when
// no pod fails, once replicas - maxUnavailable pods are available, no
// reconcile leaves fewer available (counted right after its writes: a
// pod deleted or updated in place is not available). A change of the
// floor starts the count again: a change of replicas, and also a pause or
// a resume, since kruise forces maxSurge to 0 while paused and then
// rounds maxUnavailable up instead of down (20% of 17 is 4 paused, 3
// otherwise), so pods deleted within the paused floor can be below the
// floor after the resume.
func TestSimulateAvailableNeverFallsBelowReplicasMinusMaxUnavailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, false)
		for _, ev := range sc.cfg.Events {
			if ev.Kind == DeletePods {
				t.Skip("podsToDelete: kruise breaks the bound, see TestKruiseDeletesBelowAvailabilityFloor")
			}
		}
		tr := run(t, sc)
		reached := false
		last := int64(-1)
		for _, s := range tr.Steps {
			var avail int64
			for _, p := range s.Pods {
				if p.Available && !p.Terminating {
					avail++
				}
			}
			floor := int64(s.Replicas) - int64(s.MaxUnavailable)
			if floor != last {
				last, reached = floor, false
			}
			switch {
			case avail >= floor:
				reached = true
			case reached:
				t.Fatalf("reconcile %d: %d pods available < %d replicas - maxUnavailable %d\n%s", s.Sync, avail, s.Replicas, s.MaxUnavailable, tr.String())
			}
		}
	})
}

// completionBound is the most reconciles a rollout whose pods all become
// ready may take, counted from its last scripted event: every pod (the
// replicas and the surge, one more for a pod replaced mid-way) needs at
// most a mark, a deletion, a creation (or an in-place update and its
// grace), the wait until it is ready and available, and a lifecycle
// move; and every partition batch at most one more wait of that length.
func completionBound(sc scenario, r int32) int {
	wait := sc.cfg.ReadyDelay + sc.cfg.InPlaceDelay + time.Duration(sc.cs.MinReadySeconds)*time.Second +
		time.Duration(sc.cs.UpdateStrategy.InPlaceGracePeriodSeconds)*time.Second
	interval := 10 * time.Second
	perPod := 5 + int((wait+interval-1)/interval)
	last := 0
	for _, ev := range sc.cfg.Events {
		last = max(last, ev.Sync)
	}
	pods := int(r) + int(surge(sc.cs, r)) + 1
	return last + (pods+len(sc.cfg.Partitions))*perPod
}

// TestSimulateRolloutCompletesWithinBound: a rollout whose pods all
// become ready, that ends unpaused at partition 0, completes within
// completionBound reconciles.
func TestSimulateRolloutCompletesWithinBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, false)
		for _, ev := range sc.cfg.Events {
			if ev.Kind == SetPartition {
				t.Skip("a scripted partition may stay above 0")
			}
		}
		if len(sc.cfg.Partitions) == 0 {
			sc.cs.UpdateStrategy.Partition = nil
		}
		tr := run(t, sc)
		r := tr.CloneSet.Replicas
		if tr.Outcome != OutcomeComplete {
			t.Fatalf("outcome %v, want Complete\n%s", tr.Outcome, tr.String())
		}
		maxR := sc.cs.Replicas
		for _, ev := range sc.cfg.Events {
			if ev.Kind == SetReplicas {
				maxR = max(maxR, ev.Replicas)
			}
		}
		if bound := completionBound(sc, max(r, maxR)); tr.Syncs > bound {
			t.Fatalf("complete after %d reconciles, bound %d\n%s", tr.Syncs, bound, tr.String())
		}
	})
}

// TestKruiseDeletesBelowAvailabilityFloor shows where kruise itself
// breaks the availability bound, kept as kruise does it: a pod specified
// for deletion is never counted as unavailable
// (docs/cloneset.md#pod-classes-and-availability), so
// when an unavailable one is deleted, the ready limit still lets an
// available pod go. Here R 1, maxSurge 1, maxUnavailable 20% (0, rounded
// down since maxSurge > 0): a surge pod just created (PreparingNormal, so
// not available) and the old pod are both in podsToDelete; the ready
// limit is 0 + (2 - 1) - 0 = 1, the new pod is deleted freely as not
// ready, and the old one within the limit: no pod is left available
// although R - maxUnavailable is 1.
func TestKruiseDeletesBelowAvailabilityFloor(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.MaxSurge = num(1)
	cs.Status.CurrentRevision = r1.Name
	cs.ScaleStrategy.PodsToDelete = []string{"demo-new", "demo-old"}
	fresh := upPod("demo-new", r2.Name)
	fresh.Lifecycle = PreparingNormal
	s, err := Plan(cs, []Pod{upPod("demo-old", r1.Name), fresh}, []ControllerRevision{r1, r2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Scale.Delete; len(got) != 2 || s.Scale.Diffs.DeleteReadyLimit != 1 {
		t.Fatalf("deleted %v with ready limit %d, want both pods with limit 1 (kruise)", got, s.Scale.Diffs.DeleteReadyLimit)
	}
	var avail int
	for i := range s.Pods {
		if IsPodActive(&s.Pods[i]) && IsPodAvailable(&s.Pods[i], 0, t0) {
			avail++
		}
	}
	if avail != 0 {
		t.Errorf("%d pods available after the reconcile, want 0 (kruise)", avail)
	}
}

// TestSimulateBatchWithNeverReadyPodsStalls: a batch that cannot finish
// (a pod that never becomes ready) ends the simulation as Stalled once
// nothing changes, rather than running to the sync limit.
func TestSimulateBatchWithNeverReadyPodsStalls(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 4, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	pods := []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name), upPod("demo-c", r1.Name), upPod("demo-d", r1.Name)}
	cs.UpdateStrategy.Partition = str("50%")
	tr, err := Simulate(cs, pods, []ControllerRevision{r1}, Config[podTemplate]{Start: t0, ReadyDelay: 10 * time.Second, NeverReady: 1,
		Events:     []Event[podTemplate]{{Sync: 1, Kind: SetTemplate, Template: templateOf("nginx:1.26")}},
		Partitions: []intorpercent.IntOrString{{Int: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeStalled || tr.Syncs > 20 {
		t.Errorf("outcome %v after %d reconciles, want Stalled soon: a batch whose pod never becomes ready cannot finish\n%s", tr.Outcome, tr.Syncs, tr.String())
	}
}

// TestSimulateReadyAtKeepsPassedPodsUnready: a pod passed in unready
// becomes ready at its Config.ReadyAt, not ReadyDelay after Start; a pod
// ReadyAt does not name keeps the old rule.
func TestSimulateReadyAtKeepsPassedPodsUnready(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: templateOf("nginx:1.25")}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	a, b := upPod("demo-a", r1.Name), upPod("demo-b", r1.Name)
	a.Ready, b.Ready = false, false
	tr, err := Simulate(cs, []Pod{a, b}, []ControllerRevision{r1}, Config[podTemplate]{Start: t0, ReadyDelay: 10 * time.Second,
		ReadyAt: map[string]time.Time{"demo-a": t0.Add(35 * time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	var ready []int32
	for _, s := range tr.Steps {
		ready = append(ready, s.Status.ReadyReplicas)
	}
	if want := []int32{1, 2}; tr.Outcome != OutcomeComplete || !slices.Equal(ready, want) || tr.Steps[1].Sync != 4 {
		t.Errorf("ready replicas by recorded reconcile %v (last at %d), outcome %v; want %v, the second at reconcile 4 (+40s), Complete: demo-b is ready at +10s, demo-a at +35s\n%s",
			ready, tr.Steps[len(tr.Steps)-1].Sync, tr.Outcome, want, tr.String())
	}
}

// TestSimulateRefusesAnEventTheWebhookRefuses: scaling a CloneSet with
// maxUnavailable 0 and no maxSurge from 0 to 1 replicas is refused by
// kruise's webhook, so Simulate stops with that error instead of
// reporting a rollout that stalls for ever.
func TestSimulateRefusesAnEventTheWebhookRefuses(t *testing.T) {
	zero := intorpercent.IntOrString{}
	cs := &CloneSet[podTemplate]{Name: "demo", Generation: 1, Template: templateOf("nginx:1.25"),
		UpdateStrategy: UpdateStrategy{MaxUnavailable: &zero}}
	if err := Validate(cs); err != nil {
		t.Fatalf("at 0 replicas the webhook admits it, got %v", err)
	}
	tr, err := Simulate(cs, nil, nil, Config[podTemplate]{Events: []Event[podTemplate]{{Sync: 2, Kind: SetReplicas, Replicas: 1}}})
	want := `cloneset: the changes before reconcile 2 (replicas 0 -> 1) make CloneSet "demo" one kruise's webhook refuses: ` +
		`spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if !errors.Is(err, field.ErrInvalid) {
		t.Errorf("errors.Is(err, field.ErrInvalid) = false")
	}
	if tr.CloneSet.Replicas != 1 || tr.Syncs != 1 {
		t.Errorf("trace at the refusal: replicas %d after %d syncs, want 1 after 1", tr.CloneSet.Replicas, tr.Syncs)
	}
}
