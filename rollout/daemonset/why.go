package daemonset

import (
	"fmt"
	"strings"
)

// whyKind says which sentence a why writes.
type whyKind uint8

const (
	whyNone whyKind = iota
	whyLabelled
	whyCollision // n: the new count
	whyRevisionCreated
	whyRenumbered // n: the old number
	whyRelabelled
	whyDuplicate
	whyCreated // cause, rolling
	whyDeleted // cause, rolling
	whyHistory // n: the number
	whyStatus
)

// why holds the facts of one action's reason, so that the sentence is
// written only when somebody reads it (Planner.Explain).
type why struct {
	kind    whyKind
	cause   cause
	rolling bool
	n       int64
}

// stop says why a sync stopped early.
type stop uint8

const (
	stopNone stop = iota
	stopDeleting
	stopCollision
)

// scene is what the reasons of one sync state beyond their own facts.
type scene struct {
	ds       string
	minReady int32
	budget   Budget
	stop     stop
	failure  string // the rolling update's error
	waited   bool   // manage wrote: the rolling update waits
	burst    bool   // the burst limit held writes back
}

// text writes the sentence of a.
func (w *why) text(a *Action, sc *scene) string {
	switch w.kind {
	case whyLabelled:
		return fmt.Sprintf("revision %s has no %s label: labelled with its name", a.Revision, HashLabel)
	case whyCollision:
		return fmt.Sprintf("the name %s is taken by a revision with another template: collisionCount raised to %d", a.Revision, w.n)
	case whyRevisionCreated:
		return fmt.Sprintf("created revision %s (number %d) for the new template", a.Revision, a.Number)
	case whyRenumbered:
		return fmt.Sprintf("revision %s holds the template again: renumbered %d -> %d", a.Revision, w.n, a.Number)
	case whyRelabelled:
		return fmt.Sprintf("several revisions hold the template: pod %s relabelled to the kept hash %s", a.Pod, a.Hash)
	case whyDuplicate:
		return fmt.Sprintf("deleted revision %s: a duplicate of the current revision", a.Revision)
	case whyCreated, whyDeleted:
		return w.cause.text(a, sc)
	case whyHistory:
		return fmt.Sprintf("deleted revision %s (number %d): no pod carries it and more than revisionHistoryLimit old revisions exist", a.Revision, w.n)
	case whyStatus:
		return "status changed or the observed generation was behind"
	}
	return ""
}

// text writes why a pod is created or deleted.
func (c cause) text(a *Action, sc *scene) string {
	b := sc.budget
	switch c {
	case causeNoPod:
		return fmt.Sprintf("node %s should run the daemon pod and has none: created %s", a.Node, a.Pod)
	case causeNoRunning:
		return fmt.Sprintf("node %s has no running daemon pod (surge creates beside terminating pods): created %s", a.Node, a.Pod)
	case causeFailed:
		return fmt.Sprintf("pod %s on node %s failed: deleted (a new one follows once it is gone)", a.Pod, a.Node)
	case causeSucceeded:
		return fmt.Sprintf("pod %s on node %s succeeded: deleted", a.Pod, a.Node)
	case causeExtra:
		return fmt.Sprintf("node %s runs more than one daemon pod: deleted %s, keeping the oldest", a.Node, a.Pod)
	case causeExtraSurge:
		return fmt.Sprintf("node %s runs more than the oldest new and oldest old pod: deleted %s", a.Node, a.Pod)
	case causeOldNotReady:
		return fmt.Sprintf("old pod %s on node %s is not ready and a new pod is there: deleted", a.Pod, a.Node)
	case causeNewAvailable:
		return fmt.Sprintf("the new pod on node %s is available: old pod %s deleted", a.Node, a.Pod)
	case causeMayNotRun:
		return fmt.Sprintf("node %s may no longer run the daemon pod: deleted %s", a.Node, a.Pod)
	case causeOrphan:
		return fmt.Sprintf("pod %s is unscheduled and its node %s does not exist: deleted", a.Pod, a.Node)
	case causeOldUnavailable:
		return fmt.Sprintf("old pod %s on node %s is not available: replaced whatever maxUnavailable %d allows", a.Pod, a.Node, b.MaxUnavailable)
	case causeBudget:
		return fmt.Sprintf("rolling update within maxUnavailable %d of %d nodes: old pod %s on node %s deleted", b.MaxUnavailable, b.Desired, a.Pod, a.Node)
	case causeReplaced:
		return fmt.Sprintf("the new pod on node %s is available: old pod %s deleted", a.Node, a.Pod)
	case causeNotWantedUnavailable:
		return fmt.Sprintf("old pod %s is not available and node %s should no longer run the daemon pod: deleted", a.Pod, a.Node)
	case causeNotWantedExcess:
		return fmt.Sprintf("node %s should no longer run the daemon pod and more nodes than the %d desired have an available pod: deleted %s", a.Node, b.Desired, a.Pod)
	case causeSurgeUnavailable:
		return fmt.Sprintf("old pod on node %s is not available: new pod %s created at once, whatever maxSurge %d allows", a.Node, a.Pod, b.MaxSurge)
	case causeSurgeBudget:
		return fmt.Sprintf("surge within maxSurge %d of %d nodes: new pod %s created beside the old pod on node %s", b.MaxSurge, b.Desired, a.Pod, a.Node)
	}
	return ""
}

// explain writes every action's reason and the sync's.
func (p *planner[T]) explain() {
	s := p.out
	for i := range s.Actions {
		s.Actions[i].Reason = p.whys[i].text(&s.Actions[i], &p.sc)
	}
	s.Reason = p.summary()
}

// summary writes Sync.Reason.
func (p *planner[T]) summary() string {
	s, sc := p.out, &p.sc
	switch sc.stop {
	case stopDeleting:
		return "the DaemonSet is being deleted: the controller writes nothing, not even status"
	case stopCollision:
		return s.Actions[len(s.Actions)-1].Reason + "; the sync fails and is retried"
	}
	var parts []string
	count := func(kind ActionKind, rolling bool) int {
		n := 0
		for i := range s.Actions {
			if s.Actions[i].Kind == kind && (kind != CreatePod && kind != DeletePod || p.whys[i].rolling == rolling) {
				n++
			}
		}
		return n
	}
	for i := range s.Actions {
		if k := s.Actions[i].Kind; k == WriteRevision {
			parts = append(parts, s.Actions[i].Reason)
		}
	}
	if c, d := count(CreatePod, false), count(DeletePod, false); c+d > 0 {
		parts = append(parts, "manage "+writes(c, d))
	}
	b := s.Budget
	switch {
	case sc.waited:
		parts = append(parts, "the rolling update waits until the controller has seen these writes")
	case sc.failure != "":
		parts = append(parts, "the rolling update failed: "+sc.failure)
	case s.RollingUpdate != nil:
		c, d := count(CreatePod, true), count(DeletePod, true)
		var budget string
		if b.MaxSurge > 0 {
			budget = fmt.Sprintf("maxSurge %d of %d nodes, %d surging", b.MaxSurge, b.Desired, s.RollingUpdate.Surge)
		} else {
			budget = fmt.Sprintf("maxUnavailable %d of %d nodes, %d unavailable", b.MaxUnavailable, b.Desired, s.RollingUpdate.Unavailable)
		}
		if c+d > 0 {
			parts = append(parts, "rolling update "+writes(c, d)+" ("+budget+")")
		} else if s.Status.UpdatedNumberScheduled < s.Status.DesiredNumberScheduled {
			parts = append(parts, "rolling update waits ("+budget+")")
		}
	}
	if sc.burst {
		parts = append(parts, "at most 250 creations and 250 deletions per sync: the rest follows")
	}
	if n := count(DeleteRevision, false); n > 0 {
		parts = append(parts, fmt.Sprintf("deleted %d %s", n, plural(n, "revision")))
	}
	st := &s.Status
	parts = append(parts, fmt.Sprintf("desired %d, current %d, ready %d, up-to-date %d, available %d",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.UpdatedNumberScheduled, st.NumberAvailable))
	if st.UpdatedNumberScheduled == st.DesiredNumberScheduled && st.NumberAvailable == st.DesiredNumberScheduled &&
		st.CurrentNumberScheduled == st.DesiredNumberScheduled && st.NumberMisscheduled == 0 && count(CreatePod, false)+count(CreatePod, true)+count(DeletePod, false)+count(DeletePod, true) == 0 {
		parts = append(parts, "rollout complete")
	}
	return strings.Join(parts, "; ")
}

func writes(c, d int) string {
	switch {
	case c > 0 && d > 0:
		return fmt.Sprintf("created %d %s and deleted %d", c, plural(c, "pod"), d)
	case c > 0:
		return fmt.Sprintf("created %d %s", c, plural(c, "pod"))
	}
	return fmt.Sprintf("deleted %d %s", d, plural(d, "pod"))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
