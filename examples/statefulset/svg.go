package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// writeSVG draws the rollout with package chart, as examples/cloneset
// draws a CloneSet's: one series per revision (its pods, terminating
// ones left out), the ceiling R (a StatefulSet never surges), the floor
// R - maxUnavailable (1 with the gate off), all pods and the ready and
// available ones, counted as each sync leaves them. Step 0 is the set
// before the update.
func writeSVG(w io.Writer, cfg *config, r *result) error {
	oldRev, newRev := r.before.Status.UpdateRevision, r.trace.StatefulSet.Status.UpdateRevision
	oldLabel, newLabel := cfg.fromImage+" ("+oldRev+")", cfg.toImage+" ("+newRev+")"
	c := chart.Chart{
		Desc:       heading(cfg, r),
		Title:      fmt.Sprintf("%s update of StatefulSet %s: %s -> %s", cfg.policy, cfg.name, cfg.fromImage, cfg.toImage),
		Subtitle:   fmt.Sprintf("%d replicas, %s; pods as each sync left them", cfg.replicas, budgetText(cfg, r)),
		XLabel:     "sync (0 = before the update)",
		Ceiling:    "ceiling: R (no surge)",
		Floor:      "floor: R - maxUnavailable",
		SeriesAttr: "data-revision",
	}
	before := chart.Step{N: 0, Replicas: r.before.Replicas, Ceiling: int64(r.before.Replicas), Floor: int64(r.before.Replicas) - int64(r.budget)}
	for i := range r.pods {
		before.Pods++
		if statefulset.IsAvailable(&r.pods[i], cfg.minReadySeconds, cfg.now) {
			before.Available++
		}
	}
	before.Series = []chart.Value{{Name: oldRev, Label: oldLabel, Value: before.Pods}}
	c.Steps = append(c.Steps, before)
	for _, s := range r.trace.Steps {
		st := chart.Step{N: s.Sync, Replicas: s.Replicas, Ceiling: int64(s.Replicas), Floor: int64(s.Replicas) - int64(r.budget)}
		var old, upd int64
		for _, p := range s.Pods {
			st.Pods++
			switch {
			case p.Terminating:
			case p.Revision == newRev:
				upd++
			default:
				old++
			}
			if p.Available && !p.Terminating {
				st.Available++
			}
		}
		st.Series = []chart.Value{{Name: oldRev, Label: oldLabel, Value: old}, {Name: newRev, Label: newLabel, Value: upd}}
		c.Steps = append(c.Steps, st)
	}
	return chart.Write(w, &c)
}

// budgetText says how many pods an update may take down at once.
func budgetText(cfg *config, r *result) string {
	if !cfg.gate {
		return "gate off: one pod at a time"
	}
	return fmt.Sprintf("gate on: maxUnavailable %d", r.budget)
}

// writeSVGFile writes the chart to the file at path.
func writeSVGFile(path string, cfg *config, r *result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeSVG(f, cfg, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
