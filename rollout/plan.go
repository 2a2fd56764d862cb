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
	// (revision, revision-history, copied deployment annotations).
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
	// spec.replicas changed has Generation raised by one; a created one has
	// Generation 1, CreationTime now, no UID and no status, and its
	// Template is the deployment's as is: a caller writing it to a cluster
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
// Errors: a d or ReplicaSet the API server would reject is reported as an
// *InvalidError (wrapping ErrInvalid); two ReplicaSets with the same name
// give an error wrapping both ErrInvalid and proportion.ErrDuplicate,
// worded as proportion words it:
//
//	rollout: rss[3].Name: "web-1" duplicates rss[1].Name
//
// A d.Template that does not equal a copy of itself (revision.EqualsItself:
// it holds a NaN float or a non-nil func where EqualIgnoreHash compares
// field by field) is an *InvalidError too: no ReplicaSet would ever match
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
	if errs := validate(d); len(errs) > 0 {
		name := ""
		if d != nil {
			name = d.Name
		}
		return Sync[T]{}, &InvalidError{Kind: "Deployment", Name: name, Errs: errs}
	}
	if err := checkNames(rss); err != nil {
		return Sync[T]{}, err
	}
	if s, done, err := planSelector(d, rss); done {
		return s, err
	}
	p := &planner[T]{in: d, cur: *d, opts: opts, now: now}
	p.rss = append(make([]ReplicaSet[T], 0, len(rss)+1), rss...)
	// Upstream's first step (FindNewReplicaSet) sorts the list oldest
	// first, so every later order starts from there, whatever order the
	// informer listed them in.
	slices.SortFunc(p.rss, byCreation[T])
	for i := range p.rss {
		if errs := validateReplicaSet(&p.rss[i]); len(errs) > 0 {
			return Sync[T]{}, &InvalidError{Kind: "ReplicaSet", Name: p.rss[i].Name, Errs: errs}
		}
	}
	p.newIdx = -1
	if i, ok := revision.FindNew(&d.Template, p.rss); ok {
		p.newIdx = i
	} else if err := templateEqualsItself(d); err != nil {
		return Sync[T]{}, err
	}
	p.run()
	if p.err != nil {
		return Sync[T]{}, p.err
	}
	return p.result(), nil
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
			return &InvalidError{Kind: "ReplicaSet", Name: rss[i].Name, Errs: errs}
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

// checkNames returns a *duplicateError for the first ReplicaSet, in rss
// order, whose name an earlier one already has, and nil when the names
// are distinct. A namespace holds one ReplicaSet per name, so a second one
// can only be a caller's mistake (the same object listed twice, or two
// clusters mixed up); the controller's per-name bookkeeping (upstream's
// scale keeps its sizes in a map by name) would merge the two.
func checkNames[T any](rss []ReplicaSet[T]) error {
	if len(rss) < 2 {
		return nil
	}
	seen := make(map[string]int, len(rss))
	for j := range rss {
		if i, ok := seen[rss[j].Name]; ok {
			return &duplicateError{name: rss[j].Name, first: i, second: j}
		}
		seen[rss[j].Name] = j
	}
	return nil
}

// duplicateError reports two ReplicaSets with the same name, in the words
// of package proportion's duplicate check:
//
//	rollout: rss[3].Name: "web-1" duplicates rss[1].Name
//
// It wraps both ErrInvalid and proportion.ErrDuplicate.
type duplicateError struct {
	name          string
	first, second int
}

func (e *duplicateError) Error() string {
	return fmt.Sprintf("rollout: rss[%d].Name: %q duplicates rss[%d].Name", e.second, e.name, e.first)
}

func (e *duplicateError) Unwrap() []error { return []error{ErrInvalid, proportion.ErrDuplicate} }

// ErrCounterOverflow is wrapped by the error Plan and Simulate return when
// the sync would raise a counter that is already at the top of its
// range: status.collisionCount at math.MaxInt32 when the new ReplicaSet's
// name collides again, or metadata.generation at math.MaxInt64 of the
// deployment (the update that ends a rollback) or of a ReplicaSet whose
// spec.replicas changes. Upstream's arithmetic wraps the counter to its
// minimum and the API server rejects the write (a negative
// collisionCount, or a generation that is decremented), so the controller
// retries the same sync forever and never gets past it. Plan returns this
// error, with a zero Sync, rather than a write that Validate rejects; a
// caller can only reset the counter (recreate the object) or remove the
// colliding ReplicaSet.
var ErrCounterOverflow = errors.New("counter overflow")

// planner carries one sync's working state.
type planner[T any] struct {
	in   *Deployment[T]  // the input, read only
	cur  Deployment[T]   // the deployment as the sync changes it in memory
	rss  []ReplicaSet[T] // the ReplicaSets as the sync changes them
	pre  []ReplicaSet[T] // the ReplicaSets before this sync's scaling, for the status
	opts Options
	now  time.Time

	newIdx, preNew int
	// pendingAnn, when not nil, holds the annotations of the new
	// ReplicaSet as upstream's in-memory copy has them but the cluster
	// does not yet: the next write of that ReplicaSet carries them.
	pendingAnn   map[string]string
	path         Path
	actions      []Action
	deleted      []bool
	hash         string
	requeue      bool
	requeueAfter time.Duration
	note         string // why nothing moved, when no action explains it
	err          error  // a counter that would overflow (ErrCounterOverflow); the sync's result is void
}

func (p *planner[T]) run() {
	d := p.in
	if d.Deleting {
		p.path = PathDeleting
		if p.syncRevision(false) {
			p.snapshot()
			p.deploymentStatus()
		}
		p.note = "deployment is being deleted: status only"
		return
	}
	if conds, changed := PausedConditions(&p.cur, p.now); changed {
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

// snapshot records the ReplicaSets as they are before this sync scales.
func (p *planner[T]) snapshot() {
	p.pre = append(p.pre[:0], p.rss...)
	p.preNew = p.newIdx
}

// syncRevision finds or (with create) creates the new ReplicaSet and syncs
// revisions between it and the deployment. It returns false when the sync
// must stop (a hash collision). Upstream: getAllReplicaSetsAndSyncRevision.
func (p *planner[T]) syncRevision(create bool) bool {
	newRevision := strconv.FormatInt(revision.NextRevision(p.rss, p.newIdx), 10)
	_, hasDeadline := p.cur.ProgressDeadline()
	if p.newIdx >= 0 {
		rs := &p.rss[p.newIdx]
		ann, changed := revision.NewAnnotations(revision.AnnotationsInput{
			Deployment: p.cur.Annotations, ReplicaSet: rs.Annotations, Revision: newRevision, Exists: true,
		})
		if changed {
			old := rs.Annotations[revision.RevisionAnnotation]
			rs.Annotations = ann
			p.act(AnnotateReplicaSet, rs.Name, rs.Replicas, rs.Replicas, fmt.Sprintf("updated annotations of new ReplicaSet %s (revision %s -> %s)", rs.Name, orNone(old), ann[revision.RevisionAnnotation]))
			return true
		}
		if !maps.Equal(ann, rs.Annotations) {
			// A revision that does not parse: upstream has already copied
			// the deployment's annotations onto its in-memory copy of the
			// ReplicaSet, does not update it for them, but scales that
			// copy later in the sync, which persists them.
			p.pendingAnn = ann
		}
		p.setRevision(rs.Annotations[revision.RevisionAnnotation])
		if _, ok := FindCondition(p.cur.Status.Conditions, DeploymentProgressing); hasDeadline && !ok {
			p.cur.Status.Conditions = SetCondition(p.cur.Status.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonFoundNewReplicaSet, fmt.Sprintf("Found new replica set %q", rs.Name), p.now))
		}
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
			p.act(CountCollision, name, 0, 0, fmt.Sprintf("hash collision: ReplicaSet %s exists with another template; collisionCount %d -> %d, new name next sync", name, cc, next))
			p.requeue, p.requeueAfter = true, 0
			return false
		}
	}
	size, err := newReplicas(&p.cur, p.rss, -1, p.opts.Surge == SurgeCountsTerminating)
	if err != nil {
		// Unreachable for a validated deployment; keep the sync a no-op.
		p.note = err.Error()
		return false
	}
	ann, _ := revision.NewAnnotations(revision.AnnotationsInput{
		Deployment: p.cur.Annotations, Revision: newRevision, Replicas: p.cur.Replicas, MaxReplicas: maxTotal(&p.cur),
	})
	p.rss = append(p.rss, ReplicaSet[T]{
		Name:         name,
		CreationTime: p.now,
		Annotations:  ann,
		Template:     p.cur.Template,
		Replicas:     size,
		Generation:   1,
	})
	p.newIdx = len(p.rss) - 1
	p.hash = hash
	p.act(CreateReplicaSet, name, 0, size, fmt.Sprintf("created new ReplicaSet %s (revision %s) at %d: %s", name, newRevision, size, p.createWhy()))
	p.setRevision(newRevision)
	if hasDeadline {
		p.cur.Status.Conditions = SetCondition(p.cur.Status.Conditions, NewCondition(DeploymentProgressing, ConditionTrue, ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", name), p.now))
	}
	return true
}

// createWhy explains the size of a ReplicaSet being created.
func (p *planner[T]) createWhy() string {
	if p.cur.strategy() == Recreate {
		return fmt.Sprintf("Recreate starts all %d pods once the old ones are gone", p.cur.Replicas)
	}
	return p.surgeWhy(p.newIdx)
}

// surgeWhy explains a rolling scale-up of the new ReplicaSet rss[newIdx].
func (p *planner[T]) surgeWhy(newIdx int) string {
	var total int64
	var term int64
	for i := range p.rss {
		if i == newIdx {
			continue
		}
		total += int64(p.rss[i].Replicas)
		term += int64(terminating(&p.rss[i]))
	}
	s := fmt.Sprintf("%d pods allowed (%s), %d in other ReplicaSets", maxTotal(&p.cur), ceilingSum(&p.cur), total)
	if p.opts.Surge == SurgeCountsTerminating && term > 0 {
		s += fmt.Sprintf(" and %d terminating", term)
	}
	return s
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

func (p *planner[T]) act(kind ActionKind, name string, from, to int32, reason string) {
	p.actions = append(p.actions, Action{Kind: kind, ReplicaSet: name, From: from, To: to, Reason: reason})
}

// scale sets rss[i] to size. Lazy (force false): nothing when the size is
// already right. Otherwise the ReplicaSet is written when its size or its
// replicas annotations differ, and both annotations are set. It reports
// whether the size changed. Upstream: scaleReplicaSetAndRecordEvent and
// scaleReplicaSet.
func (p *planner[T]) scale(i int, size int32, force bool, why string) bool {
	rs := &p.rss[i]
	if !force && rs.Replicas == size {
		return false
	}
	desired, maxReplicas := p.cur.Replicas, maxTotal(&p.cur)
	sizeChanged := rs.Replicas != size
	if !sizeChanged && !proportion.AnnotationsNeedUpdate(proportionReplicaSet(rs), desired, maxReplicas) {
		return false
	}
	base := rs.Annotations
	if i == p.newIdx && p.pendingAnn != nil {
		base, p.pendingAnn = p.pendingAnn, nil
	}
	ann := maps.Clone(base)
	if ann == nil {
		ann = map[string]string{}
	}
	ann[revision.DesiredReplicasAnnotation] = proportion.FormatReplicas(desired)
	ann[revision.MaxReplicasAnnotation] = proportion.FormatReplicas(maxReplicas)
	rs.Annotations = ann
	from := rs.Replicas
	var reason string
	switch {
	case size > from:
		reason = fmt.Sprintf("scaled up %s from %d to %d: %s", p.describe(i), from, size, why)
	case size < from:
		reason = fmt.Sprintf("scaled down %s from %d to %d: %s", p.describe(i), from, size, why)
	default:
		reason = fmt.Sprintf("refreshed replicas annotations of %s (desired %d, max %d)", p.describe(i), desired, maxReplicas)
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
	p.act(ScaleReplicaSet, rs.Name, from, size, reason)
	return sizeChanged
}

// describe names rss[i] as new or old.
func (p *planner[T]) describe(i int) string {
	if i == p.newIdx {
		return "new ReplicaSet " + p.rss[i].Name
	}
	return "old ReplicaSet " + p.rss[i].Name
}

// proportionInputs converts the ReplicaSets for the proportion package.
func (p *planner[T]) proportionInputs() (proportion.Deployment, []proportion.ReplicaSet) {
	pd := proportion.Deployment{
		Replicas:       p.cur.Replicas,
		MaxSurge:       MaxSurge(&p.cur),
		StatusReplicas: p.cur.Status.Replicas,
		RollingUpdate:  p.cur.strategy() == RollingUpdate,
	}
	prs := make([]proportion.ReplicaSet, len(p.rss))
	for i := range p.rss {
		prs[i] = proportionReplicaSet(&p.rss[i])
	}
	return pd, prs
}

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation differs from R. Upstream: isScalingEvent (it first syncs the
// revision without creating; that runs again in the branch taken).
func (p *planner[T]) isScalingEvent() bool {
	pd, prs := p.proportionInputs()
	return proportion.IsScalingEvent(pd, prs)
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
	if len(p.actions) == 0 && p.note == "" {
		if p.in.Paused {
			p.note = "paused: no rollout step until resumed"
		} else {
			p.note = "scaling event: nothing to resize"
		}
	}
}

// proportional resizes the ReplicaSets after a change of R. Upstream: scale.
func (p *planner[T]) proportional() {
	pd, prs := p.proportionInputs()
	res, err := proportion.Scale(pd, prs, p.newIdx, p.opts.Proportion)
	if err != nil {
		p.note = "proportional scaling failed: " + err.Error()
		return
	}
	if p.opts.Surge == SurgeCountsTerminating {
		var before, after, term int64
		for i := range p.rss {
			before += int64(p.rss[i].Replicas)
			after += int64(res.Targets[i].Replicas)
			term += int64(terminating(&p.rss[i]))
		}
		if after > before && after+term > int64(maxTotal(&p.cur)) {
			p.note = fmt.Sprintf("waiting for %d terminating pods before scaling up to %d (limit %d = %s)", term, after, maxTotal(&p.cur), ceilingSum(&p.cur))
			return
		}
	}
	var from int64
	for i := range p.rss {
		if p.rss[i].Replicas > 0 {
			from += int64(p.rss[i].Replicas)
		}
	}
	why := fmt.Sprintf("proportional share after resize to %d (%d pods allowed%s, %d before)", p.cur.Replicas, maxTotal(&p.cur), ceilingNote(&p.cur), from)
	// Write in the order upstream's scale() visits the ReplicaSets:
	// res.Order (largest first, the direction deciding ties; old newest
	// first then new when nothing is added; the saturated case's old
	// ones newest first).
	written := make([]bool, len(p.rss))
	for _, i := range res.Order {
		if t := res.Targets[i]; t.Annotate || t.Replicas != p.rss[i].Replicas {
			p.scale(i, t.Replicas, true, why)
			written[i] = true
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
		if written[i] || rs.Replicas == 0 {
			continue
		}
		if v, ok := proportion.DesiredAnnotation(proportionReplicaSet(rs)); ok && v != p.cur.Replicas {
			p.scale(i, rs.Replicas, true, "")
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
			p.act(SkipRollback, "", 0, 0, "rollback skipped: Unable to find last revision.")
			return
		}
	}
	// RollbackTarget orders the candidates as upstream does (old ones
	// oldest first, then the new one), whatever the order of p.rss.
	r := revision.RollbackTarget(&p.cur.Template, p.rss, target)
	switch r.Outcome {
	case revision.RollbackUnchanged:
		rs := &p.rss[r.Index]
		p.act(SkipRollback, rs.Name, rs.Replicas, rs.Replicas, fmt.Sprintf("rollback skipped: The rollback revision contains the same template as current deployment %q", p.cur.Name))
	case revision.RolledBack:
		rs := &p.rss[r.Index]
		p.cur.Template = revision.WithoutHashLabel(&rs.Template)
		p.cur.Annotations = revision.RollbackAnnotations(p.cur.Annotations, rs.Annotations)
		delete(p.cur.Annotations, revision.RollbackToAnnotation)
		p.act(RollBack, rs.Name, rs.Replicas, rs.Replicas, fmt.Sprintf("Rolled back deployment %q to revision %d (template of ReplicaSet %s)", p.cur.Name, target, rs.Name))
	default:
		p.act(SkipRollback, "", 0, 0, fmt.Sprintf("rollback skipped: Unable to find the revision to rollback to (revision %d).", target))
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
		var why string
		if spec > R {
			to, why = R, fmt.Sprintf("more than the %d desired replicas", R)
		} else {
			var err error
			to, err = newReplicas(&p.cur, p.rss, n, p.opts.Surge == SurgeCountsTerminating)
			if err != nil {
				p.note = err.Error()
				return
			}
			why = p.surgeWhy(n)
		}
		if p.scale(n, to, false, why) {
			p.rolloutStatus()
			return
		}
	}
	if p.reconcileOld() {
		p.rolloutStatus()
		return
	}
	if Complete(&p.cur, &p.cur.Status) {
		p.cleanupHistory(false)
	}
	p.rolloutStatus()
	if len(p.actions) == 0 && p.note == "" {
		p.note = p.waitingWhy()
	}
}

// reconcileOld scales old ReplicaSets down, first the unhealthy ones, and
// reports whether that counts as scaling. Upstream: reconcileOldReplicaSets.
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
	budget := MaxScaledDown(&p.cur, p.rss, n)
	if budget <= 0 {
		p.note = p.waitingWhy()
		return false
	}
	base := append([]ReplicaSet[T](nil), p.rss...)
	sizes := make([]int32, len(base))
	for i := range base {
		sizes[i] = base[i].Replicas
	}
	order := oldestOrder(base, n)
	cleaned, err := cleanupUnhealthy(base, n, order, budget, sizes)
	for _, i := range order {
		if sizes[i] != p.rss[i].Replicas {
			unhealthy := base[i].Replicas - base[i].AvailableReplicas
			p.scale(i, sizes[i], false, fmt.Sprintf("removing unavailable pods first (%d of its pods unavailable, %d old pods may go)", unhealthy, budget))
		}
	}
	if err != nil {
		p.note = "no old pods scaled down: " + err.Error()
		return false
	}
	minAvail := MinAvailable(&p.cur)
	var available int64
	for i := range base {
		if i == n || base[i].Replicas > 0 {
			available += int64(base[i].AvailableReplicas)
		}
	}
	removed, _ := scaleDownOld(&p.cur, base, n, order, sizes)
	for _, i := range order {
		if sizes[i] != p.rss[i].Replicas {
			p.scale(i, sizes[i], false, fmt.Sprintf("%d pods available, at least %d must stay available (%d - maxUnavailable %d)", available, minAvail, p.cur.Replicas, MaxUnavailable(&p.cur)))
		}
	}
	return cleaned+removed > 0
}

// waitingWhy explains why a rolling step moved nothing.
func (p *planner[T]) waitingWhy() string {
	s := &p.cur.Status
	if Complete(&p.cur, s) {
		return fmt.Sprintf("rollout complete: %d of %d pods updated and available", s.AvailableReplicas, p.cur.Replicas)
	}
	n := p.newIdx
	if n < 0 {
		return "waiting: no new ReplicaSet"
	}
	newRS := &p.rss[n]
	var oldPods int64
	for i := range p.rss {
		if i != n {
			oldPods += int64(p.rss[i].Replicas)
		}
	}
	if oldPods == 0 {
		return fmt.Sprintf("waiting for new ReplicaSet %s: %d of %d pods available", newRS.Name, newRS.AvailableReplicas, newRS.Replicas)
	}
	return fmt.Sprintf("waiting: %d pods at the limit of %d (%s) and no old pod may go (%d new pods unavailable, at least %d must stay available)",
		sumSpec(p.rss), maxTotal(&p.cur), ceilingSum(&p.cur), newRS.Replicas-newRS.AvailableReplicas, MinAvailable(&p.cur))
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
			if p.scale(i, 0, false, "Recreate stops every old pod before starting new ones") {
				scaled = true
			}
		}
	}
	if scaled {
		p.rolloutStatus()
		return
	}
	if running, n := p.oldPodsRunning(); running {
		p.note = fmt.Sprintf("waiting for %d old pods to stop before starting the new ReplicaSet", n)
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
			p.note = fmt.Sprintf("waiting for %d terminating pods before starting new pods", term)
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
	p.scale(p.newIdx, p.cur.Replicas, false, "Recreate starts all pods once the old ones are gone")
	if Complete(&p.cur, &p.cur.Status) {
		p.cleanupHistory(false)
	}
	p.rolloutStatus()
	if len(p.actions) == 0 && p.note == "" {
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
	base := p.pre
	if base == nil {
		base = p.rss
	}
	// base is oldest first (PlanWith sorted it); view is the starting
	// order, order[k] the index in base of view[k].
	order := make([]int, len(base))
	view := make([]ReplicaSet[T], len(base))
	newInView := -1
	for k := range base {
		i := k
		if newestFirst {
			i = len(base) - 1 - k
		}
		order[k], view[k] = i, base[i]
		if i == p.preNew {
			newInView = k
		}
	}
	for _, k := range revision.ToCleanUp(view, newInView, &limit, p.opts.Cleanup) {
		i := order[k]
		if p.deleted == nil {
			p.deleted = make([]bool, len(p.rss))
		}
		p.deleted[i] = true
		rev := base[i].Annotations[revision.RevisionAnnotation]
		p.act(DeleteReplicaSet, base[i].Name, 0, 0, fmt.Sprintf("deleted old ReplicaSet %s (revision %s): more than revisionHistoryLimit %d old ReplicaSets", base[i].Name, orNone(rev), limit))
	}
}

// deploymentStatus writes the status without progress estimation.
// Upstream: syncDeploymentStatus.
func (p *planner[T]) deploymentStatus() {
	p.cur.Status = CalculateStatus(&p.cur, p.pre, p.preNew, p.now)
}

// rolloutStatus writes the status with progress estimation, or requeues a
// stuck deployment whose status did not change. Upstream: syncRolloutStatus.
func (p *planner[T]) rolloutStatus() {
	s := RolloutStatus(&p.cur, p.pre, p.preNew, p.now)
	if equalStatus(&p.cur.Status, &s) {
		if after, ok := Requeue(&p.cur, &s, p.now); ok {
			p.requeue, p.requeueAfter = true, after
		}
	}
	p.cur.Status = s
}

func (p *planner[T]) result() Sync[T] {
	out := Sync[T]{Path: p.path, Actions: p.actions, Deployment: p.cur, NewReplicaSet: -1, Hash: p.hash, Requeue: p.requeue, RequeueAfter: p.requeueAfter}
	out.ReplicaSets = make([]ReplicaSet[T], 0, len(p.rss))
	for i := range p.rss {
		if p.deleted != nil && i < len(p.deleted) && p.deleted[i] {
			continue
		}
		if i == p.newIdx {
			out.NewReplicaSet = len(out.ReplicaSets)
		}
		out.ReplicaSets = append(out.ReplicaSets, p.rss[i])
	}
	reasons := make([]string, 0, len(p.actions)+1)
	for _, a := range p.actions {
		reasons = append(reasons, a.Reason)
	}
	if p.note != "" {
		reasons = append(reasons, p.note)
	}
	out.Reason = strings.Join(reasons, "; ")
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
