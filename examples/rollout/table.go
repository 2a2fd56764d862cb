package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// writeTable prints t the way `kubectl get rs -w` shows a rollout: a
// description line, a line with now and nowFrom (where now came from),
// the column header once, then for every sync a comment line with the
// scripted events and the reason, followed by a row for each ReplicaSet
// that changed in that sync (every ReplicaSet at step 0). It ends with a
// summary: outcome, peak pods, lowest availability and the bounds.
func writeTable(w io.Writer, t *trace, nowFrom string) error {
	last := &t.Steps[len(t.Steps)-1]
	heading := describe(t) + "\nnow " + t.Now.Format(time.RFC3339) + " (" + nowFrom + "): the state before sync 1; sync k runs k * -interval later"
	table := rstable.Table{Heading: heading, Outcome: t.Outcome, Syncs: t.Syncs, Recreate: t.Strategy == "Recreate",
		Bounds: "none: Recreate has no maxSurge or maxUnavailable", Capacity: t.Capacity}
	if !table.Recreate {
		table.Bounds = fmt.Sprintf("maxSurge %s, maxUnavailable %s",
			resolved(t.MaxSurge, last.Replicas, last.MaxSurge, intorpercent.Up),
			resolved(t.MaxUnavailable, last.Replicas, last.MaxUnavailable, intorpercent.Down))
	}
	table.Steps = make([]rstable.Step, len(t.Steps))
	for i := range t.Steps {
		s := &t.Steps[i]
		table.Steps[i] = rstable.Step{Comment: stepLine(s), Sync: s.N, Pods: s.Pods(), Available: s.AvailablePods(), Replicas: s.Replicas,
			MaxSurge: s.MaxSurge, MaxUnavailable: s.MaxUnavailable, Ceiling: s.Ceiling, Floor: s.Floor}
		for _, rs := range s.ReplicaSets {
			if i > 0 && !changed(&t.Steps[i-1], rs) {
				continue
			}
			table.Steps[i].Rows = append(table.Steps[i].Rows, rstable.Row{Name: rs.Name, Desired: rs.Desired, Current: rs.Current, Ready: rs.Ready, Available: rs.Available})
		}
	}
	return rstable.Write(w, &table)
}

// describe returns the one-line description of the deployment and the
// update that heads the table.
func describe(t *trace) string {
	last := &t.Steps[len(t.Steps)-1]
	strategy := t.Strategy
	if t.Strategy != "Recreate" {
		strategy = rstable.Strategy(false, t.MaxSurge, t.MaxUnavailable)
	}
	return rstable.Heading(t.Deployment, last.Replicas, strategy, t.FromImage+" -> "+t.ToImage)
}

// stepLine returns the comment line of step s: its number, its scripted
// events in brackets, and its reasons joined into one line.
func stepLine(s *step) string {
	var b strings.Builder
	if s.N == 0 {
		b.WriteString("before the update")
	} else {
		fmt.Fprintf(&b, "sync %d (+%s)", s.N, s.Elapsed)
	}
	if len(s.Events) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(s.Events, ", "))
	}
	b.WriteString(": ")
	if len(s.Reasons) == 0 {
		b.WriteString("nothing to do")
	} else {
		b.WriteString(strings.Join(s.Reasons, "; "))
	}
	return b.String()
}

// changed reports whether rs differs from the same ReplicaSet in prev, or
// is new since prev.
func changed(prev *step, rs rsRow) bool {
	old, ok := prev.Row(rs.Name)
	return !ok || old != rs
}

// resolved describes how a maxSurge or maxUnavailable value as written
// resolved to n pods for r replicas, rounding percentages in direction
// round: "25% of 10 = 3 pods", "2 pods", or, where the rollout math
// changed the value, "1000, clamped to R = 10 pods" and "0, raised to 1
// because maxSurge is also 0 = 1 pod".
func resolved(value string, r, n int32, round intorpercent.Rounding) string {
	v, err := intorpercent.Parse(value)
	if err != nil {
		return fmt.Sprintf("%s = %s", value, podCount(n))
	}
	scaled, _ := v.Scaled(r, round)
	text := value
	if v.IsPercent() {
		text = fmt.Sprintf("%s of %d", value, r)
	}
	switch {
	case scaled == n && !v.IsPercent():
		return podCount(n)
	case scaled < n:
		text += ", raised to 1 because maxSurge is also 0"
	case scaled > n:
		text += ", clamped to R"
	}
	return fmt.Sprintf("%s = %s", text, podCount(n))
}

// podCount returns "1 pod" or "n pods".
func podCount(n int32) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}
