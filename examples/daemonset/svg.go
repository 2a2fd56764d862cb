package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// writeSVG draws the run with package chart, as examples/cloneset draws
// a CloneSet's: one series per image (its pods, terminating ones left
// out), the ceiling D + maxSurge and the floor D - maxUnavailable (D the
// nodes that should run the pod), all pods and the available ones,
// counted as each sync leaves them. Step 0 is the DaemonSet before the
// first update; the second update's syncs follow the first's.
func writeSVG(w io.Writer, cfg *config, r *result) error {
	c := chart.Chart{
		Desc:       heading(cfg, &r.updates[0], 0),
		Title:      fmt.Sprintf("Rolling update of DaemonSet %s: %s", cfg.name, imagesText(r)),
		Subtitle:   fmt.Sprintf("%d nodes; pods as each sync left them", cfg.nodes),
		XLabel:     "sync (0 = before the update)",
		Ceiling:    "ceiling: D + maxSurge",
		Floor:      "floor: D - maxUnavailable",
		SeriesAttr: "data-image",
	}
	first := &r.updates[0]
	d := int64(first.budget.Desired)
	before := chart.Step{N: 0, Replicas: int32(d), Ceiling: d, Floor: d - int64(first.budget.MaxUnavailable)}
	for i := range first.pods {
		before.Pods++
		if available(&first.pods[i], cfg, first.start) {
			before.Available++
		}
	}
	before.Series = []chart.Value{{Name: first.from, Label: first.from, Value: before.Pods}}
	c.Steps = append(c.Steps, before)
	offset := 0
	for i := range r.updates {
		u := &r.updates[i]
		hash := hashOf(&u.trace)
		oldHash := daemonset.Hash(&u.before.Template, u.before.Status.CollisionCount)
		d := int64(u.budget.Desired)
		for _, s := range u.trace.Steps {
			st := chart.Step{N: offset + s.Sync, Replicas: int32(d), Ceiling: d + int64(u.budget.MaxSurge), Floor: d - int64(u.budget.MaxUnavailable)}
			var old, upd int64
			for j := range s.Pods {
				p := &s.Pods[j]
				st.Pods++
				switch {
				case p.Terminating:
				case p.Hash == hash:
					upd++
				case p.Hash == oldHash:
					old++
				}
				if !p.Terminating && available(p, cfg, s.Time) {
					st.Available++
				}
			}
			st.Series = []chart.Value{{Name: u.from, Label: u.from, Value: old}, {Name: u.to, Label: u.to, Value: upd}}
			c.Steps = append(c.Steps, st)
		}
		offset += u.trace.Syncs
	}
	return chart.Write(w, &c)
}

// available reports whether p counts as available at now.
func available(p *daemonset.Pod, cfg *config, now time.Time) bool {
	return p.Ready && daemonset.IsPodAvailable(p, cfg.minReadySeconds, now)
}

// imagesText lists the run's images: "fluentd:1.16 -> 1.17 -> 1.18".
func imagesText(r *result) string {
	s := r.updates[0].from
	for _, u := range r.updates {
		s += " -> " + u.to
	}
	return s
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
