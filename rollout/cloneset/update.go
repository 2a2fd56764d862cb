package cloneset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// UpdateBranch is where kruise's Update ended in one reconcile.
type UpdateBranch uint8

// The ends of Update, in the order kruise reaches them.
const (
	// UpdateOnDelete: the strategy is OnDelete; Update does nothing, not
	// even the lifecycle bookkeeping.
	UpdateOnDelete UpdateBranch = iota + 1
	// UpdateRefreshed: the bookkeeping moved at least one pod's lifecycle
	// state; kruise returns and updates nothing this round.
	UpdateRefreshed
	// UpdatePaused: the strategy is paused; nothing is updated (scaling
	// goes on, without surge).
	UpdatePaused
	// UpdateNothing: the update-step diffs ask for no move (UpdateNum 0).
	UpdateNothing
	// UpdatePods: the candidates within the budget were processed (there
	// may be none).
	UpdatePods
	// UpdateFailed: kruise's Update returned an error (see
	// UpdateDecision.Failure), recorded in the FailedUpdate condition;
	// the actions before the failure stand.
	UpdateFailed
)

// String returns the branch's name, e.g. "UpdatePods".
func (b UpdateBranch) String() string {
	switch b {
	case UpdateOnDelete:
		return "UpdateOnDelete"
	case UpdateRefreshed:
		return "UpdateRefreshed"
	case UpdatePaused:
		return "UpdatePaused"
	case UpdateNothing:
		return "UpdateNothing"
	case UpdatePods:
		return "UpdatePods"
	case UpdateFailed:
		return "UpdateFailed"
	}
	return "UpdateBranch(" + strconv.Itoa(int(b)) + ")"
}

// UpdateDecision is what kruise's Update does in one reconcile.
type UpdateDecision struct {
	// Branch is where Update ended.
	Branch UpdateBranch `json:"branch"`
	// Modified says the bookkeeping moved a lifecycle state (Branch
	// UpdateRefreshed).
	Modified bool `json:"modified,omitempty"`
	// Diffs are the update-step diffs; zero unless Branch is
	// UpdateNothing, UpdatePods or an UpdateFailed reached while updating.
	Diffs Diffs `json:"diffs"`
	// Target is the revision pods move to: the update revision, or the
	// current one for a rollback (Diffs.UpdateNum < 0).
	Target string `json:"target,omitempty"`
	// Candidates are the pods that may move, in update order (names).
	Candidates []string `json:"candidates,omitempty"`
	// Chosen is the prefix of Candidates within the budget: the pods
	// Update acts on this round (an action is written for each, except a
	// pod that waits for its inPlaceUpdate hook or is already marked for
	// deletion). It shares Candidates' memory (capacity clipped to its
	// length): writing a name into one writes it into the other.
	Chosen []string `json:"chosen,omitempty"`
	// Actions are the writes, in kruise's order: the bookkeeping of every
	// pod (by name), then the chosen pods in update order. Their kinds
	// are SetPodLifecycle, SetPodInPlaceUpdateReady, ApplyHeldPodUpdate,
	// DropHeldPodUpdate, RecreatePod and UpdatePodInPlace; Plan puts them
	// in its Sync as they are.
	Actions []Action `json:"actions,omitempty"`
	// Requeue is the shortest positive delay Update asks for (a grace
	// period running out, or a held update's grace period), or 0.
	Requeue time.Duration `json:"requeue,omitempty"`
	// Failure is the error kruise's Update returns (recorded in the
	// FailedUpdate condition) when Branch is UpdateFailed, else "".
	Failure string `json:"failure,omitempty"`
}

// Update returns what kruise's Update does to cs's pods in one reconcile:
//
//  1. Strategy OnDelete: nothing (UpdateOnDelete).
//  2. Bookkeeping of every active pod, by name: an in-place update held
//     for its grace period is applied once the grace period has passed
//     since InPlaceUpdate.UpdateTime (else Requeue is set to the rest,
//     rounded up to a second), or dropped if the pod's revision no longer
//     matches it; a pod whose in-place update is over gets
//     InPlaceUpdateReady True (only a pod that has the condition, False or
//     Unknown, is written: a pod without it is taken to lack the readiness
//     gate); then [RefreshLifecycle]. If any lifecycle state moved, Update
//     stops (UpdateRefreshed): kruise updates nothing in a round that
//     changed a lifecycle. A held update without an InPlaceUpdate record
//     is kruise's error.
//  3. Paused: stop (UpdatePaused).
//  4. The update-step diffs ([CalculateDiffs]); UpdateNum 0 stops
//     (UpdateNothing).
//  5. [UpdateCandidates], in [SortUpdateIndexes] order (opts.UpdateOrder),
//     cut by [LimitUpdateIndexes]; each chosen pod in order:
//     - ReCreate (or ""): RecreatePod, unless already marked.
//     - InPlaceIfPossible and InPlaceOnly: the in-place diff from the
//     first revision (in [SortRevisions] order) the pod matches to the
//     target: the template type's [InPlaceDiffer] when T implements it,
//     else [CalculateInPlaceUpdate] on the revisions' Data (a target
//     whose template is not shaped like a corev1.PodTemplateSpec cannot
//     be diffed: InPlaceIfPossible recreates the pod with a reason that
//     says so, InPlaceOnly is an input error). When possible, by lifecycle state: "", PreparingNormal
//     or Normal with the inPlaceUpdate hook on the pod moves to
//     PreparingUpdate and waits; Updated moves to PreparingUpdate with
//     the hook put back (nothing if there is no hook); PreparingUpdate
//     still hooked waits; otherwise (and for Updating) UpdatePodInPlace,
//     with the strategy's grace period (which also sets Requeue). When
//     not possible, or the pod's revision is not in revisions:
//     InPlaceIfPossible falls back to RecreatePod, InPlaceOnly
//     fails with "find Pod <name> update strategy is InPlaceOnly but can
//     not update in-place", stopping the loop. A pod in a lifecycle state
//     kruise does not know fails with "not allowed to in-place update pod
//     <name> in state <state>".
//
// revisions are the CloneSet's ControllerRevisions (with Data); they are
// read only for the in-place strategies, which need the target revision
// among them. revs names the current and update revisions. Waiting pods
// still use the budget: they are among Chosen.
//
// Not modelled: the pod-template-hash label kruise adds to pods created
// before kruise v1.1 (every pod is taken to carry it), the
// PodUnavailableBudget gate (off by default), in-place container batches
// and resource resizing, and API errors. The caller skips Update when the
// CloneSet is being deleted or when the scale step modified something
// this round, as kruise does.
//
// Revision data that [CalculateInPlaceUpdate] rejects (not a JSON object,
// an image that is not a string) makes the in-place update impossible, as
// kruise's CanUpdateInPlace does (its TestUpdate case "recreate update 2"):
// the pod is recreated under InPlaceIfPossible, and InPlaceOnly fails.
//
// Errors, with a zero UpdateDecision: those of [CalculateDiffs] and
// [SortUpdateIndexes], bad revisions ([SortRevisions]), an unknown
// strategy type, and, for an in-place strategy with pods to update, a
// target revision missing from revisions or (InPlaceOnly) a template
// type that cannot be diffed in place (*field.Error on
// spec.updateStrategy.type wrapping field.ErrUnsupported; see
// [InPlaceDiffer]). pods and revisions are not modified.
// Upstream: sync.realControl.Update, refreshPodState and updatePod.
func Update[T any](cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, revs Revisions, now time.Time, opts Options) (UpdateDecision, error) {
	if err := checkCloneSet(cs); err != nil {
		return UpdateDecision{}, err
	}
	if err := checkPods(pods); err != nil {
		return UpdateDecision{}, err
	}
	d, _, whys, err := update(cs, pods, revisions, &updateMem{}, revs, now, opts, nil, nil, nil, 0)
	if err != nil {
		return UpdateDecision{}, err
	}
	sc := scene{update: &d, actions: d.Actions, whys: whys}
	sc.explain(nil, nil, false)
	return d, nil
}

// update is Update on a CloneSet and pods already checked (checkCloneSet,
// checkPods); the revisions and the strategy are checked here. The
// actions' reasons are not written: whys[i] holds the facts of
// Actions[i]'s.
//
// The actions and their facts are appended to actions and whys (a
// caller's writes so far, of the same length; both may be nil), which are
// returned with them, so that the update step's writes are made once, in
// the caller's memory: d.Actions is the appended part of allActions (nil
// when there is none), allWhys[len(whys):] their facts.
//
// diffs, when not nil, are the update-step diffs the caller already has
// (the scale step's of the same pods, which are the same unless the
// PreparingUpdateAsUpdate gate is on), so that they are not counted
// again. spare is how many actions the caller appends after the update
// step's: room for them is made with the room for the update step's.
// mem is the memory the step works in (see updateMem); d.Candidates and
// d.Chosen are in it.
func update[T any](cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, mem *updateMem, revs Revisions, now time.Time, opts Options, actions []Action, whys []why, diffs *Diffs, spare int) (d UpdateDecision, allActions []Action, allWhys []why, err error) {
	if mem.revOrder, err = sortRevisionsInto(mem.revOrder, revisions); err != nil {
		return UpdateDecision{}, actions, whys, err
	}
	strategy := cs.UpdateStrategy.Type
	switch strategy {
	case "", ReCreate, InPlaceIfPossible, InPlaceOnly:
	case OnDelete:
		return UpdateDecision{Branch: UpdateOnDelete}, actions, whys, nil
	default:
		return UpdateDecision{}, actions, whys, inputError("spec.updateStrategy.type", "%q: must be ReCreate, InPlaceIfPossible, InPlaceOnly or OnDelete", string(strategy))
	}
	base := len(actions)
	u := updater[T]{cs: cs, pods: pods, revisions: revisions, mem: mem, revs: revs, now: now, opts: opts, actions: actions, whys: whys, diffs: diffs, spare: spare}
	if d, err = u.run(); err != nil {
		return UpdateDecision{}, u.actions, u.whys, err
	}
	d.Actions = nil
	if len(u.actions) > base {
		d.Actions = u.actions[base:len(u.actions):len(u.actions)]
	}
	return d, u.actions, u.whys, nil
}

// updateMem is the memory an update step works in: a Planner keeps it
// from one sync to the next (one per Sync it alternates between), so
// that a sync over as many pods as the last allocates none of it anew.
// The zero value is ready (the step allocates what it needs).
type updateMem struct {
	revOrder []int       // the revisions' order
	cands    []int       // the candidates' indexes, sorted in place
	keys     []updateKey // activeOrder's sort keys
	names    []string    // UpdateDecision.Candidates (and Chosen)
}

// updater carries one Update call.
type updater[T any] struct {
	cs        *CloneSet[T]
	pods      []Pod
	revisions []ControllerRevision
	mem       *updateMem // the revisions' order and the step's scratch
	revs      Revisions
	now       time.Time
	opts      Options
	d         UpdateDecision
	// actions are the caller's writes, then the update step's, and whys
	// their reasons' facts (whys[i] is actions[i]'s); update cuts
	// d.Actions from actions.
	actions []Action
	whys    []why
	diffs   *Diffs // the update-step diffs, when the caller has them
	spare   int    // room for the caller's actions after the update step's
	inPlace map[[2]string]inPlaceCache
	// differ is 1 when T implements InPlaceDiffer, 2 when revision data
	// is diffed as kruise does, 0 before the first in-place decision.
	differ uint8
	// shaped memoises podTemplateShaped by target revision name.
	shaped map[string]bool
	cur    int // the index of the pod the step is deciding (why.pod)
}

// add records an action on the pod u.cur and the facts of its reason.
func (u *updater[T]) add(a Action, w why) {
	w.pod = u.cur
	u.actions = append(u.actions, a)
	u.whys = append(u.whys, w)
}

func (u *updater[T]) requeue(d time.Duration) {
	if d > 0 && (u.d.Requeue == 0 || d < u.d.Requeue) {
		u.d.Requeue = d
	}
}

func (u *updater[T]) fail(msg string) (UpdateDecision, error) {
	u.d.Branch, u.d.Failure = UpdateFailed, msg
	return u.d, nil
}

func (u *updater[T]) run() (UpdateDecision, error) {
	cs := u.cs
	update := u.revs.Update
	var hookNotReady bool
	if cs.Lifecycle != nil && cs.Lifecycle.InPlaceUpdate != nil {
		hookNotReady = cs.Lifecycle.InPlaceUpdate.MarkPodNotReady
	}

	// Bookkeeping, pod by pod, by name: only the pods it acts on (a held
	// update, an InPlaceUpdateReady condition to set, a lifecycle move)
	// are sorted; the others change nothing, whatever their place.
	var byName []int
	for i := range u.pods {
		p := &u.pods[i]
		if !IsPodActive(p) {
			continue
		}
		if _, moved := RefreshLifecycle(cs.Lifecycle, p, update); moved || p.InPlaceUpdateGrace != nil || needsInPlaceUpdateReady(p) {
			byName = append(byName, i)
		}
	}
	slices.SortFunc(byName, func(a, b int) int { return strings.Compare(u.pods[a].Name, u.pods[b].Name) })
	for _, i := range byName {
		p := &u.pods[i]
		u.cur = i
		if g := p.InPlaceUpdateGrace; g != nil {
			if p.InPlaceUpdate == nil {
				return u.fail("pod " + p.Name + " has " + InPlaceUpdateGraceAnnotation + " but " + InPlaceUpdateStateAnnotation + " not found")
			}
			grace := time.Duration(g.GraceSeconds) * time.Second
			switch elapsed := u.now.Sub(p.InPlaceUpdate.UpdateTime); {
			case !IsPodAtRevision(p, g.Revision):
				u.add(Action{Kind: DropHeldPodUpdate, Pod: p.Name, Revision: g.Revision}, why{kind: whyHeldDropped})
			case elapsed < grace:
				u.requeue(roundUpSecond(grace - elapsed))
			default:
				u.add(Action{Kind: ApplyHeldPodUpdate, Pod: p.Name, Revision: g.Revision}, why{kind: whyHeldApplied, graceSeconds: g.GraceSeconds})
			}
		} else if needsInPlaceUpdateReady(p) {
			u.add(Action{Kind: SetPodInPlaceUpdateReady, Pod: p.Name}, why{kind: whyInPlaceReady})
		}
		if to, moved := RefreshLifecycle(cs.Lifecycle, p, update); moved {
			u.d.Modified = true
			u.add(Action{Kind: SetPodLifecycle, Pod: p.Name, From: p.Lifecycle, To: to, MarkNotReady: hookNotReady}, refreshWhy(cs.Lifecycle, p))
		}
	}
	if u.d.Modified {
		u.d.Branch = UpdateRefreshed
		return u.d, nil
	}
	if cs.UpdateStrategy.Paused {
		u.d.Branch = UpdatePaused
		return u.d, nil
	}

	// The CloneSet and pods were checked on the way in.
	var d Diffs
	if u.diffs != nil {
		d = *u.diffs
	} else {
		d = calculateDiffs(cs, u.pods, u.revs, u.now, ForUpdate, u.opts)
	}
	u.d.Diffs = d
	if d.UpdateNum == 0 {
		u.d.Branch = UpdateNothing
		return u.d, nil
	}
	target := update
	if d.UpdateNum < 0 {
		target = u.revs.current()
	}
	u.d.Target = target
	m := u.mem
	cands := updateCandidates(u.pods, update, d.UpdateNum, m.cands)
	if cap(cands) > cap(m.cands) {
		m.cands = cands
	}
	cands, m.keys = sortUpdateIndexesInto(cs.UpdateStrategy, u.pods, cands, cands, m.keys, u.opts.UpdateOrder)
	chosen := LimitUpdateIndexes(u.pods, cands, d.UpdateNum, d.UpdateMaxUnavailable, target, cs.MinReadySeconds, u.now)
	m.names = podNameList(u.pods, cands, m.names)
	u.d.Candidates = m.names
	if k := len(chosen); k > 0 { // chosen is cands[:k]
		u.d.Chosen = u.d.Candidates[:k:k]
	}
	u.d.Branch = UpdatePods
	// At most one action per chosen pod, then the caller's.
	u.actions = slices.Grow(u.actions, len(chosen)+u.spare)
	u.whys = slices.Grow(u.whys, len(chosen)+u.spare)
	for _, i := range chosen {
		u.cur = i
		if failure, err := u.updatePod(&u.pods[i], target, d); err != nil {
			return UpdateDecision{}, err
		} else if failure != "" {
			return u.fail(failure)
		}
	}
	return u.d, nil
}

// needsInPlaceUpdateReady reports whether the bookkeeping sets p's
// InPlaceUpdateReady condition to True: its in-place update is over (or
// there is none) and the condition is there but not True. A pod with a
// held update is not asked (the held update comes first).
func needsInPlaceUpdateReady(p *Pod) bool {
	return (p.InPlaceUpdate == nil || p.InPlaceUpdate.Done) && p.InPlaceUpdateReady != "" && p.InPlaceUpdateReady != ConditionTrue
}

// updatePod decides one chosen pod; it returns kruise's error text, or an
// input error.
func (u *updater[T]) updatePod(p *Pod, target string, d Diffs) (string, error) {
	cs := u.cs
	strategy := cs.UpdateStrategy.Type
	var c inPlaceCache
	if strategy == InPlaceIfPossible || strategy == InPlaceOnly {
		var err error
		if c, err = u.inPlaceFor(p, target); err != nil {
			return "", err
		}
		if c.undiffable && strategy == InPlaceOnly {
			return "", &field.Error{Prefix: "cloneset", Field: "spec.updateStrategy.type", Value: strconv.Quote(string(InPlaceOnly)), Detail: c.note, Err: field.ErrUnsupported}
		}
		if ip := c.ip; ip != nil && ip.Possible {
			var hook *LifecycleHook
			if cs.Lifecycle != nil {
				hook = cs.Lifecycle.InPlaceUpdate
			}
			switch p.Lifecycle {
			case "", PreparingNormal, Normal:
				if hook != nil && podHooked(hook, p) {
					u.add(Action{Kind: SetPodLifecycle, Pod: p.Name, From: p.Lifecycle, To: PreparingUpdate, MarkNotReady: hook.MarkPodNotReady}, why{kind: whyHookWait})
					return "", nil
				}
			case Updated:
				if hook != nil {
					u.add(Action{Kind: SetPodLifecycle, Pod: p.Name, From: Updated, To: PreparingUpdate, AddHook: true, MarkNotReady: hook.MarkPodNotReady}, why{kind: whyHookAgain})
				}
				return "", nil
			case PreparingUpdate:
				if hook != nil && podHooked(hook, p) {
					return "", nil
				}
			case Updating:
			default:
				return fmt.Sprintf("not allowed to in-place update pod %s in state %s", p.Name, p.Lifecycle), nil
			}
			g := cs.UpdateStrategy.InPlaceGracePeriodSeconds
			if g > 0 {
				u.requeue(time.Duration(g) * time.Second)
			}
			u.add(Action{Kind: UpdatePodInPlace, Pod: p.Name, From: p.Lifecycle, To: Updating, Revision: target, InPlace: ip, GraceSeconds: max(g, 0)}, why{kind: whyInPlace})
			return "", nil
		}
		if strategy == InPlaceOnly {
			return "find Pod " + p.Name + " update strategy is InPlaceOnly but can not update in-place", nil
		}
	}
	if IsSpecifiedDelete(p, nil) {
		return "", nil
	}
	w := why{kind: whyRecreate}
	if strategy == InPlaceIfPossible {
		w.inPlaceTried = true
		if c.ip != nil && len(c.ip.Blockers) > 0 {
			w.blockers = c.ip.Blockers
		} else {
			w.note = c.note
		}
	}
	u.add(Action{Kind: RecreatePod, Pod: p.Name, Revision: target}, w)
	return "", nil
}

// inPlaceFor returns what updating p in place to target changes. The
// update is nil, with a note saying why, when it cannot be computed: the
// template type cannot be diffed in place (see InPlaceDiffer; undiffable
// is then set), p's revision is not among the revisions, or a revision's
// data cannot be compared (kruise then treats the update as impossible in
// place). A target missing from the revisions is an input error.
func (u *updater[T]) inPlaceFor(p *Pod, target string) (inPlaceCache, error) {
	to := -1
	for i := range u.revisions {
		if u.revisions[i].Name == target {
			to = i
			break
		}
	}
	if to < 0 {
		return inPlaceCache{}, inputError("revisions", "no revision named %q, the target of the update", target)
	}
	if u.differ == 0 {
		u.differ = 2
		if inPlaceDiffer[T]() {
			u.differ = 1
		}
	}
	if u.differ == 2 {
		if u.shaped == nil {
			u.shaped = map[string]bool{}
		}
		shaped, ok := u.shaped[target]
		if !ok {
			shaped = podTemplateShaped(u.revisions[to].Data)
			u.shaped[target] = shaped
		}
		if !shaped {
			name := typeName[T]()
			return inPlaceCache{undiffable: true, note: fmt.Sprintf(
				"template type %s cannot be diffed in place: implement cloneset.InPlaceDiffer[%s], or encode the template as a corev1.PodTemplateSpec (revision %s has no spec.template.spec.containers)",
				name, name, target)}, nil
		}
	}
	from := -1
	for _, i := range u.mem.revOrder {
		if IsPodAtRevision(p, u.revisions[i].Name) {
			from = i
			break
		}
	}
	if from < 0 {
		return inPlaceCache{note: "its revision " + p.Revision + " is unknown"}, nil
	}
	key := [2]string{u.revisions[from].Name, target}
	if c, ok := u.inPlace[key]; ok {
		return c, nil
	}
	var c inPlaceCache
	if u.differ == 1 {
		if ip, err := diffWith[T](u.revisions[from].Data, u.revisions[to].Data); err != nil {
			c.note = "the revision data cannot be diffed: " + err.Error()
		} else {
			c.ip = &ip
			if !ip.Possible && len(ip.Blockers) == 0 {
				c.note = typeName[T]() + ".InPlaceDiff says the change needs recreation"
			}
		}
	} else if ip, err := CalculateInPlaceUpdate(u.revisions[from].Data, u.revisions[to].Data); err != nil {
		c.note = "the revision data cannot be compared: " + err.Error()
	} else {
		c.ip = &ip
	}
	if u.inPlace == nil {
		u.inPlace = map[[2]string]inPlaceCache{}
	}
	u.inPlace[key] = c
	return c, nil
}

// inPlaceCache is one memoised in-place decision.
type inPlaceCache struct {
	ip   *InPlaceUpdate
	note string
	// undiffable says the template type cannot be diffed in place.
	undiffable bool
}

// refreshWhy records why a bookkeeping move happens; the move's From
// and To are the action's.
func refreshWhy(lc *Lifecycle, p *Pod) why {
	switch p.Lifecycle {
	case PreparingNormal:
		if lc == nil || lc.PreNormal == nil {
			return why{kind: whyScheduled, node: p.NodeName}
		}
		return why{kind: whyPreNormalHook}
	case PreparingUpdate:
		return why{kind: whyAlreadyUpdated}
	case Updating:
		return why{kind: whyInPlaceDone}
	case Updated:
		return why{kind: whyHookBack}
	}
	return why{kind: whyMoved}
}

// roundUpSecond rounds a positive duration up to a whole second.
// Upstream: inplaceupdate.roundupSeconds.
func roundUpSecond(d time.Duration) time.Duration {
	if d%time.Second == 0 {
		return d
	}
	return (d/time.Second + 1) * time.Second
}

// podNameList returns the names of pods[idx...], in buf's memory when it
// has room; nil for no idx.
func podNameList(pods []Pod, idx []int, buf []string) []string {
	if len(idx) == 0 {
		return nil
	}
	out := slices.Grow(buf[:0], len(idx))[:len(idx)]
	for n, i := range idx {
		out[n] = pods[i].Name
	}
	return out
}
