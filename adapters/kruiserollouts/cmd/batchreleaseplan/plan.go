package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/brtable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// heading describes the release and its workload in three lines: what
// releases what, now and where it came from, and where the release
// stands.
func heading(in *input) []string {
	rel, w := &in.release, &in.workload
	batches := make([]string, len(rel.Batches))
	for i := range rel.Batches {
		batches[i] = rel.Batches[i].CanaryReplicas.String()
	}
	bp := "none (every batch)"
	if rel.BatchPartition != nil {
		bp = fmt.Sprint(*rel.BatchPartition)
	}
	style := rel.RollingStyle.String()
	switch {
	case rel.RollingStyle == 0:
		style = batchrelease.Partition.String()
	case rel.RollingStyle == batchrelease.Canary && w.Kind != batchrelease.Deployment:
		// The executor releases only a Deployment through a canary
		// Deployment.
		style = "Canary (released as Partition: not a Deployment)"
	}
	var what string
	switch {
	case in.fromRollout:
		what = fmt.Sprintf("BatchRelease %s (not in the manifests: the one the Rollout creates at step %d)", rel.Name, in.rollout.CurrentStepIndex)
	case in.rollout != nil:
		what = fmt.Sprintf("BatchRelease %s of Rollout %s (step %d)", rel.Name, in.rollout.Name, in.rollout.CurrentStepIndex)
	default:
		what = "BatchRelease " + rel.Name
	}
	lines := []string{fmt.Sprintf("%s: %s %s, %d replicas, batches %s, batch partition %s, style %s",
		what, w.Kind, w.Name, w.Replicas, strings.Join(batches, " -> "), bp, style)}
	lines = append(lines, "now "+in.now.Format(time.RFC3339)+" ("+in.nowFrom+"): the objects as the manifests show them")
	st := &rel.Status
	phase := "no status yet"
	if st.Phase != 0 {
		phase = fmt.Sprintf("phase %v, batch %d %s", st.Phase, st.CurrentBatch, stateText(st.BatchState))
	}
	part := "none"
	if w.Partition != nil {
		part = w.Partition.String()
	}
	control := "not controlled by the release"
	if w.Controlled {
		control = "controlled by the release"
	}
	lines = append(lines, fmt.Sprintf("release %s; %s %s: partition %s, %d pods, %d ready, %d updated (%d ready)%s",
		phase, w.Kind, control, part, w.Status.Replicas, w.Status.ReadyReplicas, w.Status.UpdatedReplicas, w.Status.UpdatedReadyReplicas, podsText(in)))
	return lines
}

func podsText(in *input) string {
	p := in.workload.Status.Pods
	if p == nil {
		return ""
	}
	return fmt.Sprintf("; %d pods listed, %d with the rollout-id label, %d no-need-update", p.Listed, p.RolloutIDLabeled, p.NoNeedUpdate)
}

func stateText(s batchrelease.BatchState) string {
	if s == 0 {
		return "(no state)"
	}
	return s.String()
}

// planOnce prints one reconcile: its reason, its writes with theirs, the
// batch context and readiness, the status it leaves and the requeue.
func planOnce(w io.Writer, cfg *config, in *input) error {
	sync, err := batchrelease.PlanWith(&in.release, &in.workload, in.now, cfg.options)
	if err != nil {
		return err
	}
	if cfg.output == "json" {
		return writeJSON(w, struct {
			Heading []string           `json:"heading"`
			Now     time.Time          `json:"now"`
			NowFrom string             `json:"nowFrom"`
			Sync    *batchrelease.Sync `json:"sync"`
		}{heading(in), in.now, in.nowFrom, &sync})
	}
	var b strings.Builder
	for _, l := range heading(in) {
		b.WriteString(l + "\n")
	}
	b.WriteString("\nreconcile at now: " + sync.Reason + "\n")
	if len(sync.Actions) == 0 {
		b.WriteString("  no writes\n")
	}
	for i, a := range sync.Actions {
		fmt.Fprintf(&b, "  %d. %v%s: %s\n", i+1, a.Kind, actionValues(&a), a.Reason)
	}
	if sync.HasContext {
		c := &sync.Context
		fmt.Fprintf(&b, "batch %d: planned %d, desired %d updated pods; updated %d (%d ready)", c.CurrentBatch, c.PlannedUpdatedReplicas,
			c.DesiredUpdatedReplicas, c.UpdatedReplicas, c.UpdatedReadyReplicas)
		if c.DesiredPartition != (intorpercent.IntOrString{}) || c.CurrentPartition != (intorpercent.IntOrString{}) {
			fmt.Fprintf(&b, "; partition %s wanted, %s now", c.DesiredPartition, c.CurrentPartition)
		}
		b.WriteString("\n")
	}
	if sync.Readiness != 0 {
		msg := sync.Readiness.Message(&sync.Context)
		if msg == "" {
			msg = "the batch is ready"
		}
		fmt.Fprintf(&b, "readiness: %v: %s\n", sync.Readiness, msg)
	}
	st := &sync.Release.Status
	fmt.Fprintf(&b, "status after: phase %v, batch %d %s\n", st.Phase, st.CurrentBatch, stateText(st.BatchState))
	if sync.Requeue {
		fmt.Fprintf(&b, "requeue after %v\n", sync.RequeueAfter)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// actionValues renders what an action writes, " partition 80%".
func actionValues(a *batchrelease.Action) string {
	var parts []string
	if a.Partition != nil {
		parts = append(parts, "partition "+a.Partition.String())
	}
	if a.ClearPartition {
		parts = append(parts, "partition null")
	}
	if a.MaxSurge != nil {
		parts = append(parts, "maxSurge "+a.MaxSurge.String())
	}
	if a.MaxUnavailable != nil {
		parts = append(parts, "maxUnavailable "+a.MaxUnavailable.String())
	}
	if a.Kind == batchrelease.ScaleCanaryDeployment {
		parts = append(parts, fmt.Sprintf("replicas %d", a.Replicas))
	}
	if a.Count > 0 {
		parts = append(parts, fmt.Sprintf("%d pods", a.Count))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// planRelease simulates the release to its end and prints it.
func planRelease(w io.Writer, cfg *config, in *input) error {
	sim, err := simulate(cfg, in)
	if err != nil {
		return err
	}
	rows := brtable.Rows(&in.release, in.workload.Kind, &sim.trace)
	if cfg.output == "json" {
		return writeJSON(w, struct {
			Heading []string             `json:"heading"`
			Now     time.Time            `json:"now"`
			NowFrom string               `json:"nowFrom"`
			Model   []string             `json:"model"`
			Batches []brtable.Row        `json:"batches"`
			Steps   []batchrelease.Step  `json:"steps"`
			Outcome batchrelease.Outcome `json:"outcome"`
			Syncs   int                  `json:"syncs"`
		}{heading(in), in.now, in.nowFrom, sim.model, rows, sim.trace.Steps, sim.trace.Outcome, sim.trace.Syncs})
	}
	var b strings.Builder
	for _, l := range heading(in) {
		b.WriteString(l + "\n")
	}
	for _, l := range sim.model {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	if err := brtable.WriteBatches(&b, rows); err != nil {
		return err
	}
	b.WriteString("\n")
	if in.workload.Kind == batchrelease.Deployment {
		err = brtable.WriteReplicaSets(&b, "as the manifests show it", sim.oldRS, sim.newRS, sim.trace.Steps)
	} else {
		ws := &in.workload.Status
		err = brtable.WriteCloneSet(&b, in.workload.Name, brtable.CloneSetBefore{Comment: "as the manifests show it", Replicas: in.workload.Replicas,
			Updated: ws.UpdatedReplicas, UpdatedReady: ws.UpdatedReadyReplicas, Ready: ws.ReadyReplicas, Total: ws.Replicas}, sim.trace.Steps)
	}
	if err != nil {
		return err
	}
	last := time.Duration(sim.trace.Syncs) * cfg.interval
	fmt.Fprintf(&b, "# %v after %d syncs (the last at %s, +%v)\n", sim.trace.Outcome, sim.trace.Syncs, in.now.Add(last).Format(time.RFC3339), last)
	_, err = io.WriteString(w, b.String())
	return err
}
