package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/argotable"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// heading describes the run on one line.
func heading(cfg *config, ro *argo.Rollout[template]) string {
	return fmt.Sprintf("Rollout %s: %d replicas, %s, image %s -> %s", ro.Name, argo.ReplicasOrDefault(ro.Replicas), argotable.Strategy(ro), cfg.fromImage, cfg.toImage)
}

// nowLine says when the state before reconcile 1 is, and where that
// came from.
func nowLine(cfg *config) string {
	from := "the fixed clock; -now to change it"
	if cfg.nowGiven {
		from = "-now"
	}
	return fmt.Sprintf("Now: %s (%s); a reconcile every %s; pods ready %s after they start",
		cfg.now.Format(time.RFC3339), from, cfg.interval, cfg.readyDelay)
}

// writeText prints the header, the Rollout before the update, each
// recorded reconcile as a block (what kubectl argo rollouts get rollout
// -w shows after it, then the controller's reason for every write), and
// the outcome.
func writeText(w io.Writer, cfg *config, res *result) error {
	var b strings.Builder
	ro := &res.before
	fmt.Fprintln(&b, heading(cfg, ro))
	if l := argotable.Steps(ro); l != "" {
		fmt.Fprintln(&b, l)
	}
	fmt.Fprintln(&b, nowLine(cfg))
	fmt.Fprintln(&b, argotable.Legend, argotable.Skipped)
	before := argotable.FromSync(ro, res.beforeRSs, nil, "")
	fmt.Fprintf(&b, "\nbefore the update (%s)\n", cfg.now.Format("15:04:05"))
	argotable.Block(&b, ro.Strategy.Canary != nil, ro.Generation, &before)
	for i := range res.trace.Steps {
		s := &res.trace.Steps[i]
		fmt.Fprintf(&b, "\nreconcile %d at %s (+%s)", s.Sync, s.Time.Format("15:04:05"), s.Elapsed)
		if len(s.Events) > 0 {
			fmt.Fprintf(&b, " after %s", strings.Join(s.Events, ", "))
		}
		b.WriteByte('\n')
		argotable.Block(&b, ro.Strategy.Canary != nil, res.generationAt(s.Sync), s)
	}
	end := res.trace.Syncs
	fmt.Fprintf(&b, "\n%s after %s (+%s)\n", res.trace.Outcome, argotable.Reconciles(end), time.Duration(end)*cfg.interval)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeJSON prints the run as one JSON object: the heading, now, the
// Rollout's ReplicaSets before the update, the recorded reconciles
// (argo.Step), the outcome and the number of reconciles that ran.
func writeJSON(w io.Writer, cfg *config, res *result) error {
	out := struct {
		Heading     string                      `json:"heading"`
		Now         time.Time                   `json:"now"`
		Before      []argo.ReplicaSet[template] `json:"before"`
		Steps       []argo.Step                 `json:"steps"`
		Outcome     string                      `json:"outcome"`
		Reconciles  int                         `json:"reconciles"`
		AbortBefore int                         `json:"abortBefore,omitempty"`
	}{heading(cfg, &res.before), cfg.now, slices.Clone(res.beforeRSs), res.trace.Steps, res.trace.Outcome.String(), res.trace.Syncs, res.abortSync}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
