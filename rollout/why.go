package rollout

import (
	"fmt"
	"strconv"
)

// whyKind says which sentence a why formats.
type whyKind uint8

// Action reasons. Each kind states the facts named in its comment; the
// create and scale kinds add a cause, written after the colon.
const (
	whyNone whyKind = iota
	// whyText is a sentence already written (sentence), for rare paths.
	whyText
	whyAnnotate      // the new ReplicaSet's annotations and/or minReadySeconds
	whyCollision     // collisionCount raised after a hash collision
	whyCreate        // the new ReplicaSet created; a cause
	whyScale         // a ReplicaSet's size changed; a cause
	whyRefresh       // only the replicas annotations refreshed
	whyNoLast        // rollback skipped: no last revision
	whySameTemplate  // rollback skipped: the template is already the deployment's
	whyRolledBack    // rollback done
	whyNoRevision    // rollback skipped: no such revision
	whyDeleted       // an old ReplicaSet deleted by history cleanup
	whyDeleting      // the deployment is being deleted
	whyPaused        // nothing to do while paused
	whyScalingIdle   // scaling event with nothing to resize
	whyTermScaleUp   // proportional scale-up waits for terminating pods
	whyComplete      // the rollout is complete
	whyNoNew         // no new ReplicaSet
	whyWaitNew       // waiting for the new ReplicaSet's pods
	whyWaitLimit     // at the pod limit and no old pod may go
	whyOldRunning    // Recreate waits for old pods to stop
	whyTermStart     // Recreate waits for terminating pods
	causeSurge       // as many pods as maxSurge allows
	causeRecreate    // Recreate starts all pods
	causeProportion  // proportional share after a resize
	causeEmpty       // nothing after the colon
	causeTooMany     // the new ReplicaSet is above R
	causeUnhealthy   // unavailable old pods go first
	causeAvailable   // old pods go as availability allows
	causeRecreateOff // Recreate stops old pods
	causeRecreateOn  // Recreate starts new pods
)

// ceiling is what a reason needs to state the most pods a rolling update
// may run: R, maxSurge and their saturated sum.
type ceiling struct{ replicas, surge, total int64 }

func ceilingOf[T any](d *Deployment[T]) ceiling {
	return ceiling{int64(d.Replicas), int64(MaxSurge(d)), int64(maxTotal(d))}
}

// sum is ceilingSum's text: "10 + maxSurge 3", with the saturation noted.
func (c ceiling) sum() string {
	s := strconv.FormatInt(c.replicas, 10) + " + maxSurge " + strconv.FormatInt(c.surge, 10)
	if sum := c.replicas + c.surge; sum != c.total {
		s += " = " + strconv.FormatInt(sum, 10) + ", saturated at " + strconv.FormatInt(c.total, 10)
	}
	return s
}

// note is ceilingNote's text: "" or ", saturated from 2684354559".
func (c ceiling) note() string {
	if sum := c.replicas + c.surge; sum != c.total {
		return ", saturated from " + strconv.FormatInt(sum, 10)
	}
	return ""
}

// why holds the facts of one reason, so that the sentence is written only
// when somebody reads it (Planner.Explain): a sync that nobody explains
// does not pay for formatting. A field is shared only by the kinds and
// causes that state the same fact; a kind and the cause it carries use
// different fields.
type why struct {
	kind, cause whyKind

	// name is the object acted on: the ReplicaSet, or the deployment for
	// whySameTemplate and whyRolledBack. isNew says the ReplicaSet is the
	// new one (whyScale, whyRefresh).
	name  string
	isNew bool
	// sentence is whyText's sentence.
	sentence string
	// rev is a ReplicaSet's revision annotation as it was (whyAnnotate,
	// whyCreate, whyDeleted); newRev is the one whyAnnotate writes.
	rev, newRev string
	// source is the ReplicaSet whose template whyRolledBack restores.
	source string

	// from and to are a value before and after the write: spec.replicas
	// (whyScale; whyCreate has only to), collisionCount (whyCollision),
	// minReadySeconds (whyAnnotate); for whyTermScaleUp, to is the sum of
	// spec.replicas the scale-up would reach.
	from, to int64
	// whyAnnotate: changed says the annotations change; minReady that
	// minReadySeconds changes; annotationsDiffer that, with only
	// minReadySeconds changing, the write still carries the deployment's
	// annotations (the revision, rev, does not parse).
	changed, minReady, annotationsDiffer bool
	// desired and maxReplicas are the replicas annotations whyRefresh
	// writes.
	desired, maxReplicas int64
	// revision is the revision a rollback asks for (whyRolledBack,
	// whyNoRevision); limit is revisionHistoryLimit (whyDeleted).
	revision, limit int64
	// replicas is the deployment's R (whyComplete, causeRecreate,
	// causeProportion, causeTooMany, causeAvailable).
	replicas int64
	// available counts available pods: the deployment's (whyComplete,
	// causeAvailable) or the new ReplicaSet's (whyWaitNew, where spec is
	// its spec.replicas).
	available, spec int64
	// unavailable counts a ReplicaSet's unavailable pods: the new one's
	// (whyWaitLimit), the old one scaled down (causeUnhealthy).
	unavailable int64
	// minAvailable is R - maxUnavailable (whyWaitLimit, causeAvailable);
	// maxUnavailable is the resolved bound (causeAvailable).
	minAvailable, maxUnavailable int64
	// terminating counts terminating pods (whyTermScaleUp, whyTermStart,
	// causeSurge). countsTerminating says the surge counts them
	// (SurgeCountsTerminating); causeSurge shows them only then.
	terminating       int64
	countsTerminating bool
	// pods is the sum of spec.replicas (whyWaitLimit); old counts the old
	// pods still running (whyOldRunning); other is the sum of spec.replicas
	// of the ReplicaSets other than the new one (causeSurge); before is the
	// sum of spec.replicas of the active ReplicaSets before a resize
	// (causeProportion); budget is how many old pods may go
	// (causeUnhealthy).
	pods, old, other, before, budget int64
}

// text writes the sentence.
// c is the ceiling of the sync, for the reasons that state it.
func (w *why) text(c ceiling) string {
	switch w.kind {
	case whyNone:
		return ""
	case whyText:
		return w.sentence
	case whyAnnotate:
		var r string
		if w.changed {
			r = fmt.Sprintf("updated annotations of new ReplicaSet %s (revision %s -> %s)", w.name, orNone(w.rev), w.newRev)
		}
		if w.minReady {
			if w.changed {
				r += fmt.Sprintf(" and minReadySeconds %d -> %d", w.from, w.to)
			} else {
				r = fmt.Sprintf("set minReadySeconds of new ReplicaSet %s from %d to the deployment's %d", w.name, w.from, w.to)
				if w.annotationsDiffer {
					r += " (the update also carries the deployment's annotations; revision " + strconv.Quote(w.rev) + " does not parse)"
				}
			}
		}
		return r
	case whyCollision:
		return fmt.Sprintf("hash collision: ReplicaSet %s exists with another template; collisionCount %d -> %d, new name next sync", w.name, w.from, w.to)
	case whyCreate:
		return fmt.Sprintf("created new ReplicaSet %s (revision %s) at %d: %s", w.name, w.rev, w.to, w.causeText(c))
	case whyScale:
		dir := "up"
		if w.to < w.from {
			dir = "down"
		}
		return fmt.Sprintf("scaled %s %s from %d to %d: %s", dir, w.describe(), w.from, w.to, w.causeText(c))
	case whyRefresh:
		return fmt.Sprintf("refreshed replicas annotations of %s (desired %d, max %d)", w.describe(), w.desired, w.maxReplicas)
	case whyNoLast:
		return "rollback skipped: Unable to find last revision."
	case whySameTemplate:
		return fmt.Sprintf("rollback skipped: The rollback revision contains the same template as current deployment %q", w.name)
	case whyRolledBack:
		return fmt.Sprintf("Rolled back deployment %q to revision %d (template of ReplicaSet %s)", w.name, w.revision, w.source)
	case whyNoRevision:
		return fmt.Sprintf("rollback skipped: Unable to find the revision to rollback to (revision %d).", w.revision)
	case whyDeleted:
		return fmt.Sprintf("deleted old ReplicaSet %s (revision %s): more than revisionHistoryLimit %d old ReplicaSets", w.name, orNone(w.rev), w.limit)
	case whyDeleting:
		return "deployment is being deleted: status only"
	case whyPaused:
		return "paused: no rollout step until resumed"
	case whyScalingIdle:
		return "scaling event: nothing to resize"
	case whyTermScaleUp:
		return fmt.Sprintf("waiting for %d terminating pods before scaling up to %d (limit %d = %s)", w.terminating, w.to, c.total, c.sum())
	case whyComplete:
		return fmt.Sprintf("rollout complete: %d of %d pods updated and available", w.available, w.replicas)
	case whyNoNew:
		return "waiting: no new ReplicaSet"
	case whyWaitNew:
		return fmt.Sprintf("waiting for new ReplicaSet %s: %d of %d pods available", w.name, w.available, w.spec)
	case whyWaitLimit:
		return fmt.Sprintf("waiting: %d pods at the limit of %d (%s) and no old pod may go (%d new pods unavailable, at least %d must stay available)",
			w.pods, c.total, c.sum(), w.unavailable, w.minAvailable)
	case whyOldRunning:
		return fmt.Sprintf("waiting for %d old pods to stop before starting the new ReplicaSet", w.old)
	case whyTermStart:
		return fmt.Sprintf("waiting for %d terminating pods before starting new pods", w.terminating)
	}
	return ""
}

// describe names the ReplicaSet as new or old.
func (w *why) describe() string {
	if w.isNew {
		return "new ReplicaSet " + w.name
	}
	return "old ReplicaSet " + w.name
}

// causeText writes what comes after the colon of a create or scale reason.
func (w *why) causeText(c ceiling) string {
	switch w.cause {
	case causeSurge:
		s := fmt.Sprintf("%d pods allowed (%s), %d in other ReplicaSets", c.total, c.sum(), w.other)
		if w.countsTerminating && w.terminating > 0 {
			s += fmt.Sprintf(" and %d terminating", w.terminating)
		}
		return s
	case causeRecreate:
		return fmt.Sprintf("Recreate starts all %d pods once the old ones are gone", w.replicas)
	case causeProportion:
		return fmt.Sprintf("proportional share after resize to %d (%d pods allowed%s, %d before)", w.replicas, c.total, c.note(), w.before)
	case causeTooMany:
		return fmt.Sprintf("more than the %d desired replicas", w.replicas)
	case causeUnhealthy:
		return fmt.Sprintf("removing unavailable pods first (%d of its pods unavailable, %d old pods may go)", w.unavailable, w.budget)
	case causeAvailable:
		return fmt.Sprintf("%d pods available, at least %d must stay available (%d - maxUnavailable %d)", w.available, w.minAvailable, w.replicas, w.maxUnavailable)
	case causeRecreateOff:
		return "Recreate stops every old pod before starting new ones"
	case causeRecreateOn:
		return "Recreate starts all pods once the old ones are gone"
	}
	return ""
}

// textWhy is a why for a sentence already written.
func textWhy(s string) why { return why{kind: whyText, sentence: s} }
