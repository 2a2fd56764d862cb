// Package ststable prints a simulated StatefulSet rollout the way
// `kubectl get sts -w` and `kubectl get pods -w` show one, for the
// programs that simulate StatefulSets (examples/statefulset and
// adapters/kubeapps/cmd/statefulsetplan): a heading, a legend, and per
// sync a comment line with the controller's reason, the StatefulSet's
// row, and a line for every pod that changed since the previous row
// (with the reason of the write, when the sync wrote it). The programs
// fill in a [Table]; [Write] owns the layout, so that both print alike.
package ststable

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// Legend is the line under the heading that explains the PODS column and
// the pod lines.
const Legend = "PODS: one letter per ordinal, lowest first: o/O old revision, n/N new revision (capital: available), x terminating, . missing\n" +
	"Under each row, the pods that changed as `kubectl get pods -w` prints them, with their revision and, when the sync wrote them, why."

// Row is one sync (or the state before the first) as the table prints
// it.
type Row struct {
	// Comment is the comment line, without the leading "# ".
	Comment string
	// Replicas is spec.replicas at this sync, Partition the partition
	// in force.
	Replicas, Partition int32
	// Status is the status the sync computed.
	Status statefulset.Status
	// Pods are the pods after the sync.
	Pods []statefulset.PodState
	// Actions are the sync's writes; pod writes give their reasons to
	// the pod lines.
	Actions []statefulset.Action
}

// Table is a simulated StatefulSet rollout as the programs print it.
type Table struct {
	Heading string // the first lines
	Name    string // the StatefulSet's name
	// Update is the revision the PODS map shows as new (n/N): the update
	// revision the run ends with.
	Update string
	// Start is the first ordinal (spec.ordinals.start): a row's PODS
	// map has a letter for ordinals Start to Start+Replicas-1, then one
	// per other pod (see PodMap).
	Start int32
	// Rows are the state before the first sync, then the syncs.
	Rows []Row
	// Outcome, Syncs and Elapsed make the closing line (rstable.RunLine).
	Outcome string
	Syncs   int
	Elapsed time.Duration
}

// Write prints t to w, with the closing line, and returns the first
// write error.
func Write(w io.Writer, t *Table) error {
	p := rstable.NewPrinter(w)
	writeRows(p, t)
	p.Printf("\n%s (%s)\n", rstable.RunLine(t.Outcome, t.Syncs, len(t.Rows)-1, "sync"), t.Elapsed)
	return p.Err()
}

// WriteRows prints t to w without the closing line (Outcome, Syncs and
// Elapsed are not read), for a single planned sync, and returns the
// first write error.
func WriteRows(w io.Writer, t *Table) error {
	p := rstable.NewPrinter(w)
	writeRows(p, t)
	return p.Err()
}

// writeRows prints the heading, the legend, the header and the rows.
func writeRows(p *rstable.Printer, t *Table) {
	p.Printf("%s\n%s\n\n", t.Heading, Legend)
	nameW := max(len("NAME"), len("statefulset.apps/")+len(t.Name), len(t.Name)+8) + 3
	p.Printf("%-*s%-9s%-9s%-9s%-11s%s\n", nameW, "NAME", "READY", "CURRENT", "UPDATED", "PARTITION", "PODS")
	var prev []statefulset.PodState
	for i := range t.Rows {
		r := &t.Rows[i]
		s := &r.Status
		p.Printf("# %s\n", r.Comment)
		p.Printf("%-*s%-9s%-9d%-9d%-11d%s\n", nameW, "statefulset.apps/"+t.Name, fmt.Sprintf("%d/%d", s.ReadyReplicas, r.Replicas),
			s.CurrentReplicas, s.UpdatedReplicas, r.Partition, PodMap(r.Pods, t.Start, r.Replicas, t.Update))
		if i == 0 {
			prev = r.Pods
			continue
		}
		why := map[string]string{}
		for _, a := range r.Actions {
			if a.Pod != "" && a.Reason != "" {
				if why[a.Pod] != "" {
					why[a.Pod] += "; "
				}
				why[a.Pod] += a.Reason
			}
		}
		for _, line := range Changes(prev, r.Pods) {
			text := fmt.Sprintf("  pod/%-*s%-9s%-18s%s", nameW-6, line.Name, line.ReadyText(), line.Status(), line.Revision)
			if w := why[line.Name]; w != "" {
				text += "   " + w
			} else if line.AvailableOnly {
				text += "   available: ready for minReadySeconds"
			}
			p.Printf("%s\n", text)
		}
		prev = r.Pods
	}
}

// Line is a pod as one line of `kubectl get pods -w`.
type Line struct {
	statefulset.PodState
	// Gone says the pod no longer exists (the watch's last line for it).
	Gone bool
	// AvailableOnly says the only change is that the pod became
	// available (kubectl shows no difference).
	AvailableOnly bool
}

// ReadyText is kubectl's READY column of a one-container pod: "1/1" or
// "0/1".
func (l Line) ReadyText() string {
	if l.Ready && !l.Gone {
		return "1/1"
	}
	return "0/1"
}

// Status is kubectl's STATUS column: Terminating, the phase, or "(gone)"
// for a pod deleted since.
func (l Line) Status() string {
	switch {
	case l.Gone:
		return "(gone)"
	case l.Terminating:
		return "Terminating"
	}
	return string(l.Phase)
}

// Changes returns the pods of next that are new or differ from prev
// (revision, phase, readiness, availability, termination), then the pods
// of prev gone from next, each group by ordinal.
func Changes(prev, next []statefulset.PodState) []Line {
	old := make(map[string]statefulset.PodState, len(prev))
	for _, p := range prev {
		old[p.Name] = p
	}
	var out []Line
	seen := make(map[string]bool, len(next))
	for _, p := range next {
		seen[p.Name] = true
		if o, ok := old[p.Name]; !ok || o != p {
			o.Available = p.Available
			out = append(out, Line{PodState: p, AvailableOnly: ok && o == p})
		}
	}
	for _, p := range prev {
		if !seen[p.Name] {
			out = append(out, Line{PodState: p, Gone: true})
		}
	}
	return out
}

// PodMap renders the pods one letter each: for ordinals start to
// start+replicas-1 in order, '.' when no pod holds the ordinal, then,
// after a space, one letter per pod beyond them (condemned pods), by
// ordinal. A pod is x when terminating, n at revision update, o at any
// other; capital when available.
func PodMap(pods []statefulset.PodState, start, replicas int32, update string) string {
	byOrdinal := make(map[int64]statefulset.PodState, len(pods))
	var extra []int64
	for _, p := range pods {
		_, ord := statefulset.ParseOrdinal(p.Name)
		o := int64(ord)
		byOrdinal[o] = p
		if o < int64(start) || o >= int64(start)+int64(replicas) {
			extra = append(extra, o)
		}
	}
	slices.Sort(extra)
	var b strings.Builder
	letter := func(p statefulset.PodState) {
		c := 'o'
		switch {
		case p.Terminating:
			b.WriteByte('x')
			return
		case p.Revision == update:
			c = 'n'
		}
		if p.Available {
			c -= 'a' - 'A'
		}
		b.WriteRune(c)
	}
	for k := int64(0); k < int64(replicas); k++ {
		if p, ok := byOrdinal[int64(start)+k]; ok {
			letter(p)
		} else {
			b.WriteByte('.')
		}
	}
	if len(extra) > 0 {
		b.WriteByte(' ')
		for _, o := range extra {
			letter(byOrdinal[o])
		}
	}
	return b.String()
}

// Comment returns the comment line of a sync: "sync 3 (+30s)", then
// " after " and its events when it has any, then ": " and its reason.
func Comment(s *statefulset.Step) string {
	c := fmt.Sprintf("sync %d (+%s)", s.Sync, s.Elapsed)
	if len(s.Events) > 0 {
		c += " after " + strings.Join(s.Events, ", ")
	}
	return c + ": " + s.Reason
}
