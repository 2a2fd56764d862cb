package main

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/report"
	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// report returns t in the shape both example programs print with -o json
// (examples/internal/report), which the table is also printed from. Step
// 0 is the state before the update.
func (t *trace) report() *report.Trace {
	recreate := t.d.Strategy == rollout.Recreate
	out := &report.Trace{Deployment: t.d.Name, Strategy: string(rollout.RollingUpdate), FromImage: t.from, ToImage: t.to,
		Now: t.now, Syncs: t.t.Syncs, Outcome: rstable.Outcome(t.t.Outcome), Capacity: t.capacity}
	if recreate {
		out.Strategy = string(rollout.Recreate)
	} else {
		out.MaxSurge = bound(t.d.MaxSurge, rollout.DefaultMaxSurge()).String()
		out.MaxUnavailable = bound(t.d.MaxUnavailable, rollout.DefaultMaxUnavailable()).String()
	}
	first := report.Step{Reasons: initialReasons(t), Replicas: t.d.Replicas}
	first.SetBounds(recreate, rollout.MaxSurge(&t.d), rollout.MaxUnavailable(&t.d))
	addReplicaSets(&first, t.initial)
	out.Steps = append(out.Steps, first)
	for _, s := range t.t.Steps {
		st := report.Step{N: s.Sync, Elapsed: s.Elapsed.String(), Events: s.Events, Path: s.Path.String(),
			Actions: s.Actions, Reasons: []string{s.Reason}, Replicas: s.Replicas}
		if len(s.Events) > 0 && s.Sync == 1 && t.to != t.from {
			// The only scripted event: say which images change.
			st.Events = []string{fmt.Sprintf("image %s -> %s", t.from, t.to)}
		}
		st.SetBounds(recreate, s.MaxSurge, s.MaxUnavailable)
		addReplicaSets(&st, s.ReplicaSets)
		out.Steps = append(out.Steps, st)
	}
	return out
}

// addReplicaSets adds the rows of rss to s and sums their terminating
// pods.
func addReplicaSets(s *report.Step, rss []rollout.ReplicaSetState) {
	for _, rs := range rss {
		s.ReplicaSets = append(s.ReplicaSets, report.ReplicaSet{Name: rs.Name, Revision: rs.Revision,
			Desired: rs.Desired, Current: rs.Current, Ready: rs.Ready, Available: rs.Available})
		s.Terminating += rs.Terminating
	}
}

// initialReasons describe the state before the update: how many
// ReplicaSets there are and, when none were given, what that assumes.
func initialReasons(t *trace) []string {
	var r string
	switch len(t.initial) {
	case 0:
		r = "no ReplicaSet yet"
	case 1:
		r = "one ReplicaSet"
	default:
		r = fmt.Sprintf("%d ReplicaSets", len(t.initial))
	}
	if !t.assumed {
		return []string{r}
	}
	if len(t.initial) == 0 {
		return []string{r, "no ReplicaSets were given, so revision numbers assume none exist"}
	}
	return []string{r + ", assumed settled at revision 1", "no ReplicaSets were given, so revision numbers assume no others exist"}
}
