package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// writeSVG draws the update with package chart, as examples/cloneset
// draws a CloneSet's: one series per ReplicaSet (its pods as each
// reconcile leaves them), all pods and the available ones, and two
// reference lines: for a canary R + maxSurge and R - maxUnavailable (the
// bounds of a basic canary; a traffic-routed canary sizes its
// ReplicaSets by weight and is not bound by maxSurge), for blue-green R
// + the preview's replicas and R - maxUnavailable. Step 0 is the Rollout
// before the update.
func writeSVG(w io.Writer, cfg *config, res *result) error {
	ro := &res.before
	r := argo.ReplicasOrDefault(ro.Replicas)
	ceiling, ceilingName := int64(r)+int64(argo.MaxSurge(ro)), "R + maxSurge"
	if b := ro.Strategy.BlueGreen; b != nil {
		preview := r
		if b.PreviewReplicaCount != nil {
			preview = *b.PreviewReplicaCount
		}
		ceiling, ceilingName = int64(r)+int64(preview), "R + preview replicas"
	}
	floor := int64(r) - int64(argo.MaxUnavailable(ro))
	images := map[string]string{}
	for _, rs := range res.beforeRSs {
		images[rs.PodTemplateHash] = cfg.fromImage
	}
	label := func(rs *argo.ReplicaSetState) string {
		img, ok := images[rs.Hash]
		if !ok {
			img = cfg.toImage
		}
		return fmt.Sprintf("%s (rev %d)", img, rs.Revision)
	}
	c := chart.Chart{
		Desc:       heading(cfg, ro),
		Title:      fmt.Sprintf("Argo Rollouts update of %s: %s -> %s", ro.Name, cfg.fromImage, cfg.toImage),
		Subtitle:   fmt.Sprintf("%d replicas; pods of each ReplicaSet as each reconcile left them", r),
		XLabel:     "reconcile (0 = before the update)",
		Ceiling:    ceilingName,
		Floor:      "R - maxUnavailable",
		SeriesAttr: "data-replicaset",
	}
	step := chart.Step{N: 0, Replicas: r, Ceiling: ceiling, Floor: floor}
	for _, rs := range res.beforeRSs {
		step.Pods += int64(rs.StatusReplicas)
		step.Available += int64(rs.AvailableReplicas)
		st := argo.ReplicaSetState{Hash: rs.PodTemplateHash, Revision: rs.Revision}
		step.Series = append(step.Series, chart.Value{Name: rs.Name, Label: label(&st), Value: int64(rs.StatusReplicas)})
	}
	c.Steps = append(c.Steps, step)
	for i := range res.trace.Steps {
		s := &res.trace.Steps[i]
		step := chart.Step{N: s.Sync, Replicas: s.Replicas, Ceiling: ceiling + int64(s.Replicas-r), Floor: floor + int64(s.Replicas-r)}
		// Oldest first, so that colors follow the revisions.
		for j := len(s.ReplicaSets) - 1; j >= 0; j-- {
			rs := &s.ReplicaSets[j]
			step.Pods += int64(rs.Pods)
			step.Available += int64(rs.Available)
			step.Series = append(step.Series, chart.Value{Name: rs.Name, Label: label(rs), Value: int64(rs.Pods)})
		}
		c.Steps = append(c.Steps, step)
	}
	return chart.Write(w, &c)
}

// writeSVGFile writes the chart to the file at path.
func writeSVGFile(path string, cfg *config, res *result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeSVG(f, cfg, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
