package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/rolloutmath/rolloutmath/examples/internal/rstable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// row is one line of the table: the CloneSet as `kubectl get cloneset -w`
// shows it (DESIRED, UPDATED, UPDATED_READY, READY, TOTAL from the
// status the reconcile computed), with the pods that exist after the
// reconcile (PODS, terminating ones included).
type row struct {
	number                                       int // the reconcile; 0 for the starting state
	comment                                      string
	desired, updated, updatedReady, ready, total int32
	pods, available                              int64
}

// writeTable prints t: a heading line, the column header, then for the
// state before the update and for every reconcile that changed
// something a comment line with the reason and a row, and a summary.
//
// This layout is the program's own: the CloneSet table of
// examples/cloneset (being written on another branch) is meant to
// replace it through examples/internal once it lands.
func writeTable(w io.Writer, t *trace) error {
	rows := []row{{
		comment: startLabel(t) + fmt.Sprintf("%d pods, %d at the update revision", t.initial.Active, t.initial.Status.UpdatedReplicas),
		desired: t.initial.Replicas, updated: t.initial.Status.UpdatedReplicas, updatedReady: t.initial.Status.UpdatedReadyReplicas,
		ready: t.initial.Status.ReadyReplicas, total: t.initial.Status.Replicas,
		pods: int64(t.initial.Active) + int64(t.initial.Terminating), available: int64(t.initial.Status.AvailableReplicas),
	}}
	for _, s := range t.t.Steps {
		line := fmt.Sprintf("reconcile %d (+%s)", s.Number, s.Elapsed)
		if len(s.Events) > 0 {
			line += " ["
			for i, e := range s.Events {
				if i > 0 {
					line += ", "
				}
				line += e
			}
			line += "]"
		}
		st := &s.Status
		rows = append(rows, row{number: s.Number, comment: line + ": " + s.Reason, desired: s.Replicas, updated: st.UpdatedReplicas,
			updatedReady: st.UpdatedReadyReplicas, ready: st.ReadyReplicas, total: st.Replicas,
			pods: int64(s.Active) + int64(s.Terminating), available: int64(st.AvailableReplicas)})
	}
	p := rstable.NewPrinter(w)
	p.Printf("%s\n\n", describe(t))
	headers := []string{"NAME", "DESIRED", "UPDATED", "UPDATED_READY", "READY", "TOTAL", "PODS"}
	width := make([]int, len(headers))
	cells := func(r *row) []string {
		return []string{t.cs.Name, itoa(r.desired), itoa(r.updated), itoa(r.updatedReady), itoa(r.ready), itoa(r.total), strconv.FormatInt(r.pods, 10)}
	}
	for i, h := range headers {
		width[i] = len(h)
	}
	for i := range rows {
		for j, c := range cells(&rows[i]) {
			width[j] = max(width[j], len(c))
		}
	}
	line := func(cs []string) {
		for j, c := range cs {
			if j == len(cs)-1 {
				p.Printf("%s\n", c)
			} else {
				p.Printf("%-*s", width[j]+3, c)
			}
		}
	}
	line(headers)
	for i := range rows {
		p.Printf("# %s\n", rows[i].comment)
		line(cells(&rows[i]))
	}
	p.Printf("\n")
	summary(p, t, rows)
	return p.Err()
}

// summary prints how the rollout ended, the most pods that existed at
// once and the fewest available, with the bounds the update strategy
// sets (R + maxSurge, R - maxUnavailable; the pods a partition keeps are
// not counted against them).
func summary(p *rstable.Printer, t *trace, rows []row) {
	peak, low := 0, 0
	for i := range rows {
		if rows[i].pods > rows[peak].pods {
			peak = i
		}
		if rows[i].available < rows[low].available {
			low = i
		}
	}
	p.Printf("%s after %d reconciles\n", t.t.Outcome, t.t.Reconciles)
	surge, unavailable := bounds(t)
	p.Printf("most pods at once: %d (%s); R + maxSurge = %d\n", rows[peak].pods, where(rows[peak].number), int64(t.cs.Replicas)+surge)
	p.Printf("fewest available: %d (%s); R - maxUnavailable = %d\n", rows[low].available, where(rows[low].number), int64(t.cs.Replicas)-unavailable)
}

// bounds returns the resolved maxSurge and maxUnavailable of the update:
// those of the last reconcile, or of the initial state when none ran.
func bounds(t *trace) (int64, int64) {
	if n := len(t.t.Steps); n > 0 {
		s := &t.t.Steps[n-1]
		return int64(s.MaxSurge), int64(s.MaxUnavailable)
	}
	return t.initial.MaxSurge, t.initial.MaxUnavailable
}

// where names a row by its reconcile number, 0 for the starting state.
func where(n int) string {
	if n == 0 {
		return "at the start"
	}
	return "after reconcile " + strconv.Itoa(n)
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

// describe returns the heading line, such as "CloneSet demo: 10
// replicas, InPlaceIfPossible (partition 0 -> 40%, maxSurge 0,
// maxUnavailable 20%), image nginx:1.24 -> nginx:1.25".
func describe(t *trace) string {
	u := &t.cs.UpdateStrategy
	typ := u.Type
	if typ == "" {
		typ = cloneset.ReCreate
	}
	partition := written(u.Partition, "0")
	if t.partition != nil {
		partition += " -> " + written(t.partition, "0")
	}
	image := t.from
	if t.to != t.from {
		image += " -> " + t.to
	}
	paused := ""
	if u.Paused {
		paused = ", paused"
	}
	return fmt.Sprintf("CloneSet %s: %d replicas, %s (partition %s, maxSurge %s, maxUnavailable %s%s), image %s",
		t.cs.Name, t.cs.Replicas, typ, partition, written(u.MaxSurge, "0"), written(u.MaxUnavailable, cloneset.DefaultMaxUnavailable().Str), paused, image)
}

// written returns an int-or-string as written, or def when nil.
func written(v *intorpercent.IntOrString, def string) string {
	switch {
	case v == nil:
		return def
	case v.IsString:
		return v.Str
	}
	return strconv.Itoa(int(v.Int))
}

// startLabel begins the comment line of the starting state.
func startLabel(t *trace) string {
	if t.to != t.from || t.partition != nil {
		return "before the update: "
	}
	return "at the start: "
}
