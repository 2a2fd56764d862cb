package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/report"
	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// writeTable prints t as examples/rollout does, with its table layout
// (rstable): a description line, a line with now and where it came from,
// the column header, then for every sync
// a comment line with the reason and a row for each ReplicaSet that
// changed (every ReplicaSet before the update), and a summary with the
// capacity the rollout needs.
func writeTable(w io.Writer, t *trace) error {
	r := t.report()
	heading := describe(t) + "\nnow " + t.now.Format(time.RFC3339) + " (" + t.nowFrom + "): the state before sync 1; sync k runs k * -interval later"
	table := rstable.Table{Heading: heading, Outcome: r.Outcome, Syncs: r.Syncs,
		Recreate: t.d.Strategy == rollout.Recreate, Capacity: r.Capacity}
	for i := range r.Steps {
		s := &r.Steps[i]
		row := rstable.Step{Comment: comment(t, s), Sync: s.N, Pods: s.Pods(), Available: s.AvailablePods(), Replicas: s.Replicas,
			MaxSurge: s.MaxSurge, MaxUnavailable: s.MaxUnavailable, Ceiling: s.Ceiling, Floor: s.Floor}
		for _, rs := range s.ReplicaSets {
			if i > 0 {
				if old, ok := r.Steps[i-1].Row(rs.Name); ok && old == rs {
					continue
				}
			}
			row.Rows = append(row.Rows, rstable.Row{Name: rs.Name, Desired: rs.Desired, Current: rs.Current, Ready: rs.Ready, Available: rs.Available})
		}
		table.Steps = append(table.Steps, row)
	}
	return rstable.Write(w, &table)
}

// comment returns the comment line of step s: "before the update: ..."
// or "at the start: ..." for step 0, else "sync N (+ELAPSED) [EVENTS]:
// REASON", with the step's reasons joined by "; ".
func comment(t *trace, s *report.Step) string {
	var b strings.Builder
	switch {
	case s.N > 0:
		fmt.Fprintf(&b, "sync %d (+%s)", s.N, s.Elapsed)
		if len(s.Events) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(s.Events, ", "))
		}
	case t.to != t.from:
		b.WriteString("before the update")
	default:
		b.WriteString("at the start")
	}
	b.WriteString(": ")
	b.WriteString(strings.Join(s.Reasons, "; "))
	return b.String()
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
