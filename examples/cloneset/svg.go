package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// writeSVG draws the rollout with package chart, as examples/rollout
// draws a Deployment's: one series per revision (its pods, terminating
// ones left out), the ceiling R + maxSurge, the floor R - maxUnavailable,
// all pods and the available ones, counted as each reconcile leaves them.
// Step 0 is the CloneSet before the update.
func writeSVG(w io.Writer, cfg *config, before *cloneset.CloneSet[template], tr *cloneset.Trace[template]) error {
	us := &before.UpdateStrategy
	oldRev, newRev := before.Status.UpdateRevision, tr.CloneSet.Status.UpdateRevision
	c := chart.Chart{
		Desc:  fmt.Sprintf("CloneSet %s: %d replicas, image %s -> %s, partitions %v", before.Name, before.Replicas, cfg.fromImage, cfg.toImage, cfg.partitions),
		Title: fmt.Sprintf("%s update of CloneSet %s: %s -> %s", typeOf(cfg), before.Name, cfg.fromImage, cfg.toImage),
		Subtitle: fmt.Sprintf("%d replicas, maxSurge %s, maxUnavailable %s, partitions %s; pods as each reconcile left them",
			before.Replicas, written(us.MaxSurge, "0"), written(us.MaxUnavailable, "20%"), joinArrow(cfg.partitions)),
		XLabel:     "reconcile (0 = before the update)",
		Ceiling:    "ceiling: R + maxSurge",
		Floor:      "floor: R - maxUnavailable",
		SeriesAttr: "data-revision",
	}
	res, err := cloneset.Resolve(before)
	if err != nil {
		return err
	}
	n := int64(before.Status.Replicas)
	c.Steps = append(c.Steps, chart.Step{N: 0, Pods: n, Available: int64(before.Status.AvailableReplicas), Replicas: before.Replicas,
		Ceiling: int64(before.Replicas) + res.MaxSurge, Floor: int64(before.Replicas) - res.MaxUnavailable,
		Series: []chart.Value{{Name: oldRev, Label: cfg.fromImage + " (" + oldRev + ")", Value: n}}})
	for _, s := range tr.Steps {
		st := chart.Step{N: s.Sync, Replicas: s.Replicas, Ceiling: int64(s.Replicas) + int64(s.MaxSurge), Floor: int64(s.Replicas) - int64(s.MaxUnavailable)}
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
		st.Series = []chart.Value{{Name: oldRev, Label: cfg.fromImage + " (" + oldRev + ")", Value: old}, {Name: newRev, Label: cfg.toImage + " (" + newRev + ")", Value: upd}}
		c.Steps = append(c.Steps, st)
	}
	return chart.Write(w, &c)
}

// writeSVGFile writes the chart to the file at path.
func writeSVGFile(path string, cfg *config, before *cloneset.CloneSet[template], tr *cloneset.Trace[template]) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeSVG(f, cfg, before, tr); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
