package batchrelease

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// actionWhy holds the facts an Action's reason is written from.
type actionWhy struct {
	style      RollingStyle
	kind       Kind
	create     bool
	deployment bool
	held       bool
	from       int32
	cur        int64
	desired    int64
	batch      int32
	state      BatchState
	phase      Phase
}

// special is the special case syncStatusBeforeExecuting found.
type special uint8

const (
	specialNone special = iota
	specialCompleted
	specialFinalizing
	specialUnhealthy
	specialScaling
	specialRevisionChanged
	specialUnstable
	specialRollback
	specialRollbackWait
	specialRefreshed
)

// syncWhy holds the facts a Sync's reason is written from.
type syncWhy struct {
	special      special
	reset        bool
	stopped      bool
	finalized    bool
	initWait     bool
	initialized  bool
	nextBatch    bool
	held         bool
	canaryWait   bool
	outOfControl bool
}

// Explain writes the reasons of s and of its actions, which
// Planner.Plan leaves empty. It allocates the sentences.
func (p *Planner) Explain(s *Sync) {
	for i := range s.Actions {
		s.Actions[i].Reason = actionReason(&s.Actions[i], s)
	}
	s.Reason = syncReason(s)
}

func ios(v *intorpercent.IntOrString) string {
	if v == nil {
		return "null"
	}
	return v.String()
}

// pods says "1 pod", "2 pods", with adj ("new ", "updated ") before the
// noun.
func pods(n int64, adj string) string {
	if n == 1 {
		return "1 " + adj + "pod"
	}
	return strconv.FormatInt(n, 10) + " " + adj + "pods"
}

// podsOf says how many pods a partition value lets through: "1 pod",
// "3 pods", "30% of the pods".
func podsOf(v string) string {
	switch {
	case v == "1":
		return "1 pod"
	case strings.HasSuffix(v, "%"):
		return v + " of the pods"
	}
	return v + " pods"
}

func actionReason(a *Action, s *Sync) string {
	w := a.why
	switch a.Kind {
	case TakeControl:
		switch w.style {
		case BlueGreen:
			return "take control of the " + s.Workload.Kind.String() + " for a blue-green release: maxSurge 1, maxUnavailable 0 (new pods surge, old ones stay)"
		}
		switch w.kind {
		case CloneSet:
			return "take control of the CloneSet: partition 100% and paused false, so no pod is updated until the first batch"
		case Deployment:
			return "take control of the Deployment: pause it and store the strategy annotation with partition 0, maxSurge " + ios(a.MaxSurge) + ", maxUnavailable " + ios(a.MaxUnavailable)
		}
		return "take control of the StatefulSet: partition 32767, so no pod is updated until the first batch"
	case WritePartition:
		if w.deployment {
			return "batch " + itoa(s.Context.CurrentBatch) + " lets the new ReplicaSet have " + podsOf(ios(a.Partition)) + " (" + itoa(s.Context.PlannedUpdatedReplicas) + " of " + itoa(s.Context.Replicas) + ")"
		}
		return "batch " + itoa(s.Context.CurrentBatch) + " keeps " + pods(w.desired, "") + " old (partition " + ios(a.Partition) +
			", was " + strconv.FormatInt(w.cur, 10) + "), so " + itoa(s.Context.DesiredUpdatedReplicas) + " are updated"
	case WriteMaxSurge:
		return "batch " + itoa(s.Context.CurrentBatch) + " surges " + pods(w.desired, "new ") + " (maxSurge " + ios(a.MaxSurge) + ", was " + strconv.FormatInt(w.cur, 10) + ")"
	case ScaleCanaryDeployment:
		if w.create {
			return "create the canary Deployment with 0 replicas"
		}
		return "batch " + itoa(s.Context.CurrentBatch) + " scales the canary Deployment from " + itoa(w.from) + " to " + itoa(a.Replicas) + " replicas (the stable Deployment keeps all its pods)"
	case LabelPods:
		return "label " + pods(int64(a.Count), "updated ") + " with rollout-id " + strconv.Quote(s.Release.RolloutID) + " for batch " + itoa(w.batch)
	case LabelNoNeedUpdatePods:
		return "mark " + pods(int64(a.Count), "") + " already at the target revision as no-need-update (rollback in batches)"
	case ReleaseControl:
		if w.held {
			return "release the workload but keep its partition (the plan has a batch partition)"
		}
		return "hand the workload back: partition cleared, not paused"
	case WriteStatus:
		return "status: phase " + w.phase.String() + ", batch " + itoa(w.batch) + " " + stateName(w.state)
	}
	return ""
}

func stateName(s BatchState) string {
	if s == 0 {
		return "(no state)"
	}
	return s.String()
}

func syncReason(s *Sync) string {
	w := s.why
	var b strings.Builder
	switch w.special {
	case specialCompleted:
		return "the release plan is completed: nothing to do"
	case specialFinalizing:
		b.WriteString("the release plan has no batch partition or is finalizing: finalize")
	case specialUnhealthy:
		return "the current batch is beyond the plan: start over"
	case specialScaling:
		b.WriteString("the workload's replicas changed: redo the current batch")
	case specialRevisionChanged:
		return "the workload's update revision changed to " + strconv.Quote(s.Release.Status.UpdateRevision) + ": wait"
	case specialUnstable:
		return "the workload is still reconciling (observed generation behind): wait"
	case specialRollback:
		b.WriteString("the workload rolled back: prepare a rollback in batches")
	case specialRollbackWait:
		return "the workload is rolling back: wait for the rollback-in-batch conditions"
	case specialRefreshed:
		return "status refreshed from the workload (updated " + itoa(s.Release.Status.UpdatedReplicas) + ", ready " + itoa(s.Release.Status.UpdatedReadyReplicas) + "): requeue"
	}
	if b.Len() > 0 {
		if w.stopped {
			b.WriteString(" (status written; requeue)")
			return b.String()
		}
		b.WriteString("; ")
	}
	st := &s.Release.Status
	switch {
	case w.finalized:
		if s.Release.BatchPartition != nil {
			b.WriteString("the release is completed; the workload keeps its partition (the plan has a batch partition)")
		} else {
			b.WriteString("the release is completed: the workload is handed back")
		}
	case w.initWait:
		b.WriteString("marked pods already at the target revision; prepare again")
	case w.initialized:
		b.WriteString("the release controls the workload (stable " + strconv.Quote(st.StableRevision) + ", update " + strconv.Quote(st.UpdateRevision) + "): start batch " + itoa(st.CurrentBatch))
		if n := st.NoNeedUpdateReplicas; n != nil {
			b.WriteString(", " + pods(int64(*n), "") + " already at the target")
		}
	case w.canaryWait:
		b.WriteString("the canary Deployment is still reconciling: wait")
	case w.nextBatch:
		b.WriteString("batch " + itoa(st.CurrentBatch-1) + " is ready: move to batch " + itoa(st.CurrentBatch))
	case w.held:
		b.WriteString("batch " + itoa(st.CurrentBatch) + " is ready; the batch partition holds the release here")
	case s.Readiness != 0 && s.Readiness != BatchReady:
		b.WriteString("batch " + itoa(st.CurrentBatch) + " is not ready: " + s.Readiness.Message(&s.Context))
	case s.Ready:
		b.WriteString("batch " + itoa(st.CurrentBatch) + " is ready")
	default:
		b.WriteString("phase " + st.Phase.String() + ", batch " + itoa(st.CurrentBatch) + " " + stateName(st.BatchState))
	}
	return b.String()
}

// checkPlanInput rejects what Plan cannot compute with.
func checkPlanInput(release *Release, workload *Workload) error {
	if release == nil {
		return &field.Error{Prefix: "batchrelease", Field: "release", Detail: "must not be nil", Err: field.ErrRequired}
	}
	if workload == nil {
		return &field.Error{Prefix: "batchrelease", Field: "workload", Detail: "must not be nil", Err: field.ErrRequired}
	}
	// The prefixes are built only on the failing path: Plan does not
	// allocate for valid input.
	prefix := func() string { return "batchrelease: invalid BatchRelease " + strconv.Quote(release.Name) }
	neg := func(path string, v int32) error {
		return &field.Error{Prefix: prefix(), Field: path, Value: itoa(v), Detail: "must not be negative", Err: field.ErrNegative}
	}
	if len(release.Batches) == 0 {
		return &field.Error{Prefix: prefix(), Field: "spec.releasePlan.batches", Detail: "must not be empty", Err: field.ErrRequired}
	}
	st := &release.Status
	switch {
	case st.CurrentBatch < 0:
		return neg("status.canaryStatus.currentBatch", st.CurrentBatch)
	case release.BatchPartition != nil && *release.BatchPartition < 0:
		return neg("spec.releasePlan.batchPartition", *release.BatchPartition)
	case st.NoNeedUpdateReplicas != nil && *st.NoNeedUpdateReplicas < 0:
		return neg("status.canaryStatus.noNeedUpdateReplicas", *st.NoNeedUpdateReplicas)
	case st.Phase > Completed:
		return &field.Error{Prefix: prefix(), Field: "status.phase", Value: itoa(int32(st.Phase)), Detail: "unknown phase", Err: field.ErrUnsupported}
	case st.BatchState > Ready:
		return &field.Error{Prefix: prefix(), Field: "status.canaryStatus.batchState", Value: itoa(int32(st.BatchState)), Detail: "unknown state", Err: field.ErrUnsupported}
	}
	wprefix := func() string {
		return "batchrelease: invalid " + workload.Kind.String() + " " + strconv.Quote(workload.Name)
	}
	wneg := func(path string, v int32) error {
		return &field.Error{Prefix: wprefix(), Field: path, Value: itoa(v), Detail: "must not be negative", Err: field.ErrNegative}
	}
	ws := &workload.Status
	for _, c := range [...]struct {
		path string
		v    int32
	}{{"spec.replicas", workload.Replicas}, {"status.replicas", ws.Replicas}, {"status.readyReplicas", ws.ReadyReplicas},
		{"status.updatedReplicas", ws.UpdatedReplicas}, {"status.updatedReadyReplicas", ws.UpdatedReadyReplicas}} {
		if c.v < 0 {
			return wneg(c.path, c.v)
		}
	}
	if workload.Kind < CloneSet || workload.Kind > Deployment {
		return &field.Error{Prefix: wprefix(), Field: "kind", Value: itoa(int32(workload.Kind)), Detail: "unknown kind", Err: field.ErrUnsupported}
	}
	if p := ws.Pods; p != nil && (p.Listed < 0 || p.RolloutIDLabeled < 0 || p.NoNeedUpdate < 0) {
		return wneg("status.pods", min(p.Listed, p.RolloutIDLabeled, p.NoNeedUpdate))
	}
	if c := workload.Canary; c != nil && (c.Replicas < 0 || c.StatusReplicas < 0 || c.AvailableReplicas < 0) {
		return wneg("canary.replicas", min(c.Replicas, c.StatusReplicas, c.AvailableReplicas))
	}
	return nil
}
