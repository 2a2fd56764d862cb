package main

import (
	"fmt"
	"io"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
)

// strategyTitle names the kind of update in the chart's title.
func strategyTitle(strategy string) string {
	if strategy == "Recreate" {
		return "Recreate update"
	}
	return "Rolling update"
}

// writeSVG draws t with package chart: every ReplicaSet is one series
// (its current pods), with the bounds and the totals.
//
// The elements a test can find: <g class="series" data-replicaset=NAME>
// per ReplicaSet, <g class="bound" data-bound="ceiling|floor">, and
// <g class="total" data-total="pods|available">.
func writeSVG(w io.Writer, t *trace) error {
	last := &t.Steps[len(t.Steps)-1]
	c := chart.Chart{
		Desc:       describe(t),
		Title:      fmt.Sprintf("%s of %s: %s -> %s", strategyTitle(t.Strategy), t.Deployment, t.FromImage, t.ToImage),
		Subtitle:   fmt.Sprintf("%d replicas, Recreate; pods of each ReplicaSet as each sync saw them", last.Replicas),
		XLabel:     "sync step (0 = before the update)",
		Ceiling:    "ceiling: R + maxSurge",
		Floor:      "floor: R - maxUnavailable",
		SeriesAttr: "data-replicaset",
	}
	if t.Strategy == "Recreate" {
		c.Ceiling, c.Floor = "ceiling: R (Recreate)", "floor: none (Recreate)"
	} else {
		c.Subtitle = fmt.Sprintf("%d replicas, maxSurge %s, maxUnavailable %s; pods of each ReplicaSet as each sync saw them",
			last.Replicas, t.MaxSurge, t.MaxUnavailable)
	}
	for i := range t.Steps {
		s := &t.Steps[i]
		cs := chart.Step{N: s.N, Pods: s.Pods(), Available: s.AvailablePods(), Replicas: s.Replicas, Ceiling: s.Ceiling, Floor: s.Floor}
		for _, rs := range s.ReplicaSets {
			cs.Series = append(cs.Series, chart.Value{Name: rs.Name, Label: fmt.Sprintf("%s (rev %d)", rs.Name, rs.Revision), Value: int64(rs.Current)})
		}
		c.Steps = append(c.Steps, cs)
	}
	return chart.Write(w, &c)
}
