package argo

import (
	"slices"
	"strconv"
)

// writeStatus is persistRolloutStatus: it settles observedGeneration,
// abort, pause and the phase in p.status and writes it when it differs
// from the input's.
func (p *planner[T]) writeStatus() {
	s := &p.status
	prev := &p.ro.Status
	s.ObservedGeneration = strconv.FormatInt(p.ro.Generation, 10)
	p.pauseStatus()
	s.Phase, s.Message = p.phase(s)
	if p.weightsKept {
		s.Canary.Weights = prev.Canary.Weights
	}
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

// phase is the phase and message of status s, as the controller
// computes them once abort and pause are settled. The conditions it
// reads are not modelled but for the abort: an aborted rollout is
// Degraded with the RolloutAborted condition's text; a progress
// deadline that has passed (TimedOut) is not detected.
// Upstream: CalculateRolloutPhase, utils/rollout/rolloututil.go.
func (p *planner[T]) phase(s *Status) (Phase, string) {
	ro := p.ro
	if s.Abort {
		var rev int64
		if p.newRS != nil {
			rev = p.out.ReplicaSets[p.index(p.newRS)].Revision
		}
		return PhaseDegraded, "RolloutAborted: Rollout aborted update to revision " + strconv.FormatInt(rev, 10)
	}
	if ro.Paused {
		return PhasePaused, "manually paused"
	}
	if len(s.PauseConditions) > 0 {
		return PhasePaused, string(s.PauseConditions[0].Reason)
	}
	if s.UpdatedReplicas < ReplicasOrDefault(ro.Replicas) {
		return PhaseProgressing, "more replicas need to be updated"
	}
	if s.AvailableReplicas < s.UpdatedReplicas {
		return PhaseProgressing, "updated replicas are still becoming available"
	}
	if ro.Strategy.BlueGreen != nil {
		if s.BlueGreen.ActiveSelector == "" || s.BlueGreen.ActiveSelector != s.CurrentPodHash {
			return PhaseProgressing, "active service cutover pending"
		}
		if s.StableRS == "" || s.StableRS != s.CurrentPodHash {
			return PhaseProgressing, "waiting for post-promotion verification to complete"
		}
	} else if c := ro.Strategy.Canary; c != nil {
		if c.TrafficRouting == nil && s.Replicas > s.UpdatedReplicas {
			return PhaseProgressing, "old replicas are pending termination"
		}
		if s.StableRS == "" || s.StableRS != s.CurrentPodHash {
			return PhaseProgressing, "waiting for all steps to complete"
		}
	}
	return PhaseHealthy, ""
}
