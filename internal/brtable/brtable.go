// Package brtable prints a simulated kruise-rollout batch release
// (rollout/batchrelease's Trace) for the programs examples/batchrelease
// and adapters/kruiserollouts/cmd/batchreleaseplan, so that both print
// alike: the batch table, then the workload sync by sync as `kubectl get
// cloneset -w` or `kubectl get rs -w` shows it, each line under a
// comment with the sync's time, the release's phase, batch, state and
// partition, its reason, the reasons of its writes and the workload
// controller's writes.
package brtable

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// Row is one line of the batch table: what batch i plans, what it wrote
// to the workload and how far it got.
type Row struct {
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
	// partition already satisfied the batch and nothing was written; "-"
	// when the batch was never reached.
	Written string `json:"written"`
	// State is the batch's last state (Upgrading, Verifying, Ready), ""
	// if never reached.
	State string `json:"state,omitempty"`
	// Started and Ready are when the batch started and first became
	// ready, after the start of the simulation; nil if it did not.
	Started *time.Duration `json:"started,omitempty"`
	Ready   *time.Duration `json:"ready,omitempty"`
	// Before says the release had reached the batch before the
	// simulation started (its status at the start); State is then that
	// status's until a sync changes it.
	Before bool `json:"before,omitempty"`
}

// Rows reads the batch table off a trace of release (whose Batches name
// the rows, and whose status is where the trace starts) on a workload of
// kind. A batch counts from the first sync that shows it Progressing;
// with the release already Progressing or Finalizing at the start, the
// batches up to its current one are marked Before (those below it
// Ready).
func Rows(release *batchrelease.Release, kind batchrelease.Kind, tr *batchrelease.Trace) []Row {
	rows := make([]Row, len(release.Batches))
	for i := range rows {
		rows[i] = Row{Batch: int32(i), CanaryReplicas: release.Batches[i].CanaryReplicas.String(), Planned: -1, Desired: -1, Written: "-"}
	}
	readyBefore := make([]bool, len(rows))
	partitionAt := make([]string, len(rows)) // the workload's partition when the batch was reached
	if st := &release.Status; st.Phase == batchrelease.Progressing || st.Phase == batchrelease.Finalizing {
		for i := range rows {
			if int32(i) > st.CurrentBatch {
				break
			}
			rows[i].Before, rows[i].State = true, "Ready"
			if int32(i) == st.CurrentBatch {
				rows[i].State = stateText(st.BatchState)
			}
			readyBefore[i] = rows[i].State == "Ready"
		}
	}
	for _, s := range tr.Steps {
		if s.Phase == batchrelease.Preparing {
			// The release starts over: what it had reached before counts
			// no more.
			for i := range rows {
				if rows[i].Before {
					rows[i].Before, rows[i].State, readyBefore[i] = false, "", false
				}
			}
		}
		if s.Phase != batchrelease.Progressing || s.Batch < 0 || int(s.Batch) >= len(rows) {
			continue
		}
		row := &rows[s.Batch]
		if row.Started == nil && !row.Before {
			e := s.Elapsed
			row.Started = &e
		}
		if s.HasContext {
			row.Planned, row.Desired = s.Planned, s.Desired
		}
		if s.State != 0 {
			row.State = s.State.String()
		}
		if partitionAt[s.Batch] == "" {
			partitionAt[s.Batch] = s.Partition
		}
		if s.State == batchrelease.Ready && row.Ready == nil && !readyBefore[s.Batch] {
			e := s.Elapsed
			row.Ready = &e
		}
		for _, a := range s.Actions {
			if a.Kind != batchrelease.WritePartition || a.Partition == nil {
				continue
			}
			if kind == batchrelease.Deployment {
				row.Written = fmt.Sprintf("partition %s (new RS limit %d)", a.Partition, batchrelease.NewRSReplicasLimit(*a.Partition, s.Replicas))
			} else {
				row.Written = "partition " + a.Partition.String()
			}
		}
	}
	for i := range rows {
		// A batch that got past Upgrading without a write found the
		// workload's partition already where it wants it.
		if r := &rows[i]; r.Written == "-" && partitionAt[i] != "" && (r.State == "Verifying" || r.State == "Ready") {
			r.Written = "partition " + partitionAt[i] + " (already)"
		}
	}
	return rows
}

// WriteBatches prints the batch table.
func WriteBatches(w io.Writer, rows []Row) error {
	var t Lines
	t.Row("BATCH", "CANARY", "PLANNED", "DESIRED", "WRITTEN", "STATE", "STARTED", "READY")
	for _, row := range rows {
		started, ready := elapsed(row.Started), elapsed(row.Ready)
		if row.Before {
			started = "before"
			if row.Ready == nil && row.State == "Ready" {
				ready = "before" // ready at the start
			}
		}
		t.Row(itoa(row.Batch), row.CanaryReplicas, count(row.Planned), count(row.Desired), row.Written,
			orDash(row.State), started, ready)
	}
	return t.Write(w)
}

// Comment returns the lines before a sync's workload line: when, where
// the release is, its reason, the reasons of its writes and the
// workload controller's writes.
func Comment(s *batchrelease.Step, kind batchrelease.Kind) []string {
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

// CloneSetBefore is a CloneSet's line before the first sync.
type CloneSetBefore struct {
	Comment                                       string
	Replicas, Updated, UpdatedReady, Ready, Total int32
}

// WriteCloneSet prints a CloneSet as `kubectl get cloneset -w` shows it,
// before the first sync and then after each one (the pods as the sync
// leaves them).
func WriteCloneSet(w io.Writer, name string, before CloneSetBefore, steps []batchrelease.Step) error {
	var t Lines
	t.Row("NAME", "DESIRED", "UPDATED", "UPDATED_READY", "READY", "TOTAL")
	t.Comment("# " + before.Comment)
	b := before
	t.Row(name, itoa(b.Replicas), itoa(b.Updated), itoa(b.UpdatedReady), itoa(b.Ready), itoa(b.Total))
	for i := range steps {
		s := &steps[i]
		for _, l := range Comment(s, batchrelease.CloneSet) {
			t.Comment(l)
		}
		t.Row(name, itoa(s.Replicas), itoa(s.Updated), itoa(s.UpdatedReady), itoa(s.Ready), itoa(s.Pods))
	}
	return t.Write(w)
}

// ReplicaSet is a `kubectl get rs` line: spec.replicas, pods, ready pods.
type ReplicaSet struct {
	Name                    string
	Desired, Current, Ready int32
}

// WriteReplicaSets prints a Deployment's two ReplicaSets as `kubectl get
// rs -w` shows them: before is their lines before the first sync (the
// new one left out while its Name is ""), then, after each sync, the
// ReplicaSets whose counts changed. A sync's counts are its pods: the
// old ReplicaSet's are the pods not updated (its ready pods the ready
// ones not updated), the new one's the updated pods, DESIRED equal to
// CURRENT (batchrelease.SimulateDeployment's ReplicaSet controller makes
// each ReplicaSet's pods match spec.replicas within the sync). The new
// ReplicaSet appears once a write names it or it has pods.
func WriteReplicaSets(w io.Writer, comment string, oldRS, newRS ReplicaSet, steps []batchrelease.Step) error {
	var t Lines
	t.Row("NAME", "DESIRED", "CURRENT", "READY")
	t.Comment("# " + comment)
	last := map[string]ReplicaSet{}
	for _, rs := range []ReplicaSet{oldRS, newRS} {
		if rs.Name != "" && (rs == oldRS || rs.Current > 0 || rs.Desired > 0) {
			last[rs.Name] = rs
			t.Row(rs.Name, itoa(rs.Desired), itoa(rs.Current), itoa(rs.Ready))
		}
	}
	newName := newRS.Name
	for i := range steps {
		s := &steps[i]
		for _, l := range Comment(s, batchrelease.Deployment) {
			t.Comment(l)
		}
		now := []ReplicaSet{{oldRS.Name, s.Old, s.Old, s.Ready - s.UpdatedReady}}
		named := s.Updated > 0
		for _, wr := range s.WorkloadWrites {
			named = named || strings.Contains(wr, newName)
		}
		if _, seen := last[newName]; seen || named {
			now = append(now, ReplicaSet{newName, s.Updated, s.Updated, s.UpdatedReady})
		}
		for _, n := range now {
			if prev, ok := last[n.Name]; ok && prev == n {
				continue
			}
			last[n.Name] = n
			t.Row(n.Name, itoa(n.Desired), itoa(n.Current), itoa(n.Ready))
		}
	}
	return t.Write(w)
}

func stateText(s batchrelease.BatchState) string {
	if s == 0 {
		return "(no state)"
	}
	return s.String()
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

func count(n int32) string {
	if n < 0 {
		return "-"
	}
	return itoa(n)
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

// Lines is a table whose rows are aligned in columns three spaces apart,
// with comment lines between them that take no part in the alignment.
// The zero value is an empty table.
type Lines struct {
	rows  [][]string
	notes []bool
}

// Row adds a row of cells.
func (t *Lines) Row(cells ...string) {
	t.rows = append(t.rows, cells)
	t.notes = append(t.notes, false)
}

// Comment adds a line printed as is.
func (t *Lines) Comment(s string) {
	t.rows = append(t.rows, []string{s})
	t.notes = append(t.notes, true)
}

// Write prints the table and returns the write error.
func (t *Lines) Write(w io.Writer) error {
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
