package statefulset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// why holds the facts of one action's reason, recorded while planning;
// the sentence is written only when somebody asks (Planner.Explain), so
// that a sync nobody explains does not pay for formatting.
type why struct {
	number      int64      // RenumberRevision: the number before
	member      bool       // ReleasePod: the pod is a member (its selector no longer matches)
	phase       PodPhase   // DeletePod in the replica step: the pod's phase
	label       string     // UpdatePod: the pod-name label found; refused CreatePod: the holder's controller UID
	held        heldReason // refused CreatePod: why the set does not own the pod holding the name
	first       bool       // DeletePod of a condemned pod: it is the first unavailable
	limit       int32      // DeleteRevision: the history limit
	unavailable int32      // DeletePod in the update step, gate on: unavailable slots counted
	budget      int32      // ... and the resolved maxUnavailable
	gate        bool       // DeletePod in the update step: the gate is on
}

// heldReason says why the set does not own a pod that holds a slot's
// name.
type heldReason uint8

const (
	heldReleased    heldReason = iota + 1 // owned, released this sync
	heldOwned                             // another controller owns it
	heldOrphan                            // an orphan, and the caller claims (no selector)
	heldTerminating                       // a terminating orphan, which is not adopted
	heldUnmatched                         // an orphan the selector does not match
)

// text describes the holder, after "held by pod web-1, ".
func (h heldReason) text(uid string) string {
	switch h {
	case heldReleased:
		return "which the set releases in this sync"
	case heldOwned:
		return "which controller " + uid + " owns"
	case heldOrphan:
		return "an orphan the set does not own"
	case heldTerminating:
		return "a terminating orphan, which the set does not adopt"
	}
	return "an orphan the set's selector does not match"
}

// add appends a to the sync's actions with its reason's facts.
func (p *planner[T]) add(a Action, w why) {
	p.out.Actions = append(p.out.Actions, a)
	p.whys = append(p.whys, w)
}

// explain writes every Action.Reason and Sync.Reason.
func (p *planner[T]) explain() {
	out := p.out
	for i := range out.Actions {
		out.Actions[i].Reason = p.reason(&out.Actions[i], &p.whys[i])
	}
	out.Reason = p.summary()
}

// revisionRole names a revision for a person: "the update revision
// web-7f", "the current revision web-5c", or just its name.
func (p *planner[T]) revisionRole(rev string) string {
	switch rev {
	case p.revs.Update.Name:
		return "the update revision " + rev
	case p.revs.Current:
		return "the current revision " + rev
	case "":
		return "no revision"
	}
	return "revision " + rev
}

// reason writes one action's sentence.
func (p *planner[T]) reason(a *Action, w *why) string {
	set := p.set
	switch a.Kind {
	case AdoptPod:
		return fmt.Sprintf("pod %s is an orphan named for the set and matched by its selector: adopted", a.Pod)
	case ReleasePod:
		if w.member {
			return fmt.Sprintf("pod %s is owned by the set but its selector no longer matches it: released", a.Pod)
		}
		return fmt.Sprintf("pod %s is owned by the set but is not named for it: released", a.Pod)
	case CreateRevision:
		s := fmt.Sprintf("no revision holds the template: created %s as revision %d", a.Revision, a.Number)
		if a.Collisions > 0 {
			s += fmt.Sprintf(" after %d name collision(s) (collisionCount %d)", a.Collisions, p.cc[0])
		}
		return s
	case RenumberRevision:
		return fmt.Sprintf("the older revision %s holds the template again (a rollback): renumbered from %d to %d", a.Revision, w.number, a.Number)
	case CreatePod:
		k := int64(a.Ordinal) - p.start
		if a.Rejected != "" {
			s := fmt.Sprintf("slot %d (ordinal %d) has no pod of the set: creating %s at %s is refused (%s): the name is held by pod %s, %s; the sync fails and is requeued",
				k, a.Ordinal, a.Pod, p.revisionRole(a.Revision), a.Rejected, a.Pod, w.held.text(w.label))
			if !p.monotonic {
				s += fmt.Sprintf(" [Parallel batch %d]", a.Batch)
			}
			return s
		}
		s := fmt.Sprintf("slot %d (ordinal %d) is empty: created %s at %s", k, a.Ordinal, a.Pod, p.revisionRole(a.Revision))
		switch {
		case p.revs.Current == p.revs.Update.Name:
		case a.Revision == p.revs.Current && p.strat.ruNil:
			s += fmt.Sprintf(" (below status.currentReplicas %d, which stands in for a partition when rollingUpdate is unset)", set.Status.CurrentReplicas)
		case a.Revision == p.revs.Current:
			s += fmt.Sprintf(" (below the partition %d)", p.strat.partition)
		}
		if !p.monotonic {
			s += fmt.Sprintf(" [Parallel batch %d]", a.Batch)
		}
		return s
	case UpdatePod:
		return fmt.Sprintf("pod %s has pod-name label %q, not its name: identity fixed", a.Pod, w.label)
	case DeletePod:
		switch a.Stage {
		case StageReplicas:
			return fmt.Sprintf("pod %s is %s: deleted, to be recreated at a later sync", a.Pod, w.phase)
		case StageCondemned:
			s := fmt.Sprintf("pod %s (ordinal %d) is outside ordinals %d..%d: deleted (scale-down)", a.Pod, a.Ordinal, p.start, p.start+int64(set.Replicas)-1)
			if w.first && p.monotonic {
				s += " although unavailable, as it is the first unavailable pod"
			}
			return s
		}
		s := fmt.Sprintf("pod %s is at %s, not the update revision %s: deleted for the update", a.Pod, p.revisionRole(a.Revision), p.revs.Update.Name)
		if w.gate {
			s += fmt.Sprintf(" (maxUnavailable %d, %d slot(s) unavailable before)", w.budget, w.unavailable)
		} else {
			s += " (one pod per sync: the MaxUnavailableStatefulSet gate is off)"
		}
		return s
	case WriteStatus:
		st := &p.status
		s := fmt.Sprintf("status: replicas %d, ready %d, available %d, current %d at %s, updated %d at %s",
			st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.CurrentRevision, st.UpdatedReplicas, st.UpdateRevision)
		if a.Rejected != "" {
			s += "; the API server rejects it (" + a.Rejected + "): the stored status stays and the set is requeued"
		}
		return s
	case DeleteRevision:
		return fmt.Sprintf("revision %s (number %d) is not live and beyond revisionHistoryLimit %d: deleted", a.Revision, a.Number, w.limit)
	}
	return ""
}

// blockerText says why a sync stopped, for a person.
func blockerText(b Blocker, pod string) string {
	switch b {
	case BlockFailedPod:
		return "pod " + pod + " failed and is deleted first"
	case BlockCreated:
		return "pod " + pod + " was just created; OrderedReady waits for it"
	case BlockTerminating:
		return "pod " + pod + " is terminating"
	case BlockNotReady:
		return "pod " + pod + " is not Running and Ready"
	case BlockNotAvailable:
		return "pod " + pod + " is not yet available for minReadySeconds"
	case BlockDeleted:
		return "pod " + pod + " was deleted; one deletion per sync"
	case BlockUnavailable:
		return "pod " + pod + " is unavailable; the update waits for it"
	case BlockBudget:
		return "maxUnavailable is used up"
	case BlockRefused:
		return "creating pod " + pod + " is refused: a pod the set does not own holds the name"
	}
	return ""
}

// summary writes Sync.Reason: the writes by kind, then where the sync
// stopped.
func (p *planner[T]) summary() string {
	out := p.out
	var counts [DeleteRevision + 1]int
	refused := 0
	for i := range out.Actions {
		if a := &out.Actions[i]; a.Kind == CreatePod && a.Rejected != "" {
			refused++
			continue
		}
		counts[out.Actions[i].Kind]++
	}
	var parts []string
	for k := AdoptPod; k <= DeleteRevision; k++ {
		n := counts[k]
		switch {
		case n == 0:
		case k == WriteStatus && slices.ContainsFunc(out.Actions, func(a Action) bool { return a.Kind == WriteStatus && a.Rejected != "" }):
			parts = append(parts, "the status write is refused (requeued)")
		default:
			parts = append(parts, kindPhrase(k, n))
		}
		if k == CreatePod && refused > 0 {
			parts = append(parts, fmt.Sprintf("%d pod creation(s) refused", refused))
		}
	}
	s := "nothing to write"
	if len(parts) > 0 {
		s = strings.Join(parts, ", ")
	}
	switch {
	case p.set.Deleting:
		s += "; the set is being deleted: status only"
	case out.Blocker == BlockRefused:
		s += "; the sync fails (requeued): " + blockerText(out.Blocker, out.StoppedPod)
	case out.StoppedAt == StageReplicas || out.StoppedAt == StageCondemned:
		s += "; stopped (OrderedReady): " + blockerText(out.Blocker, out.StoppedPod)
	case out.StoppedAt == StageUpdate && out.Blocker != BlockDeleted:
		s += "; update waits: " + blockerText(out.Blocker, out.StoppedPod)
	}
	if out.Requeue && out.RequeueAfter > 0 {
		s += "; requeued after " + out.RequeueAfter.String()
	}
	return s
}

// kindPhrase is "created 2 pods", "wrote the status", ...
func kindPhrase(k ActionKind, n int) string {
	plural := func(word string) string {
		if n == 1 {
			return "1 " + word
		}
		return strconv.Itoa(n) + " " + word + "s"
	}
	switch k {
	case AdoptPod:
		return "adopted " + plural("pod")
	case ReleasePod:
		return "released " + plural("pod")
	case CreateRevision:
		return "created the update revision"
	case RenumberRevision:
		return "renumbered a revision (rollback)"
	case CreatePod:
		return "created " + plural("pod")
	case UpdatePod:
		return "fixed the identity of " + plural("pod")
	case DeletePod:
		return "deleted " + plural("pod")
	case WriteStatus:
		return "wrote the status"
	case DeleteRevision:
		return "deleted " + plural("old revision")
	}
	return k.String()
}
