package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// writeSVG draws one release with package chart: the pods at the old and
// the new revision (or ReplicaSet) and the batch's planned updated pods
// as series, the ceiling R + maxSurge and the floor R - maxUnavailable of
// the workload's own fenceposts, all pods and the ready ones, counted as
// each sync leaves them. Step 0 is the workload before the release.
func writeSVG(w io.Writer, cfg *config, r *result) error {
	if r.trace == nil {
		return fmt.Errorf("-svg: %s: no simulation to draw (the plan only)", r.kind)
	}
	surge, unavailable := fenceposts(cfg, r)
	oldName, newName := r.oldRev, r.newRev
	if r.kind == batchrelease.Deployment {
		oldName, newName = r.oldRS, r.newRS
	}
	oldImage, newImage := fromImage, toImage
	if cfg.noNeedUpdate > 0 {
		oldImage, newImage = toImage, fromImage
	}
	h := heading(cfg, r)
	c := chart.Chart{
		Desc:       strings.Join(h, "; "),
		Title:      fmt.Sprintf("kruise-rollout batch release of %s %s: batches %s", r.kind, cfg.name, strings.Join(strings.Split(cfg.batchesText, ","), " -> ")),
		Subtitle:   fmt.Sprintf("%d replicas, %s -> %s, pause %v; pods as each sync left them", cfg.replicas, oldImage, newImage, cfg.pause),
		XLabel:     "sync (0 = before the release)",
		Ceiling:    "ceiling: R + maxSurge",
		Floor:      "floor: R - maxUnavailable",
		SeriesAttr: "data-series",
	}
	b := r.before
	c.Steps = append(c.Steps, chart.Step{N: 0, Pods: int64(b.pods), Available: int64(b.ready), Replicas: cfg.replicas,
		Ceiling: int64(cfg.replicas) + surge, Floor: int64(cfg.replicas) - unavailable,
		Series: []chart.Value{{Name: oldName, Label: oldImage + " (" + oldName + ")", Value: int64(b.pods - b.updated)},
			{Name: newName, Label: newImage + " (" + newName + ")", Value: int64(b.updated)}}})
	planned := int64(0)
	for _, s := range r.trace.Steps {
		if s.HasContext {
			planned = int64(s.Desired)
		}
		c.Steps = append(c.Steps, chart.Step{N: s.Sync, Pods: int64(s.Pods), Available: int64(s.Ready), Replicas: s.Replicas,
			Ceiling: int64(s.Replicas) + surge, Floor: int64(s.Replicas) - unavailable,
			Series: []chart.Value{{Name: oldName, Label: oldImage + " (" + oldName + ")", Value: int64(s.Old)},
				{Name: newName, Label: newImage + " (" + newName + ")", Value: int64(s.Updated)},
				{Name: "desired", Label: "the batch's desired updated pods", Value: planned}}})
	}
	return chart.Write(w, &c)
}

// fenceposts are the workload's maxSurge and maxUnavailable in pods: a
// CloneSet's defaults (0 and 20%, rounded down), a Deployment's strategy
// annotation as the advanced controller resolves it.
func fenceposts(cfg *config, r *result) (surge, unavailable int64) {
	if r.kind == batchrelease.Deployment {
		s := batchrelease.DefaultDeploymentStrategy(r.strategy)
		return int64(batchrelease.MaxSurge(cfg.replicas, &s)), int64(batchrelease.MaxUnavailable(cfg.replicas, &s))
	}
	return 0, int64(cfg.replicas) * 20 / 100
}

// svgPath is the file a run's chart goes to: -svg FILE, or with several
// runs FILE with the kind before the extension (demo.svg ->
// demo-cloneset.svg).
func svgPath(cfg *config, r *result, runs int) string {
	if runs == 1 {
		return cfg.svgPath
	}
	ext := filepath.Ext(cfg.svgPath)
	return strings.TrimSuffix(cfg.svgPath, ext) + "-" + strings.ToLower(r.kind.String()) + ext
}

// writeSVGFiles writes the chart of every simulated run.
func writeSVGFiles(cfg *config, runs []*result) error {
	var drawn []*result
	for _, r := range runs {
		if r.trace != nil {
			drawn = append(drawn, r)
		}
	}
	if len(drawn) == 0 {
		return fmt.Errorf("-svg: no simulation to draw (a StatefulSet prints the plan only)")
	}
	for _, r := range drawn {
		f, err := os.Create(svgPath(cfg, r, len(drawn)))
		if err != nil {
			return err
		}
		if err := writeSVG(f, cfg, r); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
