package argo

import "time"

// blueGreen is rolloutBlueGreen. The Services are not read: the
// selectors recorded in status.blueGreen stand for them (the controller
// writes both in the same sync).
func (p *planner[T]) blueGreen() {
	b := p.ro.Strategy.BlueGreen
	p.previewSel = p.ro.Status.BlueGreen.PreviewSelector
	p.activeSel = p.ro.Status.BlueGreen.ActiveSelector
	if b.PreviewService != "" && p.haltProgress() == "" {
		p.switchService(&p.previewSel, p.newRS.PodTemplateHash, SwitchPreviewService)
	}
	if p.podSpecChanged() {
		p.sum.kind = sumReset
		p.syncStatusBlueGreen()
		return
	}
	p.reconcileBlueGreenReplicaSets()
	p.reconcileBlueGreenPause()
	p.reconcileActiveService()
	p.syncStatusBlueGreen()
}

// switchService points a Service's selector (*sel) at hash.
func (p *planner[T]) switchService(sel *string, hash string, kind ActionKind) {
	if *sel == hash {
		return
	}
	p.add(Action{Kind: kind, Hash: hash}, why{fromHash: *sel, abort: p.ro.Status.Abort})
	*sel = hash
}

// reconcileBlueGreenReplicaSets sizes stable (to replicas), new
// (NewReplicas, with the abort delay) and the old ReplicaSets (with the
// scale-down delay), then applies the history limit.
func (p *planner[T]) reconcileBlueGreenReplicaSets() {
	p.removeScaleDownDeadlines()
	scaledStable := false
	if p.stable != nil {
		scaledStable = p.scale(p.stable, p.r, why{role: whyStable, blueGreen: true, target: p.r})
	}
	if !(scaledStable && p.stable == p.newRS) {
		// Upstream writes the same stale ReplicaSet a second time here
		// when stable is new, and that update fails with a conflict.
		p.reconcileNewReplicaSet(nil)
	}
	p.reconcileOthers()
	p.reconcileRevisionHistoryLimit()
}

// scaleDownOldBlueGreen is scaleDownOldReplicaSetsForBlueGreen.
func (p *planner[T]) scaleDownOldBlueGreen(old []*ReplicaSet[T]) bool {
	if hasPause(p.ro.Status.PauseConditions, PauseInconclusiveAnalysis) {
		return false
	}
	newestFirst(old)
	scaled := false
	counted := int32(0)
	for _, rs := range old {
		if p.referenced(rs) || rs.Replicas == 0 {
			continue
		}
		w := why{role: whyOld}
		var desired int32
		counted, desired = p.scaleDownDelay(rs, counted, p.r, &w)
		if rs.Replicas == desired {
			continue
		}
		p.scale(rs, desired, w)
		scaled = true
	}
	return scaled
}

// readyForPause is ReadyForPause: the new ReplicaSet is at its size and
// all of it available.
func (p *planner[T]) readyForPause() bool {
	n := NewReplicas(p.ro, p.all, p.newRS, nil)
	return p.newRS.Replicas == n && p.newRS.AvailableReplicas == n
}

// fastTracked is isBlueGreenFastTracked.
func (p *planner[T]) fastTracked() bool {
	return p.fastRollback() || p.ro.Status.PromoteFull || p.activeSel == "" || p.activeSel == p.newRS.PodTemplateHash
}

// completedBlueGreenPause is CompletedBlueGreenPause.
func (p *planner[T]) completedBlueGreenPause() bool {
	ro := p.ro
	b := ro.Strategy.BlueGreen
	start, ok := pauseStart(ro.Status.PauseConditions, PauseBlueGreen)
	switch {
	case len(p.pause.add) > 0:
		return false
	case ro.Status.BlueGreen.ScaleUpPreviewCheckPoint:
		return true
	case AutoPromotionEnabledOrDefault(ro):
		if b.AutoPromotionSeconds == 0 {
			return true
		}
		if ok {
			return p.now.After(start.Add(time.Duration(b.AutoPromotionSeconds) * time.Second))
		}
		return false
	}
	return ro.Status.ControllerPause && !ok
}

// reconcileBlueGreenPause is reconcileBlueGreenPause: the controller
// pauses before promotion when auto-promotion is off or delayed.
func (p *planner[T]) reconcileBlueGreenPause() {
	ro := p.ro
	b := ro.Strategy.BlueGreen
	if ro.Status.Abort || !p.readyForPause() || p.haltProgress() != "" {
		return
	}
	needsPause := (b.AutoPromotionEnabled != nil && !*b.AutoPromotionEnabled) || b.AutoPromotionSeconds > 0
	if p.fastTracked() || p.activeSel == p.newRS.PodTemplateHash || ro.Status.BlueGreen.ScaleUpPreviewCheckPoint || !needsPause {
		p.pause.remove = append(p.pause.remove, PauseBlueGreen)
		return
	}
	start, ok := pauseStart(ro.Status.PauseConditions, PauseBlueGreen)
	if ok {
		if !p.completedBlueGreenPause() {
			if b.AutoPromotionSeconds > 0 {
				end := start.Add(time.Duration(b.AutoPromotionSeconds) * time.Second)
				if next := p.now.Add(p.opts.resync()); next.After(end) && end.After(p.now) {
					p.requeueAfter(end.Sub(p.now))
				}
			}
		} else {
			p.pause.remove = append(p.pause.remove, PauseBlueGreen)
		}
		return
	}
	if !ro.Status.ControllerPause {
		p.pause.add = append(p.pause.add, PauseBlueGreen)
	}
}

// reconcileActiveService moves the active Service to the new ReplicaSet
// once it is saturated and the pause is over, or back to stable on
// abort.
func (p *planner[T]) reconcileActiveService() {
	ro := p.ro
	if p.haltProgress() != "" || !p.readyForPause() {
		return
	}
	n := p.newRS
	if n.Replicas != p.r || n.DesiredReplicas == nil || *n.DesiredReplicas != p.r || n.AvailableReplicas != p.r {
		return
	}
	hash := p.activeSel
	if p.fastTracked() {
		hash = n.PodTemplateHash
	}
	if p.completedBlueGreenPause() {
		hash = n.PodTemplateHash
	}
	if ro.Status.Abort {
		hash = ro.Status.StableRS
	}
	p.switchService(&p.activeSel, hash, SwitchActiveService)
}

// syncStatusBlueGreen is syncRolloutStatusBlueGreen.
func (p *planner[T]) syncStatusBlueGreen() {
	ro := p.ro
	p.baseStatus()
	s := &p.status
	if p.podSpecChanged() {
		p.resetStatus()
	}
	if ro.Status.PromoteFull || p.rollbackWithinWindow() {
		p.pause.clear, p.pause.removeAbort = true, true
	}
	s.BlueGreen.PreviewSelector = p.previewSel
	s.BlueGreen.ActiveSelector = p.activeSel
	if reason := p.shouldFullPromote(); reason != "" {
		p.promoteStable(reason)
	} else {
		s.BlueGreen.ScaleUpPreviewCheckPoint = p.previewCheckPoint()
	}
	if active := byHash(p.all, p.activeSel); active != nil {
		s.HPAReplicas = active.StatusReplicas
		s.AvailableReplicas = active.AvailableReplicas
		s.ReadyReplicas = active.ReadyReplicas
	} else {
		s.HPAReplicas = sumActual(p.all)
		s.AvailableReplicas = sumAvailable(p.all)
	}
	p.writeStatus()
}

// previewCheckPoint is calculateScaleUpPreviewCheckPoint.
func (p *planner[T]) previewCheckPoint() bool {
	b := p.ro.Strategy.BlueGreen
	if b.PreviewReplicaCount == nil {
		return false
	}
	if p.ro.Status.BlueGreen.ScaleUpPreviewCheckPoint {
		return true
	}
	if !p.completedBlueGreenPause() {
		return false
	}
	return *b.PreviewReplicaCount == p.newRS.AvailableReplicas
}
