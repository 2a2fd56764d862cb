package rollout

import (
	"fmt"
	"strconv"
)

// whyKind says which sentence a why formats.
type whyKind uint8

// Action reasons.
const (
	whyNone whyKind = iota
	// whyText is a sentence already written (s), for rare paths.
	whyText
	whyAnnotate      // name; s old revision; s2 new revision; n[0] changed; n[1] minReady; n[2] from; n[3] to; n[4] annotations differ
	whyCollision     // name; n[0] old count; n[1] new count
	whyCreate        // name; s revision; n[0] size; cause
	whyScale         // name; isNew; n[0] from; n[1] to; cause (a size change)
	whyRefresh       // name; isNew; n[0] desired; n[1] max
	whyNoLast        // rollback skipped: no last revision
	whySameTemplate  // name: the deployment
	whyRolledBack    // name: the deployment; s: the ReplicaSet; n[0] revision
	whyNoRevision    // n[0] revision
	whyDeleted       // name; s revision; n[0] limit
	whyDeleting      // the deployment is being deleted
	whyPaused        // nothing to do while paused
	whyScalingIdle   // scaling event with nothing to resize
	whyTermScaleUp   // n[0] terminating; n[1] after
	whyComplete      // n[0] available; n[1] replicas
	whyNoNew         // no new ReplicaSet
	whyWaitNew       // name; n[0] available; n[1] spec
	whyWaitLimit     // n[0] pods; n[1] unavailable new; n[2] min available
	whyOldRunning    // n[0] old pods
	whyTermStart     // n[0] terminating
	causeSurge       // n[4] other pods; n[5] terminating, shown when n[6] != 0
	causeRecreate    // n[4] replicas
	causeProportion  // n[4] replicas; n[5] before
	causeEmpty       // nothing after the colon
	causeTooMany     // n[4] replicas
	causeUnhealthy   // n[4] unavailable; n[5] budget
	causeAvailable   // n[4] available; n[5] min available; n[6] replicas; n[7] maxUnavailable
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
// does not pay for formatting.
type why struct {
	kind, cause whyKind
	isNew       bool
	name, s, s2 string
	n           [8]int64
}

// text writes the sentence.
// c is the ceiling of the sync, for the reasons that state it.
func (w *why) text(c ceiling) string {
	switch w.kind {
	case whyNone:
		return ""
	case whyText:
		return w.s
	case whyAnnotate:
		var r string
		if w.n[0] != 0 {
			r = fmt.Sprintf("updated annotations of new ReplicaSet %s (revision %s -> %s)", w.name, orNone(w.s), w.s2)
		}
		if w.n[1] != 0 {
			if w.n[0] != 0 {
				r += fmt.Sprintf(" and minReadySeconds %d -> %d", w.n[2], w.n[3])
			} else {
				r = fmt.Sprintf("set minReadySeconds of new ReplicaSet %s from %d to the deployment's %d", w.name, w.n[2], w.n[3])
				if w.n[4] != 0 {
					r += " (the update also carries the deployment's annotations; revision " + strconv.Quote(w.s) + " does not parse)"
				}
			}
		}
		return r
	case whyCollision:
		return fmt.Sprintf("hash collision: ReplicaSet %s exists with another template; collisionCount %d -> %d, new name next sync", w.name, w.n[0], w.n[1])
	case whyCreate:
		return fmt.Sprintf("created new ReplicaSet %s (revision %s) at %d: %s", w.name, w.s, w.n[0], w.causeText(c))
	case whyScale:
		dir := "up"
		if w.n[1] < w.n[0] {
			dir = "down"
		}
		return fmt.Sprintf("scaled %s %s from %d to %d: %s", dir, w.describe(), w.n[0], w.n[1], w.causeText(c))
	case whyRefresh:
		return fmt.Sprintf("refreshed replicas annotations of %s (desired %d, max %d)", w.describe(), w.n[0], w.n[1])
	case whyNoLast:
		return "rollback skipped: Unable to find last revision."
	case whySameTemplate:
		return fmt.Sprintf("rollback skipped: The rollback revision contains the same template as current deployment %q", w.name)
	case whyRolledBack:
		return fmt.Sprintf("Rolled back deployment %q to revision %d (template of ReplicaSet %s)", w.name, w.n[0], w.s)
	case whyNoRevision:
		return fmt.Sprintf("rollback skipped: Unable to find the revision to rollback to (revision %d).", w.n[0])
	case whyDeleted:
		return fmt.Sprintf("deleted old ReplicaSet %s (revision %s): more than revisionHistoryLimit %d old ReplicaSets", w.name, orNone(w.s), w.n[0])
	case whyDeleting:
		return "deployment is being deleted: status only"
	case whyPaused:
		return "paused: no rollout step until resumed"
	case whyScalingIdle:
		return "scaling event: nothing to resize"
	case whyTermScaleUp:
		return fmt.Sprintf("waiting for %d terminating pods before scaling up to %d (limit %d = %s)", w.n[0], w.n[1], c.total, c.sum())
	case whyComplete:
		return fmt.Sprintf("rollout complete: %d of %d pods updated and available", w.n[0], w.n[1])
	case whyNoNew:
		return "waiting: no new ReplicaSet"
	case whyWaitNew:
		return fmt.Sprintf("waiting for new ReplicaSet %s: %d of %d pods available", w.name, w.n[0], w.n[1])
	case whyWaitLimit:
		return fmt.Sprintf("waiting: %d pods at the limit of %d (%s) and no old pod may go (%d new pods unavailable, at least %d must stay available)",
			w.n[0], c.total, c.sum(), w.n[1], w.n[2])
	case whyOldRunning:
		return fmt.Sprintf("waiting for %d old pods to stop before starting the new ReplicaSet", w.n[0])
	case whyTermStart:
		return fmt.Sprintf("waiting for %d terminating pods before starting new pods", w.n[0])
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
		s := fmt.Sprintf("%d pods allowed (%s), %d in other ReplicaSets", c.total, c.sum(), w.n[4])
		if w.n[6] != 0 && w.n[5] > 0 {
			s += fmt.Sprintf(" and %d terminating", w.n[5])
		}
		return s
	case causeRecreate:
		return fmt.Sprintf("Recreate starts all %d pods once the old ones are gone", w.n[4])
	case causeProportion:
		return fmt.Sprintf("proportional share after resize to %d (%d pods allowed%s, %d before)", w.n[4], c.total, c.note(), w.n[5])
	case causeTooMany:
		return fmt.Sprintf("more than the %d desired replicas", w.n[4])
	case causeUnhealthy:
		return fmt.Sprintf("removing unavailable pods first (%d of its pods unavailable, %d old pods may go)", w.n[4], w.n[5])
	case causeAvailable:
		return fmt.Sprintf("%d pods available, at least %d must stay available (%d - maxUnavailable %d)", w.n[4], w.n[5], w.n[6], w.n[7])
	case causeRecreateOff:
		return "Recreate stops every old pod before starting new ones"
	case causeRecreateOn:
		return "Recreate starts all pods once the old ones are gone"
	}
	return ""
}

// textWhy is a why for a sentence already written.
func textWhy(s string) why { return why{kind: whyText, s: s} }
