package argo

import (
	"slices"
	"strconv"
)

// writeStatus is persistRolloutStatus: it settles observedGeneration,
// abort and pause in p.status and writes it when it differs from the
// input's. Phase and message are not modelled: the input's are kept.
func (p *planner[T]) writeStatus() {
	s := &p.status
	prev := &p.ro.Status
	s.ObservedGeneration = strconv.FormatInt(p.ro.Generation, 10)
	s.Phase, s.Message = prev.Phase, prev.Message
	p.pauseStatus()
	if statusEqual(s, prev) {
		return
	}
	out := *s
	if s.CurrentStepIndex != nil {
		v := *s.CurrentStepIndex
		out.CurrentStepIndex = &v
	}
	if s.Canary.Weights != nil && s.Canary.Weights != prev.Canary.Weights {
		w := *s.Canary.Weights
		w.Additional = slices.Clone(w.Additional)
		out.Canary.Weights = &w
	}
	if s.AbortedAt != nil && s.AbortedAt != prev.AbortedAt {
		t := *s.AbortedAt
		out.AbortedAt = &t
	}
	out.PauseConditions = slices.Clone(s.PauseConditions)
	p.out.Rollout.Status = out
	p.add(Action{Kind: WriteStatus}, why{})
}

// pauseStatus is CalculatePauseStatus: abort, then pause conditions.
func (p *planner[T]) pauseStatus() {
	s := &p.status
	prev := &p.ro.Status
	if !p.pause.removeAbort && prev.Abort {
		s.Abort = true
		s.AbortedAt = prev.AbortedAt
		if s.AbortedAt == nil {
			p.abortedAt = p.now
			s.AbortedAt = &p.abortedAt
		}
		s.PauseConditions, s.ControllerPause = nil, false
		return
	}
	s.Abort, s.AbortedAt = false, nil
	if p.pause.clear {
		s.PauseConditions, s.ControllerPause = nil, false
		return
	}
	controllerPause := prev.ControllerPause
	conds := p.condBuf[:0]
	for _, c := range prev.PauseConditions {
		if !slices.Contains(p.pause.remove, c.Reason) {
			conds = append(conds, c)
		}
	}
	for _, r := range p.pause.add {
		if !hasPause(prev.PauseConditions, r) && !hasPause(conds, r) {
			conds = append(conds, PauseCondition{Reason: r, StartTime: p.now})
			controllerPause = true
		}
	}
	p.condBuf = conds
	if len(conds) == 0 {
		s.PauseConditions, s.ControllerPause = nil, false
		return
	}
	s.ControllerPause = controllerPause
	s.PauseConditions = conds
}

// statusEqual compares two statuses field by field (pointers by value).
func statusEqual(a, b *Status) bool {
	if a.Abort != b.Abort || a.ControllerPause != b.ControllerPause || a.CurrentPodHash != b.CurrentPodHash ||
		a.CurrentStepHash != b.CurrentStepHash || a.Replicas != b.Replicas || a.UpdatedReplicas != b.UpdatedReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas || a.ObservedGeneration != b.ObservedGeneration ||
		a.HPAReplicas != b.HPAReplicas || a.StableRS != b.StableRS || a.PromoteFull != b.PromoteFull || a.Phase != b.Phase ||
		a.Message != b.Message || a.BlueGreen != b.BlueGreen {
		return false
	}
	if !ptrEqual(a.CurrentStepIndex, b.CurrentStepIndex) || !ptrEqual(a.CollisionCount, b.CollisionCount) {
		return false
	}
	if (a.AbortedAt == nil) != (b.AbortedAt == nil) || (a.AbortedAt != nil && !a.AbortedAt.Equal(*b.AbortedAt)) {
		return false
	}
	if len(a.PauseConditions) != len(b.PauseConditions) {
		return false
	}
	for i := range a.PauseConditions {
		x, y := a.PauseConditions[i], b.PauseConditions[i]
		if x.Reason != y.Reason || !x.StartTime.Equal(y.StartTime) {
			return false
		}
	}
	return weightsEqual(a.Canary.Weights, b.Canary.Weights)
}

// weightsEqual compares two recorded weights.
func weightsEqual(a, b *Weights) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Canary == b.Canary && a.Stable == b.Stable && slices.Equal(a.Additional, b.Additional) && ptrEqual(a.Verified, b.Verified)
}

// ptrEqual compares two optional values.
func ptrEqual[V comparable](a, b *V) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// finish drops deleted ReplicaSets from the output.
func (p *planner[T]) finish() {
	j := 0
	for i := range p.out.ReplicaSets {
		if i < len(p.deleted) && p.deleted[i] {
			continue
		}
		p.out.ReplicaSets[j] = p.out.ReplicaSets[i]
		j++
	}
	clear(p.out.ReplicaSets[j:])
	p.out.ReplicaSets = p.out.ReplicaSets[:j]
	// Keep the buffers; an empty result is nil, whatever the history.
	p.actBuf, p.rsBuf = p.out.Actions, p.out.ReplicaSets
	if len(p.out.Actions) == 0 {
		p.out.Actions = nil
	}
	if len(p.out.ReplicaSets) == 0 {
		p.out.ReplicaSets = nil
	}
}
