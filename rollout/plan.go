package rollout

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/internal/decimal"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// Path is the branch of the controller's sync that Plan took.
type Path uint8

// The branches of a sync, in the order the controller checks them.
const (
	// PathDeleting: the deployment is being deleted; only the status is
	// updated. Upstream: syncStatusOnly.
	PathDeleting Path = iota
	// PathPaused: the deployment is paused; only proportional scaling,
	// history cleanup and the status. Upstream: sync.
	PathPaused
	// PathRollback: a rollback is pending; the template is restored.
	// Upstream: rollback.
	PathRollback
	// PathScaling: spec.replicas changed mid-rollout; the ReplicaSets are
	// resized proportionally. Upstream: sync after isScalingEvent.
	PathScaling
	// PathRecreate: a Recreate rollout step. Upstream: rolloutRecreate.
	PathRecreate
	// PathRollingUpdate: a rolling update step. Upstream: rolloutRolling.
	PathRollingUpdate
)

// String returns the path's name: "deleting", "paused", "rollback",
// "scaling", "Recreate" or "RollingUpdate".
func (p Path) String() string {
	switch p {
	case PathDeleting:
		return "deleting"
	case PathPaused:
		return "paused"
	case PathRollback:
		return "rollback"
	case PathScaling:
		return "scaling"
	case PathRecreate:
		return "Recreate"
	case PathRollingUpdate:
		return "RollingUpdate"
	case PathSelectingAll:
		return "selecting all"
	}
	return "Path(" + itoa(int64(p)) + ")"
}

// MarshalText returns String, so a Path reads well in JSON.
func (p Path) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// ActionKind is what an Action does.
type ActionKind uint8

// The actions a sync takes.
const (
	// CreateReplicaSet creates the new ReplicaSet.
	CreateReplicaSet ActionKind = iota + 1
	// ScaleReplicaSet changes a ReplicaSet's spec.replicas (and writes its
	// desired-replicas and max-replicas annotations), or only refreshes
	// those annotations when From == To.
	ScaleReplicaSet
	// AnnotateReplicaSet updates the new ReplicaSet's annotations
	// (revision, revision-history, copied deployment annotations) and sets
	// its spec.minReadySeconds to the deployment's, in one write. Plan
	// takes it when the annotations change or when the ReplicaSet's
	// MinReadySeconds is known and differs from the deployment's (the
	// API server then raises the ReplicaSet's generation). Either way the
	// sync goes on without setting the deployment's revision annotation
	// or the FoundNewReplicaSet condition. Upstream: the update in
	// getNewReplicaSet.
	AnnotateReplicaSet
	// DeleteReplicaSet deletes an old ReplicaSet beyond the revision
	// history limit.
	DeleteReplicaSet
	// RollBack restores an old template on the deployment.
	RollBack
	// SkipRollback clears a rollback that cannot or need not be done.
	SkipRollback
	// CountCollision raises status.collisionCount after a hash collision;
	// the new ReplicaSet is created in a later sync under another name.
	CountCollision
)

// String returns the kind's name, e.g. "ScaleReplicaSet".
func (k ActionKind) String() string {
	switch k {
	case CreateReplicaSet:
		return "CreateReplicaSet"
	case ScaleReplicaSet:
		return "ScaleReplicaSet"
	case AnnotateReplicaSet:
		return "AnnotateReplicaSet"
	case DeleteReplicaSet:
		return "DeleteReplicaSet"
	case RollBack:
		return "RollBack"
	case SkipRollback:
		return "SkipRollback"
	case CountCollision:
		return "CountCollision"
	}
	return "ActionKind(" + itoa(int64(k)) + ")"
}

// MarshalText returns String, so an ActionKind reads well in JSON.
func (k ActionKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Action is one write a sync makes, in the order the controller makes it.
type Action struct {
	Kind ActionKind `json:"kind"`
	// ReplicaSet names the ReplicaSet acted on ("" for deployment actions).
	ReplicaSet string `json:"replicaSet,omitempty"`
	// From and To are spec.replicas before and after (equal when the size
	// does not change).
	From int32 `json:"from"`
	To   int32 `json:"to"`
	// Reason says why, for a person: "scaled up new ReplicaSet web-5d4c
	// from 3 to 5: 13 pods allowed (10 + maxSurge 3), 11 exist".
	// Planner.Plan leaves it "" until Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Sync is what one sync of the controller does: Plan's result.
type Sync[T any] struct {
	// Path is the branch of the sync taken.
	Path Path
	// Actions are the writes, in order; empty when nothing but possibly the
	// status changes.
	Actions []Action
	// Deployment is the deployment as the sync leaves it: status,
	// conditions, revision annotation, and after a rollback the restored
	// template (when it was performed), RollbackTo and the rollback
	// annotation cleared and Generation raised by one, performed or
	// skipped (the controller's update clears the annotation, and the API
	// server raises the generation on a change of spec or annotations).
	Deployment Deployment[T]
	// ReplicaSets are the ReplicaSets as the sync leaves them, without
	// deleted ones, oldest first (creation time, then name: upstream's
	// ReplicaSetsByCreationTimestamp), a created one last; so the Sync
	// does not depend on the order of Plan's rss. A ReplicaSet whose
	// spec.replicas changed has Generation raised by one; a new ReplicaSet
	// whose MinReadySeconds was known and differed from the deployment's
	// holds the deployment's, its Generation raised by one more. A created
	// one has Generation 1, CreationTime now, MinReadySeconds the
	// deployment's, no UID and no status, and its Template is the
	// deployment's as is: a caller writing it to a cluster
	// adds the label revision.HashLabel = Hash to its template and
	// selector, as upstream does. Maps are fresh where changed; nothing is
	// shared that the sync modified.
	ReplicaSets []ReplicaSet[T]
	// NewReplicaSet is the index of the new ReplicaSet in ReplicaSets, or
	// -1 when there is none (yet).
	NewReplicaSet int
	// Hash is the pod-template-hash of a ReplicaSet created by this sync,
	// "" otherwise.
	Hash string
	// Requeue says the controller looks at the deployment again after
	// RequeueAfter even without an event (0: immediately, rate-limited).
	Requeue      bool
	RequeueAfter time.Duration
	// Reason summarises the sync in one line: the actions' reasons, or why
	// nothing moved ("waiting for 3 new pods to become available ...").
	// Planner.Plan leaves it "" until Planner.Explain writes it.
	Reason string
}

// Plan returns what one sync of kube-controller-manager's Deployment
// controller does to d and its ReplicaSets rss at time now, with the
// default Options. See PlanWith, also for the errors: an invalid d or
// ReplicaSet, or a d.Template that does not equal a copy of itself (a NaN
// float or a non-nil func in it).
//
// Ownership: Plan treats every ReplicaSet of rss as the deployment's own
// and never checks labels or owner references. Callers decide ownership
// first, as the controller does before it syncs: ownership.ClaimAll on
// the ReplicaSets of the namespace gives the owned set to pass (and the
// adoptions and releases to write); a ReplicaSet whose labels no longer
// match is released there and is not Plan's to touch. A deployment whose
// Selector selects everything is not rolled out (PathSelectingAll).
func Plan[T any](d *Deployment[T], rss []ReplicaSet[T], now time.Time) (Sync[T], error) {
	return PlanWith(d, rss, now, Options{})
}

// PlanWith returns what one sync does, in upstream's order: a deployment
// being deleted only gets its status; then the paused conditions are
// checked; a paused deployment is only scaled proportionally and cleaned
// up; a pending rollback restores the template; a scaling event scales
// proportionally; otherwise a Recreate or RollingUpdate step runs: create
// the new ReplicaSet if needed, scale it up (at most one direction of
// scaling per sync), else scale old ReplicaSets down, clean up history
// when the (previously written) status is complete, and write the status
// and conditions.
//
// As upstream, the status written in a sync that scaled is computed from
// the ReplicaSets as they were before that sync's own scaling (it is
// corrected by the next sync). rss and d are never modified. The new
// ReplicaSet is the oldest whose template equals d's, ignoring the
// pod-template-hash label (revision.FindNew).
//
// The answer does not depend on the order of rss: like upstream, which
// sorts the ReplicaSets it lists oldest first before anything else, Plan
// works on them oldest first (creation time, then name) and visits them
// in the orders upstream derives from that one. So a rollback to a
// revision two ReplicaSets share restores the older one, Recreate and
// the rolling update scale old ReplicaSets down oldest first, and history
// cleanup starts its sort from upstream's order (which matters when a
// revision does not parse, as the comparison is then not a strict order).
//
// A new ReplicaSet whose revision annotation does not parse is not
// updated for its annotations, as upstream's SetNewReplicaSetAnnotations
// gives up on it; but upstream has by then copied the deployment's
// annotations onto its in-memory copy, so a write of that ReplicaSet later
// in the same sync (a scale) carries them, and Plan's does too.
//
// Errors: every bad input is a *field.Error (or a field.ErrorList of
// them) wrapping field.ErrInvalid, so errors.Is and errors.As work. A d or
// ReplicaSet the API server would reject is reported with Validate's (or
// ValidateReplicaSet's) errors, each prefixed with the object:
//
//	rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// two ReplicaSets with the same name give an error wrapping
// field.ErrDuplicate, worded as proportion words it:
//
//	rollout: rss[3].Name: "web-1" duplicates rss[1].Name
//
// A d.Template that does not equal a copy of itself (revision.EqualsItself:
// it holds a NaN float or a non-nil func where EqualIgnoreHash compares
// field by field) is a Forbidden error on spec.template: no ReplicaSet would ever match
// it, so a controller following Plan would create a new ReplicaSet every
// other sync. Upstream cannot meet this (its templates come from JSON,
// which holds neither). Fix the template, or give the value's type an
// Equal method that accepts it. The check runs only when no ReplicaSet
// matches the template, the one case where such a template makes a
// difference, so a steady-state sync does not pay for it.
//
// A sync that would raise status.collisionCount or a metadata.generation
// past the top of its range gives an error wrapping ErrCounterOverflow
// (upstream wraps it negative and the API server rejects the write). The
// Sync is then zero. Upstream: syncDeployment and the functions it calls.
func PlanWith[T any](d *Deployment[T], rss []ReplicaSet[T], now time.Time, opts Options) (Sync[T], error) {
	p := &Planner[T]{Options: opts}
	p.p.fresh = true
	s, err := p.plan(d, rss, now, "")
	if err != nil {
		return Sync[T]{}, err
	}
	p.Explain()
	return *s, nil
}

// validateReplicaSets checks that no two ReplicaSets share a name, then
// every ReplicaSet with validateReplicaSet, oldest first (byCreation), so
// that the first invalid one reported does not depend on the order of
// rss.
func validateReplicaSets[T any](rss []ReplicaSet[T]) error {
	if err := checkNames(rss); err != nil {
		return err
	}
	order := oldestOrder(rss, -1)
	for _, i := range order {
		if errs := validateReplicaSet(&rss[i]); len(errs) > 0 {
			return invalidObject("ReplicaSet", rss[i].Name, errs)
		}
	}
	return nil
}

// byCreation orders ReplicaSets oldest first, the same instant by name:
// upstream's ReplicaSetsByCreationTimestamp, a total order once names are
// distinct (checkNames).
func byCreation[T any](a, b ReplicaSet[T]) int {
	if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// byCreationAt is byCreation through pointers, so that sorting does not
// copy ReplicaSets (a real pod template is about a kilobyte).
func byCreationAt[T any](a, b *ReplicaSet[T]) int {
	if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// smallNames is how many ReplicaSets checkNames compares pairwise; beyond
// it, it indexes their names in a map.
const smallNames = 32

// checkNames returns a *duplicateError for the first ReplicaSet, in rss
// order, whose name an earlier one already has, and nil when the names
// are distinct. A namespace holds one ReplicaSet per name, so a second one
// can only be a caller's mistake (the same object listed twice, or two
// clusters mixed up); the controller's per-name bookkeeping (upstream's
// scale keeps its sizes in a map by name) would merge the two. Up to
// smallNames ReplicaSets it compares them pairwise, without allocating.
func checkNames[T any](rss []ReplicaSet[T]) error {
	if len(rss) < 2 {
		return nil
	}
	if len(rss) <= smallNames {
		for j := 1; j < len(rss); j++ {
			b := rss[j].Name
			for i := 0; i < j; i++ {
				// Lengths and last bytes first: names that differ
				// mostly differ there (their hash suffix).
				if a := rss[i].Name; len(a) == len(b) && (len(a) == 0 || a[len(a)-1] == b[len(b)-1]) && a == b {
					return duplicateError(b, i, j)
				}
			}
		}
		return nil
	}
	seen := make(map[string]int, len(rss))
	for j := range rss {
		if i, ok := seen[rss[j].Name]; ok {
			return duplicateError(rss[j].Name, i, j)
		}
		seen[rss[j].Name] = j
	}
	return nil
}

// duplicateError reports two ReplicaSets, rss[first] and rss[second],
// with the same name, in the words of package proportion's duplicate
// check, as a *field.Error wrapping field.ErrDuplicate:
//
//	rollout: rss[3].Name: "web-1" duplicates rss[1].Name
func duplicateError(name string, first, second int) error {
	return &field.Error{Prefix: "rollout", Field: "rss[" + strconv.Itoa(second) + "].Name",
		Detail: strconv.Quote(name) + " duplicates rss[" + strconv.Itoa(first) + "].Name", Err: field.ErrDuplicate}
}

// ErrCounterOverflow is wrapped by the error Plan and Simulate return when
// the sync would raise a counter that is already at the top of its
// range: status.collisionCount at math.MaxInt32 when the new ReplicaSet's
// name collides again, or metadata.generation at math.MaxInt64 of the
// deployment (the update that ends a rollback) or of a ReplicaSet whose
// spec.replicas or (the new ReplicaSet's) spec.minReadySeconds changes. Upstream's arithmetic wraps the counter to its
// minimum and the API server rejects the write (a negative
// collisionCount, or a generation that is decremented), so the controller
// retries the same sync forever and never gets past it. Plan returns this
// error, with a zero Sync, rather than a write that Validate rejects; a
// caller can only reset the counter (recreate the object) or remove the
// colliding ReplicaSet.
//
// The error is not a field.Error and does not wrap field.ErrInvalid: the
// input is valid (the API server accepted it); it is the sync's write
// that cannot be made.
var ErrCounterOverflow = errors.New("counter overflow")

// before is what a sync's scaling changes in rss[i], as it was before:
// the status is computed, and history cleaned up, from the ReplicaSets as
// they were then.
type before struct {
	i           int
	replicas    int32
	generation  int64
	annotations map[string]string
}

// planner carries one sync's working state, and the memory a Planner
// keeps from one sync to the next.
type planner[T any] struct {
	in   *Deployment[T]  // the input, read only
	cur  *Deployment[T]  // the deployment as the sync changes it in memory: the result's
	rss  []ReplicaSet[T] // the ReplicaSets as the sync changes them
	opts Options
	now  time.Time

	// The snapshot: hasPre says it was taken, when rss had preLen
	// ReplicaSets; pre holds what scaling has changed since in them, as
	// it was before (scale records it before each first change).
	pre            []before
	hasPre         bool
	preLen         int
	newIdx, preNew int
	// pendingAnn, when not nil, holds the annotations of the new
	// ReplicaSet as upstream's in-memory copy has them but the cluster
	// does not yet: the next write of that ReplicaSet carries them.
	pendingAnn   map[string]string
	path         Path
	actions      []Action
	whys         []why // whys[i] is actions[i]'s reason, unwritten
	deleted      []bool
	anyDeleted   bool
	hash         string
	requeue      bool
	requeueAfter time.Duration
	note         why   // why nothing moved, when no action explains it
	err          error // a counter that would overflow (ErrCounterOverflow); the sync's result is void

	// fresh says every slice and map of the result is new (Plan and
	// PlanWith); otherwise they come from the Planner's buffers.
	fresh bool
	st    *statusStore
	// Scratch, reused from sync to sync.
	idx     []int
	order   []int
	sizes   []int32
	cleaned []int32
	prs     []proportion.ReplicaSet
	written []bool
	view    []ReplicaSet[T]
}

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

// reset readies p for a sync of d at now; p.cur must point to the
// result's Deployment, which must not be *d.
func (p *planner[T]) reset(d *Deployment[T], now time.Time, opts Options) {
	p.in, p.opts, p.now = d, opts, now
	*p.cur = *d
	p.pre, p.hasPre, p.preLen = p.pre[:0], false, 0
	p.newIdx, p.preNew = -1, -1
	p.pendingAnn = nil
	p.path = 0
	p.whys = p.whys[:0]
	p.deleted = p.deleted[:0]
	p.anyDeleted = false
	p.hash = ""
	p.requeue, p.requeueAfter = false, 0
	p.note = why{}
	p.err = nil
}

func (p *planner[T]) run() {
	d := p.in
	if d.Deleting {
		p.path = PathDeleting
		if p.syncRevision(false) {
			p.snapshot()
			p.deploymentStatus()
		}
		p.note = why{kind: whyDeleting}
		return
	}
	if conds, changed := PausedConditions(p.cur, p.now); changed {
		p.cur.Status.Conditions = conds
	}
	switch {
	case d.Paused:
		p.path = PathPaused
		p.sync()
	case p.rollbackPending():
		p.path = PathRollback
		p.rollback()
	case p.isScalingEvent():
		p.path = PathScaling
		p.sync()
	case d.strategy() == Recreate:
		p.path = PathRecreate
		p.recreate()
	default:
		p.path = PathRollingUpdate
		p.rolling()
	}
}

// snapshot marks the ReplicaSets as they are now as the ones this sync's
// status and cleanup read; scale keeps what it changes after (remember).
func (p *planner[T]) snapshot() {
	p.pre = p.pre[:0]
	p.hasPre, p.preLen = true, len(p.rss)
	p.preNew = p.newIdx
}

// remember keeps rss[i] as the snapshot has it, before scale changes it.
func (p *planner[T]) remember(i int) {
	if !p.hasPre || i >= p.preLen {
		return
	}
	for k := range p.pre {
		if p.pre[k].i == i {
			return
		}
	}
	rs := &p.rss[i]
	p.pre = append(p.pre, before{i, rs.Replicas, rs.Generation, rs.Annotations})
}

// swapPre exchanges the snapshot with the ReplicaSets' current values and
// returns the ReplicaSets the snapshot covers: called once, they are the
// ReplicaSets as they were at the snapshot; called again, as they are now.
func (p *planner[T]) swapPre() []ReplicaSet[T] {
	for k := range p.pre {
		b := &p.pre[k]
		rs := &p.rss[b.i]
		rs.Replicas, b.replicas = b.replicas, rs.Replicas
		rs.Generation, b.generation = b.generation, rs.Generation
		rs.Annotations, b.annotations = b.annotations, rs.Annotations
	}
	return p.rss[:p.preLen]
}

// syncRevision finds or (with create) creates the new ReplicaSet and syncs
// revisions between it and the deployment. It returns false when the sync
// must stop (a hash collision). Upstream: getAllReplicaSetsAndSyncRevision.
func (p *planner[T]) syncRevision(create bool) bool {
	next := revision.NextRevision(p.rss, p.newIdx)
	newRevision := strconv.FormatInt(next, 10)
	_, hasDeadline := p.cur.ProgressDeadline()
	if p.newIdx >= 0 {
		rs := &p.rss[p.newIdx]
		minReady := rs.MinReadySeconds != nil && *rs.MinReadySeconds != p.cur.MinReadySeconds
		if !minReady && annotationsKept(p.cur.Annotations, rs.Annotations, next) {
			// The steady state: revision.NewAnnotations would return
			// rs's annotations unchanged; skip its copy.
			p.foundNew(rs, hasDeadline)
			return true
		}
		ann, changed := revision.NewAnnotations(revision.AnnotationsInput{
			Deployment: p.cur.Annotations, ReplicaSet: rs.Annotations, Revision: newRevision, Exists: true,
		})
		if changed || minReady {
			// One update carries both, and ends the revision sync before
			// the deployment's revision annotation and the
			// FoundNewReplicaSet condition. When only minReadySeconds
			// differs, ann still holds the deployment's copied
			// annotations that a revision which does not parse kept from
			// counting as a change: upstream's in-memory copy has them,
			// so its update persists them.
			w := why{kind: whyAnnotate, name: rs.Name, s: rs.Annotations[revision.RevisionAnnotation], s2: ann[revision.RevisionAnnotation]}
			if changed {
				w.n[0] = 1
			}
			if minReady {
				if rs.Generation == math.MaxInt64 {
					p.fail(fmt.Errorf("rollout: ReplicaSet %q: metadata.generation is %d; updating its minReadySeconds would wrap it to %d, which the API server rejects: %w",
						rs.Name, rs.Generation, int64(math.MinInt64), ErrCounterOverflow))
					return false
				}
				from := *rs.MinReadySeconds
				m := p.cur.MinReadySeconds
				rs.MinReadySeconds = &m
				// A spec change: the API server raises the generation.
				rs.Generation++
				w.n[1], w.n[2], w.n[3] = 1, int64(from), int64(m)
				if !changed && !maps.Equal(ann, rs.Annotations) {
					w.n[4] = 1
				}
			}
			rs.Annotations = ann
			p.act(AnnotateReplicaSet, rs.Name, rs.Replicas, rs.Replicas, w)
			return true
		}
		if !maps.Equal(ann, rs.Annotations) {
			// A revision that does not parse: upstream has already copied
			// the deployment's annotations onto its in-memory copy of the
			// ReplicaSet, does not update it for them, but scales that
			// copy later in the sync, which persists them.
			p.pendingAnn = ann
		}
		p.foundNew(rs, hasDeadline)
		return true
	}
	if !create {
		return true
	}
	hash := revision.Hash(&p.cur.Template, p.cur.Status.CollisionCount)
	name := revision.ReplicaSetName(p.cur.Name, hash)
	for i := range p.rss {
		if p.rss[i].Name == name {
			var cc int32
			if p.cur.Status.CollisionCount != nil {
				cc = *p.cur.Status.CollisionCount
			}
			if cc == math.MaxInt32 {
				p.fail(fmt.Errorf("rollout: Deployment %q: ReplicaSet %q collides with the new template at status.collisionCount %d; one more wraps to %d, which the API server rejects: %w",
					p.cur.Name, name, cc, int64(math.MinInt32), ErrCounterOverflow))
				return false
			}
			next := revision.NextCollisionCount(p.cur.Status.CollisionCount)
			p.cur.Status.CollisionCount = &next
			p.act(CountCollision, name, 0, 0, why{kind: whyCollision, name: name, n: [8]int64{int64(cc), int64(next)}})
			p.requeue, p.requeueAfter = true, 0
			return false
		}
	}
	size, err := newReplicas(p.cur, p.rss, -1, p.opts.Surge == SurgeCountsTerminating)
	if err != nil {
		// Unreachable for a validated deployment; keep the sync a no-op.
		p.note = textWhy(err.Error())
		return false
	}
	ann, _ := revision.NewAnnotations(revision.AnnotationsInput{
		Deployment: p.cur.Annotations, Revision: newRevision, Replicas: p.cur.Replicas, MaxReplicas: maxTotal(p.cur),
	})
	minReady := p.cur.MinReadySeconds
	p.rss = append(p.rss, ReplicaSet[T]{
		Name:            name,
		CreationTime:    p.now,
		Annotations:     ann,
		Template:        p.cur.Template,
		Replicas:        size,
		MinReadySeconds: &minReady,
		Generation:      1,
	})
	p.newIdx = len(p.rss) - 1
	p.hash = hash
	w := why{kind: whyCreate, name: name, s: newRevision}
	w.n[0] = int64(size)
	p.createWhy(&w)
	p.act(CreateReplicaSet, name, 0, size, w)
	p.setRevision(newRevision)
	if hasDeadline {
		p.cur.Status.Conditions = SetCondition(p.cur.Status.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", name), p.now))
	}
	return true
}

// foundNew ends the revision sync with an existing new ReplicaSet: the
// deployment takes its revision, and with a progress deadline a
// FoundNewReplicaSet condition when it has no Progressing one.
func (p *planner[T]) foundNew(rs *ReplicaSet[T], hasDeadline bool) {
	p.setRevision(rs.Annotations[revision.RevisionAnnotation])
	if _, ok := FindCondition(p.cur.Status.Conditions, DeploymentProgressing); hasDeadline && !ok {
		p.cur.Status.Conditions = SetCondition(p.cur.Status.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonFoundNewReplicaSet, fmt.Sprintf("Found new replica set %q", rs.Name), p.now))
	}
}

// annotationsKept reports, without copying a map, that
// revision.NewAnnotations would leave the existing new ReplicaSet's
// annotations rs as they are and report no change, given the
// deployment's annotations dep and the revision next: every copied
// deployment annotation is already on rs with the same value, and rs's
// revision parses and is at least next. false means "call NewAnnotations
// to know".
func annotationsKept(dep, rs map[string]string, next int64) bool {
	for k, v := range dep {
		if !revision.IsCopiedAnnotation(k) {
			continue
		}
		if cur, ok := rs[k]; !ok || cur != v {
			return false
		}
	}
	// A revision of plain digits (what NewAnnotations parses to the same
	// number); anything else is left to NewAnnotations.
	old, ok := decimal.Digits(rs[revision.RevisionAnnotation], 18)
	return ok && old >= next
}

// createWhy records why a ReplicaSet being created gets its size.
func (p *planner[T]) createWhy(w *why) {
	if p.cur.strategy() == Recreate {
		w.cause = causeRecreate
		w.n[4] = int64(p.cur.Replicas)
		return
	}
	p.surgeWhy(w, p.newIdx)
}

// surgeWhy records why the new ReplicaSet rss[newIdx] is scaled up as
// rolling allows.
func (p *planner[T]) surgeWhy(w *why, newIdx int) {
	var total, term int64
	for i := range p.rss {
		if i == newIdx {
			continue
		}
		total += int64(p.rss[i].Replicas)
		term += int64(terminating(&p.rss[i]))
	}
	w.cause = causeSurge
	w.n[4], w.n[5] = total, term
	if p.opts.Surge == SurgeCountsTerminating {
		w.n[6] = 1
	}
}

// setRevision sets the deployment's revision annotation, copying the map.
// Upstream: SetDeploymentRevision.
func (p *planner[T]) setRevision(rev string) {
	if p.cur.Annotations[revision.RevisionAnnotation] == rev {
		return
	}
	ann := maps.Clone(p.cur.Annotations)
	if ann == nil {
		ann = map[string]string{}
	}
	ann[revision.RevisionAnnotation] = rev
	p.cur.Annotations = ann
}

// fail records the first counter overflow; PlanWith then returns it
// instead of the sync.
func (p *planner[T]) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

func (p *planner[T]) act(kind ActionKind, name string, from, to int32, w why) {
	p.actions = append(p.actions, Action{Kind: kind, ReplicaSet: name, From: from, To: to})
	p.whys = append(p.whys, w)
}

// scale sets rss[i] to size. Lazy (force false): nothing when the size is
// already right. Otherwise the ReplicaSet is written when its size or its
// replicas annotations differ, and both annotations are set. It reports
// whether the size changed. w holds the cause of the change. Upstream:
// scaleReplicaSetAndRecordEvent and scaleReplicaSet.
func (p *planner[T]) scale(i int, size int32, force bool, w why) bool {
	rs := &p.rss[i]
	if !force && rs.Replicas == size {
		return false
	}
	desired, maxReplicas := p.cur.Replicas, maxTotal(p.cur)
	sizeChanged := rs.Replicas != size
	if !sizeChanged && !proportion.AnnotationsNeedUpdate(proportionReplicaSet(rs), desired, maxReplicas) {
		return false
	}
	p.remember(i)
	base := rs.Annotations
	if i == p.newIdx && p.pendingAnn != nil {
		base, p.pendingAnn = p.pendingAnn, nil
	}
	// The write carries both replicas annotations. When base holds them
	// already (the usual scale, R unchanged) it is written as it is and
	// shared, as nothing in it changes; otherwise a copy is changed.
	ann := base
	if !replicasAnnotationIs(base, revision.DesiredReplicasAnnotation, desired) || !replicasAnnotationIs(base, revision.MaxReplicasAnnotation, maxReplicas) {
		ann = maps.Clone(base)
		if ann == nil {
			ann = map[string]string{}
		}
		ann[revision.DesiredReplicasAnnotation] = proportion.FormatReplicas(desired)
		ann[revision.MaxReplicasAnnotation] = proportion.FormatReplicas(maxReplicas)
	}
	rs.Annotations = ann
	from := rs.Replicas
	w.name, w.isNew = rs.Name, i == p.newIdx
	if sizeChanged {
		w.kind, w.n[0], w.n[1] = whyScale, int64(from), int64(size)
	} else {
		w.kind, w.n[0], w.n[1] = whyRefresh, int64(desired), int64(maxReplicas)
	}
	if sizeChanged {
		if rs.Generation == math.MaxInt64 {
			p.fail(fmt.Errorf("rollout: ReplicaSet %q: metadata.generation is %d; resizing it would wrap it to %d, which the API server rejects: %w",
				rs.Name, rs.Generation, int64(math.MinInt64), ErrCounterOverflow))
			return false
		}
		rs.Replicas = size
		rs.Generation++
	}
	p.act(ScaleReplicaSet, rs.Name, from, size, w)
	return sizeChanged
}

// proportionInputs converts the ReplicaSets for the proportion package,
// into p's scratch.
func (p *planner[T]) proportionInputs() (proportion.Deployment, []proportion.ReplicaSet) {
	pd := proportion.Deployment{
		Replicas:       p.cur.Replicas,
		MaxSurge:       MaxSurge(p.cur),
		StatusReplicas: p.cur.Status.Replicas,
		RollingUpdate:  p.cur.strategy() == RollingUpdate,
	}
	p.prs = p.prs[:0]
	for i := range p.rss {
		p.prs = append(p.prs, proportionReplicaSet(&p.rss[i]))
	}
	return pd, p.prs
}

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation differs from R. Upstream: isScalingEvent (it first syncs the
// revision without creating; that runs again in the branch taken).
func (p *planner[T]) isScalingEvent() bool {
	// IsScalingEvent reads only the replicas and desired-replicas
	// annotation of active ReplicaSets: convert just those.
	pd := proportion.Deployment{Replicas: p.cur.Replicas}
	p.prs = p.prs[:0]
	for i := range p.rss {
		if rs := &p.rss[i]; rs.Replicas > 0 {
			p.prs = append(p.prs, proportion.ReplicaSet{Replicas: rs.Replicas, DesiredReplicas: rs.Annotations[revision.DesiredReplicasAnnotation]})
		}
	}
	return proportion.IsScalingEvent(pd, p.prs)
}

// sync is the paused and scaling-event branch. Upstream: sync.
func (p *planner[T]) sync() {
	if !p.syncRevision(false) {
		return
	}
	p.snapshot()
	p.proportional()
	if p.in.Paused && !p.rollbackPending() {
		p.cleanupHistory(true)
	}
	p.deploymentStatus()
	if len(p.actions) == 0 && p.note.kind == whyNone {
		if p.in.Paused {
			p.note = why{kind: whyPaused}
		} else {
			p.note = why{kind: whyScalingIdle}
		}
	}
}

// proportional resizes the ReplicaSets after a change of R. Upstream: scale.
func (p *planner[T]) proportional() {
	pd, prs := p.proportionInputs()
	res, err := proportion.Scale(pd, prs, p.newIdx, p.opts.Proportion)
	if err != nil {
		p.note = textWhy("proportional scaling failed: " + err.Error())
		return
	}
	if p.opts.Surge == SurgeCountsTerminating {
		var before, after, term int64
		for i := range p.rss {
			before += int64(p.rss[i].Replicas)
			after += int64(res.Targets[i].Replicas)
			term += int64(terminating(&p.rss[i]))
		}
		if after > before && after+term > int64(maxTotal(p.cur)) {
			p.note = why{kind: whyTermScaleUp, n: [8]int64{term, after}}
			return
		}
	}
	var from int64
	for i := range p.rss {
		if p.rss[i].Replicas > 0 {
			from += int64(p.rss[i].Replicas)
		}
	}
	cause := why{cause: causeProportion}
	cause.n[4], cause.n[5] = int64(p.cur.Replicas), from
	// Write in the order upstream's scale() visits the ReplicaSets:
	// res.Order (largest first, the direction deciding ties; old newest
	// first then new when nothing is added; the saturated case's old
	// ones newest first).
	p.written = append(p.written[:0], make([]bool, len(p.rss))...)
	for _, i := range res.Order {
		if t := res.Targets[i]; t.Annotate || t.Replicas != p.rss[i].Replicas {
			p.scale(i, t.Replicas, true, cause)
			p.written[i] = true
		}
	}
	if p.opts.Resize != ResizeRefreshesAnnotations {
		return
	}
	// Upstream leaves a stale desired-replicas annotation on an active
	// ReplicaSet that scale() does not touch, and every later sync is a
	// scaling event again: refresh it so the rollout can go on.
	for i := range p.rss {
		rs := &p.rss[i]
		if p.written[i] || rs.Replicas == 0 {
			continue
		}
		if v, ok := proportion.DesiredAnnotation(proportionReplicaSet(rs)); ok && v != p.cur.Replicas {
			p.scale(i, rs.Replicas, true, why{cause: causeEmpty})
		}
	}
}

// rollback restores the template of the revision asked for. Upstream:
// rollback and rollbackToTemplate.
func (p *planner[T]) rollback() {
	if !p.syncRevision(true) {
		return
	}
	target, _ := p.rollbackTarget()
	p.clearRollback()
	if target == 0 {
		target = revision.LastRevision(p.rss)
		if target == 0 {
			p.act(SkipRollback, "", 0, 0, why{kind: whyNoLast})
			return
		}
	}
	// RollbackTarget orders the candidates as upstream does (old ones
	// oldest first, then the new one), whatever the order of p.rss.
	r := revision.RollbackTarget(&p.cur.Template, p.rss, target)
	switch r.Outcome {
	case revision.RollbackUnchanged:
		rs := &p.rss[r.Index]
		p.act(SkipRollback, rs.Name, rs.Replicas, rs.Replicas, why{kind: whySameTemplate, name: p.cur.Name})
	case revision.RolledBack:
		rs := &p.rss[r.Index]
		p.cur.Template = revision.WithoutHashLabel(&rs.Template)
		p.cur.Annotations = revision.RollbackAnnotations(p.cur.Annotations, rs.Annotations)
		delete(p.cur.Annotations, revision.RollbackToAnnotation)
		p.act(RollBack, rs.Name, rs.Replicas, rs.Replicas, why{kind: whyRolledBack, name: p.cur.Name, s: rs.Name, n: [8]int64{target}})
	default:
		p.act(SkipRollback, "", 0, 0, why{kind: whyNoRevision, n: [8]int64{target}})
	}
}

// rollbackTarget returns the pending rollback: d.RollbackTo, else the
// deprecated.deployment.rollback.to annotation when it holds an integer.
// Upstream: getRollbackTo.
func (p *planner[T]) rollbackTarget() (int64, bool) {
	if p.in.RollbackTo != nil {
		return *p.in.RollbackTo, true
	}
	return revision.RollbackTo(p.in.Annotations)
}

func (p *planner[T]) rollbackPending() bool {
	_, ok := p.rollbackTarget()
	return ok
}

// clearRollback removes the pending rollback, field and annotation, and
// raises the generation: upstream ends every rollback, performed or
// skipped, with one update of the deployment that removes the annotation
// (with the restored template when performed), and the API server raises
// metadata.generation when the annotations or the spec change. RollbackTo
// stands for the annotation, so clearing it counts as that change.
// Upstream: updateDeploymentAndClearRollbackTo.
func (p *planner[T]) clearRollback() {
	if p.cur.Generation == math.MaxInt64 {
		p.fail(fmt.Errorf("rollout: Deployment %q: metadata.generation is %d; the rollback's update would wrap it to %d, which the API server rejects: %w",
			p.cur.Name, p.cur.Generation, int64(math.MinInt64), ErrCounterOverflow))
		return
	}
	p.cur.Generation++
	p.cur.RollbackTo = nil
	if _, ok := p.cur.Annotations[revision.RollbackToAnnotation]; ok {
		p.cur.Annotations = maps.Clone(p.cur.Annotations)
		delete(p.cur.Annotations, revision.RollbackToAnnotation)
	}
}

// rolling is one RollingUpdate step. Upstream: rolloutRolling.
func (p *planner[T]) rolling() {
	if !p.syncRevision(true) {
		return
	}
	p.snapshot()
	n := p.newIdx
	R := p.cur.Replicas
	if spec := p.rss[n].Replicas; spec != R {
		var to int32
		var w why
		if spec > R {
			to, w.cause, w.n[4] = R, causeTooMany, int64(R)
		} else {
			var err error
			to, err = newReplicas(p.cur, p.rss, n, p.opts.Surge == SurgeCountsTerminating)
			if err != nil {
				p.note = textWhy(err.Error())
				return
			}
			p.surgeWhy(&w, n)
		}
		if p.scale(n, to, false, w) {
			p.rolloutStatus()
			return
		}
	}
	if p.reconcileOld() {
		p.rolloutStatus()
		return
	}
	if Complete(p.cur, &p.cur.Status) {
		p.cleanupHistory(false)
	}
	p.rolloutStatus()
	if len(p.actions) == 0 && p.note.kind == whyNone {
		p.note = p.waitingWhy()
	}
}

// reconcileOld scales old ReplicaSets down, first the unhealthy ones, and
// reports whether that counts as scaling. Upstream: reconcileOldReplicaSets.
//
// Both of upstream's steps read the ReplicaSets as they were before
// either scaled (the cleanup's result only lowers the sizes the second
// step starts from), so both are computed before any is written.
func (p *planner[T]) reconcileOld() bool {
	n := p.newIdx
	var oldPods int64
	for i := range p.rss {
		if i != n {
			oldPods += int64(p.rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return false
	}
	budget := MaxScaledDown(p.cur, p.rss, n)
	if budget <= 0 {
		p.note = p.waitingWhy()
		return false
	}
	p.sizes = p.sizes[:0]
	for i := range p.rss {
		p.sizes = append(p.sizes, p.rss[i].Replicas)
	}
	// p.rss is oldest first (plan sorted it by byCreation, the order
	// older gives distinct names), but for a ReplicaSet created in this
	// sync, which is the new one, n: the old ones are in order already.
	p.order = p.order[:0]
	for i := range p.rss {
		if i != n {
			p.order = append(p.order, i)
		}
	}
	sizes, order := p.sizes, p.order
	cleaned, err := cleanupUnhealthy(p.rss, n, order, budget, sizes)
	p.cleaned = append(p.cleaned[:0], sizes...)
	var removed int32
	minAvail := MinAvailable(p.cur)
	var available int64
	if err == nil {
		for i := range p.rss {
			if i == n || p.rss[i].Replicas > 0 {
				available += int64(p.rss[i].AvailableReplicas)
			}
		}
		removed, _ = scaleDownOld(p.cur, p.rss, n, order, sizes)
	}
	for _, i := range order {
		if to := p.cleaned[i]; to != p.rss[i].Replicas {
			w := why{cause: causeUnhealthy}
			w.n[4], w.n[5] = int64(p.rss[i].Replicas-p.rss[i].AvailableReplicas), int64(budget)
			p.scale(i, to, false, w)
		}
	}
	if err != nil {
		p.note = textWhy("no old pods scaled down: " + err.Error())
		return false
	}
	for _, i := range order {
		if sizes[i] != p.rss[i].Replicas {
			w := why{cause: causeAvailable}
			w.n[4], w.n[5], w.n[6], w.n[7] = available, int64(minAvail), int64(p.cur.Replicas), int64(MaxUnavailable(p.cur))
			p.scale(i, sizes[i], false, w)
		}
	}
	return cleaned+removed > 0
}

// waitingWhy records why a rolling step moved nothing, as things are now.
func (p *planner[T]) waitingWhy() why {
	s := &p.cur.Status
	if Complete(p.cur, s) {
		return why{kind: whyComplete, n: [8]int64{int64(s.AvailableReplicas), int64(p.cur.Replicas)}}
	}
	n := p.newIdx
	if n < 0 {
		return why{kind: whyNoNew}
	}
	newRS := &p.rss[n]
	var oldPods int64
	for i := range p.rss {
		if i != n {
			oldPods += int64(p.rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return why{kind: whyWaitNew, name: newRS.Name, n: [8]int64{int64(newRS.AvailableReplicas), int64(newRS.Replicas)}}
	}
	return why{kind: whyWaitLimit,
		n: [8]int64{sumSpec(p.rss), int64(newRS.Replicas - newRS.AvailableReplicas), int64(MinAvailable(p.cur))}}
}

func sumSpec[T any](rss []ReplicaSet[T]) int64 {
	var s int64
	for i := range rss {
		s += int64(rss[i].Replicas)
	}
	return s
}

// recreate is one Recreate step. Upstream: rolloutRecreate.
func (p *planner[T]) recreate() {
	if !p.syncRevision(false) {
		return
	}
	p.snapshot()
	scaled := false
	for i := range p.rss {
		if i != p.newIdx && p.rss[i].Replicas > 0 {
			if p.scale(i, 0, false, why{cause: causeRecreateOff}) {
				scaled = true
			}
		}
	}
	if scaled {
		p.rolloutStatus()
		return
	}
	if running, n := p.oldPodsRunning(); running {
		p.note = why{kind: whyOldRunning, n: [8]int64{n}}
		p.rolloutStatus()
		return
	}
	if p.opts.Surge == SurgeCountsTerminating {
		var term int64
		for i := range p.rss {
			term += int64(terminating(&p.rss[i]))
		}
		var spec int64
		if p.newIdx >= 0 {
			spec = int64(p.rss[p.newIdx].Replicas)
		}
		if term > 0 && spec < int64(p.cur.Replicas) {
			p.note = why{kind: whyTermStart, n: [8]int64{term}}
			p.rolloutStatus()
			return
		}
	}
	if p.newIdx < 0 {
		if !p.syncRevision(true) {
			return
		}
		p.snapshot()
	}
	p.scale(p.newIdx, p.cur.Replicas, false, why{cause: causeRecreateOn})
	if Complete(p.cur, &p.cur.Status) {
		p.cleanupHistory(false)
	}
	p.rolloutStatus()
	if len(p.actions) == 0 && p.note.kind == whyNone {
		p.note = p.waitingWhy()
	}
}

// oldPodsRunning reports whether old ReplicaSets still have pods, running
// or terminating, and how many. Upstream: oldPodsRunning (which reads
// pods; a ReplicaSet's status.replicas plus status.terminatingReplicas
// stands in for them here).
func (p *planner[T]) oldPodsRunning() (bool, int64) {
	var n int64
	for i := range p.rss {
		if i != p.newIdx {
			n += int64(p.rss[i].StatusReplicas) + int64(terminating(&p.rss[i]))
		}
	}
	return n > 0, n
}

// cleanupHistory deletes old ReplicaSets beyond the revision history
// limit. Upstream: cleanupDeployment.
//
// Upstream sorts the old ReplicaSets with ReplicaSetsByRevision, which is
// not a strict order when a revision does not parse, so the order the
// sort starts from matters: oldest first on the rolling and Recreate
// paths (FindOldReplicaSets' order), newest first on the paused path
// (newestFirst), where scale() has just had FindActiveOrLatest sort them
// so in place. revision.ToCleanUp starts from the order it is given.
func (p *planner[T]) cleanupHistory(newestFirst bool) {
	limit, ok := p.cur.HistoryLimit()
	if !ok {
		return
	}
	// The ReplicaSets as they were before this sync scaled: the snapshot
	// when there is one.
	var base []ReplicaSet[T]
	preNew := p.preNew
	if p.hasPre {
		base = p.swapPre()
		defer p.swapPre()
	} else {
		base = p.rss
		preNew = -1
	}
	// Nothing to delete when no more old ReplicaSets can go than the
	// limit keeps (ToCleanUp's first test, without its allocation).
	cleanable := 0
	for i := range base {
		if i != preNew && !base[i].Deleting {
			cleanable++
		}
	}
	if cleanable <= max(int(limit), 0) {
		return
	}
	// base is oldest first (plan sorted it); view is the starting order,
	// order[k] the index in base of view[k].
	view := base
	newInView := preNew
	p.order = p.order[:0]
	for k := range base {
		p.order = append(p.order, k)
	}
	if newestFirst {
		p.view = p.view[:0]
		newInView = -1
		for k := range base {
			i := len(base) - 1 - k
			p.order[k] = i
			p.view = append(p.view, base[i])
			if i == preNew {
				newInView = k
			}
		}
		view = p.view
	}
	for _, k := range revision.ToCleanUp(view, newInView, &limit, p.opts.Cleanup) {
		i := p.order[k]
		p.markDeleted(i)
		rev := base[i].Annotations[revision.RevisionAnnotation]
		p.act(DeleteReplicaSet, base[i].Name, 0, 0, why{kind: whyDeleted, name: base[i].Name, s: rev, n: [8]int64{int64(limit)}})
	}
	if newestFirst {
		clear(p.view) // drop the templates' references
	}
}

// markDeleted records that rss[i] is deleted.
func (p *planner[T]) markDeleted(i int) {
	for len(p.deleted) < len(p.rss) {
		p.deleted = append(p.deleted, false)
	}
	p.deleted[i] = true
	p.anyDeleted = true
}

// deploymentStatus writes the status without progress estimation.
// Upstream: syncDeploymentStatus.
func (p *planner[T]) deploymentStatus() {
	rss, newRS := p.preView()
	p.cur.Status = calculateStatus(p.cur, rss, newRS, p.now, p.st)
	p.endPreView()
}

// rolloutStatus writes the status with progress estimation, or requeues a
// stuck deployment whose status did not change. Upstream: syncRolloutStatus.
func (p *planner[T]) rolloutStatus() {
	rss, newRS := p.preView()
	s := rolloutStatus(p.cur, rss, newRS, p.now, p.st)
	p.endPreView()
	if equalStatus(&p.cur.Status, &s) {
		if after, ok := Requeue(p.cur, &s, p.now); ok {
			p.requeue, p.requeueAfter = true, after
		}
	}
	p.cur.Status = s
}

// preView returns the ReplicaSets as they were before this sync scaled,
// and the new one's index among them (none without a snapshot); call
// endPreView when done.
func (p *planner[T]) preView() ([]ReplicaSet[T], int) {
	if !p.hasPre {
		return nil, -1
	}
	return p.swapPre(), p.preNew
}

func (p *planner[T]) endPreView() {
	if p.hasPre {
		p.swapPre()
	}
}

// result fills out with the sync: the ReplicaSets without deleted ones
// (compacted in place), the deployment, and the rest. Reasons are left to
// Explain.
func (p *planner[T]) result(out *Sync[T]) {
	out.Path, out.Actions, out.NewReplicaSet, out.Hash = p.path, p.actions, -1, p.hash
	out.Requeue, out.RequeueAfter, out.Reason = p.requeue, p.requeueAfter, ""
	k := 0
	for i := range p.rss {
		if p.anyDeleted && i < len(p.deleted) && p.deleted[i] {
			continue
		}
		if i == p.newIdx {
			out.NewReplicaSet = k
		}
		if k != i {
			p.rss[k] = p.rss[i]
		}
		k++
	}
	clear(p.rss[k:])
	p.rss = p.rss[:k]
	if p.rss == nil {
		p.rss = []ReplicaSet[T]{} // as PlanWith: never nil
	}
	out.ReplicaSets = p.rss
	if len(p.actions) == 0 {
		out.Actions = nil // as PlanWith: nil when nothing is written
	}
}

// replicasAnnotationIs reports whether ann[key] is there and is
// proportion.FormatReplicas(n), without allocating.
func replicasAnnotationIs(ann map[string]string, key string, n int32) bool {
	var b [12]byte
	old, ok := ann[key]
	return ok && string(strconv.AppendInt(b[:0], int64(n), 10)) == old
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
