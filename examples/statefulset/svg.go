package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// writeSVG draws the rollout with package chart: one series per
// revision (its pods, terminating ones left out), the floor R -
// maxUnavailable (the resolved budget with the gate on, 1 with it off),
// all pods and the available ones, as each sync leaves them. Step 0 is
// the set before the update. A StatefulSet never surges, so the ceiling
// is R.
func writeSVG(w io.Writer, cfg *config, before *statefulset.StatefulSet[template], tr *statefulset.Trace[template]) error {
	oldRev, newRev := before.Status.CurrentRevision, tr.StatefulSet.Status.UpdateRevision
	policy := "OrderedReady"
	if cfg.parallel {
		policy = "Parallel"
	}
	var steps []string
	for _, p := range cfg.partitions {
		steps = append(steps, fmt.Sprint(p))
	}
	c := chart.Chart{
		Desc:       fmt.Sprintf("StatefulSet %s: %d replicas, %s, image %s -> %s, partitions %s", before.Name, before.Replicas, policy, cfg.fromImage, cfg.toImage, strings.Join(steps, " -> ")),
		Title:      fmt.Sprintf("%s update of StatefulSet %s: %s -> %s", policy, before.Name, cfg.fromImage, cfg.toImage),
		Subtitle:   fmt.Sprintf("%d replicas, gate MaxUnavailableStatefulSet %v, partitions %s; pods as each sync left them", before.Replicas, cfg.gate, strings.Join(steps, " -> ")),
		XLabel:     "sync (0 = before the update)",
		Ceiling:    "ceiling: R",
		Floor:      "floor: R - maxUnavailable",
		SeriesAttr: "data-revision",
	}
	n := int64(before.Status.Replicas)
	c.Steps = append(c.Steps, chart.Step{N: 0, Pods: n, Available: int64(before.Status.AvailableReplicas), Replicas: before.Replicas,
		Ceiling: int64(before.Replicas), Floor: int64(before.Replicas) - 1,
		Series: []chart.Value{{Name: oldRev, Label: cfg.fromImage + " (" + oldRev + ")", Value: n}}})
	for _, s := range tr.Steps {
		mu := int64(1)
		if s.MaxUnavailable > 0 {
			mu = int64(s.MaxUnavailable)
		}
		st := chart.Step{N: s.Sync, Replicas: s.Replicas, Ceiling: int64(s.Replicas), Floor: int64(s.Replicas) - mu}
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
func writeSVGFile(path string, cfg *config, before *statefulset.StatefulSet[template], tr *statefulset.Trace[template]) error {
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
