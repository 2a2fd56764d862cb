package rollout

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
	"pgregory.net/rapid"
)

// scenario is a random deployment rollout for the state-machine properties.
type scenario struct {
	d   Deployment[tmpl]
	rss []ReplicaSet[tmpl]
	cfg Config[tmpl]
}

// boundValue draws a maxSurge or maxUnavailable as a count or a percentage.
func boundValue(t *rapid.T, label string, maxPercent int32) *intorpercent.Value {
	if rapid.Bool().Draw(t, label+"IsPercent") {
		v := intorpercent.Percent(rapid.Int32Range(0, maxPercent).Draw(t, label))
		return &v
	}
	v := intorpercent.Int(rapid.Int32Range(0, 20).Draw(t, label))
	return &v
}

// drawScenario draws a settled deployment, a template change at sync 1 and,
// when scaling is true, further template changes and resizes.
func drawScenario(t *rapid.T, strategy StrategyType, scaling, failing bool) scenario {
	replicas := rapid.Int32Range(0, 200).Draw(t, "replicas")
	d, rss := settled(replicas, "v0")
	d.Strategy = strategy
	if strategy == Recreate {
		d.MaxSurge, d.MaxUnavailable = nil, nil
	} else {
		d.MaxSurge = boundValue(t, "maxSurge", 100)
		d.MaxUnavailable = boundValue(t, "maxUnavailable", 100)
		if Validate(&d) != nil {
			d.MaxUnavailable = num(1) // both zero: the API server would refuse it
		}
	}
	d.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 10}).Draw(t, "minReadySeconds")
	rss[0].Annotations[revision.MaxReplicasAnnotation] = itoa(int64(maxTotal(&d)))
	d.Status = RolloutStatus(&d, rss, 0, t0.Add(-time.Hour))
	cfg := Config[tmpl]{
		Start:            t0,
		Interval:         10 * time.Second,
		ReadyDelay:       time.Duration(rapid.IntRange(0, 30).Draw(t, "readyDelaySeconds")) * time.Second,
		TerminationDelay: time.Duration(rapid.SampledFrom([]int{0, 0, 10, 30}).Draw(t, "terminationDelaySeconds")) * time.Second,
		MaxSyncs:         2000,
		Events:           []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("v1")}},
	}
	if failing {
		cfg.NeverReady = rapid.Int32Range(0, 3).Draw(t, "neverReady")
	}
	if scaling {
		n := rapid.IntRange(0, 3).Draw(t, "events")
		for i := 0; i < n; i++ {
			sync := rapid.IntRange(2, 30).Draw(t, fmt.Sprintf("eventSync%d", i))
			if rapid.Bool().Draw(t, fmt.Sprintf("eventIsResize%d", i)) {
				cfg.Events = append(cfg.Events, Event[tmpl]{Sync: sync, Kind: SetReplicas, Replicas: rapid.Int32Range(0, 200).Draw(t, fmt.Sprintf("eventReplicas%d", i))})
			} else {
				cfg.Events = append(cfg.Events, Event[tmpl]{Sync: sync, Kind: SetTemplate, Template: image(fmt.Sprintf("v%d", i+2))})
			}
		}
	} else if rapid.Bool().Draw(t, "secondTemplate") {
		cfg.Events = append(cfg.Events, Event[tmpl]{Sync: rapid.IntRange(2, 20).Draw(t, "secondTemplateSync"), Kind: SetTemplate, Template: image("v2")})
	}
	return scenario{d: d, rss: rss, cfg: cfg}
}

func (s scenario) run(t *rapid.T) Trace[tmpl] {
	tr, err := Simulate(&s.d, s.rss, s.cfg)
	if err != nil {
		t.Fatalf("Simulate error: %v", err)
	}
	return tr
}

func sums(st Step) (desired, current, available, terminating int64) {
	for _, r := range st.ReplicaSets {
		desired += int64(r.Desired)
		current += int64(r.Current)
		available += int64(r.Available)
		terminating += int64(r.Terminating)
	}
	return
}

func TestPlanNeverExceedsMaxSurge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawScenario(t, RollingUpdate, false, true)
		tr := s.run(t)
		for _, st := range tr.Steps {
			desired, current, _, _ := sums(st)
			limit := int64(st.Replicas) + int64(st.MaxSurge)
			if desired > limit || current > limit {
				t.Fatalf("sync %d: %d desired, %d current pods, want at most %d (R %d + maxSurge %d)\n%s", st.Sync, desired, current, limit, st.Replicas, st.MaxSurge, tr.String())
			}
		}
	})
}

func TestPlanKeepsMinAvailableOnceReached(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawScenario(t, RollingUpdate, false, false)
		tr := s.run(t)
		reached := false
		for _, st := range tr.Steps {
			_, _, available, _ := sums(st)
			floor := int64(st.Replicas) - int64(st.MaxUnavailable)
			if reached && available < floor {
				t.Fatalf("sync %d: %d available, want at least %d (R %d - maxUnavailable %d)\n%s", st.Sync, available, floor, st.Replicas, st.MaxUnavailable, tr.String())
			}
			reached = reached || available >= floor
		}
	})
}

func TestPlanTerminatingAwareNeverExceedsMaxSurge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		strategy := rapid.SampledFrom([]StrategyType{RollingUpdate, RollingUpdate, Recreate}).Draw(t, "strategy")
		s := drawScenario(t, strategy, false, true)
		s.cfg.Options.Surge = SurgeCountsTerminating
		tr := s.run(t)
		for _, st := range tr.Steps {
			desired, _, _, terminating := sums(st)
			limit := int64(st.Replicas) + int64(st.MaxSurge)
			if desired+terminating > limit {
				t.Fatalf("sync %d: %d desired + %d terminating pods, want at most %d (R %d + maxSurge %d)\n%s", st.Sync, desired, terminating, limit, st.Replicas, st.MaxSurge, tr.String())
			}
		}
	})
}

// completionBound is the most syncs a rollout whose pods all become ready
// may take: every cycle of at most (readiness + 3) syncs moves at least one
// pod, and the last event restarts the count; resizes can add a cycle per
// replica.
func completionBound(s scenario) int {
	last := 0
	maxR := int(s.d.Replicas)
	for _, ev := range s.cfg.Events {
		last = max(last, ev.Sync)
		if ev.Kind == SetReplicas {
			maxR = max(maxR, int(ev.Replicas))
		}
	}
	wait := int((s.cfg.ReadyDelay+time.Duration(s.d.MinReadySeconds)*time.Second+s.cfg.TerminationDelay)/s.cfg.Interval) + 3
	return last + 2*(maxR+2)*wait
}

// TestSimulateCompletesWhenAllPodsBecomeReady checks that a rollout whose
// pods all become ready completes within completionBound syncs when stale
// desired-replicas annotations are refreshed, and that upstream's default
// either completes within the bound or ends in its one dead end: a scaling
// event with nothing to resize (see ResizeUpstream).
func TestSimulateCompletesWhenAllPodsBecomeReady(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		strategy := rapid.SampledFrom([]StrategyType{RollingUpdate, RollingUpdate, Recreate}).Draw(t, "strategy")
		s := drawScenario(t, strategy, true, false)
		bound := completionBound(s)
		tr := s.run(t)
		if tr.Outcome == OutcomeStalled {
			last := tr.Steps[len(tr.Steps)-1]
			if last.Path != PathScaling || !strings.HasSuffix(last.Reason, "scaling event: nothing to resize") {
				t.Fatalf("Simulate stalled outside upstream's scaling dead end\n%s", tr.String())
			}
		} else if tr.Outcome != OutcomeComplete || tr.Syncs > bound {
			t.Fatalf("Simulate ended %v after %d syncs, want Complete within %d\n%s", tr.Outcome, tr.Syncs, bound, tr.String())
		}
		s.cfg.Options.Resize = ResizeRefreshesAnnotations
		tr = s.run(t)
		if tr.Outcome != OutcomeComplete || tr.Syncs > bound {
			t.Fatalf("Simulate(ResizeRefreshesAnnotations) ended %v after %d syncs, want Complete within %d\n%s", tr.Outcome, tr.Syncs, bound, tr.String())
		}
	})
}

func TestRecreateNeverRunsOldAndNewPodsAtOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawScenario(t, Recreate, true, true)
		tr := s.run(t)
		for _, st := range tr.Steps {
			var oldPods, newPods int64
			for _, r := range st.ReplicaSets {
				if r.New {
					newPods += int64(r.Current)
				} else {
					oldPods += int64(r.Current) + int64(r.Terminating)
				}
			}
			if oldPods > 0 && newPods > 0 {
				t.Fatalf("sync %d: %d old and %d new pods at once\n%s", st.Sync, oldPods, newPods, tr.String())
			}
		}
	})
}

func TestStatusCountersStayValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		strategy := rapid.SampledFrom([]StrategyType{RollingUpdate, Recreate}).Draw(t, "strategy")
		s := drawScenario(t, strategy, true, true)
		tr := s.run(t)
		for _, st := range tr.Steps {
			d := Deployment[tmpl]{Status: st.Status, Strategy: strategy}
			if errs := validate(&d); len(errs) > 0 {
				t.Fatalf("sync %d: status %+v breaks validation: %v\n%s", st.Sync, st.Status, errs, tr.String())
			}
		}
	})
}

// drawState draws an arbitrary (possibly invalid) deployment and
// ReplicaSets, for properties of Plan itself.
func drawState(t *rapid.T) (*Deployment[tmpl], []ReplicaSet[tmpl], time.Time) {
	replicas := rapid.Int32Range(0, 50).Draw(t, "replicas")
	if rapid.IntRange(0, 19).Draw(t, "negativeReplicas") == 0 {
		replicas = -1 // rejected: rarely, so that most draws reach Plan's logic
	}
	d := dep(replicas, boundValue(t, "maxSurge", 200), boundValue(t, "maxUnavailable", 120))
	d.Strategy = rapid.SampledFrom([]StrategyType{"", RollingUpdate, Recreate, "Canary"}).Draw(t, "strategy")
	if d.Strategy == Recreate && rapid.Bool().Draw(t, "clearRolling") {
		d.MaxSurge, d.MaxUnavailable = nil, nil
	}
	d.Paused = rapid.Bool().Draw(t, "paused")
	d.Deleting = rapid.IntRange(0, 9).Draw(t, "deleting") == 0
	if rapid.IntRange(0, 4).Draw(t, "rollback") == 0 {
		d.RollbackTo = ptr(rapid.Int64Range(0, 4).Draw(t, "rollbackTo"))
	}
	d.Annotations = map[string]string{"team": "web"}
	n := rapid.IntRange(0, 5).Draw(t, "replicaSets")
	var rss []ReplicaSet[tmpl]
	for i := 0; i < n; i++ {
		spec := rapid.Int32Range(0, 60).Draw(t, fmt.Sprintf("spec%d", i))
		avail := rapid.Int32Range(0, 60).Draw(t, fmt.Sprintf("available%d", i))
		r := rs(fmt.Sprintf("rs%d", i), rapid.IntRange(0, 100).Draw(t, fmt.Sprintf("age%d", i)), spec, avail)
		r.Template = image(fmt.Sprintf("v%d", rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("image%d", i))))
		r.Annotations = map[string]string{
			revision.RevisionAnnotation:        itoa(int64(i + 1)),
			revision.DesiredReplicasAnnotation: itoa(int64(rapid.Int32Range(0, 50).Draw(t, fmt.Sprintf("desired%d", i)))),
			revision.MaxReplicasAnnotation:     itoa(int64(rapid.Int32Range(0, 70).Draw(t, fmt.Sprintf("maxReplicas%d", i)))),
		}
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("terminatingKind%d", i)) {
		case 0:
			r.TerminatingReplicas = nil
		case 1:
			r.TerminatingReplicas = ptr(rapid.Int32Range(0, 5).Draw(t, fmt.Sprintf("terminating%d", i)))
		}
		rss = append(rss, r)
	}
	d.Template = image(fmt.Sprintf("v%d", rapid.IntRange(0, 3).Draw(t, "image")))
	d.Generation = rapid.SampledFrom([]int64{0, 1, 2, 7}).Draw(t, "generation")
	d.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, "minReadySeconds")
	for i := range rss {
		rss[i].MinReadySeconds = drawRSMinReadySeconds(t, i, d.MinReadySeconds)
	}
	d.ProgressDeadlineSeconds = rapid.SampledFrom([]*int32{nil, ptr(int32(10)), ptr(int32(600)), ptr(int32(NoLimit))}).Draw(t, "progressDeadlineSeconds")
	d.RevisionHistoryLimit = rapid.SampledFrom([]*int32{nil, ptr(int32(0)), ptr(int32(1)), ptr(int32(NoLimit))}).Draw(t, "revisionHistoryLimit")
	d.Status = drawStatus(t, d.Generation)
	if len(rss) > 0 && rapid.Bool().Draw(t, "collision") {
		// An old ReplicaSet holds the name the new one would get: a hash
		// collision, which raises status.collisionCount.
		i := rapid.IntRange(0, len(rss)-1).Draw(t, "collidingReplicaSet")
		rss[i].Name = revision.ReplicaSetName(d.Name, revision.Hash(&d.Template, d.Status.CollisionCount))
	}
	return d, rss, t0.Add(time.Duration(rapid.IntRange(0, 3600).Draw(t, "nowSeconds")) * time.Second)
}

// drawStatus draws a deployment status with conditions and collision
// counts, for the properties of Plan itself: valid 19 times in 20
// (counters within status.replicas), otherwise anything.
func drawStatus(t *rapid.T, generation int64) Status {
	var s Status
	s.ObservedGeneration = max(0, generation-rapid.Int64Range(-1, 1).Draw(t, "generationsBehind"))
	if rapid.IntRange(0, 19).Draw(t, "statusValid") > 0 {
		s.Replicas = rapid.Int32Range(0, 60).Draw(t, "statusReplicas")
		s.UpdatedReplicas = rapid.Int32Range(0, s.Replicas).Draw(t, "statusUpdated")
		s.ReadyReplicas = rapid.Int32Range(0, s.Replicas).Draw(t, "statusReady")
		s.AvailableReplicas = rapid.Int32Range(0, s.ReadyReplicas).Draw(t, "statusAvailable")
		s.UnavailableReplicas = rapid.Int32Range(0, 60).Draw(t, "statusUnavailable")
	} else {
		counter := func(label string) int32 { return rapid.Int32Range(-1, 60).Draw(t, label) }
		s.Replicas, s.UpdatedReplicas = counter("statusReplicas"), counter("statusUpdated")
		s.ReadyReplicas, s.AvailableReplicas = counter("statusReady"), counter("statusAvailable")
		s.UnavailableReplicas = counter("statusUnavailable")
	}
	if rapid.Bool().Draw(t, "statusTerminatingSet") {
		s.TerminatingReplicas = ptr(rapid.Int32Range(0, 5).Draw(t, "statusTerminating"))
	}
	// At math.MaxInt32 a collision makes Plan return ErrCounterOverflow
	// rather than write a count its own validation rejects.
	s.CollisionCount = rapid.SampledFrom([]*int32{nil, ptr(int32(0)), ptr(int32(1)), ptr(int32(math.MaxInt32 - 1)), ptr(int32(math.MaxInt32))}).Draw(t, "collisionCount")
	types := rapid.SliceOfNDistinct(rapid.SampledFrom([]ConditionType{DeploymentAvailable, DeploymentProgressing, DeploymentReplicaFailure}), 0, 3, rapid.ID[ConditionType]).Draw(t, "conditionTypes")
	for _, ct := range types {
		updated := t0.Add(-time.Duration(rapid.IntRange(0, 7200).Draw(t, "conditionAge")) * time.Second)
		s.Conditions = append(s.Conditions, Condition{
			Type:   ct,
			Status: rapid.SampledFrom([]ConditionStatus{ConditionTrue, ConditionFalse, ConditionUnknown}).Draw(t, "conditionStatus"),
			Reason: rapid.SampledFrom([]string{ReasonReplicaSetUpdated, ReasonNewReplicaSetCreated, ReasonFoundNewReplicaSet,
				ReasonNewReplicaSetAvailable, ReasonProgressDeadlineExceeded, ReasonDeploymentPaused, ReasonDeploymentResumed,
				ReasonMinimumReplicasAvailable, ReasonMinimumReplicasUnavailable}).Draw(t, "conditionReason"),
			Message:            "drawn",
			LastUpdateTime:     updated,
			LastTransitionTime: updated.Add(-time.Duration(rapid.IntRange(0, 60).Draw(t, "conditionTransitionAge")) * time.Second),
		})
	}
	return s
}

// deepCopyDeployment copies d, sharing no map, slice or pointer with it.
func deepCopyDeployment(d *Deployment[tmpl]) Deployment[tmpl] {
	c := *d
	c.Annotations = cloneMap(d.Annotations)
	c.Template.Labels = cloneMap(d.Template.Labels)
	c.Template.Annotations = cloneMap(d.Template.Annotations)
	c.MaxSurge = clonePtr(d.MaxSurge)
	c.MaxUnavailable = clonePtr(d.MaxUnavailable)
	c.ProgressDeadlineSeconds = clonePtr(d.ProgressDeadlineSeconds)
	c.RevisionHistoryLimit = clonePtr(d.RevisionHistoryLimit)
	c.RollbackTo = clonePtr(d.RollbackTo)
	c.Status.TerminatingReplicas = clonePtr(d.Status.TerminatingReplicas)
	c.Status.CollisionCount = clonePtr(d.Status.CollisionCount)
	if d.Status.Conditions != nil {
		c.Status.Conditions = append([]Condition{}, d.Status.Conditions...)
	}
	return c
}

func clonePtr[V any](p *V) *V {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

func TestPlanIsDeterministicAndNeverMutatesInputs(t *testing.T) {
	rapid.Check(t, planIsDeterministicAndPure)
}

// FuzzPlan runs the purity property under the fuzzer: go test -fuzz FuzzPlan.
func FuzzPlan(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(planIsDeterministicAndPure))
}

func planIsDeterministicAndPure(t *rapid.T) {
	{
		d, rss, now := drawState(t)
		dCopy := deepCopyDeployment(d)
		rssCopy := deepCopyRSs(rss)
		a, errA := Plan(d, rss, now)
		b, errB := Plan(d, rss, now)
		if !reflect.DeepEqual(a, b) || fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("Plan is not deterministic:\n%+v\n%+v", a, b)
		}
		if !reflect.DeepEqual(dCopy, *d) || !reflect.DeepEqual(rssCopy, rss) {
			t.Fatalf("Plan modified its inputs")
		}
		if errA != nil {
			return
		}
		// Whatever Plan writes passes validation again.
		if errs := validate(&a.Deployment); len(errs) > 0 {
			t.Fatalf("Plan wrote an invalid deployment: %v", errs)
		}
		for i := range a.ReplicaSets {
			if a.ReplicaSets[i].Replicas < 0 {
				t.Fatalf("Plan wrote a negative size: %+v", a.ReplicaSets[i])
			}
		}
	}
}

// newReplicasOnePodAtATime is the slow reference for NewReplicas: add one
// pod at a time while the total is under R + maxSurge and the new
// ReplicaSet under R.
func newReplicasOnePodAtATime(r, surge, others, current int64) int64 {
	if current >= r {
		return current // NewReplicas leaves a large ReplicaSet alone when there is no room
	}
	for others+current < r+surge && current < r {
		current++
	}
	return current
}

func TestNewReplicasMatchesOnePodAtATime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 300).Draw(t, "replicas")
		surge := rapid.Int32Range(0, 300).Draw(t, "maxSurge")
		others := rapid.Int32Range(0, 600).Draw(t, "others")
		current := rapid.Int32Range(0, 300).Draw(t, "current")
		d := dep(r, num(surge), num(1))
		rss := []ReplicaSet[tmpl]{rs("old", 2, others, 0), rs("new", 1, current, 0)}
		got, err := NewReplicas(d, rss, 1)
		want := newReplicasOnePodAtATime(int64(r), int64(surge), int64(others), int64(current))
		if current > r && others+current < r+surge {
			want = int64(r) // room left: upstream's min() goes negative and lands on R
		}
		if err != nil || int64(got) != want {
			t.Fatalf("NewReplicas(R %d, surge %d, others %d, new %d) = (%d, %v), want %d", r, surge, others, current, got, err, want)
		}
	})
}

func TestScaleDownOldMatchesOnePodAtATime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(1, 100).Draw(t, "replicas")
		d := dep(r, num(0), num(rapid.Int32Range(1, 100).Draw(t, "maxUnavailable")))
		n := rapid.IntRange(1, 4).Draw(t, "old")
		var rss []ReplicaSet[tmpl]
		for i := 0; i < n; i++ {
			spec := rapid.Int32Range(0, 50).Draw(t, fmt.Sprintf("spec%d", i))
			rss = append(rss, rs(fmt.Sprintf("old%d", i), 10+i*rapid.IntRange(-3, 3).Draw(t, fmt.Sprintf("age%d", i)), spec, rapid.Int32Range(0, spec).Draw(t, fmt.Sprintf("available%d", i))))
		}
		rss = append(rss, rs("new", 0, 5, rapid.Int32Range(0, 5).Draw(t, "newAvailable")))
		sizes := sizesOf(rss)
		removed, err := ScaleDownOld(d, rss, n, sizes)
		// Reference: remove one pod at a time from the oldest non-empty old
		// ReplicaSet while available pods exceed the minimum.
		ref := sizesOf(rss)
		var available int64
		for i := range rss {
			available += int64(rss[i].AvailableReplicas)
		}
		budget := available - int64(MinAvailable(d))
		var refRemoved int64
		for budget > 0 {
			i := nextOldest(rss, -1, n)
			for i >= 0 && ref[i] == 0 {
				i = nextOldest(rss, i, n)
			}
			if i < 0 {
				break
			}
			ref[i]--
			budget--
			refRemoved++
		}
		if err != nil || int64(removed) != refRemoved || !reflect.DeepEqual(sizes, ref) {
			t.Fatalf("ScaleDownOld = (%d, %v) sizes %v, reference %d sizes %v", removed, err, sizes, refRemoved, ref)
		}
	})
}

// reconcileOldOnePodAtATime is the slow reference for ReconcileOld: with
// budget = MaxScaledDown, remove unavailable old pods one at a time, oldest
// ReplicaSet first, while budget is left; then remove old pods one at a
// time, oldest first, while available pods exceed MinAvailable.
func reconcileOldOnePodAtATime(d *Deployment[tmpl], rss []ReplicaSet[tmpl], newRS int) (int64, []int32) {
	sizes := sizesOf(rss)
	var oldPods int64
	for i := range rss {
		if i != newRS {
			oldPods += int64(rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return 0, sizes
	}
	budget := int64(MaxScaledDown(d, rss, newRS))
	if budget <= 0 {
		return 0, sizes
	}
	var removed int64
	for i := nextOldest(rss, -1, newRS); i >= 0 && budget > 0; i = nextOldest(rss, i, newRS) {
		for budget > 0 && sizes[i] > rss[i].AvailableReplicas {
			sizes[i]--
			budget--
			removed++
		}
	}
	var available int64
	for i := range rss {
		if i == newRS || rss[i].Replicas > 0 {
			available += int64(rss[i].AvailableReplicas)
		}
	}
	surplus := available - int64(MinAvailable(d))
	for i := nextOldest(rss, -1, newRS); i >= 0 && surplus > 0; i = nextOldest(rss, i, newRS) {
		for surplus > 0 && sizes[i] > 0 {
			sizes[i]--
			surplus--
			removed++
		}
	}
	return removed, sizes
}

func TestReconcileOldMatchesOnePodAtATime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 60).Draw(t, "replicas")
		d := dep(r, boundValue(t, "maxSurge", 100), boundValue(t, "maxUnavailable", 100))
		if Validate(d) != nil {
			d.MaxUnavailable = num(1)
		}
		n := rapid.IntRange(1, 4).Draw(t, "old")
		var rss []ReplicaSet[tmpl]
		for i := 0; i < n; i++ {
			spec := rapid.Int32Range(0, 40).Draw(t, fmt.Sprintf("spec%d", i))
			rss = append(rss, rs(fmt.Sprintf("old%d", i), rapid.IntRange(2, 9).Draw(t, fmt.Sprintf("age%d", i)), spec, rapid.Int32Range(0, spec).Draw(t, fmt.Sprintf("available%d", i))))
		}
		newSpec := rapid.Int32Range(0, 40).Draw(t, "newSpec")
		rss = append(rss, rs("new", 1, newSpec, rapid.Int32Range(0, newSpec).Draw(t, "newAvailable")))
		sizes := sizesOf(rss)
		got, err := ReconcileOld(d, rss, n, sizes)
		want, wantSizes := reconcileOldOnePodAtATime(d, rss, n)
		if err != nil || int64(got) != want || !reflect.DeepEqual(sizes, wantSizes) {
			t.Fatalf("ReconcileOld = (%d, %v) sizes %v, reference %d sizes %v", got, err, sizes, want, wantSizes)
		}
	})
}

// TestPlanNeverExceedsSaturatedMaxSurgeNearMaxInt32 covers what the small
// scenarios above cannot: near math.MaxInt32, R + maxSurge does not fit in
// an int32, upstream wraps it, and the library saturates it instead. The
// pods of all ReplicaSets must then never exceed min(R + maxSurge,
// MaxInt32), so every status counter still fits in an int32.
func TestPlanNeverExceedsSaturatedMaxSurgeNearMaxInt32(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(math.MaxInt32-1000, math.MaxInt32).Draw(t, "replicas")
		d, rss := settled(replicas, "v0")
		if rapid.Bool().Draw(t, "maxSurgeIsPercent") {
			v := intorpercent.Percent(rapid.Int32Range(1, 200).Draw(t, "maxSurge"))
			d.MaxSurge = &v
		} else {
			v := intorpercent.Int(rapid.Int32Range(1, math.MaxInt32).Draw(t, "maxSurge"))
			d.MaxSurge = &v
		}
		d.MaxUnavailable = boundValue(t, "maxUnavailable", 100)
		rss[0].Annotations[revision.MaxReplicasAnnotation] = itoa(int64(maxTotal(&d)))
		d.Status = RolloutStatus(&d, rss, 0, t0.Add(-time.Hour))
		s := scenario{d: d, rss: rss, cfg: Config[tmpl]{
			Start: t0, Interval: 10 * time.Second, ReadyDelay: 10 * time.Second, MaxSyncs: 200,
			Events: []Event[tmpl]{{Sync: 1, Kind: SetTemplate, Template: image("v1")}},
		}}
		tr := s.run(t)
		for _, st := range tr.Steps {
			desired, current, _, _ := sums(st)
			limit := min(int64(st.Replicas)+int64(st.MaxSurge), math.MaxInt32)
			if desired > limit || current > limit {
				t.Fatalf("sync %d: %d desired, %d current pods, want at most %d = min(R %d + maxSurge %d, MaxInt32)\n%s",
					st.Sync, desired, current, limit, st.Replicas, st.MaxSurge, tr.String())
			}
		}
	})
}
