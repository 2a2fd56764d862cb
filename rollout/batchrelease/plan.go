package batchrelease

import (
	"math"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// DefaultRequeue is how long the executor waits before looking at a
// BatchRelease again after a step. Upstream: DefaultDuration,
// pkg/controller/batchrelease/batchrelease_executor.go.
const DefaultRequeue = 2 * time.Second

// ActionKind is the kind of one write of a BatchRelease reconcile, named
// for what is acted on.
type ActionKind uint8

const (
	// WriteStatus writes the BatchRelease's status.
	WriteStatus ActionKind = iota + 1
	// TakeControl is Initialize's patch of the workload: the control
	// annotation and, per style and kind, partition "100%" and paused
	// false (CloneSet), partition 32767 (StatefulSet), the strategy
	// annotation with partition 0 and the Deployment paused (Deployment),
	// maxSurge 1 and maxUnavailable 0 (BlueGreen).
	TakeControl
	// WritePartition writes the workload's partition (CloneSet,
	// StatefulSet: spec.updateStrategy...partition; Deployment: the
	// strategy annotation's partition).
	WritePartition
	// WriteMaxSurge writes the workload's maxSurge (BlueGreen).
	WriteMaxSurge
	// ScaleCanaryDeployment creates the canary Deployment (Replicas 0,
	// Initialize) or raises its replicas (Canary style).
	ScaleCanaryDeployment
	// LabelPods labels Count pods at the update revision with the
	// rollout-id and batch-id labels.
	LabelPods
	// LabelNoNeedUpdatePods labels Count pods at the update revision
	// with rollouts.kruise.io/no-need-update (rollback in batches).
	LabelNoNeedUpdatePods
	// ReleaseControl is Finalize's patch: the control annotation removed
	// and, when the plan has no batch partition, the workload handed back
	// (partition null, paused false; a Deployment resumed).
	ReleaseControl
)

var actionKindNames = [...]string{"", "WriteStatus", "TakeControl", "WritePartition", "WriteMaxSurge",
	"ScaleCanaryDeployment", "LabelPods", "LabelNoNeedUpdatePods", "ReleaseControl"}

// String returns the kind's name.
func (k ActionKind) String() string { return enumString(uint8(k), actionKindNames[:], "ActionKind") }

// MarshalText returns the kind's name, "" for the zero value.
func (k ActionKind) MarshalText() ([]byte, error) {
	return marshalEnum(uint8(k), actionKindNames[:], "ActionKind")
}

// UnmarshalText sets k to the kind named text; "" is the zero value.
func (k *ActionKind) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, actionKindNames[:], "ActionKind")
	if err == nil {
		*k = ActionKind(n)
	}
	return err
}

// Action is one write of a reconcile, in the controller's order.
type Action struct {
	// Kind is what the write acts on.
	Kind ActionKind `json:"kind"`
	// Partition is the partition written (WritePartition, TakeControl);
	// nil with ClearPartition set writes null.
	Partition      *intorpercent.IntOrString `json:"partition,omitempty"`
	ClearPartition bool                      `json:"clearPartition,omitempty"`
	// MaxSurge and MaxUnavailable are the fenceposts written.
	MaxSurge       *intorpercent.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	// Replicas is the canary Deployment's spec.replicas written.
	Replicas int32 `json:"replicas,omitempty"`
	// Count is how many pods a LabelPods or LabelNoNeedUpdatePods labels.
	Count int32 `json:"count,omitempty"`
	// Reason says why, for a person. Planner.Plan leaves it "" until
	// Planner.Explain writes it.
	Reason string `json:"reason"`

	why actionWhy
}

// Sync is one reconcile of kruise-rollout's BatchRelease controller over
// its workload: Plan's result.
type Sync struct {
	// Actions are the writes, in the controller's order: the workload
	// patches, the pod labels, then the status.
	Actions []Action `json:"actions,omitempty"`
	// Release is the BatchRelease as the reconcile leaves it (its status
	// as written).
	Release Release `json:"release"`
	// Workload is the workload as the reconcile's patches leave it.
	Workload Workload `json:"workload"`
	// Context is the batch context the reconcile computed; HasContext
	// says whether it computed one (only while progressing).
	Context    BatchContext `json:"context"`
	HasContext bool         `json:"hasContext,omitempty"`
	// Readiness is IsBatchReady's answer when the reconcile checked the
	// batch (Verifying, Ready), 0 otherwise; Ready says the batch is
	// ready after the reconcile (BatchState Ready).
	Readiness Readiness `json:"readiness,omitempty"`
	Ready     bool      `json:"ready,omitempty"`
	// Requeue says the controller looks again after RequeueAfter
	// without an event.
	Requeue      bool          `json:"requeue,omitempty"`
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Reason summarises the reconcile in one line. Planner.Plan leaves it
	// "" until Planner.Explain writes it.
	Reason string `json:"reason"`

	why syncWhy
}

// Plan computes one reconcile of kruise-rollout's BatchRelease
// controller (openkruise/rollouts v0.6.3) over release and its workload
// at time now: the special cases checked before executing (plan
// finalizing, batch beyond the plan, workload scaling, revision changed,
// still reconciling, rollback in batches), the status refresh, and then
// the phase's step: Initialize (Preparing), the batch state machine
// Upgrading → Verifying → Ready → next batch (Progressing), Finalize
// (Finalizing). Plan never modifies its inputs; bad input (a nil
// argument, negative counts, an empty plan) is a *field.Error.
//
// Not modelled: a changed release plan (upstream compares a hash of the
// whole plan; change Status.CurrentBatch as signalRecalculate does), the
// workload gone, the HPA and minReadySeconds writes of the blue-green
// style and its wait in Finalize. Upstream: Executor.Do,
// syncStatusBeforeExecuting, executeBatchReleasePlan, progressBatches,
// pkg/controller/batchrelease/{batchrelease_executor.go,batchrelease_status.go}.
func Plan(release *Release, workload *Workload, now time.Time) (Sync, error) {
	return PlanWith(release, workload, now, Options{})
}

// PlanWith is Plan with named deviations from upstream.
func PlanWith(release *Release, workload *Workload, now time.Time, opts Options) (Sync, error) {
	var p Planner
	p.Options = opts
	s, err := p.Plan(release, workload, now)
	if err != nil {
		return Sync{}, err
	}
	p.Explain(&s)
	// Detach from the planner's storage.
	out := s
	out.Actions = append([]Action(nil), s.Actions...)
	for i := range out.Actions {
		out.Actions[i].Partition = clonePtrIOS(out.Actions[i].Partition)
		out.Actions[i].MaxSurge = clonePtrIOS(out.Actions[i].MaxSurge)
		out.Actions[i].MaxUnavailable = clonePtrIOS(out.Actions[i].MaxUnavailable)
	}
	out.Release.Status.NoNeedUpdateReplicas = clonePtr(s.Release.Status.NoNeedUpdateReplicas)
	out.Workload.Partition = clonePtrIOS(s.Workload.Partition)
	out.Workload.MaxSurge = clonePtrIOS(s.Workload.MaxSurge)
	out.Workload.MaxUnavailable = clonePtrIOS(s.Workload.MaxUnavailable)
	out.Workload.Status.Pods = clonePods(s.Workload.Status.Pods)
	if s.Workload.Canary != nil {
		c := *s.Workload.Canary
		c.Pods = clonePods(c.Pods)
		out.Workload.Canary = &c
	}
	out.Context.Pods = clonePods(s.Context.Pods)
	out.Context.NoNeedUpdatedReplicas = clonePtr(s.Context.NoNeedUpdatedReplicas)
	return out, nil
}

func clonePtrIOS(p *intorpercent.IntOrString) *intorpercent.IntOrString {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func clonePods(p *PodCounts) *PodCounts {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Planner plans reconciles reusing its memory: the zero value is ready,
// and after the first few reconciles Planner.Plan does not allocate. A
// Sync it returns shares storage with the Planner and is valid until the
// next call; Plan and PlanWith return detached ones. Reasons are left
// empty until Explain. A Planner is not safe for concurrent use.
type Planner struct {
	// Options are the deviations every Plan of this Planner applies.
	Options Options

	actions []Action
	ios     [8]intorpercent.IntOrString
	nios    int
	n32     [2]int32
	pods    [3]PodCounts
	canary  CanaryDeployment
}

// newIOS returns planner-owned storage holding v.
func (p *Planner) newIOS(v intorpercent.IntOrString) *intorpercent.IntOrString {
	if p.nios == len(p.ios) {
		x := v
		return &x
	}
	p.ios[p.nios] = v
	p.nios++
	return &p.ios[p.nios-1]
}

// Plan is the package's Plan on the planner's memory, without reasons.
func (p *Planner) Plan(release *Release, workload *Workload, now time.Time) (Sync, error) {
	if err := checkPlanInput(release, workload); err != nil {
		return Sync{}, err
	}
	p.actions = p.actions[:0]
	p.nios = 0
	r := &reconcile{p: p, now: now, opts: p.Options}
	r.rel = *release
	r.w = *workload
	// The status and workload are copied; pointers the reconcile writes
	// through are re-pointed at planner storage.
	if n := release.Status.NoNeedUpdateReplicas; n != nil {
		p.n32[0] = *n
		r.rel.Status.NoNeedUpdateReplicas = &p.n32[0]
	}
	if workload.Status.Pods != nil {
		p.pods[0] = *workload.Status.Pods
		r.w.Status.Pods = &p.pods[0]
	}
	if workload.Canary != nil {
		p.canary = *workload.Canary
		if workload.Canary.Pods != nil {
			p.pods[1] = *workload.Canary.Pods
			p.canary.Pods = &p.pods[1]
		}
		r.w.Canary = &p.canary
	}
	r.run()
	s := Sync{
		Actions:      p.actions,
		Release:      r.rel,
		Workload:     r.w,
		Context:      r.ctx,
		HasContext:   r.hasCtx,
		Readiness:    r.readiness,
		Ready:        r.rel.Status.BatchState == Ready,
		Requeue:      r.requeue,
		RequeueAfter: r.requeueAfter,
		why:          r.why,
	}
	return s, nil
}

// reconcile is one Plan in progress.
type reconcile struct {
	p    *Planner
	now  time.Time
	opts Options
	rel  Release
	w    Workload

	ctx          BatchContext
	hasCtx       bool
	readiness    Readiness
	requeue      bool
	requeueAfter time.Duration
	why          syncWhy
}

func (r *reconcile) act(a Action) { r.p.actions = append(r.p.actions, a) }

func (r *reconcile) style() RollingStyle { return effectiveStyle(&r.rel, &r.w) }

// run is Executor.Do.
func (r *reconcile) run() {
	st := &r.rel.Status
	before := r.rel.Status
	if st.Phase == 0 {
		resetStatus(st)
		r.why.reset = true
	}
	if r.syncStatusBeforeExecuting(before) {
		r.why.stopped = true
		r.writeStatus(before)
		return
	}
	switch st.Phase {
	case Preparing:
		r.initialize()
	case Progressing:
		r.progressBatches()
	case Finalizing:
		r.finalize()
	case Completed:
	default:
		st.Phase = Preparing
		r.initialize()
	}
	r.writeStatus(before)
}

func resetStatus(st *ReleaseStatus) {
	*st = ReleaseStatus{Phase: Preparing, ObservedGeneration: st.ObservedGeneration, ObservedRolloutID: st.ObservedRolloutID, ObservedWorkloadReplicas: -1}
}

// writeStatus appends the status write when the status changed.
func (r *reconcile) writeStatus(before ReleaseStatus) {
	if !statusEqual(&before, &r.rel.Status) {
		r.act(Action{Kind: WriteStatus, why: actionWhy{batch: r.rel.Status.CurrentBatch, state: r.rel.Status.BatchState, phase: r.rel.Status.Phase}})
	}
}

func statusEqual(a, b *ReleaseStatus) bool {
	x, y := *a, *b
	x.NoNeedUpdateReplicas, y.NoNeedUpdateReplicas = nil, nil
	if x != y {
		return false
	}
	if (a.NoNeedUpdateReplicas == nil) != (b.NoNeedUpdateReplicas == nil) {
		return false
	}
	return a.NoNeedUpdateReplicas == nil || *a.NoNeedUpdateReplicas == *b.NoNeedUpdateReplicas
}

// workloadEvent is SyncWorkloadInformation's answer.
type workloadEvent uint8

const (
	eventNormal workloadEvent = iota
	eventStillReconciling
	eventReplicasChanged
	eventRollbackInBatch
	eventTemplateChanged
)

func (r *reconcile) workloadEvent() workloadEvent {
	w := &r.w
	st := &r.rel.Status
	switch {
	case w.ObservedGeneration < w.Generation:
		return eventStillReconciling
	case w.Status.Replicas == w.Status.UpdatedReplicas:
		return eventNormal // promoted
	case st.ObservedWorkloadReplicas != -1 && w.Replicas != st.ObservedWorkloadReplicas:
		return eventReplicasChanged
	case st.UpdateRevision != "" && w.Status.UpdateRevision == w.Status.StableRevision &&
		st.StableRevision == w.Status.UpdateRevision && st.StableRevision != st.UpdateRevision:
		return eventRollbackInBatch
	case st.UpdateRevision != "" && w.Status.UpdateRevision != st.UpdateRevision:
		return eventTemplateChanged
	}
	return eventNormal
}

// syncStatusBeforeExecuting reports whether the reconcile stops before
// executing. Upstream: syncStatusBeforeExecuting, batchrelease_status.go.
func (r *reconcile) syncStatusBeforeExecuting(before ReleaseStatus) bool {
	st := &r.rel.Status
	stop := false
	ev := r.workloadEvent()
	progressing := before.Phase == Progressing
	switch {
	case before.Phase == Completed:
		r.why.special = specialCompleted
		stop = true
	case before.Phase == Finalizing || r.rel.BatchPartition == nil:
		r.why.special = specialFinalizing
		st.Phase = Finalizing
	case progressing && int(st.CurrentBatch) >= len(r.rel.Batches):
		r.why.special = specialUnhealthy
		*st = ReleaseStatus{}
		resetStatus(st)
	case ev == eventReplicasChanged && progressing:
		r.why.special = specialScaling
		st.BatchState = Upgrading
		st.ObservedWorkloadReplicas = r.w.Replicas
	case ev == eventTemplateChanged && progressing:
		r.why.special = specialRevisionChanged
		st.UpdateRevision = r.w.Status.UpdateRevision
		stop = true
	case ev == eventStillReconciling:
		r.why.special = specialUnstable
		stop = true
	case (ev == eventRollbackInBatch || r.rel.RollbackInBatch) && st.NoNeedUpdateReplicas == nil && progressing && r.style() != Canary:
		if r.w.Status.StableRevision == r.w.Status.UpdateRevision && r.rel.RollbackInBatch {
			r.why.special = specialRollback
			st.Phase = Preparing
			st.BatchState = Upgrading
			st.UpdateRevision = r.w.Status.UpdateRevision
		} else {
			r.why.special = specialRollbackWait
			stop = true
		}
	}
	// refreshStatus: the Canary style reads the canary Deployment's
	// replicas and available replicas.
	st.UpdatedReplicas = r.w.Status.UpdatedReplicas
	st.UpdatedReadyReplicas = r.w.Status.UpdatedReadyReplicas
	if r.style() == Canary {
		st.UpdatedReplicas, st.UpdatedReadyReplicas = 0, 0
		if c := r.w.Canary; c != nil {
			st.UpdatedReplicas, st.UpdatedReadyReplicas = c.StatusReplicas, c.AvailableReplicas
		}
	}
	st.ObservedRolloutID = r.rel.RolloutID
	if !statusEqual(&before, st) {
		stop = true
		r.requeue, r.requeueAfter = true, DefaultRequeue
		if r.why.special == 0 {
			r.why.special = specialRefreshed
		}
	}
	return stop
}

// initialize is the control plane's Initialize.
func (r *reconcile) initialize() {
	st := &r.rel.Status
	w := &r.w
	if !w.Controlled {
		a := Action{Kind: TakeControl}
		w.Controlled = true
		switch r.style() {
		case BlueGreen:
			w.MaxSurge = r.p.newIOS(intorpercent.FromInt(1))
			w.MaxUnavailable = r.p.newIOS(intorpercent.FromInt(0))
			w.Paused = false
			a.MaxSurge, a.MaxUnavailable = w.MaxSurge, w.MaxUnavailable
		case Canary:
			// Taking control of the stable Deployment comes first; the
			// canary Deployment is created after it (below).
		default:
			switch w.Kind {
			case CloneSet:
				w.Partition = r.p.newIOS(intorpercent.FromString("100%"))
				w.Paused = false
				a.Partition = w.Partition
			case Deployment:
				s := DefaultDeploymentStrategy(DeploymentStrategy{RollingStyle: Partition, Partition: intorpercent.FromInt(0),
					RollingUpdate: &RollingUpdate{MaxSurge: w.MaxSurge, MaxUnavailable: w.MaxUnavailable}})
				w.Partition = r.p.newIOS(s.Partition)
				w.Paused = false
				if s.RollingUpdate.MaxSurge != nil {
					w.MaxSurge = r.p.newIOS(*s.RollingUpdate.MaxSurge)
				} else {
					w.MaxSurge = nil
				}
				w.MaxUnavailable = r.p.newIOS(*s.RollingUpdate.MaxUnavailable)
				a.Partition, a.MaxSurge, a.MaxUnavailable = w.Partition, w.MaxSurge, w.MaxUnavailable
			default:
				w.Partition = r.p.newIOS(intorpercent.FromInt(math.MaxInt16))
				w.Paused = false
				a.Partition = w.Partition
			}
		}
		a.why = actionWhy{style: r.style(), kind: w.Kind}
		r.act(a)
	}
	if r.style() == Canary && w.Canary == nil {
		r.p.canary = CanaryDeployment{Name: w.Name + "-canary"}
		w.Canary = &r.p.canary
		r.act(Action{Kind: ScaleCanaryDeployment, Replicas: 0, why: actionWhy{create: true}})
	}
	st.StableRevision = w.Status.StableRevision
	st.UpdateRevision = w.Status.UpdateRevision
	st.ObservedWorkloadReplicas = w.Replicas
	if r.rel.RollbackInBatch && r.style() == Partition {
		if r.rel.RolloutID == "" {
			r.p.n32[1] = st.UpdatedReplicas
			st.NoNeedUpdateReplicas = &r.p.n32[1]
		} else {
			var labelled, atRevision int32
			if w.Status.Pods != nil {
				labelled = w.Status.Pods.NoNeedUpdate
			}
			atRevision = w.Status.UpdatedReplicas
			if toLabel := atRevision - labelled; toLabel > 0 {
				r.act(Action{Kind: LabelNoNeedUpdatePods, Count: toLabel})
				if w.Status.Pods != nil {
					w.Status.Pods.NoNeedUpdate += toLabel
				}
				// Upstream returns an error after labelling: the phase
				// stays Preparing, noNeedUpdateReplicas is not written,
				// and the next reconcile counts again.
				r.why.initWait = true
				return
			}
			r.p.n32[1] = labelled
			st.NoNeedUpdateReplicas = &r.p.n32[1]
		}
	}
	st.Phase = Progressing
	r.why.initialized = true
	r.requeue, r.requeueAfter = true, DefaultRequeue
}

// partitioned is isPartitioned: the batch partition holds the release
// at the current batch.
func (r *reconcile) partitioned() bool {
	return r.rel.BatchPartition != nil && *r.rel.BatchPartition <= r.rel.Status.CurrentBatch
}

// progressBatches is the executor's batch state machine.
func (r *reconcile) progressBatches() {
	st := &r.rel.Status
	switch st.BatchState {
	default:
		st.BatchState = Upgrading
		fallthrough
	case Upgrading:
		if r.upgradeBatch() {
			r.requeue, r.requeueAfter = true, DefaultRequeue
			st.BatchState = Verifying
		}
	case Verifying:
		if r.ensureReady() {
			r.requeue, r.requeueAfter = true, DefaultRequeue
			st.BatchState = Ready
		} else {
			st.BatchState = Upgrading
		}
	case Ready:
		switch {
		case !r.ensureReady():
			st.BatchState = Upgrading
		case !r.partitioned():
			// moveToNextBatch: the partition no longer holds this batch.
			st.CurrentBatch++
			r.why.nextBatch = true
			st.BatchState = Upgrading
			r.requeue, r.requeueAfter = true, DefaultRequeue
		default:
			r.why.held = true
		}
	}
}

// context computes the batch context; false when the workload has no
// replicas (upstream then skips the batch).
func (r *reconcile) context() bool {
	c, err := CalculateBatchContext(&r.rel, &r.w)
	if err != nil {
		return false
	}
	r.ctx, r.hasCtx = c, true
	return true
}

// ensureReady is EnsureBatchPodsReadyAndLabeled.
func (r *reconcile) ensureReady() bool {
	replicas := r.w.Replicas
	if replicas == 0 {
		return true
	}
	if c := r.w.Canary; r.style() == Canary && c != nil && c.ObservedGeneration < c.Generation {
		r.why.canaryWait = true
		return false
	}
	if !r.context() {
		return false
	}
	if r.style() == Canary {
		// The canary control plane labels the canary pods here.
		r.labelPods()
	}
	if r.style() == BlueGreen {
		// The blue-green control plane lists the pods and labels them
		// here, before the check, not when it upgrades the batch.
		r.ctx.Pods = r.w.Status.Pods
		r.labelPods()
	}
	r.readiness = r.ctx.IsBatchReady()
	if r.opts.FailureThresholdFallback && r.readiness == TooFewUpdatedReady && r.ctx.FailureThreshold == nil && r.style() != BlueGreen {
		r.readiness = fallbackReadiness(&r.ctx, r.w.MaxUnavailable)
	}
	return r.readiness == BatchReady
}

// upgradeBatch is the control plane's UpgradeBatch; it reports success.
func (r *reconcile) upgradeBatch() bool {
	w := &r.w
	st := &r.rel.Status
	if r.style() == Canary {
		if w.Replicas == 0 {
			return true
		}
		if w.Canary != nil && w.Canary.ObservedGeneration < w.Canary.Generation {
			r.why.canaryWait = true
			return false
		}
		r.context()
		cur := int32(0)
		if w.Canary != nil {
			cur = w.Canary.Replicas
		}
		desired := r.ctx.DesiredUpdatedReplicas
		if cur < desired {
			if w.Canary == nil {
				r.p.canary = CanaryDeployment{Name: w.Name + "-canary"}
				w.Canary = &r.p.canary
			}
			w.Canary.Replicas = desired
			w.Canary.Generation++
			r.act(Action{Kind: ScaleCanaryDeployment, Replicas: desired, why: actionWhy{from: cur}})
		}
		return true
	}
	if w.Replicas == 0 {
		return true
	}
	if r.style() == Partition && r.rel.RolloutID != "" && st.NoNeedUpdateReplicas != nil && w.Status.Pods != nil {
		r.p.n32[1] = w.Status.Pods.NoNeedUpdate
		st.NoNeedUpdateReplicas = &r.p.n32[1]
	}
	r.context()
	c := &r.ctx
	total := int64(w.Replicas)
	switch {
	case r.style() == BlueGreen:
		d, _ := strictScaled(&c.DesiredSurge, total, true)
		cur, _ := strictScaled(&c.CurrentSurge, total, true)
		if cur < d {
			w.MaxSurge = r.p.newIOS(c.DesiredSurge)
			a := Action{Kind: WriteMaxSurge, MaxSurge: w.MaxSurge, why: actionWhy{cur: cur, desired: d}}
			if w.Kind == CloneSet {
				w.Partition = nil
				a.ClearPartition = true
			} else {
				w.MaxUnavailable = r.p.newIOS(intorpercent.FromInt(0))
				a.MaxUnavailable = w.MaxUnavailable
			}
			r.act(a)
		}
		return true // no pod labels here (see ensureReady)
	case w.Kind == CloneSet:
		var d int64
		if c.DesiredPartition.IsString {
			d, _ = strictScaled(&c.DesiredPartition, total, true)
		} else {
			d = int64(c.DesiredPartition.Int)
		}
		cur, _ := strictScaled(&c.CurrentPartition, total, true)
		if cur > d {
			w.Partition = r.p.newIOS(c.DesiredPartition)
			r.act(Action{Kind: WritePartition, Partition: w.Partition, why: actionWhy{cur: cur, desired: d}})
		}
	case w.Kind == Deployment:
		if !w.Controlled {
			r.why.outOfControl = true
			return true
		}
		cur := intorpercent.FromInt(0)
		if w.Partition != nil {
			cur = *w.Partition
		}
		reached := IsCurrentMoreThanOrEqualToDesired(cur, c.DesiredPartition)
		if r.opts.CompareDeploymentPartitionsOnReplicas {
			reached = NewRSReplicasLimit(cur, w.Replicas) >= NewRSReplicasLimit(c.DesiredPartition, w.Replicas)
		}
		if !reached {
			w.Partition = r.p.newIOS(c.DesiredPartition)
			r.act(Action{Kind: WritePartition, Partition: w.Partition, why: actionWhy{deployment: true}})
		}
	default:
		if c.CurrentPartition.Int > c.DesiredPartition.Int {
			w.Partition = r.p.newIOS(c.DesiredPartition)
			r.act(Action{Kind: WritePartition, Partition: w.Partition, why: actionWhy{cur: int64(c.CurrentPartition.Int), desired: int64(c.DesiredPartition.Int)}})
		}
	}
	r.labelPods()
	return true
}

// labelPods is PatchPodBatchLabel counted: the pods at the update
// revision not yet labelled with the rollout id, up to what the batches
// so far plan (the positive increments of BatchReplicas). Pods are
// counted, not chosen: which pod gets which batch id is the caller's.
func (r *reconcile) labelPods() {
	c := &r.ctx
	pods, updated := r.w.Status.Pods, r.w.Status.UpdatedReplicas
	if r.style() == Canary {
		pods, updated = nil, 0
		if cd := r.w.Canary; cd != nil {
			pods, updated = cd.Pods, cd.StatusReplicas
		}
	}
	if c.RolloutID == "" || pods == nil || pods.Listed == 0 {
		return
	}
	var planned, prev int64
	for i := int32(0); i <= c.CurrentBatch && int(i) < len(r.rel.Batches); i++ {
		b := int64(batchReplicas(r.rel.Batches, c.Replicas, i))
		if i == 0 {
			planned += b
		} else if b > prev {
			planned += b - prev
		}
		prev = b
	}
	// The pods the patcher may label: every pod at the update revision,
	// or, when rolling back in batches, those that needed the update plus
	// as many of the N that did not as the plan asks beyond them
	// (FilterPodsForUnorderedUpdate, labelpatch/filter.go).
	eligible := int64(updated)
	if nn := c.NoNeedUpdatedReplicas; nn != nil && *nn > 0 {
		n := int64(*nn)
		if need := int64(c.DesiredUpdatedReplicas) - n; need > 0 {
			eligible = max(eligible-n, 0) + min(max(int64(c.PlannedUpdatedReplicas)-need, 0), n)
		}
	}
	n := min(planned, eligible) - int64(pods.RolloutIDLabeled)
	if n <= 0 {
		return
	}
	pods.RolloutIDLabeled += int32(n)
	c.Pods = pods
	r.act(Action{Kind: LabelPods, Count: int32(n), why: actionWhy{batch: c.CurrentBatch}})
}

// finalize is the control plane's Finalize.
func (r *reconcile) finalize() {
	w := &r.w
	st := &r.rel.Status
	if w.Controlled || (r.style() == Canary && w.Canary != nil) {
		a := Action{Kind: ReleaseControl}
		w.Controlled = false
		if r.rel.BatchPartition == nil {
			switch {
			case r.style() == Canary:
				w.Canary = nil
			case r.style() == BlueGreen:
			case w.Kind == CloneSet:
				w.Partition, w.Paused = nil, false
				a.ClearPartition = true
			case w.Kind == Deployment:
				w.Partition, w.Paused = nil, false
				a.ClearPartition = true
			default:
				w.Partition = nil
				a.ClearPartition = true
			}
		}
		a.why = actionWhy{held: r.rel.BatchPartition != nil}
		r.act(a)
	}
	st.Phase = Completed
	r.why.finalized = true
}
