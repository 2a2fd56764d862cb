// Package clonesettable prints a simulated CloneSet rollout the way
// `kubectl get cloneset -w` shows one, for the example programs that
// simulate CloneSets (adapters/kruiseapps/cmd/clonesetplan, and the
// layout of examples/cloneset): a heading, a legend for the pod map, the
// column header, a comment line and a row per reconcile, and the outcome.
// The programs fill in a [Table]; [Write] owns the layout, so that they
// print the same table.
package clonesettable

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// Legend is the line under the heading that explains the PODS column.
const Legend = "PODS: one letter per pod, oldest first: o/O old revision, n/N new revision (capital: available), x terminating"

// Row is one reconcile (or the state before the first) as a row of the
// table.
type Row struct {
	// Comment is the comment line, without the leading "# ".
	Comment string
	// Replicas is DESIRED, spec.replicas at this reconcile.
	Replicas int32
	// Status gives UPDATED, UPDATED_READY, READY and TOTAL: the status the
	// reconcile computed (from the pods it saw), as kubectl shows it.
	Status cloneset.Status
	// Pods are the pods after the reconcile, oldest first, for the PODS
	// map.
	Pods []cloneset.PodState
}

// Table is a simulated CloneSet rollout as the example programs print it.
type Table struct {
	Heading string // the first line
	Name    string // the CloneSet's name, in the NAME column
	// Update is the revision the PODS map shows as new (n/N).
	Update string
	// Rows are the state before the update, then the reconciles.
	Rows []Row
	// Outcome, Syncs and Elapsed make the closing line, which also
	// counts the reconciles (syncs) the rows do not show (rstable.RunLine):
	// "Complete after 41 reconciles: 40 shown above changed something, 1
	// more changed nothing (6m40s)".
	Outcome string
	Syncs   int
	Elapsed time.Duration
}

// Write prints t to w and returns the first write error.
func Write(w io.Writer, t *Table) error {
	p := rstable.NewPrinter(w)
	p.Printf("%s\n%s\n\n", t.Heading, Legend)
	nameW := max(len("NAME"), len(t.Name)) + 3
	p.Printf("%-*s%-10s%-10s%-16s%-8s%-8s%s\n", nameW, "NAME", "DESIRED", "UPDATED", "UPDATED_READY", "READY", "TOTAL", "PODS")
	for _, r := range t.Rows {
		s := &r.Status
		p.Printf("# %s\n", r.Comment)
		p.Printf("%-*s%-10d%-10d%-16d%-8d%-8d%s\n", nameW, t.Name, r.Replicas, s.UpdatedReplicas, s.UpdatedReadyReplicas, s.ReadyReplicas, s.Replicas, PodMap(r.Pods, t.Update))
	}
	p.Printf("\n%s (%s)\n", rstable.RunLine(t.Outcome, t.Syncs, len(t.Rows)-1, "reconcile"), t.Elapsed)
	return p.Err()
}

// Comment returns the comment line of a reconcile: "reconcile 3 (+30s)",
// then " after " and its events when it has any, then ": " and its
// reason.
func Comment(s *cloneset.Step) string {
	c := fmt.Sprintf("reconcile %d (+%s)", s.Sync, s.Elapsed)
	if len(s.Events) > 0 {
		c += " after " + strings.Join(s.Events, ", ")
	}
	return c + ": " + s.Reason
}

// PodMap renders pods one letter each: x for a terminating pod, n for a
// pod at revision update, o for any other; capital when available.
func PodMap(pods []cloneset.PodState, update string) string {
	var b strings.Builder
	for _, p := range pods {
		c := 'o'
		switch {
		case p.Terminating:
			c = 'x'
		case p.Revision == update:
			c = 'n'
		}
		if p.Available && c != 'x' {
			c -= 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}
