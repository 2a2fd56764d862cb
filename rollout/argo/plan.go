package argo

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/revision"
)

// Plan returns what one sync of the Argo Rollouts controller v1.10.1
// does to ro and its ReplicaSets at now: the writes in the controller's
// order, each with a reason, the Rollout and ReplicaSets as the sync
// leaves them, and the requeue. It is PlanWith with the zero Options.
//
// A sync does at most one of these, in this order: default
// spec.replicas (and stop); create the new ReplicaSet (and stop); a
// scale-only pass when replicas changed (a new or stable ReplicaSet's
// desired-replicas annotation differs); a status reset when the
// template or the steps changed; otherwise the strategy's pass. A
// canary's pass moves at most one of stable, new, and the older
// ReplicaSets, in that order, before its status (step, pause, abort,
// promotion); a blue-green pass sizes stable, new (preview) and old
// ReplicaSets, then its pause, the active Service and its status.
//
// ro is not modified and replicaSets are not modified or retained;
// their order does not matter. Bad input (a nil Rollout, a spec Validate
// rejects, duplicate names or hashes, negative counts, a template that
// does not encode) is a *field.Error or field.ErrorList naming the
// Rollout, and nothing is planned.
func Plan[T any](ro *Rollout[T], replicaSets []ReplicaSet[T], now time.Time) (Sync[T], error) {
	return PlanWith(ro, replicaSets, now, Options{})
}

// PlanWith is Plan with opts' deviations and resync period.
func PlanWith[T any](ro *Rollout[T], replicaSets []ReplicaSet[T], now time.Time, opts Options) (Sync[T], error) {
	p := Planner[T]{Options: opts}
	if _, err := p.Plan(ro, replicaSets, now); err != nil {
		return Sync[T]{}, err
	}
	return *p.Explain(), nil
}

// Planner plans syncs like Plan, reusing its memory from one sync to the
// next: in a steady state (a sync that writes nothing) Plan does not
// allocate, and reasons are written only when Explain is asked. The zero
// value is ready to use; set Options before the first Plan. A Planner is
// not safe for concurrent use, and the Sync it returns is valid until
// its next Plan.
//
// A Planner remembers the pod-template hash and the steps hash of the
// Rollout it planned last, by name, generation and collision count: the
// API server raises metadata.generation on every spec change, so a
// caller that changes the template or the steps of a Rollout it plans
// again must raise Generation too (Plan and PlanWith remember nothing).
type Planner[T any] struct {
	// Options are the deviations and resync period used by Plan.
	Options Options

	p    planner[T]
	last *Sync[T]
}

// Plan is the package's Plan, leaving every Reason "" until Explain.
// The Sync's slices are the Planner's: copy what must outlive the next
// Plan.
func (pl *Planner[T]) Plan(ro *Rollout[T], replicaSets []ReplicaSet[T], now time.Time) (*Sync[T], error) {
	pl.last = nil
	if err := checkInput(ro, replicaSets); err != nil {
		return nil, err
	}
	p := &pl.p
	p.reset(pl.Options, ro, replicaSets, now)
	if err := p.sync(); err != nil {
		return nil, err
	}
	p.finish()
	pl.last = &p.out
	return pl.last, nil
}

// Explain writes the Reasons of the last Plan's Sync and returns it; nil
// before any successful Plan.
func (pl *Planner[T]) Explain() *Sync[T] {
	if pl.last == nil {
		return nil
	}
	pl.p.explain()
	return pl.last
}

// planner is the state of one sync.
type planner[T any] struct {
	opts Options
	ro   *Rollout[T]
	now  time.Time
	r    int32

	// view holds the controller's in-memory copies of the ReplicaSets,
	// oldest first; decisions read them. out.ReplicaSets[i] is view[i]
	// as written (plus a created one at the end).
	view    []ReplicaSet[T]
	all     []*ReplicaSet[T]
	others  []*ReplicaSet[T]
	scratch []*ReplicaSet[T]
	deleted []bool
	newRS   *ReplicaSet[T]
	stable  *ReplicaSet[T]

	origin     []ReplicaSet[T]
	status     Status
	weightsBuf Weights
	pause      pauseContext
	stepCount  int32
	stepIndex  int32
	abortedAt  time.Time
	condBuf    []PauseCondition
	previewSel string
	activeSel  string
	cache      hashCache
	// weightsKept says the recorded weights did not change: the status
	// written keeps the input's.
	weightsKept bool
	actBuf      []Action
	rsBuf       []ReplicaSet[T]

	out  Sync[T]
	whys []why
	sum  summary
}

// pauseContext collects the pause and abort changes of a sync, applied
// when the status is written. Upstream: pauseContext, rollout/pause.go.
type pauseContext struct {
	add, remove    []PauseReason
	clear          bool
	removeAbort    bool
	addedThisRound bool
}

// reset prepares p for a sync of ro over rss at now.
func (p *planner[T]) reset(opts Options, ro *Rollout[T], rss []ReplicaSet[T], now time.Time) {
	p.opts, p.ro, p.now = opts, ro, now
	p.r = ReplicasOrDefault(ro.Replicas)
	p.view = append(p.view[:0], rss...)
	slices.SortFunc(p.view, func(a, b ReplicaSet[T]) int {
		if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	p.origin = append(p.origin[:0], p.view...)
	p.all = p.all[:0]
	for i := range p.view {
		p.all = append(p.all, &p.view[i])
	}
	p.deleted = p.deleted[:0]
	for range p.view {
		p.deleted = append(p.deleted, false)
	}
	p.others, p.scratch = p.others[:0], p.scratch[:0]
	p.newRS, p.stable = nil, nil
	// The new status starts empty but for the recorded weights, which
	// every path carries over. Upstream: newRolloutContext.
	p.status = Status{Canary: CanaryStatus{Weights: ro.Status.Canary.Weights}}
	p.weightsKept = false
	p.pause = pauseContext{add: p.pause.add[:0], remove: p.pause.remove[:0]}
	outRSs := append(p.rsBuf[:0], p.view...)
	p.out = Sync[T]{Actions: p.actBuf[:0], Rollout: *ro, ReplicaSets: outRSs}
	p.whys = p.whys[:0]
	p.sum = summary{}
}

// index returns the position of rs in view.
func (p *planner[T]) index(rs *ReplicaSet[T]) int {
	for i := range p.view {
		if &p.view[i] == rs {
			return i
		}
	}
	return -1
}

// add appends an action with its reason's facts.
func (p *planner[T]) add(a Action, w why) {
	p.out.Actions = append(p.out.Actions, a)
	p.whys = append(p.whys, w)
}

// requeueAfter records an enqueueRolloutAfter: the earliest wins.
func (p *planner[T]) requeueAfter(d time.Duration) {
	if !p.out.Requeue || d < p.out.RequeueAfter {
		p.out.Requeue, p.out.RequeueAfter = true, d
	}
}

// sync is the controller's syncHandler and reconcile.
func (p *planner[T]) sync() error {
	ro := p.ro
	if ro.Replicas == nil {
		one := DefaultReplicas
		p.out.Rollout.Replicas = &one
		p.out.Rollout.Generation++ // the API server's, for a spec change
		p.sum.kind = sumDefaulted
		p.add(Action{Kind: SetSpecReplicas, Replicas: DefaultReplicas}, why{})
		return nil
	}
	hash, err := p.templateHash()
	if err != nil {
		return prefixed(ro.Name, err)
	}
	p.newRS = p.findNew(hash)
	if p.newRS == nil {
		p.create(hash)
		return nil
	}
	p.syncRevision()
	p.stable = StableReplicaSet(ro, p.newRS, p.all)
	p.others = OtherReplicaSets(p.others[:0], p.newRS, p.stable, p.all)
	p.out.NewReplicaSet = p.newRS.Name
	if p.stable != nil {
		p.out.StableReplicaSet = p.stable.Name
	}
	if ro.Status.StableRS == ro.Status.CurrentPodHash && ro.Status.Abort {
		p.pause.removeAbort = true
	}
	if p.scalingEvent() {
		p.out.ScalingEvent = true
		p.sum.kind = sumScaling
		return p.syncReplicasOnly()
	}
	if ro.Strategy.BlueGreen != nil {
		p.blueGreen()
		return nil
	}
	p.canary()
	return nil
}

// templateHash returns PodTemplateHash of the Rollout's template and
// caches it, with StepsHash, for the next sync of the same Rollout at
// the same generation and collision count: the API server raises the
// generation whenever the spec changes.
func (p *planner[T]) templateHash() (string, error) {
	ro := p.ro
	cc, hasCC := int32(0), ro.Status.CollisionCount != nil
	if hasCC {
		cc = *ro.Status.CollisionCount
	}
	if p.cache.ok && p.cache.name == ro.Name && p.cache.gen == ro.Generation && p.cache.hasCC == hasCC && p.cache.cc == cc {
		return p.cache.hash, nil
	}
	h, err := PodTemplateHash(&ro.Template, ro.Status.CollisionCount)
	if err != nil {
		return "", err
	}
	p.cache = hashCache{ok: true, name: ro.Name, gen: ro.Generation, hasCC: hasCC, cc: cc, hash: h, steps: StepsHash(ro)}
	return h, nil
}

// stepsHash is StepsHash of the Rollout, cached by templateHash.
func (p *planner[T]) stepsHash() string {
	if p.cache.ok {
		return p.cache.steps
	}
	return StepsHash(p.ro)
}

// hashCache holds the hashes of one Rollout generation.
type hashCache struct {
	ok          bool
	name        string
	gen         int64
	hasCC       bool
	cc          int32
	hash, steps string
}

// findNew returns the ReplicaSet of the current template: the one whose
// hash is hash, else the oldest whose template equals it.
// Upstream: FindNewReplicaSet, utils/replicaset/replicaset.go.
func (p *planner[T]) findNew(hash string) *ReplicaSet[T] {
	if rs := byHash(p.all, hash); rs != nil {
		return rs
	}
	for _, rs := range p.all {
		if revision.EqualIgnoreHash(&rs.Template, &p.ro.Template) {
			return rs
		}
	}
	return nil
}

// maxOldRevision is the highest revision among ReplicaSets other than
// the new one. Upstream: MaxRevision of olderRSs.
func (p *planner[T]) maxOldRevision() int64 {
	var m int64
	for _, rs := range p.all {
		if rs != p.newRS && rs.Revision > m {
			m = rs.Revision
		}
	}
	return m
}

// create is createDesiredReplicaSet: a ReplicaSet at 0 replicas with the
// next revision; the sync ends there.
func (p *planner[T]) create(hash string) {
	rev := p.maxOldRevision() + 1
	r := p.r
	rs := ReplicaSet[T]{
		Name:            p.ro.Name + "-" + hash,
		PodTemplateHash: hash,
		Revision:        rev,
		DesiredReplicas: &r,
		CreationTime:    p.now,
		Template:        p.ro.Template,
	}
	p.out.ReplicaSets = append(p.out.ReplicaSets, rs)
	p.out.NewReplicaSet = rs.Name
	p.sum.kind = sumCreated
	p.add(Action{Kind: CreateReplicaSet, ReplicaSet: rs.Name, Hash: hash, Revision: rev}, why{})
}

// syncRevision is syncReplicaSetRevision: a new ReplicaSet older than
// the newest revision (a rollback to it) gets the next revision.
func (p *planner[T]) syncRevision() {
	next := p.maxOldRevision() + 1
	if p.newRS.Revision >= next {
		return
	}
	i := p.index(p.newRS)
	p.out.ReplicaSets[i].Revision = next
	p.add(Action{Kind: UpdateRevision, ReplicaSet: p.newRS.Name, Hash: p.newRS.PodTemplateHash, Revision: next}, why{from: int32(min(p.newRS.Revision, 1<<31-1))})
}

// scalingEvent is isScalingEvent: a new or stable ReplicaSet with pods
// whose desired-replicas annotation is not the Rollout's replicas.
func (p *planner[T]) scalingEvent() bool {
	for _, rs := range [2]*ReplicaSet[T]{p.newRS, p.stable} {
		if rs == nil || rs.Replicas <= 0 || rs.DesiredReplicas == nil {
			continue
		}
		if *rs.DesiredReplicas != p.r {
			p.sum.desired = *rs.DesiredReplicas
			return true
		}
	}
	return false
}

// syncReplicasOnly is the scale-only pass of a scaling event.
func (p *planner[T]) syncReplicasOnly() error {
	p.status = p.ro.Status
	p.status.PauseConditions = slices.Clip(p.status.PauseConditions)
	if p.ro.Strategy.BlueGreen != nil {
		p.reconcileBlueGreenReplicaSets()
		if active := byHash(p.all, p.status.BlueGreen.ActiveSelector); active != nil {
			p.status.HPAReplicas = active.StatusReplicas
			p.status.AvailableReplicas = active.AvailableReplicas
		} else {
			p.status.HPAReplicas = sumActual(p.all)
			p.status.AvailableReplicas = sumAvailable(p.all)
		}
	} else {
		p.reconcileCanaryReplicaSets()
		p.status.AvailableReplicas = sumAvailable(p.all)
		p.status.HPAReplicas = sumActual(p.all)
	}
	p.writeStatus()
	return nil
}

// sumActual, sumAvailable and sumReady add status counts, saturating.
func sumActual[T any](rss []*ReplicaSet[T]) int32 {
	var s int64
	for _, rs := range rss {
		if rs != nil {
			s += int64(rs.StatusReplicas)
		}
	}
	return clamp32(s)
}

func sumAvailable[T any](rss []*ReplicaSet[T]) int32 {
	var s int64
	for _, rs := range rss {
		if rs != nil {
			s += int64(rs.AvailableReplicas)
		}
	}
	return clamp32(s)
}

func sumReady[T any](rss []*ReplicaSet[T]) int32 {
	var s int64
	for _, rs := range rss {
		if rs != nil {
			s += int64(rs.ReadyReplicas)
		}
	}
	return clamp32(s)
}

// scale is scaleReplicaSetAndRecordEvent: writes rs's size to to and its
// desired-replicas annotation to the Rollout's replicas when either is
// stale; reports whether the size changed.
func (p *planner[T]) scale(rs *ReplicaSet[T], to int32, w why) bool {
	needsAnn := rs.DesiredReplicas == nil || *rs.DesiredReplicas != p.r || (p.r == 0 && rs.ScaleDownDeadline != "")
	if rs.Replicas == to && !needsAnn {
		return false
	}
	i := p.index(rs)
	o := &p.out.ReplicaSets[i]
	from := rs.Replicas
	o.Replicas = to
	if o.DesiredReplicas == nil || *o.DesiredReplicas != p.r {
		r := p.r
		o.DesiredReplicas = &r
	}
	if to == 0 && !p.delayScaleDownOnAbort() && o.ScaleDownDeadline != "" {
		o.ScaleDownDeadline = ""
	}
	if from == to {
		p.add(Action{Kind: AnnotateDesiredReplicas, ReplicaSet: rs.Name, Hash: rs.PodTemplateHash, Replicas: p.r}, w)
		return false
	}
	p.add(Action{Kind: ScaleReplicaSet, ReplicaSet: rs.Name, Hash: rs.PodTemplateHash, From: from, Replicas: to}, w)
	p.sum.scaled++
	return true
}

// delayScaleDownOnAbort is shouldDelayScaleDownOnAbort: an aborted
// rollout with a stable ReplicaSet keeps its canary (preview) for the
// abort delay, except a basic canary, an explicit delay of 0 (kept for
// ever, handled elsewhere) and dynamicStableScale without an explicit
// delay.
func (p *planner[T]) delayScaleDownOnAbort() bool {
	if !p.aborted() || p.stable == nil {
		return false
	}
	c := p.ro.Strategy.Canary
	if c != nil && c.TrafficRouting == nil {
		return false
	}
	d, wasSet := AbortScaleDownDelayOrDefault(p.ro)
	if d == nil {
		return false
	}
	if c != nil && c.DynamicStableScale && !wasSet {
		return false
	}
	return true
}

// aborted is pauseContext.IsAborted.
func (p *planner[T]) aborted() bool {
	return !p.pause.removeAbort && p.ro.Status.Abort
}

// haltProgress says why canary scaling stops: spec.paused or an
// inconclusive-analysis pause.
func (p *planner[T]) haltProgress() string {
	if p.ro.Paused {
		return "user paused"
	}
	if hasPause(p.ro.Status.PauseConditions, PauseInconclusiveAnalysis) {
		return "inconclusive analysis"
	}
	return ""
}

// hasPause reports whether conds holds a condition with reason.
func hasPause(conds []PauseCondition, reason PauseReason) bool {
	_, ok := pauseStart(conds, reason)
	return ok
}

// pauseStart returns the start of the condition with reason.
func pauseStart(conds []PauseCondition, reason PauseReason) (time.Time, bool) {
	for _, c := range conds {
		if c.Reason == reason {
			return c.StartTime, true
		}
	}
	return time.Time{}, false
}

// removeScaleDownDeadlines removes the deadline from the new ReplicaSet
// (unless an abort delay runs) and the stable one.
func (p *planner[T]) removeScaleDownDeadlines() {
	if p.newRS != nil && !p.delayScaleDownOnAbort() {
		p.removeDeadline(p.newRS, whyNew)
	}
	if p.stable != nil && p.stable != p.newRS {
		p.removeDeadline(p.stable, whyStable)
	}
}

// removeDeadline is removeScaleDownDelay.
func (p *planner[T]) removeDeadline(rs *ReplicaSet[T], role role) {
	if rs.ScaleDownDeadline == "" {
		return
	}
	i := p.index(rs)
	p.add(Action{Kind: RemoveScaleDownDeadline, ReplicaSet: rs.Name, Hash: rs.PodTemplateHash, Deadline: rs.ScaleDownDeadline}, why{role: role})
	p.out.ReplicaSets[i].ScaleDownDeadline = ""
	rs.ScaleDownDeadline = ""
}

// addDeadline is addScaleDownDelay: a positive delay writes now+delay;
// 0 or less only removes an existing deadline.
func (p *planner[T]) addDeadline(rs *ReplicaSet[T], delay time.Duration, w why) {
	if delay <= 0 {
		p.removeDeadline(rs, w.role)
		return
	}
	d := FormatDeadline(p.now.Add(delay))
	i := p.index(rs)
	p.out.ReplicaSets[i].ScaleDownDeadline = d
	w.delay = delay
	p.add(Action{Kind: AddScaleDownDeadline, ReplicaSet: rs.Name, Hash: rs.PodTemplateHash, Deadline: d}, w)
}

// reconcileNewReplicaSet sizes the new ReplicaSet, with the abort delay.
func (p *planner[T]) reconcileNewReplicaSet(weights *Weights) bool {
	if p.newRS == nil {
		return false
	}
	n := NewReplicas(p.ro, p.all, p.newRS, weights)
	w := p.newWhy(n, weights)
	if p.delayScaleDownOnAbort() {
		delay, _ := AbortScaleDownDelayOrDefault(p.ro)
		if p.newRS.ScaleDownDeadline != "" {
			t, err := time.Parse(time.RFC3339, p.newRS.ScaleDownDeadline)
			if err == nil {
				if t.After(p.now) {
					left := t.Sub(p.now)
					if left < p.opts.resync() {
						p.requeueAfter(left)
						p.scale(p.newRS, p.newRS.Replicas, why{role: whyNew, abortHold: true})
						return false
					}
				} else {
					n = 0
					w.abortExpired = true
				}
			}
		} else if delay != nil {
			p.scale(p.newRS, p.newRS.Replicas, why{role: whyNew, abortHold: true})
			if p.stable.AvailableReplicas >= p.r {
				p.addDeadline(p.newRS, *delay, why{role: whyNew, abortHold: true})
			}
			return false
		}
	}
	return p.scale(p.newRS, n, w)
}

// newWhy records the facts behind the new ReplicaSet's count n.
func (p *planner[T]) newWhy(n int32, weights *Weights) why {
	w := why{role: whyNew, target: n}
	if p.ro.Strategy.BlueGreen != nil {
		w.blueGreen = true
		return w
	}
	rep, weight := CanaryReplicasOrWeight(p.ro, p.newRS, p.stable)
	w.weight, w.maxWeight = weight, MaxTrafficWeight(p.ro)
	if rep != nil {
		w.explicit, w.weight = true, *rep
	}
	w.traffic = p.ro.Strategy.Canary.TrafficRouting != nil
	if !w.traffic {
		w.splitNew, w.splitStable = SplitForWeight(p.r, weight, w.maxWeight, MaxSurge(p.ro))
		w.surge, w.unavailable = MaxSurge(p.ro), MaxUnavailable(p.ro)
	}
	w.replicas = p.r
	return w
}

// stableWhy records the facts behind the stable ReplicaSet's count n.
func (p *planner[T]) stableWhy(n int32) why {
	w := p.newWhy(n, p.ro.Status.Canary.Weights)
	w.role, w.target = whyStable, n
	if c := p.ro.Strategy.Canary; c != nil && c.TrafficRouting != nil {
		w.dynamic = c.DynamicStableScale
		if rw := p.ro.Status.Canary.Weights; rw != nil {
			w.recorded, w.recordedStable = true, rw.Stable.Weight
		}
	}
	return w
}

// ----- canary -----

// canary is rolloutCanary.
func (p *planner[T]) canary() {
	if p.templateOrStepsChanged() {
		p.sum.kind = sumReset
		p.syncStatusCanary()
		return
	}
	p.reconcileRevisionHistoryLimit()
	p.reconcileTrafficRouting()
	if p.reconcileCanaryReplicaSets() {
		p.syncStatusCanary()
		return
	}
	p.reconcileCanaryPause()
	p.syncStatusCanary()
}

// templateOrStepsChanged is PodTemplateOrStepsChanged: no step hash
// recorded yet, a different one, or a different current pod hash.
func (p *planner[T]) templateOrStepsChanged() bool {
	s := &p.ro.Status
	if s.CurrentStepHash == "" || s.CurrentStepHash != p.stepsHash() {
		return true
	}
	return p.podSpecChanged()
}

// podSpecChanged is CheckPodSpecChange.
func (p *planner[T]) podSpecChanged() bool {
	s := &p.ro.Status
	return s.CurrentPodHash != "" && s.CurrentPodHash != p.newRS.PodTemplateHash
}

// reconcileRevisionHistoryLimit deletes the oldest ReplicaSets beyond
// revisionHistoryLimit among others, if they have no pods.
func (p *planner[T]) reconcileRevisionHistoryLimit() {
	limit := RevisionHistoryLimitOrDefault(p.ro)
	diff := int64(len(p.others)) - int64(limit)
	if diff <= 0 {
		return
	}
	p.scratch = append(p.scratch[:0], p.others...)
	byCreation(p.scratch)
	for _, rs := range p.scratch[:diff] {
		if rs.StatusReplicas != 0 || rs.Replicas != 0 {
			continue
		}
		i := p.index(rs)
		p.deleted[i] = true
		p.add(Action{Kind: DeleteReplicaSet, ReplicaSet: rs.Name, Hash: rs.PodTemplateHash, Revision: rs.Revision}, why{limit: limit})
	}
}

// reconcileTrafficRouting computes the weight sent to the router and
// records it in the new status. Upstream: reconcileTrafficRouting,
// rollout/trafficrouting.go.
func (p *planner[T]) reconcileTrafficRouting() {
	ro := p.ro
	c := ro.Strategy.Canary
	p.status.Canary.Weights = ro.Status.Canary.Weights
	if c.TrafficRouting == nil {
		p.status.Canary.Weights = nil
		return
	}
	m := MaxTrafficWeight(ro)
	step, index := CurrentCanaryStep(ro)
	hasIndex := len(c.Steps) > 0
	var desired int32
	var canaryHash, stableHash string
	if p.stable != nil {
		stableHash = p.stable.PodTemplateHash
	}
	canaryHash = p.newRS.PodTemplateHash
	src := weightSteps
	switch {
	case p.rollingBackToStable():
		desired = p.weightOnAbortOrRollback()
		canaryHash = ro.Status.Canary.Weights.Canary.PodTemplateHash
		src = weightRollback
	case ro.Status.StableRS == ro.Status.CurrentPodHash:
		src = weightPromoted
	case p.aborted():
		desired = p.weightOnAbortOrRollback()
		src = weightAbort
	case p.newRS.AvailableReplicas == 0:
		src = weightNoCanary
	case ro.Status.PromoteFull:
		src = weightPromoteFull
		if c.DynamicStableScale {
			desired = int32(int64(m) * int64(p.newRS.AvailableReplicas) / int64(p.r))
		} else if ro.Status.Canary.Weights != nil {
			desired = ro.Status.Canary.Weights.Canary.Weight
		}
	case hasIndex:
		if !AtDesiredReplicaCountsForCanary(ro, p.newRS, p.stable, p.others, nil) {
			src = weightPrevious
			for i := index - 1; i >= 0; i-- {
				if int(i) < len(c.Steps) && c.Steps[i].SetWeight != nil {
					desired = *c.Steps[i].SetWeight
					break
				}
			}
		} else if int(index) != len(c.Steps) {
			desired = CurrentSetWeight(ro)
		} else {
			desired = m
		}
	default:
		src = weightNoSteps
	}
	_ = step
	if !p.replicasAvailable(p.stable, m-desired) {
		p.sum.trafficHeld = true
		return
	}
	w := Weights{
		Canary: WeightDestination{Weight: desired, PodTemplateHash: canaryHash, ServiceName: c.CanaryService},
		Stable: WeightDestination{Weight: m - desired, PodTemplateHash: stableHash, ServiceName: c.StableService},
	}
	prev := ro.Status.Canary.Weights
	p.weightsBuf = w
	if prev != nil && prev.Canary == w.Canary && prev.Stable == w.Stable && len(prev.Additional) == 0 {
		// Unchanged: upstream keeps the recorded weights object and sets
		// its verified (the router's answer, nil here) in place, on the
		// object the old status shares, so the status written keeps the
		// recorded value while this sync reads nil.
		p.weightsBuf = *prev
		p.weightsBuf.Verified = nil
		p.weightsKept = true
	}
	p.status.Canary.Weights = &p.weightsBuf
	if prev == nil || prev.Canary.Weight != desired {
		from := int32(0)
		if prev != nil {
			from = prev.Canary.Weight
		}
		p.add(Action{Kind: SetTrafficWeight, Hash: canaryHash, From: from, Weight: desired}, why{source: src, weight: desired, maxWeight: m})
	}
}

// rollingBackToStable is IsDynamicallyRollingBackToStable.
func (p *planner[T]) rollingBackToStable() bool {
	ro := p.ro
	c := ro.Strategy.Canary
	if ro.Status.StableRS != ro.Status.CurrentPodHash || c == nil || c.TrafficRouting == nil || !c.DynamicStableScale {
		return false
	}
	if ro.Status.Canary.Weights == nil || ro.Status.Canary.Weights.Canary.PodTemplateHash == p.newRS.PodTemplateHash {
		return false
	}
	return p.newRS.AvailableReplicas < p.r
}

// weightOnAbortOrRollback is WeightOnAbortOrRollback for this sync.
func (p *planner[T]) weightOnAbortOrRollback() int32 {
	return WeightOnAbortOrRollback(p.ro, p.newRS, p.stable)
}

// WeightOnAbortOrRollback returns the traffic weight a traffic-routed
// canary sends to the canary while it is aborted, or rolling back to
// the stable ReplicaSet: 0 without dynamicStableScale (or without both
// ReplicaSets, or with 0 replicas). With it, traffic steps down as the
// stable's pods become available: with d = DesiredCanaryWeight, e = max
// − floor(max × stable available / replicas) and c the weight recorded
// in status.canary.weights, the answer is max(e, d) when nothing is
// recorded, min(e, c) when d is 0, c (held) while the stable's share of
// available pods is below max − d, else min(d, c).
// Upstream: calculateDesiredWeightOnAbortOrStableRollback, rollout/trafficrouting.go.
func WeightOnAbortOrRollback[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T]) int32 {
	c := ro.Strategy.Canary
	if c == nil || !c.DynamicStableScale || stableRS == nil || newRS == nil || ro.Replicas == nil || *ro.Replicas <= 0 {
		return 0
	}
	r := int64(*ro.Replicas)
	m := int64(MaxTrafficWeight(ro))
	d := int64(DesiredCanaryWeight(ro, newRS, stableRS))
	stableW := m * int64(stableRS.AvailableReplicas) / r
	expected := max(0, m-stableW)
	if ro.Status.Canary.Weights == nil {
		return clamp32(max(expected, d))
	}
	cur := int64(ro.Status.Canary.Weights.Canary.Weight)
	if d <= 0 {
		return clamp32(min(expected, cur))
	}
	if stableW < m-d {
		return clamp32(cur)
	}
	return clamp32(min(d, cur))
}

// replicasAvailable is checkReplicasAvailable: rs has the pods for
// weight, or meets the progress threshold.
func (p *planner[T]) replicasAvailable(rs *ReplicaSet[T], weight int32) bool {
	if rs == nil {
		return false
	}
	desired := clamp32(int64(weight) * int64(p.r) / int64(MaxTrafficWeight(p.ro)))
	return rs.AvailableReplicas >= desired || ReplicaProgressThresholdMet(p.ro.Strategy.Canary.ReplicaProgressThreshold, rs, desired)
}

// reconcileCanaryReplicaSets scales stable, else new, else the others;
// reports whether it scaled.
func (p *planner[T]) reconcileCanaryReplicaSets() bool {
	if h := p.haltProgress(); h != "" && !(p.out.ScalingEvent && p.opts.PausedScales && h == "user paused") {
		p.out.Halted = h
		return false
	}
	p.removeScaleDownDeadlines()
	if stableExists(p.newRS, p.stable) {
		var n int32
		if p.ro.Strategy.Canary.TrafficRouting == nil {
			_, n = BasicCanaryCounts(p.ro, p.newRS, p.stable, p.others)
		} else {
			_, n = TrafficRoutedCanaryCounts(p.ro, p.newRS, p.stable, p.ro.Status.Canary.Weights)
		}
		if p.scale(p.stable, n, p.stableWhy(n)) {
			return true
		}
	}
	if p.reconcileNewReplicaSet(p.status.Canary.Weights) {
		return true
	}
	return p.reconcileOthers()
}

// reconcileOthers is reconcileOtherReplicaSets.
func (p *planner[T]) reconcileOthers() bool {
	active := p.scratch[:0]
	var pods int64
	for _, rs := range p.others {
		if rs.Replicas > 0 {
			active = append(active, rs)
			pods += int64(rs.Replicas)
		}
	}
	p.scratch = active
	if pods == 0 {
		return false
	}
	if p.ro.Strategy.Canary != nil {
		return p.scaleDownOldCanary(active) > 0
	}
	return p.scaleDownOldBlueGreen(active)
}

// cleanupUnhealthy scales every old ReplicaSet with pods that are not
// available down to its available pods, oldest first. ok is false when
// it meets a ReplicaSet with more available pods than its spec (pods of
// an earlier scale-down still terminating): upstream stops the whole
// pass there.
func (p *planner[T]) cleanupUnhealthy(old []*ReplicaSet[T]) (down int64, ok bool) {
	byCreation(old)
	for _, rs := range old {
		if rs.Replicas == 0 || rs.Replicas == rs.AvailableReplicas {
			continue
		}
		if rs.AvailableReplicas > rs.Replicas {
			return down, false
		}
		down += int64(rs.Replicas - rs.AvailableReplicas)
		p.scale(rs, rs.AvailableReplicas, why{role: whyOld, unhealthy: true})
		rs.Replicas = rs.AvailableReplicas
		if r := p.r; rs.DesiredReplicas == nil || *rs.DesiredReplicas != r {
			rs.DesiredReplicas = p.out.ReplicaSets[p.index(rs)].DesiredReplicas
		}
	}
	return down, true
}

// scaleDownOldCanary is scaleDownOldReplicaSetsForCanary; it returns the
// pods scaled down.
func (p *planner[T]) scaleDownOldCanary(old []*ReplicaSet[T]) int64 {
	down, ok := p.cleanupUnhealthy(old)
	if !ok {
		return down
	}
	minAvail := int64(p.r) - int64(MaxUnavailable(p.ro))
	budget := int64(sumAvailable(p.all)) - minAvail
	if budget <= 0 {
		return down
	}
	newestFirst(old)
	c := p.ro.Strategy.Canary
	counted := int32(0)
	for _, rs := range old {
		if c.TrafficRouting != nil && p.referenced(rs) {
			continue
		}
		if budget <= 0 {
			break
		}
		if rs.Replicas == 0 {
			continue
		}
		var desired int32
		w := why{role: whyOld, budget: clamp32(budget)}
		if c.TrafficRouting == nil {
			if int64(rs.Replicas) > budget {
				desired = rs.Replicas - int32(budget)
			}
		} else if p.ro.Status.StableRS == p.ro.Status.CurrentPodHash || rs.ScaleDownDeadline != "" {
			if c.DynamicStableScale {
				w.dynamic = true
			} else {
				counted, desired = p.scaleDownDelay(rs, counted, rs.Replicas, &w)
			}
		} else {
			w.intermediate = true
		}
		if rs.Replicas == desired {
			continue
		}
		p.scale(rs, desired, w)
		d := int64(rs.Replicas - desired)
		budget -= d
		down += d
	}
	return down
}

// referenced is isReplicaSetReferenced, for the references recorded in
// the status (stableRS, currentPodHash, the blue-green selectors, the
// weights' hashes); Services and Istio DestinationRules are not read.
func (p *planner[T]) referenced(rs *ReplicaSet[T]) bool {
	h := rs.PodTemplateHash
	if h == "" {
		return false
	}
	s := &p.ro.Status
	if h == s.StableRS || h == s.CurrentPodHash || h == s.BlueGreen.ActiveSelector || h == s.BlueGreen.PreviewSelector {
		return true
	}
	if w := s.Canary.Weights; w != nil && (h == w.Canary.PodTemplateHash || h == w.Stable.PodTemplateHash) {
		return true
	}
	return false
}

// scaleDownDelay is scaleDownDelayHelper: the first limit old
// ReplicaSets wait for their deadline (written now if missing) at keep
// pods; the rest, and those whose deadline passed, go to 0.
func (p *planner[T]) scaleDownDelay(rs *ReplicaSet[T], counted, keep int32, w *why) (int32, int32) {
	limit := ScaleDownRevisionLimit(p.ro)
	delay := ScaleDownDelayOrDefault(p.ro)
	w.limit = limit
	if rs.ScaleDownDeadline == "" && rs.Replicas > 0 {
		if counted < limit {
			counted++
			if delay <= 0 && p.opts.ZeroDelayScalesDown {
				w.zeroDelay = true
				return counted, 0
			}
			p.addDeadline(rs, delay, why{role: whyOld, delay: delay})
			if delay > 0 {
				p.requeueAfter(delay)
			} else {
				w.zeroDelay = true
			}
			return counted, rs.Replicas
		}
		w.overLimit = true
		return counted, 0
	}
	if rs.ScaleDownDeadline != "" {
		counted++
		if counted > limit {
			w.overLimit = true
			return counted, 0
		}
		t, err := time.Parse(time.RFC3339, rs.ScaleDownDeadline)
		if err != nil {
			w.badDeadline = true
			return counted, 0
		}
		if t.After(p.now) {
			left := t.Sub(p.now)
			if left < p.opts.resync() {
				p.requeueAfter(left)
			}
			w.waiting, w.deadline = true, rs.ScaleDownDeadline
			return counted, keep
		}
		w.expired = true
		return counted, 0
	}
	return counted, 0
}

// reconcileCanaryPause adds the pause condition of a pause step on its
// first visit and requeues for its end; it reports whether the step is
// a pause.
func (p *planner[T]) reconcileCanaryPause() {
	ro := p.ro
	if ro.Paused || ro.Status.PromoteFull {
		return
	}
	step, _ := CurrentCanaryStep(ro)
	if step == nil || step.Pause == nil {
		return
	}
	start, ok := pauseStart(ro.Status.PauseConditions, PauseCanaryStep)
	if !ok {
		if !ro.Status.ControllerPause {
			p.pause.add = append(p.pause.add, PauseCanaryStep)
		}
		return
	}
	if step.Pause.Duration == nil {
		return
	}
	end := start.Add(time.Duration(DurationSeconds(*step.Pause)) * time.Second)
	if next := p.now.Add(p.opts.resync()); next.After(end) && end.After(p.now) {
		p.requeueAfter(end.Sub(p.now))
	}
}

// stepComplete is completedCurrentCanaryStep, with the weights of this
// sync.
func (p *planner[T]) stepComplete() bool {
	return StepComplete(p.ro, p.newRS, p.stable, p.others, p.status.Canary.Weights, p.now)
}

// StepComplete reports whether the current canary step is done at now,
// so that the sync moves currentStepIndex on: never while spec.paused or
// past the last step; a pause step by PauseStepComplete; a
// setCanaryScale step when AtDesiredReplicaCountsForCanary; a setWeight
// step when AtDesiredReplicaCountsForCanary and the router has not
// reported the weight unverified; setHeaderRoute and setMirrorRoute at
// once. Experiment, analysis and plugin steps complete when their run
// succeeds, which is not modelled: StepComplete reports false for them.
// weights are the traffic weights recorded in this sync (nil for a basic
// canary); others are the ReplicaSets that are neither new nor stable.
// Upstream: completedCurrentCanaryStep, rollout/canary.go.
func StepComplete[T any](ro *Rollout[T], newRS, stableRS *ReplicaSet[T], others []*ReplicaSet[T], weights *Weights, now time.Time) bool {
	if ro.Paused || ro.Strategy.Canary == nil {
		return false
	}
	step, _ := CurrentCanaryStep(ro)
	if step == nil {
		return false
	}
	switch {
	case step.Pause != nil:
		return PauseStepComplete(ro, *step.Pause, now)
	case step.SetCanaryScale != nil:
		return AtDesiredReplicaCountsForCanary(ro, newRS, stableRS, others, weights)
	case step.SetWeight != nil:
		if !AtDesiredReplicaCountsForCanary(ro, newRS, stableRS, others, weights) {
			return false
		}
		return weights == nil || weights.Verified == nil || *weights.Verified
	case step.SetHeaderRoute != nil, step.SetMirrorRoute != nil:
		return true
	}
	return false
}

// PauseStepComplete reports whether a canary pause step is done at now:
// the rollout was resumed (controllerPause set and no CanaryPauseStep
// condition), or the step has a duration and now is past the
// condition's start plus DurationSeconds.
// Upstream: CompletedCanaryPauseStep, rollout/pause.go.
func PauseStepComplete[T any](ro *Rollout[T], pause RolloutPause, now time.Time) bool {
	start, ok := pauseStart(ro.Status.PauseConditions, PauseCanaryStep)
	if ro.Status.ControllerPause && !ok {
		return true
	}
	if pause.Duration != nil && ok {
		return now.After(start.Add(time.Duration(DurationSeconds(pause)) * time.Second))
	}
	return false
}

// baseStatus is calculateBaseStatus.
func (p *planner[T]) baseStatus() {
	s := &p.status
	prev := &p.ro.Status
	s.CurrentPodHash = p.newRS.PodTemplateHash
	s.Replicas = sumActual(p.all)
	s.UpdatedReplicas = p.newRS.StatusReplicas
	s.ReadyReplicas = sumReady(p.all)
	s.CollisionCount = prev.CollisionCount
	// Upstream compares with the new status's stableRS, which is still
	// "" here (it is copied from the old status only afterwards), so
	// promoteFull is kept whenever a ReplicaSet is current.
	s.PromoteFull = s.CurrentPodHash != "" && prev.PromoteFull
	s.StableRS = prev.StableRS
}

// resetStatus is resetRolloutStatus.
func (p *planner[T]) resetStatus() {
	p.pause.clear, p.pause.removeAbort = true, true
	p.status.PromoteFull = false
	p.status.BlueGreen.ScaleUpPreviewCheckPoint = false
	if c := p.ro.Strategy.Canary; c != nil && len(c.Steps) > 0 {
		p.status.CurrentStepIndex = new(int32)
	} else {
		p.status.CurrentStepIndex = nil
	}
}

// rollbackWithinWindow is isRollbackWithinWindow.
func (p *planner[T]) rollbackWithinWindow() bool {
	if p.newRS == nil || p.stable == nil || !p.newRS.CreationTime.Before(p.stable.CreationTime) {
		return false
	}
	w := p.ro.RollbackWindow
	if w == nil || w.Revisions <= 0 {
		return false
	}
	var n int32
	for _, rs := range p.all {
		if rs.CreationTime.Before(p.stable.CreationTime) && p.newRS.CreationTime.Before(rs.CreationTime) {
			n++
		}
	}
	return n < w.Revisions
}

// fastRollback is isFastRollback.
func (p *planner[T]) fastRollback() bool {
	if p.newRS == nil || p.stable == nil {
		return false
	}
	toStable := p.ro.Status.StableRS == p.newRS.PodTemplateHash
	if !toStable && !p.newRS.CreationTime.Before(p.stable.CreationTime) {
		return false
	}
	withinDelay := false
	if p.ro.Strategy.BlueGreen != nil {
		if t, has, ok := deadline(p.inputOf(p.newRS)); has && ok && t.After(p.now) {
			withinDelay = true
		}
	}
	return p.rollbackWithinWindow() || withinDelay || toStable
}

// inputOf returns the ReplicaSet as it was before any in-memory change
// of this sync (upstream reads the new ReplicaSet's deadline when the
// sync starts, before removing it).
func (p *planner[T]) inputOf(rs *ReplicaSet[T]) *ReplicaSet[T] {
	return &p.origin[p.index(rs)]
}

// shouldFullPromote returns why the new ReplicaSet becomes stable now,
// or "".
func (p *planner[T]) shouldFullPromote() string {
	ro := p.ro
	if p.stable == nil {
		return "Initial deploy"
	}
	if c := ro.Strategy.Canary; c != nil {
		if p.aborted() {
			return ""
		}
		if p.newRS == nil || (p.newRS.AvailableReplicas < p.r && !ReplicaProgressThresholdMet(c.ReplicaProgressThreshold, p.newRS, p.r)) {
			return ""
		}
		if ro.Status.PromoteFull {
			return "Full promotion requested"
		}
		if p.fastRollback() {
			if p.rollbackWithinWindow() {
				return "Rollback within window"
			}
			return "Fast rollback"
		}
		_, i := CurrentCanaryStep(ro)
		if len(c.Steps) == 0 || (ro.Status.CurrentStepIndex != nil && int(i) == len(c.Steps)) {
			return "Completed all " + strconv.Itoa(len(c.Steps)) + " canary steps"
		}
		return ""
	}
	s := &p.status
	if s.BlueGreen.ActiveSelector == "" {
		return "Initial deploy"
	}
	if s.BlueGreen.ActiveSelector != s.CurrentPodHash {
		return ""
	}
	if ro.Status.PromoteFull {
		return "Full promotion requested"
	}
	if p.fastRollback() {
		if p.rollbackWithinWindow() {
			return "Rollback within window"
		}
		return "Fast rollback"
	}
	if p.aborted() {
		return ""
	}
	return "Completed blue-green update"
}

// promoteStable makes the new ReplicaSet the stable one.
func (p *planner[T]) promoteStable(reason string) {
	p.pause.clear, p.pause.removeAbort = true, true
	p.status.PromoteFull = false
	p.status.BlueGreen.ScaleUpPreviewCheckPoint = false
	if c := p.ro.Strategy.Canary; c != nil {
		if n := int32(len(c.Steps)); n > 0 {
			p.status.CurrentStepIndex = &p.stepCount
		} else {
			p.status.CurrentStepIndex = nil
		}
	}
	if p.status.StableRS != p.status.CurrentPodHash {
		p.status.StableRS = p.status.CurrentPodHash
		p.sum.promoted = reason
	}
}

// syncStatusCanary is syncRolloutStatusCanary.
func (p *planner[T]) syncStatusCanary() {
	ro := p.ro
	c := ro.Strategy.Canary
	p.baseStatus()
	s := &p.status
	s.AvailableReplicas = sumAvailable(p.all)
	s.HPAReplicas = sumActual(p.all)
	s.CurrentStepHash = p.stepsHash()
	p.stepCount = int32(len(c.Steps))
	if p.templateOrStepsChanged() {
		p.resetStatus()
		if p.stepCount > 0 {
			if ro.Status.StableRS == p.newRS.PodTemplateHash {
				s.CurrentStepIndex = &p.stepCount
			} else if p.rollbackWithinWindow() && p.newRS.Replicas > 0 {
				s.CurrentStepIndex = &p.stepCount
			}
		}
		p.writeStatus()
		return
	}
	_, idx := CurrentCanaryStep(ro)
	p.stepIndex = idx
	index := &p.stepIndex
	hasIndex := len(c.Steps) > 0
	if ro.Status.PromoteFull || p.rollbackWithinWindow() {
		p.pause.clear, p.pause.removeAbort = true, true
		if p.stepCount > 0 {
			index = &p.stepCount
			hasIndex = true
		}
	}
	if reason := p.shouldFullPromote(); reason != "" {
		p.promoteStable(reason)
		p.writeStatus()
		return
	}
	if p.aborted() {
		if p.stepCount > 0 {
			if s.StableRS == s.CurrentPodHash {
				s.CurrentStepIndex = &p.stepCount
			} else {
				s.CurrentStepIndex = new(int32)
			}
		}
		p.writeStatus()
		return
	}
	if p.stepComplete() {
		p.stepIndex = *index + 1
		index = &p.stepIndex
		p.pause.remove = append(p.pause.remove, PauseCanaryStep)
		p.sum.stepDone = true
	}
	if hasIndex {
		v := *index
		p.stepIndex = v
		s.CurrentStepIndex = &p.stepIndex
	}
	p.writeStatus()
}

// ScaleDownOldReplicaSets returns what one sync writes to the Rollout's
// older ReplicaSets (neither new nor stable) when it gets to them: a
// canary's cleanup of unavailable pods, then scale-down within the
// availability budget, newest revision first (a traffic-routed canary
// keeps an old stable for scaleDownDelaySeconds instead, and skips
// ReplicaSets the status still references); a blue-green rollout's
// scale-down delay, written as a deadline, within
// scaleDownDelayRevisionLimit. The Actions are ScaleReplicaSet,
// AnnotateDesiredReplicas, AddScaleDownDeadline and
// RemoveScaleDownDeadline, with reasons; requeue is when the controller
// looks again for a deadline (0 if none). A sync reaches this pass only
// when neither stable nor new moved (canary); Plan gives the whole sync.
// Errors are Plan's; without a ReplicaSet for the current template there
// is no older one and the result is empty.
// Upstream: scaleDownOldReplicaSetsForCanary (rollout/canary.go),
// scaleDownOldReplicaSetsForBlueGreen (rollout/bluegreen.go) and
// scaleDownDelayHelper (rollout/replicaset.go).
func ScaleDownOldReplicaSets[T any](ro *Rollout[T], replicaSets []ReplicaSet[T], now time.Time, opts Options) (actions []Action, requeue time.Duration, err error) {
	if err := checkInput(ro, replicaSets); err != nil {
		return nil, 0, err
	}
	var p planner[T]
	p.reset(opts, ro, replicaSets, now)
	hash, err := p.templateHash()
	if err != nil {
		return nil, 0, prefixed(ro.Name, err)
	}
	if p.newRS = p.findNew(hash); p.newRS == nil {
		return nil, 0, nil
	}
	p.stable = StableReplicaSet(ro, p.newRS, p.all)
	p.others = OtherReplicaSets(p.others[:0], p.newRS, p.stable, p.all)
	p.reconcileOthers()
	p.explain()
	if p.out.Requeue {
		requeue = p.out.RequeueAfter
	}
	return p.out.Actions, requeue, nil
}
