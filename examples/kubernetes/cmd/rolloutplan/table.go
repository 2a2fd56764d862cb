package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rolloutmath/rolloutmath/examples/internal/rstable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// writeTable prints t as examples/rollout does, with its table layout
// (rstable): a description line, the column header, then for every sync
// a comment line with the reason and a row for each ReplicaSet that
// changed (every ReplicaSet before the update), and a summary.
func writeTable(w io.Writer, t *trace) error {
	table := rstable.Table{Heading: describe(t), Outcome: rstable.Outcome(t.t.Outcome), Syncs: t.t.Syncs,
		Recreate: t.d.Strategy == rollout.Recreate}
	first := t.step(0, "", t.d.Replicas, rollout.MaxSurge(&t.d), rollout.MaxUnavailable(&t.d), nil, t.initial)
	first.Comment = startLabel(t) + initialReason(t)
	table.Steps = append(table.Steps, first)
	prev := t.initial
	for _, s := range t.t.Steps {
		line := fmt.Sprintf("sync %d (+%s)", s.Sync, s.Elapsed)
		if len(s.Events) > 0 {
			events := s.Events
			if s.Sync == 1 && t.to != t.from {
				// The only scripted event: say which images change.
				events = []string{fmt.Sprintf("image %s -> %s", t.from, t.to)}
			}
			line += " [" + strings.Join(events, ", ") + "]"
		}
		table.Steps = append(table.Steps, t.step(s.Sync, line+": "+s.Reason, s.Replicas, s.MaxSurge, s.MaxUnavailable, prev, s.ReplicaSets))
		prev = s.ReplicaSets
	}
	return rstable.Write(w, &table)
}

// step returns a step of the table: its comment, the rows of the
// ReplicaSets in rss that changed since prev (all of them for the first
// step, sync 0), its pods, its available pods, and its bounds, R +
// maxSurge and R - maxUnavailable for a rolling update, R and 0 for
// Recreate.
func (t *trace) step(sync int, comment string, r, surge, unavailable int32, prev, rss []rollout.ReplicaSetState) rstable.Step {
	s := rstable.Step{Comment: comment, Sync: sync, Replicas: r, MaxSurge: surge, MaxUnavailable: unavailable,
		Ceiling: int64(r) + int64(surge), Floor: int64(r) - int64(unavailable)}
	if t.d.Strategy == rollout.Recreate {
		s.Ceiling, s.Floor = int64(r), 0
	}
	for _, rs := range rss {
		s.Pods += int64(rs.Current) + int64(rs.Terminating)
		s.Available += int64(rs.Available)
		if sync == 0 || changed(prev, rs) {
			s.Rows = append(s.Rows, rstable.Row{Name: rs.Name, Desired: rs.Desired, Current: rs.Current, Ready: rs.Ready, Available: rs.Available})
		}
	}
	return s
}

// initialReason describes the state before the update.
func initialReason(t *trace) string {
	switch len(t.initial) {
	case 0:
		return "no ReplicaSet yet"
	case 1:
		return "one ReplicaSet"
	}
	return fmt.Sprintf("%d ReplicaSets", len(t.initial))
}

// changed reports whether rs differs from the ReplicaSet of the same name
// in prev, or is not there.
func changed(prev []rollout.ReplicaSetState, rs rollout.ReplicaSetState) bool {
	for _, p := range prev {
		if p.Name == rs.Name {
			return p != rs
		}
	}
	return true
}

// describe returns the heading line.
func describe(t *trace) string {
	surge, unavailable := bound(t.d.MaxSurge, rollout.DefaultMaxSurge()), bound(t.d.MaxUnavailable, rollout.DefaultMaxUnavailable())
	strategy := rstable.Strategy(t.d.Strategy == rollout.Recreate, surge.String(), unavailable.String())
	image := t.from
	if t.to != t.from {
		image += " -> " + t.to
	}
	return rstable.Heading(t.d.Name, t.d.Replicas, strategy, image)
}

// bound returns *v, or def when v is nil.
func bound(v *intorpercent.Value, def intorpercent.Value) intorpercent.Value {
	if v == nil {
		return def
	}
	return *v
}

// startLabel begins the comment line of the starting state.
func startLabel(t *trace) string {
	if t.to != t.from {
		return "before the update: "
	}
	return "at the start: "
}
