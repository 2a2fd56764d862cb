package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/clonesettable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// writeTable prints t in the table of examples/cloneset
// (examples/internal/clonesettable): the heading, a row for the state
// before the update and one for every reconcile that changed something,
// each under a comment line with the reason, and the outcome with the
// time the last reconcile ran.
func writeTable(w io.Writer, t *trace) error {
	heading := describe(t) + "\nnow " + t.now.Format(time.RFC3339) + " (" + t.nowFrom + "): reconcile 1 runs then"
	tab := clonesettable.Table{Heading: heading, Name: t.cs.Name, Update: t.t.CloneSet.Status.UpdateRevision,
		Outcome: t.t.Outcome.String(), Syncs: t.t.Syncs}
	tab.Rows = append(tab.Rows, clonesettable.Row{
		Comment:  startLabel(t) + fmt.Sprintf("%d pods, %d at the update revision", t.initial.Active, t.initial.Status.UpdatedReplicas),
		Replicas: t.initial.Replicas, Status: t.initial.Status, Pods: t.initialPods})
	for i := range t.t.Steps {
		s := &t.t.Steps[i]
		tab.Rows = append(tab.Rows, clonesettable.Row{Comment: clonesettable.Comment(s), Replicas: s.Replicas, Status: s.Status, Pods: s.Pods})
	}
	// The closing line's time is the end's: when the last reconcile ran,
	// recorded or not.
	if t.t.Syncs > 0 {
		tab.Elapsed = time.Duration(t.t.Syncs-1) * t.interval
	}
	return clonesettable.Write(w, &tab)
}

// podStates returns pods as a cloneset.Step records them, oldest first (by
// creation time, then name), at time now.
func podStates(pods []cloneset.Pod, minReadySeconds int32, now time.Time) []cloneset.PodState {
	sorted := slices.Clone(pods)
	slices.SortFunc(sorted, func(a, b cloneset.Pod) int {
		return cmp.Or(a.CreationTime.Compare(b.CreationTime), strings.Compare(a.Name, b.Name))
	})
	var out []cloneset.PodState
	for i := range sorted {
		p := &sorted[i]
		if !p.Terminating && !cloneset.IsPodActive(p) {
			continue
		}
		out = append(out, cloneset.PodState{Name: p.Name, Revision: p.Revision, Lifecycle: p.Lifecycle, Ready: p.Ready,
			Available: cloneset.IsPodAvailable(p, minReadySeconds, now), Terminating: p.Terminating})
	}
	return out
}

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
