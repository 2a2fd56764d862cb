package rollout

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/revision"
)

// Planner plans syncs one after another and reuses its memory from one to
// the next, for a controller that syncs many deployments, or a tool that
// replays many rollouts. Its Plan gives the same Sync as PlanWith with
// its Options, but in the steady state allocates almost nothing, and
// leaves the reasons to Explain. The zero Planner is ready to use with
// the default Options. A Planner is not safe for concurrent use: give each
// worker its own. Do not copy a Planner after its first use (the copy
// would share its memory).
type Planner[T any] struct {
	// Options are the options every Plan call uses, as PlanWith's.
	Options Options

	p    planner[T]
	bufs [2]*planBuffers[T]
	next int // the buffer the next Plan writes
	last *planBuffers[T]
}

// planBuffers is the memory of one Sync a Planner returns. The Planner
// alternates between two, so that a Sync it returned may be passed back
// as the next call's input.
type planBuffers[T any] struct {
	sync    Sync[T]
	rss     []ReplicaSet[T]
	actions []Action
	status  statusStore
}

// holds reports whether the input d, rss lives, in part, in b's memory:
// the Deployment, the ReplicaSets' array, the status's conditions or
// counters.
func (b *planBuffers[T]) holds(d *Deployment[T], rss []ReplicaSet[T]) bool {
	st := &b.status
	return d == &b.sync.Deployment || overlaps(b.rss, rss) || overlaps(st.conds, d.Status.Conditions) ||
		(st.term != nil && (d.Status.TerminatingReplicas == st.term || d.Status.CollisionCount == st.term)) ||
		(st.coll != nil && (d.Status.TerminatingReplicas == st.coll || d.Status.CollisionCount == st.coll))
}

// Plan returns what one sync does to d and rss at now, as PlanWith(d,
// rss, now, p.Options) does, with the same errors, and with three
// differences:
//
//   - The Sync and the slices in it (Actions, ReplicaSets, the status's
//     Conditions and counters) belong to the Planner. They stay valid
//     until the second call of Plan after this one, so that this Sync's
//     Deployment and ReplicaSets may be the next call's input, as in a
//     controller's loop; copy what you keep longer. Maps are as PlanWith
//     gives them: fresh where the sync changed them, else the inputs'.
//   - Reasons are not written: every Action.Reason and Sync.Reason is ""
//     until Explain writes them, so a caller that does not read them does
//     not pay for them.
//   - newRS may name the new ReplicaSet, the one revision.FindNew(&d.Template,
//     rss) returns: the oldest whose template equals d's ignoring the
//     pod-template-hash label. A controller often knows it without
//     comparing templates (the ReplicaSet named d.Name + "-" +
//     revision.Hash(&d.Template, d.Status.CollisionCount), when it
//     exists, barring an older ReplicaSet with an equal template), and
//     comparing real pod templates is most of a sync's cost. Plan trusts
//     the name and does not compare: the Sync is the one FindNew's answer
//     gives exactly when newRS is that answer (a wrong name plans a
//     rollout to that ReplicaSet). "" means unknown: Plan calls FindNew.
//     A name that no ReplicaSet of rss has is a *field.Error on newRS
//     (wrapping field.ErrInvalid and field.ErrIndex).
//
// d and rss are never modified, and may be (or share memory with) any
// Sync this Planner returned: the last one, as in a controller's loop, or
// an older one, whose memory the Planner then leaves to the caller.
func (p *Planner[T]) Plan(d *Deployment[T], rss []ReplicaSet[T], now time.Time, newRS string) (*Sync[T], error) {
	p.p.fresh = false
	return p.plan(d, rss, now, newRS)
}

// Explain writes the reasons of the Sync the last Plan call returned:
// every Action.Reason, and Sync.Reason, the same text PlanWith gives. It
// returns that Sync, or nil when the last call failed or there was none.
// Calling it again changes nothing.
func (p *Planner[T]) Explain() *Sync[T] {
	if p.last == nil {
		return nil
	}
	s := &p.last.sync
	if s.Path == PathSelectingAll {
		return s // planSelector wrote its reason
	}
	// R and maxSurge do not change within a sync: the ceiling the
	// reasons state is the deployment's as the sync leaves it.
	c := ceilingOf(&s.Deployment)
	for i := range s.Actions {
		s.Actions[i].Reason = p.p.whys[i].text(c)
	}
	note := p.p.note.text(c)
	switch {
	case len(s.Actions) == 0:
		s.Reason = note
	case len(s.Actions) == 1 && note == "":
		s.Reason = s.Actions[0].Reason
	default:
		var b strings.Builder
		for i := range s.Actions {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(s.Actions[i].Reason)
		}
		if note != "" {
			b.WriteString("; ")
			b.WriteString(note)
		}
		s.Reason = b.String()
	}
	return s
}

// plan is Plan and PlanWith (p.p.fresh).
func (pl *Planner[T]) plan(d *Deployment[T], rss []ReplicaSet[T], now time.Time, newRS string) (*Sync[T], error) {
	pl.last = nil
	if errs := validate(d); len(errs) > 0 {
		name := ""
		if d != nil {
			name = d.Name
		}
		return nil, invalidObject("Deployment", name, errs)
	}
	if err := checkNames(rss); err != nil {
		return nil, err
	}
	buf := pl.bufs[pl.next]
	if buf == nil || buf.holds(d, rss) {
		// Nothing of the input may live in the memory this call writes
		// (the caller passed the Sync from two calls back, or parts of
		// it): leave that memory to the caller and start afresh.
		buf = new(planBuffers[T])
		pl.bufs[pl.next] = buf
	}
	if d.Selector != nil { // a nil selector passes planSelector
		if done, err := planSelector(d, rss, &buf.sync); done {
			if err != nil {
				return nil, err
			}
			pl.last = buf
			pl.next = 1 - pl.next
			return &buf.sync, nil
		}
	}
	p := &pl.p
	p.cur = &buf.sync.Deployment
	p.reset(d, now, pl.Options)
	if p.fresh {
		p.st = nil
		p.rss = make([]ReplicaSet[T], 0, len(rss)+1)
		p.actions = nil
	} else {
		p.st = &buf.status
		p.rss = buf.rss[:0]
		p.actions = buf.actions[:0]
	}
	// Upstream's first step (FindNewReplicaSet) sorts the list oldest
	// first, so every later order starts from there, whatever order the
	// informer listed them in. The ReplicaSets are sorted by index and
	// copied once, in order.
	p.idx = p.idx[:0]
	for i := range rss {
		p.idx = append(p.idx, i)
	}
	cmpAt := func(i, j int) int { return byCreationAt(&rss[i], &rss[j]) }
	if slices.IsSortedFunc(p.idx, cmpAt) {
		// A Sync's ReplicaSets are: copy them in one go (a field by field
		// copy of a real pod template costs several times a memmove).
		p.rss = append(p.rss, rss...)
	} else {
		slices.SortFunc(p.idx, cmpAt)
		p.rss = slices.Grow(p.rss, len(rss)+1)[:len(rss)]
		for k, i := range p.idx {
			copy(p.rss[k:k+1], rss[i:i+1])
		}
	}
	if !p.fresh {
		buf.rss = p.rss
	}
	for i := range p.rss {
		if errs := validateReplicaSet(&p.rss[i]); len(errs) > 0 {
			return nil, invalidObject("ReplicaSet", p.rss[i].Name, errs)
		}
	}
	p.newIdx = -1
	if newRS != "" {
		for i := range p.rss {
			if p.rss[i].Name == newRS {
				p.newIdx = i
				break
			}
		}
		if p.newIdx < 0 {
			return nil, &field.Error{Prefix: "rollout", Field: "newRS",
				Detail: "the new ReplicaSet named " + strconv.Quote(newRS) + " is not among the deployment's ReplicaSets", Err: field.ErrIndex}
		}
	} else if i, ok := revision.FindNew(&d.Template, p.rss); ok {
		p.newIdx = i
	} else if err := templateEqualsItself(d); err != nil {
		return nil, err
	}
	p.run()
	if p.err != nil {
		return nil, p.err
	}
	p.result(&buf.sync)
	if !p.fresh {
		buf.actions = p.actions
		buf.rss = p.rss
	}
	pl.last = buf
	pl.next = 1 - pl.next
	return &buf.sync, nil
}
