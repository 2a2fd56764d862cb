package cloneset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// whyKind says which sentence a why writes.
type whyKind uint8

// The reasons of one sync. An action's reason reads the action's own
// fields (Pod, Revision, From, To, InPlace, GraceSeconds) and its why's;
// the phrases of Sync.Reason read their why's and the scene.
const (
	whyNone whyKind = iota

	// Action reasons.
	whyRevisionCreated    // Revision; number
	whyRevisionRenumbered // Revision; fromNumber -> number
	whyRevisionDeleted    // Revision; number; scene.historyLimit
	whyRegretted          // Pod; scene.replicas
	whyPrepareDelete      // Pod; the deletion cause (scene.scale)
	whyDeleted            // Pod, Revision; the deletion cause
	whyCreated            // Revision, Count; atUpdate; the creation cause (scene.scale)
	whyHeldDropped        // Pod, Revision
	whyHeldApplied        // Pod; graceSeconds
	whyInPlaceReady       // Pod
	whyScheduled          // Pod; node
	whyPreNormalHook      // Pod
	whyAlreadyUpdated     // Pod, To
	whyInPlaceDone        // Pod, To
	whyHookBack           // Pod
	whyMoved              // Pod, From, To
	whyHookWait           // Pod; scene.update's target and budget
	whyHookAgain          // Pod; scene.update's target
	whyInPlace            // Pod, Revision, InPlace, GraceSeconds; budget
	whyRecreate           // Pod, Revision; budget; inPlaceTried, blockers, note
	whyStatus             // scene.status
	whyTrimmed            // count: names removed

	// Phrases of Sync.Reason: what the sync did.
	sumAction           // first: the action whose reason is the phrase
	sumRegretted        // count: pods kept; scene.replicas
	sumDeleted          // count: pods deleted; the deletion cause
	sumPrepareDelete    // count: pods moved to PreparingDelete
	sumCreated          // scene.scale; the creation cause
	sumInPlace          // count: pods updated in place; scene.update
	sumRecreate         // count: pods marked for recreation; scene.update
	sumMoves            // first, end: the actions whose lifecycle moves are counted
	sumTracked          // count: in-place updates recorded
	sumRevisionsDeleted // count: revisions deleted

	// Phrases of Sync.Reason: why nothing more moved.
	noteDeleting        // the CloneSet is being deleted
	noteWaitForDeletion // scene.scale
	noteNoReadyMayGo    // scene.scale
	noteNoPodCreated    // the creation cause
	notePaused          // the update strategy is paused
	noteOnDelete        // the strategy is OnDelete
	noteHeldBack        // count: more pods to move; scene.update, scene.replicas
	noteFailed          // scene.update.Failure
	notePartitionUnread // scene.partition
	noteKeptOld         // count: the resolved partition; scene.partition
	noteComplete        // scene.status, scene.replicas, scene.updateRevision
	notePartitionDone   // scene.status, scene.replicas
	noteWaitAvailable   // scene.status
	noteNothing         // nothing to do
)

// why holds the facts of one reason, so that the sentence is written only
// when somebody reads it (Planner.Explain): a sync nobody explains does
// not pay for formatting.
type why struct {
	kind whyKind
	// atUpdate says a created pod is at the update revision (else at the
	// current one).
	atUpdate bool
	// inPlaceTried says a pod marked for recreation was first considered
	// for an in-place update (InPlaceIfPossible) that cannot be made.
	inPlaceTried bool
	// node is the node a pod in PreparingNormal was scheduled on.
	node string
	// note says why an in-place update cannot be computed (the pod's
	// revision is unknown, the revision data cannot be compared).
	note string
	// blockers are the differences that forbid an in-place update.
	blockers []string
	// number is a revision's number (created, deleted, or renumbered to);
	// fromNumber the number a renumbered revision had.
	number, fromNumber int64
	// graceSeconds is the grace period a held in-place update waited.
	graceSeconds int32
	// count is how many pods, names or revisions a phrase counts.
	count int
	// first and end delimit the actions a phrase summarises,
	// actions[first:end].
	first, end int
	// pod is the index, among the pods planned, of the pod an update
	// step's action writes, so that applying it needs no lookup by name.
	pod int
}

// scene is what the reasons of one sync state beyond their own facts:
// the CloneSet's settings as the sync read them and the decisions of its
// steps.
type scene struct {
	budgetText     string // budget(update), once written
	replicas       int32
	partition      intorpercent.IntOrString // spec.updateStrategy.partition, when hasPartition
	hasPartition   bool
	historyLimit   int32
	updateRevision string
	scale          *ScaleDecision
	update         *UpdateDecision
	status         *Status
	actions        []Action
	whys           []why
}

// text writes the sentence; a is the action the reason is for (nil for a
// phrase of Sync.Reason).
func (w *why) text(a *Action, sc *scene) string {
	switch w.kind {
	case whyNone:
		return ""
	case whyRevisionCreated:
		return fmt.Sprintf("created revision %s (number %d) for the new template", a.Revision, w.number)
	case whyRevisionRenumbered:
		return fmt.Sprintf("revision %s holds the template again: renumbered %d -> %d", a.Revision, w.fromNumber, w.number)
	case whyRevisionDeleted:
		return fmt.Sprintf("deleted revision %s (number %d): no pod is at it and more than revisionHistoryLimit %d unused revisions exist", a.Revision, w.number, sc.historyLimit)
	case whyRegretted:
		return fmt.Sprintf("pod %s is needed again (%d replicas): its preDelete is regretted", a.Pod, sc.replicas)
	case whyPrepareDelete:
		return fmt.Sprintf("pod %s is chosen for deletion and carries the preDelete hook: %s", a.Pod, deleteCause(sc.scale))
	case whyDeleted:
		return fmt.Sprintf("deleted pod %s (at %s): %s", a.Pod, orNone(a.Revision), deleteCause(sc.scale))
	case whyCreated:
		where := "current"
		if w.atUpdate {
			where = "update"
		}
		n := max(a.Count, 1)
		return fmt.Sprintf("created %d %s at the %s revision %s: %s", n, plural(int(n), "pod"), where, a.Revision, createCause(sc.scale))
	case whyHeldDropped:
		return fmt.Sprintf("pod %s is no longer at %s, the revision its held in-place update was for", a.Pod, a.Revision)
	case whyHeldApplied:
		return fmt.Sprintf("grace period of %ds for pod %s is over: the new images are applied", w.graceSeconds, a.Pod)
	case whyInPlaceReady:
		return fmt.Sprintf("in-place update of pod %s is complete", a.Pod)
	case whyScheduled:
		return fmt.Sprintf("pod %s is scheduled on %s: PreparingNormal to Normal", a.Pod, w.node)
	case whyPreNormalHook:
		return fmt.Sprintf("pod %s carries the preNormal hook: PreparingNormal to Normal", a.Pod)
	case whyAlreadyUpdated:
		return fmt.Sprintf("pod %s waited in PreparingUpdate but is already at the update revision: PreparingUpdate to %s", a.Pod, a.To)
	case whyInPlaceDone:
		return fmt.Sprintf("in-place update of pod %s is complete: Updating to %s", a.Pod, a.To)
	case whyHookBack:
		return fmt.Sprintf("pod %s carries the inPlaceUpdate hook again (or there is none): Updated to Normal", a.Pod)
	case whyMoved:
		return fmt.Sprintf("pod %s: %s to %s", a.Pod, a.From, a.To)
	case whyHookWait:
		return fmt.Sprintf("pod %s is chosen for an in-place update to %s (%s) and carries the inPlaceUpdate hook: it waits in PreparingUpdate", a.Pod, sc.update.Target, budget(sc.update))
	case whyHookAgain:
		return fmt.Sprintf("pod %s is chosen for another in-place update, to %s: the inPlaceUpdate hook is put back and it waits in PreparingUpdate", a.Pod, sc.update.Target)
	case whyInPlace, whyRecreate:
		var b strings.Builder
		w.write(&b, a, sc)
		return b.String()
	case whyStatus:
		return statusReason(sc.status)
	case whyTrimmed:
		if w.count == 1 {
			return "removed 1 name of a pod that no longer exists from podsToDelete"
		}
		return fmt.Sprintf("removed %d names of pods that no longer exist from podsToDelete", w.count)

	case sumAction:
		return sc.whys[w.first].text(&sc.actions[w.first], sc)
	case sumRegretted:
		return fmt.Sprintf("kept %d %s in PreparingDelete after all: %d replicas wanted", w.count, plural(w.count, "pod"), sc.replicas)
	case sumDeleted:
		return fmt.Sprintf("deleted %d %s: %s", w.count, plural(w.count, "pod"), deleteCause(sc.scale))
	case sumPrepareDelete:
		return fmt.Sprintf("moved %d %s to PreparingDelete (preDelete hook)", w.count, plural(w.count, "pod"))
	case sumCreated:
		sd := sc.scale
		d := &sd.Diffs
		var at []string
		if sd.CreateCurrent > 0 {
			at = append(at, fmt.Sprintf("%d at the current revision (%d old pods wanted: partition %d + surge %d, %d exist)",
				sd.CreateCurrent, int64(d.Resolved.Partition)+int64(d.UseSurgeOldRevision), d.Resolved.Partition, d.UseSurgeOldRevision, d.Counts.Old))
		}
		if sd.CreateUpdate > 0 {
			at = append(at, fmt.Sprintf("%d at the update revision", sd.CreateUpdate))
		}
		n := int(sd.CreateCurrent) + int(sd.CreateUpdate)
		return fmt.Sprintf("created %d %s, %s: %s", n, plural(n, "pod"), strings.Join(at, " and "), createCause(sd))
	case sumInPlace:
		return fmt.Sprintf("updated %d %s in place to %s (%s)", w.count, plural(w.count, "pod"), sc.update.Target, budget(sc.update))
	case sumRecreate:
		return fmt.Sprintf("marked %d %s for recreation at %s (%s)", w.count, plural(w.count, "pod"), sc.update.Target, budget(sc.update))
	case sumMoves:
		var moves []string // "From -> To" per lifecycle move, in order
		last := -1
		for i := w.first; i < w.end; i++ {
			if a := &sc.actions[i]; a.Kind == SetPodLifecycle {
				moves = append(moves, string(orEmpty(a.From))+" -> "+string(a.To))
				last = i
			}
		}
		if len(moves) == 1 {
			return sc.whys[last].text(&sc.actions[last], sc)
		}
		return "lifecycle: " + countMoves(moves)
	case sumTracked:
		return fmt.Sprintf("recorded %d in-place %s", w.count, plural(w.count, "update"))
	case sumRevisionsDeleted:
		return fmt.Sprintf("deleted %d old %s", w.count, plural(w.count, "revision"))

	case noteDeleting:
		return "CloneSet is being deleted: status only"
	case noteWaitForDeletion:
		n := sc.scale.Diffs.ScaleDownNum
		return fmt.Sprintf("%d %s too many, but pods chosen earlier are still waiting to be deleted", n, plural(int(n), "pod"))
	case noteNoReadyMayGo:
		d := &sc.scale.Diffs
		return fmt.Sprintf("%d %s too many, but no ready pod may go (ready limit %d)", d.ScaleDownNum, plural(int(d.ScaleDownNum), "pod"), d.DeleteReadyLimit)
	case noteNoPodCreated:
		return "no pod created: " + createCause(sc.scale)
	case notePaused:
		return "paused: no pod is updated"
	case noteOnDelete:
		return "updateStrategy OnDelete: pods are updated only when someone deletes them"
	case noteHeldBack:
		return heldBack(w.count, sc.update)
	case noteFailed:
		return "update failed: " + sc.update.Failure
	case notePartitionUnread:
		return fmt.Sprintf("partition %s cannot be read, kruise updates every pod", written(sc.partition))
	case noteKeptOld:
		return fmt.Sprintf("kept %d %s on the old revision: %s", w.count, plural(w.count, "pod"), partitionWhy(sc, int32(w.count)))
	case noteComplete:
		st := sc.status
		return fmt.Sprintf("rollout complete: %d of %d pods at %s and available", st.UpdatedAvailableReplicas, sc.replicas, sc.updateRevision)
	case notePartitionDone:
		return fmt.Sprintf("%d of %d pods updated and available, as the partition asks", sc.status.UpdatedAvailableReplicas, sc.replicas)
	case noteWaitAvailable:
		st := sc.status
		n := st.Replicas - st.AvailableReplicas
		return fmt.Sprintf("waiting for %d %s to become available (%d of %d available)", n, plural(int(n), "pod"), st.AvailableReplicas, st.Replicas)
	case noteNothing:
		return "nothing to do"
	}
	return ""
}

// budget names the update step's budget: "update budget 2".
// write writes the reason of a to b: text's sentence, written in place
// for the reasons of the update step's pods (whyInPlace, whyRecreate),
// which a large update writes by the thousand.
func (w *why) write(b *strings.Builder, a *Action, sc *scene) {
	switch w.kind {
	case whyInPlace:
		b.WriteString(sc.budget())
		b.WriteString(": pod ")
		b.WriteString(a.Pod)
		b.WriteString(" updated in place to ")
		b.WriteString(a.Revision)
		b.WriteString(" (")
		var ip InPlaceUpdate
		if a.InPlace != nil {
			ip = *a.InPlace
		}
		b.WriteString(ip.String())
		b.WriteString(")")
		if a.GraceSeconds > 0 {
			b.WriteString(", applied after a grace period of ")
			b.WriteString(strconv.FormatInt(int64(a.GraceSeconds), 10))
			b.WriteString("s")
		}
	case whyRecreate:
		b.WriteString(sc.budget())
		b.WriteString(": pod ")
		b.WriteString(a.Pod)
		b.WriteString(" marked for deletion, to be recreated at ")
		b.WriteString(a.Revision)
		b.WriteString(" (")
		if !w.inPlaceTried {
			b.WriteString("ReCreate")
		} else {
			b.WriteString("cannot update in place")
			if len(w.blockers) > 0 {
				b.WriteString(" (")
				b.WriteString(strings.Join(w.blockers, ", "))
				b.WriteString(")")
			} else if w.note != "" {
				b.WriteString(" (")
				b.WriteString(w.note)
				b.WriteString(")")
			}
		}
		b.WriteString(")")
	default:
		b.WriteString(w.text(a, sc))
	}
}

// budget is budget(sc.update), formatted once per sync: every in-place
// update's and recreation's reason starts with it.
func (sc *scene) budget() string {
	if sc.budgetText == "" {
		sc.budgetText = budget(sc.update)
	}
	return sc.budgetText
}

func budget(ud *UpdateDecision) string {
	return fmt.Sprintf("update budget %d", ud.Diffs.UpdateMaxUnavailable)
}

// heldBack says why more pods to move to the update step's target were
// not chosen. LimitUpdateIndexes takes no pod when the budget is 0 or
// less (kruise's budget U + N - R goes negative when more than U pods are
// missing), and none when the pods already unavailable use all of a
// positive budget; otherwise the pods it took used the rest.
func heldBack(more int, ud *UpdateDecision) string {
	d := &ud.Diffs
	b := d.UpdateMaxUnavailable
	formula := fmt.Sprintf("maxUnavailable %d + %d pods - %d replicas", d.Resolved.MaxUnavailable, d.Pods, d.Resolved.Replicas)
	if f := d.Resolved.MaxUnavailable + int64(d.Pods) - int64(d.Resolved.Replicas); f < 0 && b == 0 {
		formula += fmt.Sprintf(" = %d, clamped at 0", f) // Options.UpdateBudget = BudgetClampAtZero
	}
	head := fmt.Sprintf("%d more %s to move to %s", more, plural(more, "pod"), ud.Target)
	switch {
	case b < 0:
		return fmt.Sprintf("%s, held back: the update budget is %d (%s: more pods are missing than maxUnavailable allows), so no pod may be updated", head, b, formula)
	case b == 0:
		return fmt.Sprintf("%s, held back: the update budget is 0 (%s), so no pod may be updated", head, formula)
	case len(ud.Chosen) == 0:
		return fmt.Sprintf("%s, held back: pods already unavailable use all of the update budget %d (%s)", head, b, formula)
	}
	return fmt.Sprintf("%s, held back by the %s (%s)", head, budget(ud), formula)
}

// deleteCause says why the scale step deletes pods.
func deleteCause(sd *ScaleDecision) string {
	d := &sd.Diffs
	switch sd.Branch {
	case ScaleDeletePreDeleted:
		return "its preDelete hook is released"
	case ScaleDeleteSpecified:
		return fmt.Sprintf("it is specified for deletion (ready pods may go: %d)", d.DeleteReadyLimit)
	}
	return fmt.Sprintf("%d active pods, %d wanted (%d replicas + surge %d), %d of the surplus not at the update revision; ready pods may go: %d",
		d.Pods, int64(d.Resolved.Replicas)+int64(d.UseSurge), d.Resolved.Replicas, d.UseSurge, min(d.ScaleDownNumOldRevision, d.ScaleDownNum), d.DeleteReadyLimit)
}

// createCause says why the scale step creates pods.
func createCause(sd *ScaleDecision) string {
	d := &sd.Diffs
	want := int64(d.Resolved.Replicas) + int64(d.UseSurge)
	why := fmt.Sprintf("%d pods wanted (%d replicas + surge %d), %d exist", want, d.Resolved.Replicas, d.UseSurge, d.Pods)
	if sd.ScaleUpLimited {
		why += fmt.Sprintf("; %d may be created while %d are unavailable (scaleStrategy.maxUnavailable %d)", d.ScaleUpLimit, d.TotalUnavailable, d.Resolved.ScaleMaxUnavailable)
	}
	return why
}

// partitionWhy explains how the partition resolved to part.
func partitionWhy(sc *scene, part int32) string {
	v := sc.partition
	r := sc.replicas
	if !sc.hasPartition || !v.IsString {
		return fmt.Sprintf("partition %d of %d replicas", part, r)
	}
	raw, err := fractionalScaled(v, int64(r), true)
	switch {
	case err != nil:
		return fmt.Sprintf("partition %s cannot be read", v.Str)
	case int64(part) < raw && raw == int64(r):
		return fmt.Sprintf("partition %s of %d rounds up to %d, lowered to %d so that one pod is updated (only \"100%%\" keeps all)", v.Str, r, raw, part)
	case int64(part) != raw:
		return fmt.Sprintf("partition %s of %d rounds up to %d, clamped to %d", v.Str, r, raw, part)
	}
	return fmt.Sprintf("partition %s of %d rounds up to %d", v.Str, r, part)
}

// statusReason describes a status write as `kubectl get cloneset` shows
// its columns.
func statusReason(st *Status) string {
	return fmt.Sprintf("status: %d pods, %d updated, %d updated ready, %d ready, %d available", st.Replicas, st.UpdatedReplicas, st.UpdatedReadyReplicas, st.ReadyReplicas, st.AvailableReplicas)
}

// explain writes the reasons of actions (whys[i] is actions[i]'s) and
// returns the summary of a sync: the phrases of what it did, then of why
// nothing more moved, or, when there are none and the status is written,
// the status reason.
func (sc *scene) explain(summary, notes []why, statusWritten bool) string {
	// The actions' reasons are written into one buffer, each Reason a
	// substring of it: one allocation (and its growth) instead of one or
	// more per action. A strings.Builder never changes bytes it has
	// written, so each substring of its String stays as written.
	var b strings.Builder
	ends := make([]int, len(sc.actions))
	if n := len(sc.actions); n > 1 {
		// Room for the usual reason: a pod's and a revision's name in a
		// sentence of under a hundred bytes; a longer one grows b.
		b.Grow(n * (len(sc.actions[0].Pod) + len(sc.actions[0].Revision) + 100))
	}
	for i := range sc.actions {
		sc.whys[i].write(&b, &sc.actions[i], sc)
		ends[i] = b.Len()
	}
	all := b.String()
	start := 0
	for i, end := range ends {
		sc.actions[i].Reason = all[start:end]
		start = end
	}
	parts := make([]string, 0, len(summary)+len(notes))
	for i := range summary {
		parts = append(parts, summary[i].text(nil, sc))
	}
	for i := range notes {
		parts = append(parts, notes[i].text(nil, sc))
	}
	if len(parts) == 0 && statusWritten {
		parts = append(parts, statusReason(sc.status))
	}
	return strings.Join(parts, "; ")
}
