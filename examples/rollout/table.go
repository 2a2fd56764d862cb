package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// writeTable prints t the way `kubectl get rs -w` shows a rollout: the
// column header once, then for every sync a comment line with the
// scripted events and the reason, followed by a row for each ReplicaSet
// that changed in that sync (every ReplicaSet at step 0). It ends with a
// summary: outcome, peak pods, lowest availability and the bounds.
func writeTable(w io.Writer, t *trace) error {
	p := &printer{w: w}
	p.printf("%s\n\n", describe(t))
	col := widths(t)
	p.printf("%-*s%-*s%-*s%-*s%s\n", col[0], "NAME", col[1], "DESIRED", col[2], "CURRENT", col[3], "READY", "AVAILABLE")
	for i := range t.Steps {
		s := &t.Steps[i]
		p.printf("# %s\n", stepLine(s))
		for _, rs := range s.ReplicaSets {
			if i > 0 && !changed(&t.Steps[i-1], rs) {
				continue
			}
			p.printf("%-*s%-*d%-*d%-*d%d\n", col[0], rs.Name, col[1], rs.Desired, col[2], rs.Current, col[3], rs.Ready, rs.Available)
		}
	}
	p.printf("\n")
	writeSummary(p, t)
	return p.err
}

// printer writes formatted text and keeps the first write error, so the
// table code reads as a sequence of prints.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// describe returns the one-line description of the deployment and the
// update that heads the table.
func describe(t *trace) string {
	last := &t.Steps[len(t.Steps)-1]
	strategy := t.Strategy
	if t.Strategy != "Recreate" {
		strategy = fmt.Sprintf("RollingUpdate (maxSurge %s, maxUnavailable %s)", t.MaxSurge, t.MaxUnavailable)
	}
	return fmt.Sprintf("Deployment %s: %d replicas, %s, image %s -> %s",
		t.Deployment, last.Replicas, strategy, t.FromImage, t.ToImage)
}

// stepLine returns the comment line of step s: its number, its scripted
// events in brackets, and its reasons joined into one line.
func stepLine(s *step) string {
	var b strings.Builder
	if s.N == 0 {
		b.WriteString("before the update")
	} else {
		fmt.Fprintf(&b, "sync %d (+%s)", s.N, s.Elapsed)
	}
	if len(s.Events) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(s.Events, ", "))
	}
	b.WriteString(": ")
	if len(s.Reasons) == 0 {
		b.WriteString("nothing to do")
	} else {
		b.WriteString(strings.Join(s.Reasons, "; "))
	}
	return b.String()
}

// changed reports whether rs differs from the same ReplicaSet in prev, or
// is new since prev.
func changed(prev *step, rs rsRow) bool {
	old, ok := prev.row(rs.Name)
	return !ok || old != rs
}

// widths returns the widths of the NAME, DESIRED, CURRENT and READY
// columns: the longest header or value plus three spaces, as kubectl pads
// its columns.
func widths(t *trace) [4]int {
	w := [4]int{len("NAME"), len("DESIRED"), len("CURRENT"), len("READY")}
	for _, s := range t.Steps {
		for _, rs := range s.ReplicaSets {
			w[0] = max(w[0], len(rs.Name))
			w[1] = max(w[1], len(strconv.Itoa(int(rs.Desired))))
			w[2] = max(w[2], len(strconv.Itoa(int(rs.Current))))
			w[3] = max(w[3], len(strconv.Itoa(int(rs.Ready))))
		}
	}
	for i := range w {
		w[i] += 3
	}
	return w
}

// writeSummary prints the closing summary of t. The peak and the low
// point are compared with the bounds in force at their own step, since a
// resize changes R.
func writeSummary(p *printer, t *trace) {
	last := &t.Steps[len(t.Steps)-1]
	peak, low := t.extremes()
	p.printf("Summary\n")
	p.printf("  outcome:              %s after %d syncs (%d of them changed something)\n", t.Outcome, t.Syncs, len(t.Steps)-1)
	if t.Strategy == "Recreate" {
		p.printf("  peak pods:            %d at %s (ceiling R = %d)\n", peak.pods(), stepName(peak.N), peak.Ceiling)
		p.printf("  lowest availability:  %d at %s (Recreate keeps no pods available while it replaces them)\n",
			low.available(), stepName(low.N))
		p.printf("  bounds:               none: Recreate has no maxSurge or maxUnavailable\n")
		return
	}
	p.printf("  peak pods:            %d at %s (ceiling R + maxSurge = %d + %d = %d%s)\n",
		peak.pods(), stepName(peak.N), peak.Replicas, peak.MaxSurge, peak.Ceiling, saturated(peak.Ceiling))
	p.printf("  lowest availability:  %d at %s (floor R - maxUnavailable = %d - %d = %d)\n",
		low.available(), stepName(low.N), low.Replicas, low.MaxUnavailable, low.Floor)
	p.printf("  bounds:               maxSurge %s, maxUnavailable %s\n",
		resolved(t.MaxSurge, last.Replicas, last.MaxSurge, intorpercent.Up),
		resolved(t.MaxUnavailable, last.Replicas, last.MaxUnavailable, intorpercent.Down))
}

// saturated notes a ceiling beyond int32, where the library saturates
// R + maxSurge (upstream wraps it negative and stalls the rollout).
func saturated(ceiling int64) string {
	if ceiling > math.MaxInt32 {
		return ", saturated at 2147483647"
	}
	return ""
}

// resolved describes how a maxSurge or maxUnavailable value as written
// resolved to n pods for r replicas, rounding percentages in direction
// round: "25% of 10 = 3 pods", "2 pods", or, where the rollout math
// changed the value, "1000, clamped to R = 10 pods" and "0, raised to 1
// because maxSurge is also 0 = 1 pod".
func resolved(value string, r, n int32, round intorpercent.Rounding) string {
	v, err := intorpercent.Parse(value)
	if err != nil {
		return fmt.Sprintf("%s = %s", value, podCount(n))
	}
	scaled, _ := v.Scaled(r, round)
	text := value
	if v.IsPercent() {
		text = fmt.Sprintf("%s of %d", value, r)
	}
	switch {
	case scaled == n && !v.IsPercent():
		return podCount(n)
	case scaled < n:
		text += ", raised to 1 because maxSurge is also 0"
	case scaled > n:
		text += ", clamped to R"
	}
	return fmt.Sprintf("%s = %s", text, podCount(n))
}

// podCount returns "1 pod" or "n pods".
func podCount(n int32) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// stepName names step n in the summary: "sync n", or "the start" for 0.
func stepName(n int) string {
	if n == 0 {
		return "the start"
	}
	return fmt.Sprintf("sync %d", n)
}
