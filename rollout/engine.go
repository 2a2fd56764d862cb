package rollout

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/decimal"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// before is what a sync's scaling changes in rss[i], as it was before:
// the status is computed, and history cleaned up, from the ReplicaSets as
// they were then.
type before struct {
	i           int
	replicas    int32
	generation  int64
	annotations map[string]string
}

// planner carries one sync's working state, and the memory a Planner
// keeps from one sync to the next.
type planner[T any] struct {
	in   *Deployment[T]  // the input, read only
	cur  *Deployment[T]  // the deployment as the sync changes it in memory: the result's
	rss  []ReplicaSet[T] // the ReplicaSets as the sync changes them
	opts Options
	now  time.Time

	// The snapshot: hasPre says it was taken, when rss had preLen
	// ReplicaSets; pre holds what scaling has changed since in them, as
	// it was before (scale records it before each first change).
	pre            []before
	hasPre         bool
	preLen         int
	newIdx, preNew int
	// pendingAnn, when not nil, holds the annotations of the new
	// ReplicaSet as upstream's in-memory copy has them but the cluster
	// does not yet: the next write of that ReplicaSet carries them.
	pendingAnn   map[string]string
	path         Path
	actions      []Action
	whys         []why // whys[i] is actions[i]'s reason, unwritten
	deleted      []bool
	anyDeleted   bool
	hash         string
	requeue      bool
	requeueAfter time.Duration
	note         why   // why nothing moved, when no action explains it
	err          error // a counter that would overflow (ErrCounterOverflow); the sync's result is void

	// fresh says every slice and map of the result is new (Plan and
	// PlanWith); otherwise they come from the Planner's buffers.
	fresh bool
	st    *statusStore
	// Scratch, reused from sync to sync.
	idx     []int
	order   []int
	sizes   []int32
	cleaned []int32
	prs     []proportion.ReplicaSet
	written []bool
	view    []ReplicaSet[T]
}

// reset readies p for a sync of d at now; p.cur must point to the
// result's Deployment, which must not be *d.
func (p *planner[T]) reset(d *Deployment[T], now time.Time, opts Options) {
	p.in, p.opts, p.now = d, opts, now
	*p.cur = *d
	p.pre, p.hasPre, p.preLen = p.pre[:0], false, 0
	p.newIdx, p.preNew = -1, -1
	p.pendingAnn = nil
	p.path = 0
	p.whys = p.whys[:0]
	p.deleted = p.deleted[:0]
	p.anyDeleted = false
	p.hash = ""
	p.requeue, p.requeueAfter = false, 0
	p.note = why{}
	p.err = nil
}

func (p *planner[T]) run() {
	d := p.in
	if d.Deleting {
		p.path = PathDeleting
		if p.syncRevision(false) {
			p.snapshot()
			p.deploymentStatus()
		}
		p.note = why{kind: whyDeleting}
		return
	}
	if conds, changed := PausedConditions(p.cur, p.now); changed {
		p.cur.Status.Conditions = conds
	}
	switch {
	case d.Paused:
		p.path = PathPaused
		p.sync()
	case p.rollbackPending():
		p.path = PathRollback
		p.rollback()
	case p.isScalingEvent():
		p.path = PathScaling
		p.sync()
	case d.strategy() == Recreate:
		p.path = PathRecreate
		p.recreate()
	default:
		p.path = PathRollingUpdate
		p.rolling()
	}
}

// snapshot marks the ReplicaSets as they are now as the ones this sync's
// status and cleanup read; scale keeps what it changes after (remember).
func (p *planner[T]) snapshot() {
	p.pre = p.pre[:0]
	p.hasPre, p.preLen = true, len(p.rss)
	p.preNew = p.newIdx
}

// remember keeps rss[i] as the snapshot has it, before scale changes it.
func (p *planner[T]) remember(i int) {
	if !p.hasPre || i >= p.preLen {
		return
	}
	for k := range p.pre {
		if p.pre[k].i == i {
			return
		}
	}
	rs := &p.rss[i]
	p.pre = append(p.pre, before{i, rs.Replicas, rs.Generation, rs.Annotations})
}

// swapPre exchanges the snapshot with the ReplicaSets' current values and
// returns the ReplicaSets the snapshot covers: called once, they are the
// ReplicaSets as they were at the snapshot; called again, as they are now.
func (p *planner[T]) swapPre() []ReplicaSet[T] {
	for k := range p.pre {
		b := &p.pre[k]
		rs := &p.rss[b.i]
		rs.Replicas, b.replicas = b.replicas, rs.Replicas
		rs.Generation, b.generation = b.generation, rs.Generation
		rs.Annotations, b.annotations = b.annotations, rs.Annotations
	}
	return p.rss[:p.preLen]
}

// syncRevision finds or (with create) creates the new ReplicaSet and syncs
// revisions between it and the deployment. It returns false when the sync
// must stop (a hash collision). Upstream: getAllReplicaSetsAndSyncRevision.
func (p *planner[T]) syncRevision(create bool) bool {
	next := revision.NextRevision(p.rss, p.newIdx)
	newRevision := strconv.FormatInt(next, 10)
	_, hasDeadline := p.cur.ProgressDeadline()
	if p.newIdx >= 0 {
		rs := &p.rss[p.newIdx]
		minReady := rs.MinReadySeconds != nil && *rs.MinReadySeconds != p.cur.MinReadySeconds
		if !minReady && annotationsKept(p.cur.Annotations, rs.Annotations, next) {
			// The steady state: revision.NewAnnotations would return
			// rs's annotations unchanged; skip its copy.
			p.foundNew(rs, hasDeadline)
			return true
		}
		ann, changed := revision.NewAnnotations(revision.AnnotationsInput{
			Deployment: p.cur.Annotations, ReplicaSet: rs.Annotations, Revision: newRevision, Exists: true,
		})
		if changed || minReady {
			// One update carries both, and ends the revision sync before
			// the deployment's revision annotation and the
			// FoundNewReplicaSet condition. When only minReadySeconds
			// differs, ann still holds the deployment's copied
			// annotations that a revision which does not parse kept from
			// counting as a change: upstream's in-memory copy has them,
			// so its update persists them.
			w := why{kind: whyAnnotate, name: rs.Name, rev: rs.Annotations[revision.RevisionAnnotation], newRev: ann[revision.RevisionAnnotation], changed: changed}
			if minReady {
				if rs.Generation == math.MaxInt64 {
					p.fail(fmt.Errorf("rollout: ReplicaSet %q: metadata.generation is %d; updating its minReadySeconds would wrap it to %d, which the API server rejects: %w",
						rs.Name, rs.Generation, int64(math.MinInt64), ErrCounterOverflow))
					return false
				}
				from := *rs.MinReadySeconds
				m := p.cur.MinReadySeconds
				rs.MinReadySeconds = &m
				// A spec change: the API server raises the generation.
				rs.Generation++
				w.minReady, w.from, w.to = true, int64(from), int64(m)
				if !changed && !maps.Equal(ann, rs.Annotations) {
					w.annotationsDiffer = true
				}
			}
			rs.Annotations = ann
			p.act(AnnotateReplicaSet, rs.Name, rs.Replicas, rs.Replicas, w)
			return true
		}
		if !maps.Equal(ann, rs.Annotations) {
			// A revision that does not parse: upstream has already copied
			// the deployment's annotations onto its in-memory copy of the
			// ReplicaSet, does not update it for them, but scales that
			// copy later in the sync, which persists them.
			p.pendingAnn = ann
		}
		p.foundNew(rs, hasDeadline)
		return true
	}
	if !create {
		return true
	}
	hash := revision.Hash(&p.cur.Template, p.cur.Status.CollisionCount)
	name := revision.ReplicaSetName(p.cur.Name, hash)
	for i := range p.rss {
		if p.rss[i].Name == name {
			var cc int32
			if p.cur.Status.CollisionCount != nil {
				cc = *p.cur.Status.CollisionCount
			}
			if cc == math.MaxInt32 {
				p.fail(fmt.Errorf("rollout: Deployment %q: ReplicaSet %q collides with the new template at status.collisionCount %d; one more wraps to %d, which the API server rejects: %w",
					p.cur.Name, name, cc, int64(math.MinInt32), ErrCounterOverflow))
				return false
			}
			next := revision.NextCollisionCount(p.cur.Status.CollisionCount)
			p.cur.Status.CollisionCount = &next
			p.act(CountCollision, name, 0, 0, why{kind: whyCollision, name: name, from: int64(cc), to: int64(next)})
			p.requeue, p.requeueAfter = true, 0
			return false
		}
	}
	size, err := newReplicas(p.cur, p.rss, -1, p.opts.Surge == SurgeCountsTerminating)
	if err != nil {
		// Unreachable for a validated deployment; keep the sync a no-op.
		p.note = textWhy(err.Error())
		return false
	}
	ann, _ := revision.NewAnnotations(revision.AnnotationsInput{
		Deployment: p.cur.Annotations, Revision: newRevision, Replicas: p.cur.Replicas, MaxReplicas: maxTotal(p.cur),
	})
	minReady := p.cur.MinReadySeconds
	p.rss = append(p.rss, ReplicaSet[T]{
		Name:            name,
		CreationTime:    p.now,
		Annotations:     ann,
		Template:        p.cur.Template,
		Replicas:        size,
		MinReadySeconds: &minReady,
		Generation:      1,
	})
	p.newIdx = len(p.rss) - 1
	p.hash = hash
	w := why{kind: whyCreate, name: name, rev: newRevision, to: int64(size)}
	p.createWhy(&w)
	p.act(CreateReplicaSet, name, 0, size, w)
	p.setRevision(newRevision)
	if hasDeadline {
		p.cur.Status.Conditions = SetCondition(p.cur.Status.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", name), p.now))
	}
	return true
}

// foundNew ends the revision sync with an existing new ReplicaSet: the
// deployment takes its revision, and with a progress deadline a
// FoundNewReplicaSet condition when it has no Progressing one.
func (p *planner[T]) foundNew(rs *ReplicaSet[T], hasDeadline bool) {
	p.setRevision(rs.Annotations[revision.RevisionAnnotation])
	if _, ok := FindCondition(p.cur.Status.Conditions, DeploymentProgressing); hasDeadline && !ok {
		p.cur.Status.Conditions = SetCondition(p.cur.Status.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonFoundNewReplicaSet, fmt.Sprintf("Found new replica set %q", rs.Name), p.now))
	}
}

// annotationsKept reports, without copying a map, that
// revision.NewAnnotations would leave the existing new ReplicaSet's
// annotations rs as they are and report no change, given the
// deployment's annotations dep and the revision next: every copied
// deployment annotation is already on rs with the same value, and rs's
// revision parses and is at least next. false means "call NewAnnotations
// to know".
func annotationsKept(dep, rs map[string]string, next int64) bool {
	for k, v := range dep {
		if !revision.IsCopiedAnnotation(k) {
			continue
		}
		if cur, ok := rs[k]; !ok || cur != v {
			return false
		}
	}
	// A revision of plain digits (what NewAnnotations parses to the same
	// number); anything else is left to NewAnnotations.
	old, ok := decimal.Digits(rs[revision.RevisionAnnotation], 18)
	return ok && old >= next
}

// createWhy records why a ReplicaSet being created gets its size.
func (p *planner[T]) createWhy(w *why) {
	if p.cur.strategy() == Recreate {
		w.cause = causeRecreate
		w.replicas = int64(p.cur.Replicas)
		return
	}
	p.surgeWhy(w, p.newIdx)
}

// surgeWhy records why the new ReplicaSet rss[newIdx] is scaled up as
// rolling allows.
func (p *planner[T]) surgeWhy(w *why, newIdx int) {
	var total, term int64
	for i := range p.rss {
		if i == newIdx {
			continue
		}
		total += int64(p.rss[i].Replicas)
		term += int64(terminating(&p.rss[i]))
	}
	w.cause = causeSurge
	w.other, w.terminating = total, term
	w.countsTerminating = p.opts.Surge == SurgeCountsTerminating
}

// setRevision sets the deployment's revision annotation, copying the map.
// Upstream: SetDeploymentRevision.
func (p *planner[T]) setRevision(rev string) {
	if p.cur.Annotations[revision.RevisionAnnotation] == rev {
		return
	}
	ann := maps.Clone(p.cur.Annotations)
	if ann == nil {
		ann = map[string]string{}
	}
	ann[revision.RevisionAnnotation] = rev
	p.cur.Annotations = ann
}

// fail records the first counter overflow; PlanWith then returns it
// instead of the sync.
func (p *planner[T]) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

func (p *planner[T]) act(kind ActionKind, name string, from, to int32, w why) {
	p.actions = append(p.actions, Action{Kind: kind, ReplicaSet: name, From: from, To: to})
	p.whys = append(p.whys, w)
}

// scale sets rss[i] to size. Lazy (force false): nothing when the size is
// already right. Otherwise the ReplicaSet is written when its size or its
// replicas annotations differ, and both annotations are set. It reports
// whether the size changed. w holds the cause of the change. Upstream:
// scaleReplicaSetAndRecordEvent and scaleReplicaSet.
func (p *planner[T]) scale(i int, size int32, force bool, w why) bool {
	rs := &p.rss[i]
	if !force && rs.Replicas == size {
		return false
	}
	desired, maxReplicas := p.cur.Replicas, maxTotal(p.cur)
	sizeChanged := rs.Replicas != size
	if !sizeChanged && !proportion.AnnotationsNeedUpdate(proportionReplicaSet(rs), desired, maxReplicas) {
		return false
	}
	p.remember(i)
	base := rs.Annotations
	if i == p.newIdx && p.pendingAnn != nil {
		base, p.pendingAnn = p.pendingAnn, nil
	}
	// The write carries both replicas annotations. When base holds them
	// already (the usual scale, R unchanged) it is written as it is and
	// shared, as nothing in it changes; otherwise a copy is changed.
	ann := base
	if !replicasAnnotationIs(base, revision.DesiredReplicasAnnotation, desired) || !replicasAnnotationIs(base, revision.MaxReplicasAnnotation, maxReplicas) {
		ann = maps.Clone(base)
		if ann == nil {
			ann = map[string]string{}
		}
		ann[revision.DesiredReplicasAnnotation] = proportion.FormatReplicas(desired)
		ann[revision.MaxReplicasAnnotation] = proportion.FormatReplicas(maxReplicas)
	}
	rs.Annotations = ann
	from := rs.Replicas
	w.name, w.isNew = rs.Name, i == p.newIdx
	if sizeChanged {
		w.kind, w.from, w.to = whyScale, int64(from), int64(size)
	} else {
		w.kind, w.desired, w.maxReplicas = whyRefresh, int64(desired), int64(maxReplicas)
	}
	if sizeChanged {
		if rs.Generation == math.MaxInt64 {
			p.fail(fmt.Errorf("rollout: ReplicaSet %q: metadata.generation is %d; resizing it would wrap it to %d, which the API server rejects: %w",
				rs.Name, rs.Generation, int64(math.MinInt64), ErrCounterOverflow))
			return false
		}
		rs.Replicas = size
		rs.Generation++
	}
	p.act(ScaleReplicaSet, rs.Name, from, size, w)
	return sizeChanged
}

// proportionInputs converts the ReplicaSets for the proportion package,
// into p's scratch.
func (p *planner[T]) proportionInputs() (proportion.Deployment, []proportion.ReplicaSet) {
	pd := proportion.Deployment{
		Replicas:       p.cur.Replicas,
		MaxSurge:       MaxSurge(p.cur),
		StatusReplicas: p.cur.Status.Replicas,
		RollingUpdate:  p.cur.strategy() == RollingUpdate,
	}
	p.prs = p.prs[:0]
	for i := range p.rss {
		p.prs = append(p.prs, proportionReplicaSet(&p.rss[i]))
	}
	return pd, p.prs
}

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation differs from R. Upstream: isScalingEvent (it first syncs the
// revision without creating; that runs again in the branch taken).
func (p *planner[T]) isScalingEvent() bool {
	// IsScalingEvent reads only the replicas and desired-replicas
	// annotation of active ReplicaSets: convert just those.
	pd := proportion.Deployment{Replicas: p.cur.Replicas}
	p.prs = p.prs[:0]
	for i := range p.rss {
		if rs := &p.rss[i]; rs.Replicas > 0 {
			p.prs = append(p.prs, proportion.ReplicaSet{Replicas: rs.Replicas, DesiredReplicas: rs.Annotations[revision.DesiredReplicasAnnotation]})
		}
	}
	return proportion.IsScalingEvent(pd, p.prs)
}

// cleanupHistory deletes old ReplicaSets beyond the revision history
// limit. Upstream: cleanupDeployment.
//
// Upstream sorts the old ReplicaSets with ReplicaSetsByRevision, which is
// not a strict order when a revision does not parse, so the order the
// sort starts from matters: oldest first on the rolling and Recreate
// paths (FindOldReplicaSets' order), newest first on the paused path
// (newestFirst), where scale() has just had FindActiveOrLatest sort them
// so in place. revision.ToCleanUp starts from the order it is given.
func (p *planner[T]) cleanupHistory(newestFirst bool) {
	limit, ok := p.cur.HistoryLimit()
	if !ok {
		return
	}
	// The ReplicaSets as they were before this sync scaled: the snapshot
	// when there is one.
	var base []ReplicaSet[T]
	preNew := p.preNew
	if p.hasPre {
		base = p.swapPre()
		defer p.swapPre()
	} else {
		base = p.rss
		preNew = -1
	}
	// Nothing to delete when no more old ReplicaSets can go than the
	// limit keeps (ToCleanUp's first test, without its allocation).
	cleanable := 0
	for i := range base {
		if i != preNew && !base[i].Deleting {
			cleanable++
		}
	}
	if cleanable <= max(int(limit), 0) {
		return
	}
	// base is oldest first (plan sorted it); view is the starting order,
	// order[k] the index in base of view[k].
	view := base
	newInView := preNew
	p.order = p.order[:0]
	for k := range base {
		p.order = append(p.order, k)
	}
	if newestFirst {
		p.view = p.view[:0]
		newInView = -1
		for k := range base {
			i := len(base) - 1 - k
			p.order[k] = i
			p.view = append(p.view, base[i])
			if i == preNew {
				newInView = k
			}
		}
		view = p.view
	}
	for _, k := range revision.ToCleanUp(view, newInView, &limit, p.opts.Cleanup) {
		i := p.order[k]
		p.markDeleted(i)
		rev := base[i].Annotations[revision.RevisionAnnotation]
		p.act(DeleteReplicaSet, base[i].Name, 0, 0, why{kind: whyDeleted, name: base[i].Name, rev: rev, limit: int64(limit)})
	}
	if newestFirst {
		clear(p.view) // drop the templates' references
	}
}

// markDeleted records that rss[i] is deleted.
func (p *planner[T]) markDeleted(i int) {
	for len(p.deleted) < len(p.rss) {
		p.deleted = append(p.deleted, false)
	}
	p.deleted[i] = true
	p.anyDeleted = true
}

// deploymentStatus writes the status without progress estimation.
// Upstream: syncDeploymentStatus.
func (p *planner[T]) deploymentStatus() {
	rss, newRS := p.preView()
	p.cur.Status = calculateStatus(p.cur, rss, newRS, p.now, p.st)
	p.endPreView()
}

// rolloutStatus writes the status with progress estimation, or requeues a
// stuck deployment whose status did not change. Upstream: syncRolloutStatus.
func (p *planner[T]) rolloutStatus() {
	rss, newRS := p.preView()
	s := rolloutStatus(p.cur, rss, newRS, p.now, p.st)
	p.endPreView()
	if equalStatus(&p.cur.Status, &s) {
		if after, ok := Requeue(p.cur, &s, p.now); ok {
			p.requeue, p.requeueAfter = true, after
		}
	}
	p.cur.Status = s
}

// preView returns the ReplicaSets as they were before this sync scaled,
// and the new one's index among them (none without a snapshot); call
// endPreView when done.
func (p *planner[T]) preView() ([]ReplicaSet[T], int) {
	if !p.hasPre {
		return nil, -1
	}
	return p.swapPre(), p.preNew
}

func (p *planner[T]) endPreView() {
	if p.hasPre {
		p.swapPre()
	}
}

// result fills out with the sync: the ReplicaSets without deleted ones
// (compacted in place), the deployment, and the rest. Reasons are left to
// Explain.
func (p *planner[T]) result(out *Sync[T]) {
	out.Path, out.Actions, out.NewReplicaSet, out.Hash = p.path, p.actions, -1, p.hash
	out.Requeue, out.RequeueAfter, out.Reason = p.requeue, p.requeueAfter, ""
	k := 0
	for i := range p.rss {
		if p.anyDeleted && i < len(p.deleted) && p.deleted[i] {
			continue
		}
		if i == p.newIdx {
			out.NewReplicaSet = k
		}
		if k != i {
			p.rss[k] = p.rss[i]
		}
		k++
	}
	clear(p.rss[k:])
	p.rss = p.rss[:k]
	if p.rss == nil {
		p.rss = []ReplicaSet[T]{} // as PlanWith: never nil
	}
	out.ReplicaSets = p.rss
	if len(p.actions) == 0 {
		out.Actions = nil // as PlanWith: nil when nothing is written
	}
}

// replicasAnnotationIs reports whether ann[key] is there and is
// proportion.FormatReplicas(n), without allocating.
func replicasAnnotationIs(ann map[string]string, key string, n int32) bool {
	var b [12]byte
	old, ok := ann[key]
	return ok && string(strconv.AppendInt(b[:0], int64(n), 10)) == old
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
