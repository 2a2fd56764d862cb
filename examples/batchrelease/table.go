package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// batchRow is one line of the batch table: what batch i plans, what it
// wrote to the workload and how far it got.
type batchRow struct {
	// Batch is the batch index, from 0; CanaryReplicas the batch as
	// written (batches[i].canaryReplicas).
	Batch          int32  `json:"batch"`
	CanaryReplicas string `json:"canaryReplicas"`
	// Planned is the controller's planned updated pods for the batch
	// (CalculateBatchReplicas; for a Deployment NewRSReplicasLimit),
	// Desired the pods that must be updated (they differ when rolling
	// back in batches); -1 when the batch was never reached.
	Planned int32 `json:"planned"`
	Desired int32 `json:"desired"`
	// Written is what the batch wrote to the workload: a CloneSet's or
	// StatefulSet's partition, a Deployment's strategy partition and the
	// new ReplicaSet's limit it gives; "(already)" when the workload's
	// partition already satisfied the batch and nothing was written.
	Written string `json:"written"`
	// State is the batch's last state (Upgrading, Verifying, Ready), ""
	// if never reached.
	State string `json:"state,omitempty"`
	// Started and Ready are when the batch started and first became
	// ready, after the start; nil if it did not.
	Started *time.Duration `json:"started,omitempty"`
	Ready   *time.Duration `json:"ready,omitempty"`
}

// batchRows reads the batch table off the trace.
func batchRows(r *result) []batchRow {
	rows := make([]batchRow, len(r.release.Batches))
	for i := range rows {
		rows[i] = batchRow{Batch: int32(i), CanaryReplicas: r.release.Batches[i].CanaryReplicas.String(), Planned: -1, Desired: -1, Written: "-"}
	}
	for _, s := range r.trace.Steps {
		if s.Phase != batchrelease.Progressing || s.Batch < 0 || int(s.Batch) >= len(rows) {
			continue
		}
		row := &rows[s.Batch]
		if row.Started == nil {
			e := s.Elapsed
			row.Started = &e
		}
		if s.HasContext {
			row.Planned, row.Desired = s.Planned, s.Desired
		}
		if s.State != 0 {
			row.State = s.State.String()
		}
		if row.Written == "-" && s.Partition != "" {
			// Reached with nothing written yet: the workload's partition
			// already satisfies the batch, unless a write follows.
			row.Written = "partition " + s.Partition + " (already)"
		}
		if s.State == batchrelease.Ready && row.Ready == nil {
			e := s.Elapsed
			row.Ready = &e
		}
		for _, a := range s.Actions {
			if a.Kind != batchrelease.WritePartition || a.Partition == nil {
				continue
			}
			if r.kind == batchrelease.Deployment {
				row.Written = fmt.Sprintf("partition %s (new RS limit %d)", a.Partition, batchrelease.NewRSReplicasLimit(*a.Partition, r.trace.Workload.Replicas))
			} else {
				row.Written = "partition " + a.Partition.String()
			}
		}
	}
	return rows
}

// heading describes one run in a few lines.
func heading(cfg *config, r *result) []string {
	var lines []string
	what := fmt.Sprintf("%s -> %s", fromImage, toImage)
	if cfg.noNeedUpdate > 0 {
		what = fmt.Sprintf("rolled back to %s in batches (%d of %d pods never left it; the others run %s)", fromImage, cfg.noNeedUpdate, cfg.replicas, toImage)
	}
	lines = append(lines, fmt.Sprintf("kruise-rollout v0.6.3 batch release of %s %s: %d replicas, %s, batches %s",
		r.kind, cfg.name, cfg.replicas, what, strings.Join(strings.Split(cfg.batchesText, ","), " -> ")))
	ft := "failureThreshold unset: no updated pod may be unready in a ready batch"
	if cfg.failureThreshold != nil {
		ft = "failureThreshold " + cfg.failureThreshold.String() + ": that many updated pods may be unready in a ready batch"
	}
	switch r.kind {
	case batchrelease.CloneSet:
		lines = append(lines, "partition style: the CloneSet's partition is the pods kept OLD, written as a percent when the batch is one; "+ft)
	case batchrelease.Deployment:
		lines = append(lines, fmt.Sprintf("partition style through the advanced Deployment controller (strategy annotation maxSurge %s, maxUnavailable %s): the partition is the pods made NEW, and a percent below 100%% leaves at least one old pod; %s",
			r.strategy.RollingUpdate.MaxSurge, r.strategy.RollingUpdate.MaxUnavailable, ft))
	default:
		lines = append(lines, "partition style: the StatefulSet's partition is the lowest ordinal updated; the plan only (batchrelease has no StatefulSet simulation)")
		return lines
	}
	from := "fixed unless -now"
	if cfg.nowSet {
		from = "-now"
	}
	lines = append(lines, fmt.Sprintf("start %s (%s); a sync every %v; the Rollout waits %v after each batch but the last; pods ready %v after they start",
		cfg.now.Format(time.RFC3339), from, cfg.interval, cfg.pause, cfg.readyDelay))
	return lines
}

// writeText prints each run: the heading, the batch table, then the
// workload sync by sync.
func writeText(w io.Writer, cfg *config, runs []*result) error {
	for i, r := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, l := range heading(cfg, r) {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w)
		var t lines
		t.row("BATCH", "CANARY", "PLANNED", "DESIRED", "WRITTEN", "STATE", "STARTED", "READY")
		for _, row := range r.rows {
			t.row(itoa(row.Batch), row.CanaryReplicas, count(row.Planned), count(row.Desired), row.Written,
				orDash(row.State), elapsed(row.Started), elapsed(row.Ready))
		}
		if err := t.write(w); err != nil {
			return err
		}
		if r.trace == nil {
			continue
		}
		fmt.Fprintln(w)
		var err error
		if r.kind == batchrelease.Deployment {
			err = writeReplicaSets(w, cfg, r)
		} else {
			err = writeCloneSet(w, cfg, r)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "# %v after %d syncs (%v)\n", r.trace.Outcome, r.trace.Syncs, time.Duration(r.trace.Syncs)*cfg.interval)
	}
	return nil
}

// comment is the line before a sync's workload line: when, where the
// release is, its reason, the reasons of its writes and the workload
// controller's writes.
func comment(s *batchrelease.Step, kind batchrelease.Kind) []string {
	where := fmt.Sprintf("%s batch %d %s", s.Phase, s.Batch, stateText(s.State))
	if s.Partition != "" {
		where += ", partition " + s.Partition
	}
	lines := []string{fmt.Sprintf("# sync %d (+%v) %s: %s", s.Sync, s.Elapsed, where, s.Reason)}
	for _, a := range s.Actions {
		if a.Kind != batchrelease.WriteStatus && a.Reason != "" {
			lines = append(lines, "#   "+a.Reason)
		}
	}
	if len(s.WorkloadWrites) > 0 {
		lines = append(lines, "#   "+kind.String()+": "+strings.Join(s.WorkloadWrites, "; "))
	}
	return lines
}

// writeCloneSet prints the CloneSet as `kubectl get cloneset -w` shows
// it, each line the pods as the sync leaves them.
func writeCloneSet(w io.Writer, cfg *config, r *result) error {
	var t lines
	t.row("NAME", "DESIRED", "UPDATED", "UPDATED_READY", "READY", "TOTAL")
	t.comment("# before the release")
	b := r.before
	t.row(cfg.name, itoa(cfg.replicas), itoa(b.updated), itoa(b.updated), itoa(b.ready), itoa(b.pods))
	for i := range r.trace.Steps {
		s := &r.trace.Steps[i]
		for _, l := range comment(s, r.kind) {
			t.comment(l)
		}
		t.row(cfg.name, itoa(s.Replicas), itoa(s.Updated), itoa(s.UpdatedReady), itoa(s.Ready), itoa(s.Pods))
	}
	return t.write(w)
}

// rsCounts is a ReplicaSet line: spec.replicas, pods, ready pods.
type rsCounts struct{ desired, current, ready int32 }

// writeReplicaSets prints the Deployment's ReplicaSets as `kubectl get
// rs -w` shows them: after each sync, the ReplicaSets whose counts
// changed. The simulated ReplicaSet controller makes each ReplicaSet's
// pods match its spec.replicas within the sync, so DESIRED and CURRENT
// are the pods the sync leaves (the old ReplicaSet's are the pods not
// updated, its ready pods the ready ones not updated).
func writeReplicaSets(w io.Writer, cfg *config, r *result) error {
	var t lines
	t.row("NAME", "DESIRED", "CURRENT", "READY")
	t.comment("# before the release")
	last := map[string]rsCounts{r.oldRS: {cfg.replicas, cfg.replicas, cfg.replicas}}
	t.row(r.oldRS, itoa(cfg.replicas), itoa(cfg.replicas), itoa(cfg.replicas))
	newExists := false
	for i := range r.trace.Steps {
		s := &r.trace.Steps[i]
		for _, l := range comment(s, r.kind) {
			t.comment(l)
		}
		for _, wr := range s.WorkloadWrites {
			if strings.Contains(wr, r.newRS) {
				newExists = true
			}
		}
		now := []struct {
			name string
			c    rsCounts
		}{{r.oldRS, rsCounts{s.Old, s.Old, s.Ready - s.UpdatedReady}}}
		if newExists || s.Updated > 0 {
			now = append(now, struct {
				name string
				c    rsCounts
			}{r.newRS, rsCounts{s.Updated, s.Updated, s.UpdatedReady}})
		}
		for _, n := range now {
			if prev, ok := last[n.name]; ok && prev == n.c {
				continue
			}
			last[n.name] = n.c
			t.row(n.name, itoa(n.c.desired), itoa(n.c.current), itoa(n.c.ready))
		}
	}
	return t.write(w)
}

func stateText(s batchrelease.BatchState) string {
	if s == 0 {
		return "(no state)"
	}
	return s.String()
}

func count(n int32) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(int(n))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func elapsed(d *time.Duration) string {
	if d == nil {
		return "-"
	}
	return "+" + d.String()
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

// lines is a table whose rows are aligned in columns three spaces apart,
// with comment lines between them that take no part in the alignment.
type lines struct {
	rows  [][]string // a comment is a row of one cell and comment set
	notes []bool
}

func (t *lines) row(cells ...string) {
	t.rows = append(t.rows, cells)
	t.notes = append(t.notes, false)
}
func (t *lines) comment(s string) {
	t.rows = append(t.rows, []string{s})
	t.notes = append(t.notes, true)
}

// write prints the table and returns the first write error.
func (t *lines) write(w io.Writer) error {
	var width []int
	for i, r := range t.rows {
		if t.notes[i] {
			continue
		}
		for j, c := range r {
			if j == len(width) {
				width = append(width, 0)
			}
			width[j] = max(width[j], len(c))
		}
	}
	var b strings.Builder
	for i, r := range t.rows {
		if t.notes[i] {
			b.WriteString(r[0] + "\n")
			continue
		}
		for j, c := range r {
			if j == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c + strings.Repeat(" ", width[j]-len(c)+3))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
