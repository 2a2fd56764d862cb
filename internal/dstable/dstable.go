// Package dstable prints a simulated DaemonSet rollout the way
// `kubectl get ds -w` and `kubectl get pods -o wide -w` show one, for the
// programs that simulate DaemonSets (examples/daemonset and
// adapters/kubeapps/cmd/daemonsetplan): a heading, a legend, and per sync
// a comment line with the controller's reason, the DaemonSet's row with a
// map of its nodes, and a line for every pod that changed since the
// previous row (with the reason of the write, when the sync wrote it).
// The programs fill in a [Table]; [Write] owns the layout, so that both
// print alike.
package dstable

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// Legend is the line under the heading that explains the NODES column
// and the pod lines.
const Legend = "NODES: one group per node, by name, its pods oldest first: o/O old revision, n/N new revision (capital: available), x terminating, - no pod, . the pod should not run there\n" +
	"Under each row, the pods that changed as `kubectl get pods -o wide -w` prints them (NAME READY STATUS NODE), with their revision hash and, when the sync wrote them, why."

// Row is one sync (or the state before the first) as the table prints
// it.
type Row struct {
	// Comment is the comment line, without the leading "# ".
	Comment string
	// Status is the status the sync computed.
	Status daemonset.Status
	// Nodes are the nodes at this sync; Pods the pods after it.
	Nodes []daemonset.Node
	Pods  []daemonset.Pod
	// Now is the sync's time: availability (minReadySeconds) is judged
	// then.
	Now time.Time
	// Actions are the sync's writes; pod writes give their reasons to
	// the pod lines.
	Actions []daemonset.Action
}

// Table is a simulated DaemonSet rollout as the programs print it.
type Table struct {
	Heading string // the first lines
	Name    string // the DaemonSet's name
	// Update is the revision hash the NODES map shows as new (n/N): the
	// hash the run ends with.
	Update string
	// TemplateGeneration is the template generation the run ends with
	// (nil: none); a pod whose pod-template-generation label equals it
	// counts as new too, as the controller counts it.
	TemplateGeneration *int64
	// MinReadySeconds judges availability.
	MinReadySeconds int32
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
	nameW := max(len("NAME"), len("daemonset.apps/")+len(t.Name)) + 3
	for i := range t.Rows {
		for _, q := range t.Rows[i].Pods {
			nameW = max(nameW, len("pod/")+len(q.Name)+5)
		}
	}
	p.Printf("%-*s%-9s%-9s%-7s%-12s%-11s%s\n", nameW, "NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODES")
	var prev []state
	for i := range t.Rows {
		r := &t.Rows[i]
		s := &r.Status
		p.Printf("# %s\n", r.Comment)
		p.Printf("%-*s%-9d%-9d%-7d%-12d%-11d%s\n", nameW, "daemonset.apps/"+t.Name, s.DesiredNumberScheduled, s.CurrentNumberScheduled,
			s.NumberReady, s.UpdatedNumberScheduled, s.NumberAvailable, NodeMap(r.Nodes, r.Pods, t.Update, t.TemplateGeneration, t.MinReadySeconds, r.Now))
		cur := states(r.Pods, t.MinReadySeconds, r.Now)
		if i == 0 {
			prev = cur
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
		for _, l := range changes(prev, cur) {
			text := fmt.Sprintf("  %-*s%-7s%-13s%-10s%s", nameW-2, "pod/"+l.Name, l.readyText(), l.status(), l.Node, l.Hash)
			if w := why[l.Name]; w != "" && !l.gone {
				text += "   " + w
			} else if l.availableOnly {
				text += "   available: ready for minReadySeconds"
			}
			p.Printf("%s\n", text)
		}
		prev = cur
	}
}

// state is what a pod line shows of a pod.
type state struct {
	Name, Node, Hash string
	Phase            daemonset.PodPhase
	Ready, Available bool
	Terminating      bool
	Unscheduled      bool
	// Created tells apart two pods of the same name, one deleted and one
	// created later.
	Created time.Time
}

// line is a pod as one line of `kubectl get pods -w`.
type line struct {
	state
	gone          bool // the pod no longer exists (the watch's last line for it)
	availableOnly bool // the only change: the pod became available
}

func states(pods []daemonset.Pod, minReadySeconds int32, now time.Time) []state {
	out := make([]state, len(pods))
	for i := range pods {
		q := &pods[i]
		out[i] = state{Name: q.Name, Node: q.Node, Hash: q.Hash, Phase: q.Phase, Ready: q.Ready,
			Available: q.Ready && daemonset.IsPodAvailable(q, minReadySeconds, now), Terminating: q.Terminating, Unscheduled: q.Unscheduled, Created: q.Created}
	}
	slices.SortFunc(out, func(a, b state) int {
		if c := strings.Compare(a.Node, b.Node); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// readyText is kubectl's READY column of a one-container pod.
func (l line) readyText() string {
	if l.Ready && !l.gone {
		return "1/1"
	}
	return "0/1"
}

// status is kubectl's STATUS column: Terminating, the phase (Pending
// when empty), or "(gone)" for a pod deleted since.
func (l line) status() string {
	switch {
	case l.gone:
		return "(gone)"
	case l.Terminating:
		return "Terminating"
	case l.Phase == "":
		return string(daemonset.PodPending)
	}
	return string(l.Phase)
}

// key identifies a pod across rows: its name and creation time (a pod
// created under the name of one deleted before is another pod).
type key struct {
	name    string
	created time.Time
}

// changes returns the pods of prev gone from next, then the pods of
// next that are new or differ from prev, each group by node and name.
func changes(prev, next []state) []line {
	old := make(map[key]state, len(prev))
	for _, q := range prev {
		old[key{q.Name, q.Created}] = q
	}
	seen := make(map[key]bool, len(next))
	for _, q := range next {
		seen[key{q.Name, q.Created}] = true
	}
	var out []line
	for _, q := range prev {
		if !seen[key{q.Name, q.Created}] {
			out = append(out, line{state: q, gone: true})
		}
	}
	for _, q := range next {
		if o, ok := old[key{q.Name, q.Created}]; !ok || o != q {
			o.Available = q.Available
			out = append(out, line{state: q, availableOnly: ok && o == q})
		}
	}
	return out
}

// NodeMap renders each node, by name, as its pods' letters, oldest
// first (daemonset.ComparePods), separated by spaces: x for a
// terminating pod, n for a pod updated to hash (or to the template
// generation), o for any other, capital when available at now; "-" for a
// node that should run the pod and has none, "." for one that should
// not. Pods on nodes missing from nodes follow after " | ", by node.
func NodeMap(nodes []daemonset.Node, pods []daemonset.Pod, hash string, templateGeneration *int64, minReadySeconds int32, now time.Time) string {
	byNode := map[string][]*daemonset.Pod{}
	for i := range pods {
		byNode[pods[i].Node] = append(byNode[pods[i].Node], &pods[i])
	}
	letters := func(ps []*daemonset.Pod) string {
		slices.SortFunc(ps, func(a, b *daemonset.Pod) int { return daemonset.ComparePods(a, b) })
		var b strings.Builder
		for _, q := range ps {
			c := byte('o')
			switch {
			case q.Terminating:
				b.WriteByte('x')
				continue
			case daemonset.IsPodUpdated(q, hash, templateGeneration):
				c = 'n'
			}
			if q.Ready && daemonset.IsPodAvailable(q, minReadySeconds, now) {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	sorted := slices.Clone(nodes)
	slices.SortFunc(sorted, func(a, b daemonset.Node) int { return strings.Compare(a.Name, b.Name) })
	var cells []string
	known := map[string]bool{}
	for _, n := range sorted {
		known[n.Name] = true
		switch ps := byNode[n.Name]; {
		case len(ps) > 0:
			cells = append(cells, letters(ps))
		case n.ShouldRun:
			cells = append(cells, "-")
		default:
			cells = append(cells, ".")
		}
	}
	var extra []string
	for node := range byNode {
		if !known[node] {
			extra = append(extra, node)
		}
	}
	slices.Sort(extra)
	s := strings.Join(cells, " ")
	if len(extra) > 0 {
		var e []string
		for _, node := range extra {
			e = append(e, letters(byNode[node]))
		}
		s += " | " + strings.Join(e, " ")
	}
	return s
}

// Comment returns the comment line of a sync: "sync 3 (+30s)" (the time
// counted from start), then " after " and its events when it has any,
// then ": " and its reason.
func Comment(s *daemonset.Step, start time.Time) string {
	c := fmt.Sprintf("sync %d (+%s)", s.Sync, s.Time.Sub(start))
	if len(s.Events) > 0 {
		c += " after " + strings.Join(s.Events, ", ")
	}
	return c + ": " + s.Reason
}
