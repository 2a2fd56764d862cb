package main

import (
	"fmt"
	"github.com/rolloutmath/rolloutmath/examples/kubernetes/adapt"
	"io"
	"strings"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// writeTable prints t as examples/rollout does: a description line, the
// column header, then for every sync a comment line with the reason and
// a row for each ReplicaSet that changed (every ReplicaSet before the
// update), and a summary.
func writeTable(w io.Writer, t *trace) error {
	p := &printer{w: w}
	p.printf("%s\n\n", describe(t))
	width := len("NAME")
	for _, s := range t.steps() {
		for _, rs := range s.rss {
			width = max(width, len(rs.Name))
		}
	}
	width += 3
	p.printf("%-*s%-10s%-10s%-8s%s\n", width, "NAME", "DESIRED", "CURRENT", "READY", "AVAILABLE")
	steps := t.steps()
	for i, s := range steps {
		p.printf("# %s\n", s.line)
		for _, rs := range s.rss {
			if i > 0 && !changed(steps[i-1].rss, rs) {
				continue
			}
			p.printf("%-*s%-10d%-10d%-8d%d\n", width, rs.Name, rs.Desired, rs.Current, rs.Ready, rs.Available)
		}
	}
	p.printf("\n")
	writeSummary(p, t, steps)
	return p.err
}

// printer writes formatted text and keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// row is one printed step: the comment line, the ReplicaSets and the
// bounds in force.
type row struct {
	sync            int
	line            string
	rss             []rollout.ReplicaSetState
	replicas        int32
	ceiling, floor  int32
	pods, available int32
}

// steps returns the state before the update followed by every sync that
// changed something.
func (t *trace) steps() []row {
	first := row{line: startLabel(t) + initialReason(t), rss: t.initial, replicas: t.d.Replicas}
	first.ceiling, first.floor = bounds(&t.d, t.d.Replicas, rollout.MaxSurge(&t.d), rollout.MaxUnavailable(&t.d))
	out := []row{first}
	for _, s := range t.t.Steps {
		line := fmt.Sprintf("sync %d (+%s)", s.Sync, s.Elapsed)
		if len(s.Events) > 0 {
			events := s.Events
			if s.Sync == 1 && t.to != t.from {
				// The only scripted event: say which images change.
				events = []string{fmt.Sprintf("image %s -> %s", t.from, t.to)}
			}
			line += " [" + strings.Join(events, ", ") + "]"
		}
		r := row{sync: s.Sync, line: line + ": " + s.Reason, rss: s.ReplicaSets, replicas: s.Replicas}
		r.ceiling, r.floor = bounds(&t.d, s.Replicas, s.MaxSurge, s.MaxUnavailable)
		out = append(out, r)
	}
	for i := range out {
		for _, rs := range out[i].rss {
			out[i].pods += rs.Current + rs.Terminating
			out[i].available += rs.Available
		}
	}
	return out
}

// initialReason describes the state before the update.
func initialReason(t *trace) string {
	switch len(t.initial) {
	case 0:
		return "no ReplicaSet yet"
	case 1:
		return "one ReplicaSet"
	}
	return fmt.Sprintf("%d ReplicaSets", len(t.initial))
}

// bounds returns R + maxSurge and R - maxUnavailable for a rolling
// update, R and 0 for Recreate.
func bounds(d *rollout.Deployment[adapt.Template], r, surge, unavailable int32) (ceiling, floor int32) {
	if d.Strategy == rollout.Recreate {
		return r, 0
	}
	return int32(min(int64(r)+int64(surge), 1<<31-1)), r - unavailable
}

// changed reports whether rs differs from the ReplicaSet of the same name
// in prev, or is not there.
func changed(prev []rollout.ReplicaSetState, rs rollout.ReplicaSetState) bool {
	for _, p := range prev {
		if p.Name == rs.Name {
			return p != rs
		}
	}
	return true
}

// describe returns the heading line.
func describe(t *trace) string {
	strategy := string(rollout.Recreate)
	if t.d.Strategy != rollout.Recreate {
		surge, unavailable := bound(t.d.MaxSurge, rollout.DefaultMaxSurge()), bound(t.d.MaxUnavailable, rollout.DefaultMaxUnavailable())
		strategy = fmt.Sprintf("RollingUpdate (maxSurge %s, maxUnavailable %s)", surge, unavailable)
	}
	image := "image " + t.from
	if t.to != t.from {
		image += " -> " + t.to
	}
	return fmt.Sprintf("Deployment %s: %d replicas, %s, %s", t.d.Name, t.d.Replicas, strategy, image)
}

// bound returns *v, or def when v is nil.
func bound(v *intorpercent.Value, def intorpercent.Value) intorpercent.Value {
	if v == nil {
		return def
	}
	return *v
}

// writeSummary prints how the rollout ended, its peak pod count and its
// lowest availability, next to the bounds in force at those steps.
func writeSummary(p *printer, t *trace, steps []row) {
	peak, low := &steps[0], &steps[0]
	for i := range steps {
		if steps[i].pods > peak.pods {
			peak = &steps[i]
		}
		if steps[i].available < low.available {
			low = &steps[i]
		}
	}
	p.printf("Summary\n")
	p.printf("  outcome:              %s after %d syncs (%d of them changed something)\n", outcome(t.t.Outcome), t.t.Syncs, len(steps)-1)
	if t.d.Strategy == rollout.Recreate {
		p.printf("  peak pods:            %d at %s (ceiling R = %d)\n", peak.pods, stepName(peak.sync), peak.ceiling)
		p.printf("  lowest availability:  %d at %s (Recreate keeps no pods available while it replaces them)\n", low.available, stepName(low.sync))
		return
	}
	p.printf("  peak pods:            %d at %s (ceiling R + maxSurge = %d + %d = %d)\n",
		peak.pods, stepName(peak.sync), peak.replicas, peak.ceiling-peak.replicas, peak.ceiling)
	p.printf("  lowest availability:  %d at %s (floor R - maxUnavailable = %d - %d = %d)\n",
		low.available, stepName(low.sync), low.replicas, low.replicas-low.floor, low.floor)
}

// stepName names a step in the summary.
func stepName(sync int) string {
	if sync == 0 {
		return "the start"
	}
	return fmt.Sprintf("sync %d", sync)
}

// outcome says in words how a simulation ended.
func outcome(o rollout.Outcome) string {
	switch o {
	case rollout.OutcomeComplete:
		return "complete"
	case rollout.OutcomeTimedOut:
		return "timed out (ProgressDeadlineExceeded)"
	case rollout.OutcomePaused:
		return "paused"
	case rollout.OutcomeStalled:
		return "stalled: nothing left to do, but the rollout is not complete"
	case rollout.OutcomeStepLimit:
		return "stopped at the step limit (-max-steps)"
	}
	return o.String()
}

// startLabel begins the comment line of the starting state.
func startLabel(t *trace) string {
	if t.to != t.from {
		return "before the update: "
	}
	return "at the start: "
}
