package rollout

import (
	"fmt"
	"maps"
	"math"

	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// sync is the paused and scaling-event branch. Upstream: sync.
func (p *planner[T]) sync() {
	if !p.syncRevision(false) {
		return
	}
	p.snapshot()
	p.proportional()
	if p.in.Paused && !p.rollbackPending() {
		p.cleanupHistory(true)
	}
	p.deploymentStatus()
	if len(p.actions) == 0 && p.note.kind == whyNone {
		if p.in.Paused {
			p.note = why{kind: whyPaused}
		} else {
			p.note = why{kind: whyScalingIdle}
		}
	}
}

// proportional resizes the ReplicaSets after a change of R. Upstream: scale.
func (p *planner[T]) proportional() {
	pd, prs := p.proportionInputs()
	res, err := proportion.Scale(pd, prs, p.newIdx, p.opts.Proportion)
	if err != nil {
		p.note = textWhy("proportional scaling failed: " + err.Error())
		return
	}
	if p.opts.Surge == SurgeCountsTerminating {
		var before, after, term int64
		for i := range p.rss {
			before += int64(p.rss[i].Replicas)
			after += int64(res.Targets[i].Replicas)
			term += int64(terminating(&p.rss[i]))
		}
		if after > before && after+term > int64(maxTotal(p.cur)) {
			p.note = why{kind: whyTermScaleUp, terminating: term, to: after}
			return
		}
	}
	var from int64
	for i := range p.rss {
		if p.rss[i].Replicas > 0 {
			from += int64(p.rss[i].Replicas)
		}
	}
	cause := why{cause: causeProportion, replicas: int64(p.cur.Replicas), before: from}
	// Write in the order upstream's scale() visits the ReplicaSets:
	// res.Order (largest first, the direction deciding ties; old newest
	// first then new when nothing is added; the saturated case's old
	// ones newest first).
	p.written = append(p.written[:0], make([]bool, len(p.rss))...)
	for _, i := range res.Order {
		if t := res.Targets[i]; t.Annotate || t.Replicas != p.rss[i].Replicas {
			p.scale(i, t.Replicas, true, cause)
			p.written[i] = true
		}
	}
	if p.opts.Resize != ResizeRefreshesAnnotations {
		return
	}
	// Upstream leaves a stale desired-replicas annotation on an active
	// ReplicaSet that scale() does not touch, and every later sync is a
	// scaling event again: refresh it so the rollout can go on.
	for i := range p.rss {
		rs := &p.rss[i]
		if p.written[i] || rs.Replicas == 0 {
			continue
		}
		if v, ok := proportion.DesiredAnnotation(proportionReplicaSet(rs)); ok && v != p.cur.Replicas {
			p.scale(i, rs.Replicas, true, why{cause: causeEmpty})
		}
	}
}

// rollback restores the template of the revision asked for. Upstream:
// rollback and rollbackToTemplate.
func (p *planner[T]) rollback() {
	if !p.syncRevision(true) {
		return
	}
	target, _ := p.rollbackTarget()
	p.clearRollback()
	if target == 0 {
		target = revision.LastRevision(p.rss)
		if target == 0 {
			p.act(SkipRollback, "", 0, 0, why{kind: whyNoLast})
			return
		}
	}
	// RollbackTarget orders the candidates as upstream does (old ones
	// oldest first, then the new one), whatever the order of p.rss.
	r := revision.RollbackTarget(&p.cur.Template, p.rss, target)
	switch r.Outcome {
	case revision.RollbackUnchanged:
		rs := &p.rss[r.Index]
		p.act(SkipRollback, rs.Name, rs.Replicas, rs.Replicas, why{kind: whySameTemplate, name: p.cur.Name})
	case revision.RolledBack:
		rs := &p.rss[r.Index]
		p.cur.Template = revision.WithoutHashLabel(&rs.Template)
		p.cur.Annotations = revision.RollbackAnnotations(p.cur.Annotations, rs.Annotations)
		delete(p.cur.Annotations, revision.RollbackToAnnotation)
		p.act(RollBack, rs.Name, rs.Replicas, rs.Replicas, why{kind: whyRolledBack, name: p.cur.Name, source: rs.Name, revision: target})
	default:
		p.act(SkipRollback, "", 0, 0, why{kind: whyNoRevision, revision: target})
	}
}

// rollbackTarget returns the pending rollback: d.RollbackTo, else the
// deprecated.deployment.rollback.to annotation when it holds an integer.
// Upstream: getRollbackTo.
func (p *planner[T]) rollbackTarget() (int64, bool) {
	if p.in.RollbackTo != nil {
		return *p.in.RollbackTo, true
	}
	return revision.RollbackTo(p.in.Annotations)
}

func (p *planner[T]) rollbackPending() bool {
	_, ok := p.rollbackTarget()
	return ok
}

// clearRollback removes the pending rollback, field and annotation, and
// raises the generation: upstream ends every rollback, performed or
// skipped, with one update of the deployment that removes the annotation
// (with the restored template when performed), and the API server raises
// metadata.generation when the annotations or the spec change. RollbackTo
// stands for the annotation, so clearing it counts as that change.
// Upstream: updateDeploymentAndClearRollbackTo.
func (p *planner[T]) clearRollback() {
	if p.cur.Generation == math.MaxInt64 {
		p.fail(fmt.Errorf("rollout: Deployment %q: metadata.generation is %d; the rollback's update would wrap it to %d, which the API server rejects: %w",
			p.cur.Name, p.cur.Generation, int64(math.MinInt64), ErrCounterOverflow))
		return
	}
	p.cur.Generation++
	p.cur.RollbackTo = nil
	if _, ok := p.cur.Annotations[revision.RollbackToAnnotation]; ok {
		p.cur.Annotations = maps.Clone(p.cur.Annotations)
		delete(p.cur.Annotations, revision.RollbackToAnnotation)
	}
}

// rolling is one RollingUpdate step. Upstream: rolloutRolling.
func (p *planner[T]) rolling() {
	if !p.syncRevision(true) {
		return
	}
	p.snapshot()
	n := p.newIdx
	R := p.cur.Replicas
	if spec := p.rss[n].Replicas; spec != R {
		var to int32
		var w why
		if spec > R {
			to, w.cause, w.replicas = R, causeTooMany, int64(R)
		} else {
			var err error
			to, err = newReplicas(p.cur, p.rss, n, p.opts.Surge == SurgeCountsTerminating)
			if err != nil {
				p.note = textWhy(err.Error())
				return
			}
			p.surgeWhy(&w, n)
		}
		if p.scale(n, to, false, w) {
			p.rolloutStatus()
			return
		}
	}
	if p.reconcileOld() {
		p.rolloutStatus()
		return
	}
	if Complete(p.cur, &p.cur.Status) {
		p.cleanupHistory(false)
	}
	p.rolloutStatus()
	if len(p.actions) == 0 && p.note.kind == whyNone {
		p.note = p.waitingWhy()
	}
}

// reconcileOld scales old ReplicaSets down, first the unhealthy ones, and
// reports whether that counts as scaling. Upstream: reconcileOldReplicaSets.
//
// Both of upstream's steps read the ReplicaSets as they were before
// either scaled (the cleanup's result only lowers the sizes the second
// step starts from), so both are computed before any is written.
func (p *planner[T]) reconcileOld() bool {
	n := p.newIdx
	var oldPods int64
	for i := range p.rss {
		if i != n {
			oldPods += int64(p.rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return false
	}
	budget := MaxScaledDown(p.cur, p.rss, n)
	if budget <= 0 {
		p.note = p.waitingWhy()
		return false
	}
	p.sizes = p.sizes[:0]
	for i := range p.rss {
		p.sizes = append(p.sizes, p.rss[i].Replicas)
	}
	// p.rss is oldest first (plan sorted it by byCreation, the order
	// older gives distinct names), but for a ReplicaSet created in this
	// sync, which is the new one, n: the old ones are in order already.
	p.order = p.order[:0]
	for i := range p.rss {
		if i != n {
			p.order = append(p.order, i)
		}
	}
	sizes, order := p.sizes, p.order
	cleaned, err := cleanupUnhealthy(p.rss, n, order, budget, sizes)
	p.cleaned = append(p.cleaned[:0], sizes...)
	var removed int32
	minAvail := MinAvailable(p.cur)
	var available int64
	if err == nil {
		for i := range p.rss {
			if i == n || p.rss[i].Replicas > 0 {
				available += int64(p.rss[i].AvailableReplicas)
			}
		}
		removed, _ = scaleDownOld(p.cur, p.rss, n, order, sizes)
	}
	for _, i := range order {
		if to := p.cleaned[i]; to != p.rss[i].Replicas {
			w := why{cause: causeUnhealthy, unavailable: int64(p.rss[i].Replicas - p.rss[i].AvailableReplicas), budget: int64(budget)}
			p.scale(i, to, false, w)
		}
	}
	if err != nil {
		p.note = textWhy("no old pods scaled down: " + err.Error())
		return false
	}
	for _, i := range order {
		if sizes[i] != p.rss[i].Replicas {
			w := why{cause: causeAvailable, available: available, minAvailable: int64(minAvail), replicas: int64(p.cur.Replicas), maxUnavailable: int64(MaxUnavailable(p.cur))}
			p.scale(i, sizes[i], false, w)
		}
	}
	return cleaned+removed > 0
}

// waitingWhy records why a rolling step moved nothing, as things are now.
func (p *planner[T]) waitingWhy() why {
	s := &p.cur.Status
	if Complete(p.cur, s) {
		return why{kind: whyComplete, available: int64(s.AvailableReplicas), replicas: int64(p.cur.Replicas)}
	}
	n := p.newIdx
	if n < 0 {
		return why{kind: whyNoNew}
	}
	newRS := &p.rss[n]
	var oldPods int64
	for i := range p.rss {
		if i != n {
			oldPods += int64(p.rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return why{kind: whyWaitNew, name: newRS.Name, available: int64(newRS.AvailableReplicas), spec: int64(newRS.Replicas)}
	}
	return why{kind: whyWaitLimit, pods: sumSpec(p.rss),
		unavailable: int64(newRS.Replicas - newRS.AvailableReplicas), minAvailable: int64(MinAvailable(p.cur))}
}

func sumSpec[T any](rss []ReplicaSet[T]) int64 {
	var s int64
	for i := range rss {
		s += int64(rss[i].Replicas)
	}
	return s
}

// recreate is one Recreate step. Upstream: rolloutRecreate.
func (p *planner[T]) recreate() {
	if !p.syncRevision(false) {
		return
	}
	p.snapshot()
	scaled := false
	for i := range p.rss {
		if i != p.newIdx && p.rss[i].Replicas > 0 {
			if p.scale(i, 0, false, why{cause: causeRecreateOff}) {
				scaled = true
			}
		}
	}
	if scaled {
		p.rolloutStatus()
		return
	}
	if running, n := p.oldPodsRunning(); running {
		p.note = why{kind: whyOldRunning, old: n}
		p.rolloutStatus()
		return
	}
	if p.opts.Surge == SurgeCountsTerminating {
		var term int64
		for i := range p.rss {
			term += int64(terminating(&p.rss[i]))
		}
		var spec int64
		if p.newIdx >= 0 {
			spec = int64(p.rss[p.newIdx].Replicas)
		}
		if term > 0 && spec < int64(p.cur.Replicas) {
			p.note = why{kind: whyTermStart, terminating: term}
			p.rolloutStatus()
			return
		}
	}
	if p.newIdx < 0 {
		if !p.syncRevision(true) {
			return
		}
		p.snapshot()
	}
	p.scale(p.newIdx, p.cur.Replicas, false, why{cause: causeRecreateOn})
	if Complete(p.cur, &p.cur.Status) {
		p.cleanupHistory(false)
	}
	p.rolloutStatus()
	if len(p.actions) == 0 && p.note.kind == whyNone {
		p.note = p.waitingWhy()
	}
}

// oldPodsRunning reports whether old ReplicaSets still have pods, running
// or terminating, and how many. Upstream: oldPodsRunning (which reads
// pods; a ReplicaSet's status.replicas plus status.terminatingReplicas
// stands in for them here).
func (p *planner[T]) oldPodsRunning() (bool, int64) {
	var n int64
	for i := range p.rss {
		if i != p.newIdx {
			n += int64(p.rss[i].StatusReplicas) + int64(terminating(&p.rss[i]))
		}
	}
	return n > 0, n
}
