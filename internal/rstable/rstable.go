// Package rstable prints a simulated rollout the way `kubectl get rs -w`
// shows one, for the example programs examples/rollout and
// adapters/kubeapps/cmd/rolloutplan: a heading line, the column header,
// a comment line per sync with the rows of the ReplicaSets that changed,
// and a closing summary. The programs fill in a [Table], deciding what a
// step's comment says and which rows changed; [Write] owns the layout, so
// that both print the same table.
package rstable

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/internal/capacity"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Printer writes formatted text and keeps the first write error, so that
// printing code reads as a sequence of prints.
type Printer struct {
	w   io.Writer
	err error
}

// NewPrinter returns a Printer writing to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{w: w} }

// Printf writes to the Printer's writer as fmt.Fprintf does, unless an
// earlier write failed.
func (p *Printer) Printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// Err returns the first write error, or nil.
func (p *Printer) Err() error { return p.err }

// Row is one ReplicaSet as `kubectl get rs` shows it.
type Row struct {
	Name                               string
	Desired, Current, Ready, Available int32
}

// Step is one printed step of a rollout: its comment line, the rows to
// print under it, and the counts and bounds the summary reads.
type Step struct {
	Comment string // without the leading "# "
	Rows    []Row  // the ReplicaSets that changed in this step; all of them before the update

	Sync            int   // 0 for the state before the update
	Pods, Available int64 // pods running (terminating ones included) and available
	Replicas        int32 // R in force at this step
	MaxSurge        int32 // resolved for R
	MaxUnavailable  int32 // resolved for R
	Ceiling, Floor  int64 // R + maxSurge and R - maxUnavailable; R and 0 for Recreate
}

// Table is a simulated rollout as the example programs print it.
type Table struct {
	Heading  string // see Heading
	Steps    []Step // at least one: the state before the update, then the syncs that changed something
	Outcome  string // see Outcome
	Syncs    int    // syncs run, including those that changed nothing
	Recreate bool
	Bounds   string // the summary's line after "bounds:"; "" for none

	// Capacity, when set, adds the peak extra pods, CPU and memory to
	// the summary, after the bounds.
	Capacity *capacity.Report
}

// Heading returns the line that heads the table, such as "Deployment
// nginx: 10 replicas, RollingUpdate (maxSurge 25%, maxUnavailable 25%),
// image nginx:1.9 -> nginx:1.9.3"; images is the text after "image ".
func Heading(name string, replicas int32, strategy, images string) string {
	return fmt.Sprintf("Deployment %s: %d replicas, %s, image %s", name, replicas, strategy, images)
}

// Strategy describes a strategy for Heading: "Recreate", or
// "RollingUpdate (maxSurge 25%, maxUnavailable 25%)" with the values as
// written.
func Strategy(recreate bool, maxSurge, maxUnavailable string) string {
	if recreate {
		return string(rollout.Recreate)
	}
	return fmt.Sprintf("RollingUpdate (maxSurge %s, maxUnavailable %s)", maxSurge, maxUnavailable)
}

// Write prints t to w: the heading, the column header, each step's
// comment line and rows, and the summary, and returns the first write
// error. Columns are as wide as their longest header or value plus three
// spaces, as kubectl pads them.
func Write(w io.Writer, t *Table) error {
	p := NewPrinter(w)
	p.Printf("%s\n\n", t.Heading)
	p.steps(t.Steps)
	p.Printf("\n")
	p.summary(t)
	return p.Err()
}

func (p *Printer) steps(steps []Step) {
	w := [4]int{len("NAME"), len("DESIRED"), len("CURRENT"), len("READY")}
	for _, s := range steps {
		for _, r := range s.Rows {
			w[0] = max(w[0], len(r.Name))
			w[1] = max(w[1], len(strconv.Itoa(int(r.Desired))))
			w[2] = max(w[2], len(strconv.Itoa(int(r.Current))))
			w[3] = max(w[3], len(strconv.Itoa(int(r.Ready))))
		}
	}
	for i := range w {
		w[i] += 3
	}
	p.Printf("%-*s%-*s%-*s%-*s%s\n", w[0], "NAME", w[1], "DESIRED", w[2], "CURRENT", w[3], "READY", "AVAILABLE")
	for _, s := range steps {
		p.Printf("# %s\n", s.Comment)
		for _, r := range s.Rows {
			p.Printf("%-*s%-*d%-*d%-*d%d\n", w[0], r.Name, w[1], r.Desired, w[2], r.Current, w[3], r.Ready, r.Available)
		}
	}
}

// summary prints the closing summary: the outcome, the peak pod count
// and the lowest availability, each next to the bound in force at its
// own step, since a resize changes R (ties go to the earliest step), and
// the bounds line.
func (p *Printer) summary(t *Table) {
	peak, low := &t.Steps[0], &t.Steps[0]
	for i := range t.Steps {
		if t.Steps[i].Pods > peak.Pods {
			peak = &t.Steps[i]
		}
		if t.Steps[i].Available < low.Available {
			low = &t.Steps[i]
		}
	}
	p.Printf("Summary\n")
	p.Printf("  outcome:              %s\n", RunLine(t.Outcome, t.Syncs, len(t.Steps)-1, "sync"))
	if t.Recreate {
		p.Printf("  peak pods:            %d at %s (ceiling R = %d)\n", peak.Pods, stepName(peak.Sync), peak.Ceiling)
		p.Printf("  lowest availability:  %d at %s (Recreate keeps no pods available while it replaces them)\n",
			low.Available, stepName(low.Sync))
	} else {
		p.Printf("  peak pods:            %d at %s (ceiling R + maxSurge = %d + %d = %d%s)\n",
			peak.Pods, stepName(peak.Sync), peak.Replicas, peak.MaxSurge, peak.Ceiling, saturated(peak.Ceiling))
		p.Printf("  lowest availability:  %d at %s (floor R - maxUnavailable = %d - %d = %d)\n",
			low.Available, stepName(low.Sync), low.Replicas, low.MaxUnavailable, low.Floor)
	}
	if t.Bounds != "" {
		p.Printf("  bounds:               %s\n", t.Bounds)
	}
	p.capacity(t)
}

// capacity prints the peaks of t.Capacity beyond the steady state, R pods
// of the new template:
//
//	peak extra pods:      3 at sync 3 (13 pods for R = 10)
//	peak extra cpu:       750m at sync 3 (250m per pod)
//	peak extra memory:    192Mi (201326592 bytes) at sync 3 (64Mi per pod)
//
// A resource the template does not request is said to be so; a peak of 0
// reads "0: never above the steady state".
func (p *Printer) capacity(t *Table) {
	c := t.Capacity
	if c == nil {
		return
	}
	pods := "0: never above R"
	if c.PeakExtraPods.Pods > 0 {
		pods = fmt.Sprintf("%d at %s", c.PeakExtraPods.Pods, stepName(c.PeakExtraPods.Sync))
		for i := range t.Steps {
			if s := &t.Steps[i]; s.Sync == c.PeakExtraPods.Sync {
				pods += fmt.Sprintf(" (%d pods for R = %d)", s.Pods, s.Replicas)
				break
			}
		}
	}
	p.Printf("  peak extra pods:      %s\n", pods)
	p.Printf("  peak extra cpu:       %s\n", peak(c.PeakExtraCPU.CPU, c.PeakExtraCPU.MilliCPU, c.PeakExtraCPU.Sync, c.PodRequests.CPU, c.PodRequests.MilliCPU, "CPU"))
	memory := c.PeakExtraMemory.MemoryText
	if c.PeakExtraMemory.Memory != 0 {
		memory += fmt.Sprintf(" (%d bytes)", c.PeakExtraMemory.Memory)
	}
	p.Printf("  peak extra memory:    %s\n", peak(memory, c.PeakExtraMemory.Memory, c.PeakExtraMemory.Sync, c.PodRequests.MemoryText, c.PodRequests.Memory, "memory"))
}

// peak describes the peak extra of one resource: text (its amount) at
// sync, with the request per pod, or why there is none.
func peak(text string, amount int64, sync int, perPodText string, perPod int64, resource string) string {
	switch {
	case amount > 0:
		return fmt.Sprintf("%s at %s (%s per pod)", text, stepName(sync), perPodText)
	case perPod == 0:
		return fmt.Sprintf("0: the pod template requests no %s", resource)
	}
	return "0: never above the steady state"
}

// saturated notes a ceiling beyond int32, where the library saturates
// R + maxSurge (upstream wraps it negative and stalls the rollout).
func saturated(ceiling int64) string {
	if ceiling > math.MaxInt32 {
		return ", saturated at 2147483647"
	}
	return ""
}

// stepName names a step in the summary: "sync n", or "the start" for 0.
func stepName(sync int) string {
	if sync == 0 {
		return "the start"
	}
	return fmt.Sprintf("sync %d", sync)
}

// Outcome says in words how a simulation ended.
func Outcome(o rollout.Outcome) string {
	switch o {
	case rollout.OutcomeComplete:
		return "complete"
	case rollout.OutcomeTimedOut:
		return "timed out (ProgressDeadlineExceeded)"
	case rollout.OutcomePaused:
		return "paused"
	case rollout.OutcomeStalled:
		return "stalled: nothing left to do, but the rollout is not complete"
	case rollout.OutcomeSyncLimit:
		return "stopped at the sync limit (-max-syncs)"
	}
	return o.String()
}

// RunLine says how a run of syncs (unit "sync") or reconciles (unit
// "reconcile") ended, so that the count matches the table above it: only
// the ones that changed something are printed (shown), and the idle ones
// (waiting for pods, or confirming there is nothing left to do) are
// counted apart: "complete after 9 syncs: 8 shown above changed
// something, 1 more changed nothing".
func RunLine(outcome string, runs, shown int, unit string) string {
	units := unit + "s"
	if runs == 1 {
		units = unit
	}
	idle := runs - shown
	if idle <= 0 {
		return fmt.Sprintf("%s after %d %s, all shown above", outcome, runs, units)
	}
	return fmt.Sprintf("%s after %d %s: %d shown above changed something, %d more changed nothing", outcome, runs, units, shown, idle)
}
