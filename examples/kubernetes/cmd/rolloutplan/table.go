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
	p := rstable.NewPrinter(w)
	p.Printf("%s\n\n", describe(t))
	steps := t.steps()
	table := make([]rstable.Step, len(steps))
	points := make([]rstable.Point, len(steps))
	for i := range steps {
		s := &steps[i]
		table[i].Comment = s.line
		for _, rs := range s.rss {
			if i > 0 && !changed(steps[i-1].rss, rs) {
				continue
			}
			table[i].Rows = append(table[i].Rows, rstable.Row{Name: rs.Name, Desired: rs.Desired, Current: rs.Current, Ready: rs.Ready, Available: rs.Available})
		}
		points[i] = s.point
	}
	p.Steps(table)
	p.Printf("\n")
	p.Summary(rstable.Outcome(t.t.Outcome), t.t.Syncs, t.d.Strategy == rollout.Recreate, points)
	return p.Err()
}

// row is one printed step: the comment line, the ReplicaSets, and the
// step as the summary reads it.
type row struct {
	line  string
	rss   []rollout.ReplicaSetState
	point rstable.Point
}

// steps returns the state before the update followed by every sync that
// changed something.
func (t *trace) steps() []row {
	first := row{line: startLabel(t) + initialReason(t), rss: t.initial}
	first.point = t.point(0, t.d.Replicas, rollout.MaxSurge(&t.d), rollout.MaxUnavailable(&t.d), t.initial)
	out := []row{first}
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
		out = append(out, row{line: line + ": " + s.Reason, rss: s.ReplicaSets,
			point: t.point(s.Sync, s.Replicas, s.MaxSurge, s.MaxUnavailable, s.ReplicaSets)})
	}
	return out
}

// point returns a step for the summary: its pods, its available pods,
// and its bounds, R + maxSurge and R - maxUnavailable for a rolling
// update, R and 0 for Recreate.
func (t *trace) point(sync int, r, surge, unavailable int32, rss []rollout.ReplicaSetState) rstable.Point {
	p := rstable.Point{Sync: sync, Replicas: r, MaxSurge: surge, MaxUnavailable: unavailable,
		Ceiling: int64(r) + int64(surge), Floor: int64(r) - int64(unavailable)}
	if t.d.Strategy == rollout.Recreate {
		p.Ceiling, p.Floor = int64(r), 0
	}
	for _, rs := range rss {
		p.Pods += int64(rs.Current) + int64(rs.Terminating)
		p.Available += int64(rs.Available)
	}
	return p
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
