package cloneset

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// ActionKind is what an Action writes: one kind per write of a sync,
// whichever step makes it (the revision, the scale step, the update
// step, the status, the cleanup). The names say what is acted on (a pod,
// a revision, the CloneSet), since a CloneSet owns its pods directly.
//
// The update step's writes have the names of the same writes elsewhere:
// a lifecycle move is SetPodLifecycle whichever step makes it, an
// in-place update UpdatePodInPlace, the mark for recreation (kruise's
// SpecifiedDeleteLabel) RecreatePod. The three records of an in-place
// update each have their own kind (SetPodInPlaceUpdateReady,
// ApplyHeldPodUpdate, DropHeldPodUpdate).
type ActionKind uint8

// The writes of one sync, in the order kruise makes them.
const (
	// WriteRevision creates the update revision (a new template) or gives
	// an older revision with the same template the next number (a
	// rollback); Action.Revision names it.
	WriteRevision ActionKind = iota + 1
	// CreatePod creates Action.Count pods at Action.Revision, in
	// PreparingNormal. Plan writes at most two, each for all the pods it
	// creates at one revision (the current revision's first), without
	// naming them: [Sync.CreatedPods] yields the pods with their names.
	CreatePod
	// DeletePod deletes a pod (it becomes Terminating).
	DeletePod
	// SetPodLifecycle moves a pod's lifecycle state From -> To (the pod's
	// LifecycleStateLabel): the scale step's regret (PreparingDelete ->
	// PreparingNormal) and preDelete hook (-> PreparingDelete), and the
	// update step's bookkeeping and inPlaceUpdate hook. When
	// Action.AddHook is set, the inPlaceUpdate hook's labels and
	// finalizers are put back on the pod at the same time.
	SetPodLifecycle
	// UpdatePodInPlace updates a pod in place to Action.Revision: its
	// InPlaceUpdateReady condition goes False, its revision labels become
	// Revision's, its lifecycle Updating, the InPlaceUpdateStateAnnotation
	// records the update, and the new images and template metadata
	// (Action.InPlace) are applied at once, or after Action.GraceSeconds
	// (held in the InPlaceUpdateGraceAnnotation) when the strategy has a
	// grace period.
	UpdatePodInPlace
	// RecreatePod marks a pod for deletion (SpecifiedDeleteLabel "true")
	// so that a later scale step deletes it and creates its replacement:
	// an update by recreation to Action.Revision (ReCreate, or
	// InPlaceIfPossible when the change cannot be made in place).
	RecreatePod
	// SetPodInPlaceUpdateReady sets a pod's InPlaceUpdateReady condition
	// to True: its in-place update is over.
	SetPodInPlaceUpdateReady
	// ApplyHeldPodUpdate applies the in-place update to Action.Revision
	// that was waiting on a pod for its grace period and removes the
	// InPlaceUpdateGraceAnnotation.
	ApplyHeldPodUpdate
	// DropHeldPodUpdate removes an InPlaceUpdateGraceAnnotation whose
	// revision (Action.Revision) is no longer the pod's; the pod goes
	// through the update again.
	DropHeldPodUpdate
	// WriteStatus writes the CloneSet's status.
	WriteStatus
	// TrimPodsToDelete removes from spec.scaleStrategy.podsToDelete the
	// names of pods that no longer exist.
	TrimPodsToDelete
	// DeleteRevision deletes a revision beyond revisionHistoryLimit.
	DeleteRevision
)

// String returns the kind's name, e.g. "CreatePod".
func (k ActionKind) String() string {
	switch k {
	case WriteRevision:
		return "WriteRevision"
	case CreatePod:
		return "CreatePod"
	case DeletePod:
		return "DeletePod"
	case SetPodLifecycle:
		return "SetPodLifecycle"
	case UpdatePodInPlace:
		return "UpdatePodInPlace"
	case RecreatePod:
		return "RecreatePod"
	case SetPodInPlaceUpdateReady:
		return "SetPodInPlaceUpdateReady"
	case ApplyHeldPodUpdate:
		return "ApplyHeldPodUpdate"
	case DropHeldPodUpdate:
		return "DropHeldPodUpdate"
	case WriteStatus:
		return "WriteStatus"
	case TrimPodsToDelete:
		return "TrimPodsToDelete"
	case DeleteRevision:
		return "DeleteRevision"
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one write of a sync, in the order kruise makes it: of the
// scale step, the update step ([UpdateDecision.Actions]) or the rest of
// the sync.
type Action struct {
	Kind ActionKind `json:"kind"`
	// Pod names the pod acted on; "" for revision, status and CloneSet
	// writes, and for Plan's CreatePod actions, which stand for Count pods
	// (Sync.CreatedPods names them). A CreatePod a caller writes with Pod
	// set and Count 0 or 1 creates that one pod.
	Pod string `json:"pod,omitempty"`
	// Count is how many pods a CreatePod creates, at least 1 in Plan's
	// actions; 0 in every other kind of action. A CreatePod with Count 0
	// creates one pod.
	Count int32 `json:"count,omitempty"`
	// Revision is the revision a created pod is at, the target of an
	// update (UpdatePodInPlace, RecreatePod), the revision of a held
	// update (ApplyHeldPodUpdate, DropHeldPodUpdate), or the revision
	// written or deleted.
	Revision string `json:"revision,omitempty"`
	// From and To are the pod's lifecycle state before and after, when it
	// changes (SetPodLifecycle; CreatePod: To PreparingNormal;
	// UpdatePodInPlace: To Updating).
	From LifecycleState `json:"from,omitempty"`
	To   LifecycleState `json:"to,omitempty"`
	// AddHook says the inPlaceUpdate hook's labels and finalizers are put
	// back (SetPodLifecycle from Updated to PreparingUpdate).
	AddHook bool `json:"addHook,omitempty"`
	// MarkNotReady says the inPlaceUpdate hook has markPodNotReady (an
	// update step's SetPodLifecycle): with the lifecycle change, kruise
	// also adds a not-ready key to the pod's KruisePodReady
	// readiness-gate condition on the way into PreparingDelete or
	// PreparingUpdate and removes it at Updated, and only on pods that
	// carry that readiness gate. The package records the flag; writing
	// the condition is the caller's (see adapters/kruiseapps).
	MarkNotReady bool `json:"markNotReady,omitempty"`
	// InPlace is what an UpdatePodInPlace changes.
	InPlace *InPlaceUpdate `json:"inPlace,omitempty"`
	// GraceSeconds is the grace period an UpdatePodInPlace waits before
	// the new images are applied; 0 applies them at once.
	GraceSeconds int32 `json:"graceSeconds,omitempty"`
	// Reason says why, for a person. Planner.Plan leaves it "" until
	// Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Sync is what one reconcile of kruise's CloneSet controller does:
// Plan's result.
type Sync[T any] struct {
	// Actions are the writes, in kruise's order: the update revision, the
	// scale step's or the update step's pod writes, the status, the trim
	// of podsToDelete, the history cleanup.
	Actions []Action `json:"actions,omitempty"`
	// CloneSet is the CloneSet as the reconcile leaves it: the status
	// written (or the input's when kruise does not write it) and
	// podsToDelete trimmed, which raises Generation by one as the API
	// server does on a spec change. Nothing in it is shared with the
	// input that the reconcile changed.
	CloneSet CloneSet[T] `json:"cloneSet"`
	// Pods are the pods passed in as the reconcile leaves them, in input
	// order. A deleted pod stays, with Terminating set, as the API server
	// keeps it until its containers stop. Maps and slices of a changed
	// pod are fresh. When the reconcile changes no pod, Pods is the input
	// slice itself, clipped to its length (so that appending to it never
	// writes into the caller's array), not a copy: copy it before
	// modifying a pod in it when the input must stay as it was. The pods the CreatePod actions create are not in
	// Pods, so that a sync's size does not grow with spec.replicas:
	// [Sync.CreatedPods] yields them and [Sync.AppendCreatedPods] appends
	// them, as the next reconcile's input wants them.
	Pods []Pod `json:"pods"`
	// Time is the time the sync ran (Plan's now), the CreationTime of the
	// pods it creates.
	Time time.Time `json:"time"`
	// Revisions are the ControllerRevisions as the reconcile leaves them:
	// in input order without deleted ones, a created one last, a
	// renumbered one with its new Number.
	Revisions []ControllerRevision `json:"revisions"`
	// Revs names the current and update revisions of the reconcile.
	Revs Revisions `json:"revs"`
	// Scale is the scale step's decision; zero when the CloneSet is being
	// deleted.
	Scale ScaleDecision `json:"scale"`
	// Update is the update step's decision; nil when the step did not run
	// (the CloneSet is being deleted, or the scale step modified pods).
	Update *UpdateDecision `json:"update,omitempty"`
	// Status is the status step's result (Status.Write says whether
	// kruise writes it).
	Status StatusUpdate `json:"status"`
	// Requeue says the controller looks at the CloneSet again after
	// RequeueAfter even without an event (RequeueAfter 0: at once,
	// rate-limited, after a failed update).
	Requeue      bool          `json:"requeue,omitempty"`
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Reason summarises the reconcile in one line: what it did, per kind
	// of write, then why nothing more moved (the partition, the budget,
	// a pause, pods to wait for). Planner.Plan leaves it "" until
	// Planner.Explain writes it.
	Reason string `json:"reason"`
	// Warnings are things the sync did as kruise does that most likely
	// come from incomplete input, one sentence each, for a program to
	// print (Planner.Plan writes them too: they are rare). Today there is
	// one kind: active pods at a revision that is not among the revisions
	// passed in (nor the update revision the sync writes), one warning
	// per such revision, by revision name, for example
	//
	//	pod demo-a is at revision demo-old, which is not among the revisions: kruise cannot update it in place (InPlaceIfPossible recreates it, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions
	//
	// Kruise recreates such a pod under InPlaceIfPossible and fails an
	// InPlaceOnly update, without an error of its own; so does Plan, and
	// the warning is its only sign. Without revisions Plan also numbers
	// the update revision 1. nil when there is nothing to warn about.
	Warnings []string `json:"warnings,omitempty"`
}

// Plan returns what one reconcile of kruise's CloneSet controller does to
// cs, its pods and its ControllerRevisions at time now, with the default
// Options. See PlanWith.
func Plan[T any](cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, now time.Time) (Sync[T], error) {
	return PlanWith(cs, pods, revisions, now, Options{})
}

// PlanWith returns what one reconcile does, in kruise's order
// (docs/cloneset.md#one-reconcile):
//
//  1. The update revision: the template's [RevisionData] (cs.Template
//     encoded with encoding/json) is looked up in revisions
//     ([ActiveRevisions]); a new template creates a revision, an older one
//     is renumbered. The current revision is status.currentRevision when
//     such a revision exists, else the update revision.
//  2. Unless cs is being deleted: [Scale]; if it modified anything, the
//     update step is skipped this round, else [Update] runs. An update
//     that fails (InPlaceOnly with a change that cannot be made in place)
//     sets the FailedUpdate condition and requeues.
//  3. [CalculateStatus] over the pods as listed at the start, written
//     when kruise writes it; podsToDelete loses names of pods that do not
//     exist; [HistoryToDelete] removes old revisions.
//
// The requeue is the shortest positive delay any step asks for: the
// Progressing deadline, minReadySeconds while ready pods are not yet
// available (not after a failed update), an in-place grace period.
//
// Plan assumes kruise's scale expectations are satisfied: pods holds
// every pod the controller created and none it deleted, as kruise checks
// before it reconciles. A caller whose pod cache may not yet show its own
// last writes (a created pod missing, a deleted one still listed) must
// not call Plan until it does, as kruise waits (up to five minutes, then
// it stops); planning on a lagging cache would create or delete the same
// pods twice. Resource-version expectations (the cache showing the
// revision and pod updates) are the same assumption.
//
// The template's bytes decide the revision name: encoding/json must
// encode T as kruise's codec encodes spec.template (a
// corev1.PodTemplateSpec does, see RevisionData for the one caveat), or
// T can be json.RawMessage holding those bytes. Other types get a
// consistent name of their own. In-place updates diff the revisions'
// Data, so revisions must hold the Data of the revisions pods are at
// (see Sync.Warnings); a template type that is not shaped like a
// corev1.PodTemplateSpec says how to diff itself with [InPlaceDiffer].
//
// The pods the scale step creates are one CreatePod action per revision
// with a Count, not named by Plan: [Sync.CreatedPods] names them lazily
// ("<cs.Name>-" followed by five characters of Kubernetes' safe alphabet
// derived from a counter, the first such names not taken by any pod
// passed in; kruise picks them at random, or reuses a free PVC's instance
// id). So Plan costs O(len(pods) log len(pods) + len(revisions)) and the
// writes it names, whatever spec.replicas is: at MaxInt32 replicas and no
// pods, what any small plan costs (BenchmarkPlanMaxInt32: tens of
// microseconds). Everything else is Scale's, Update's and
// CalculateStatus's; ties are broken by pod name, so the result does not
// depend on the order of pods or revisions (beyond the order of the
// output slices, which follow the input).
//
// cs, pods and revisions are never modified. Errors (the Sync is then
// zero): a nil cs, negative replicas or minReadySeconds, pods without a
// name or with the same name, negative restart counts, bad revisions (an
// empty or duplicate name), a template encoding/json cannot encode, and
// the errors of [Update] (an unknown strategy type, an in-place target
// missing from revisions, InPlaceOnly with a template type that cannot be
// diffed in place). Settings kruise cannot read are not errors:
// kruise reads them as 0, and so does Plan (see [Resolve]); a CloneSet
// Validate rejects is planned as the controller would plan it.
//
// PlanWith is a fresh [Planner] with opts: its Plan, then its Explain.
// Upstream: ReconcileCloneSet.doReconcile and syncCloneSet.
func PlanWith[T any](cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, now time.Time, opts Options) (Sync[T], error) {
	p := Planner[T]{Options: opts}
	if _, err := p.Plan(cs, pods, revisions, now); err != nil {
		return Sync[T]{}, err
	}
	return *p.Explain(), nil
}

// Planner plans syncs one after another, for a controller that syncs many
// CloneSets or a tool that replays many rollouts. Its Plan gives the same
// Sync as PlanWith with its Options, but leaves the reasons to Explain, so
// that a caller that does not read them does not pay for writing them.
// The zero Planner is ready to use with the default Options. A Planner is
// not safe for concurrent use: give each worker its own.
type Planner[T any] struct {
	// Options are the options every Plan call uses, as PlanWith's.
	Options Options

	p     planner[T]
	mem   [2]planMem // the memory of the Syncs in bufs
	order []int      // the revisions' order
	// whys, summary and notes are the last sync's reasons' facts.
	whys, summary, notes []why
	names                nameIndex // the pods' indexes by name, kept for the next call
	// tmpl and enc encode the template; lastTmpl and lastData are the
	// last template's encoding and its RevisionData.
	tmpl     bytes.Buffer
	enc      *json.Encoder
	lastTmpl []byte
	lastData []byte
	// byPointer says encoding/json encodes *T as T (see
	// encodesSameByPointer).
	byPointer bool
	bufs      [2]Sync[T]
	next      int      // the buffer the next Plan writes
	last      *Sync[T] // the Sync the last Plan call returned; nil after a failure
}

// Plan returns what one sync does to cs, its pods and its revisions at
// now, as PlanWith(cs, pods, revisions, now, p.Options) does, with the
// same errors, and with two differences, the same as rollout.Planner's:
//
//   - The Sync and the slices in it (Actions, Pods, Revisions, Update and
//     its Actions, Candidates and Chosen, the status's CollisionCount)
//     belong to the Planner,
//     as rollout.Planner's do (but for Pods when the sync changes no pod:
//     then they are the input pods, see Sync.Pods). They stay valid until the second call of
//     Plan after this one, so that this Sync's CloneSet, Pods and
//     Revisions may be the next call's input, as in a controller's loop
//     (with the created pods appended: [Sync.AppendCreatedPods]); copy
//     what you keep longer. Maps and the other slices are as PlanWith
//     gives them. An older Sync may be passed back too: its memory is
//     then left to the caller. A Planner in a loop over a CloneSet at
//     rest allocates nothing per sync once its memory has grown, when
//     encoding/json encodes the template without allocating (a
//     json.RawMessage does; it allocates for a map).
//   - Reasons are not written: every Action.Reason (in Actions and in
//     Update.Actions, which share their memory) and Sync.Reason are ""
//     until Explain writes them, so a caller that does not read them does
//     not pay for formatting.
//
// cs, pods and revisions are never modified.
func (p *Planner[T]) Plan(cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, now time.Time) (*Sync[T], error) {
	s, err := p.plan(cs, pods, revisions, now)
	if err != nil {
		return nil, ofCloneSet(cs, err)
	}
	return s, nil
}

// plan is Plan but for the CloneSet's name in its errors.
func (p *Planner[T]) plan(cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, now time.Time) (*Sync[T], error) {
	p.last = nil
	if err := checkCloneSet(cs); err != nil {
		return nil, err
	}
	// One index of the pods by name serves the check for duplicates and
	// every step that looks a pod up; its memory serves the next call.
	if err := indexPods(pods, &p.names); err != nil {
		return nil, err
	}
	data, cached, err := p.revisionData(cs)
	if err != nil {
		return nil, err
	}
	if p.order, err = sortRevisionsInto(p.order, revisions); err != nil {
		return nil, err
	}
	active, err := activeRevisions(cs.Name, revisions, p.order, data, cs.Status.CurrentRevision, collisionCount(cs))
	if err != nil {
		return nil, err
	}
	if cached && active.Action == CreateRevision {
		// The Sync's new revision is the caller's: not the cache's memory.
		active.Update.Data = bytes.Clone(data)
	}
	m := &p.mem[p.next]
	if m.holds(cs.Status.CollisionCount, revisions) {
		*m = planMem{} // the caller's now: plan into new memory
	}
	p.p = planner[T]{in: cs, pods: pods, names: &p.names, order: p.order, revisions: revisions, now: now, opts: p.Options, active: active,
		mem: m, coll: &m.coll, own: m.out, outRevs: m.revs, actions: m.actions[:0], whys: p.whys[:0], summary: p.summary[:0], notes: p.notes[:0]}
	pl := &p.p
	pl.revs = Revisions{Current: active.Current, Update: active.Update.Name}
	if err := pl.run(); err != nil {
		p.p = planner[T]{}
		return nil, err
	}
	m.out, m.revs, m.actions = pl.own, pl.outRevs, pl.actions
	p.whys, p.summary, p.notes = pl.whys, pl.summary, pl.notes
	out := &p.bufs[p.next]
	p.next ^= 1
	*out = pl.result()
	p.last = out
	return out, nil
}

// revisionData returns RevisionData of cs.Template as encoding/json
// encodes it. The Planner keeps the last template's encoding and data,
// so that a template encoded as the last call's (the steady state of a
// loop) is not decoded again; cached says data is that memory.
func (p *Planner[T]) revisionData(cs *CloneSet[T]) (data []byte, cached bool, err error) {
	if p.enc == nil {
		p.enc = json.NewEncoder(&p.tmpl)
		p.byPointer = encodesSameByPointer(reflect.TypeFor[T]())
	}
	p.tmpl.Reset()
	var v any = &cs.Template // no copy of the template
	if !p.byPointer {
		v = cs.Template
	}
	if err := p.enc.Encode(v); err != nil {
		p.lastTmpl, p.lastData = p.lastTmpl[:0], nil
		return nil, false, inputError("spec.template", "encoding: %v", err)
	}
	tmpl := bytes.TrimSuffix(p.tmpl.Bytes(), []byte{'\n'}) // Encode ends with a newline; Marshal does not
	if p.lastData != nil && bytes.Equal(tmpl, p.lastTmpl) {
		return p.lastData, true, nil
	}
	data, err = RevisionData(tmpl)
	if err != nil {
		p.lastTmpl, p.lastData = p.lastTmpl[:0], nil
		return nil, false, err
	}
	p.lastTmpl, p.lastData = append(p.lastTmpl[:0], tmpl...), data
	return data, false, nil
}

// encodesSameByPointer reports whether encoding/json encodes a *t as it
// encodes a t (json.Marshal(v) of a t, which is not addressable).
// encoding/json calls a MarshalJSON or MarshalText method that only the
// pointer has on addressable values only; through a pointer, t and the
// fields and array elements within it (not behind a pointer, slice, map
// or interface, whose values are as addressable either way) are
// addressable. So the two differ exactly when t or such a field's type
// has such a method on its pointer only.
func encodesSameByPointer(t reflect.Type) bool {
	marshaler := reflect.TypeFor[json.Marshaler]()
	text := reflect.TypeFor[encoding.TextMarshaler]()
	seen := map[reflect.Type]bool{}
	var ok func(t reflect.Type) bool
	ok = func(t reflect.Type) bool {
		if seen[t] || t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
			return true
		}
		seen[t] = true
		pt := reflect.PointerTo(t)
		if (pt.Implements(marshaler) && !t.Implements(marshaler)) || (pt.Implements(text) && !t.Implements(text)) {
			return false
		}
		switch t.Kind() {
		case reflect.Array:
			return ok(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if !ok(t.Field(i).Type) {
					return false
				}
			}
		}
		return true
	}
	return ok(t)
}

// Explain writes the reasons of the Sync the last Plan call returned:
// every Action.Reason, and Sync.Reason, the same text PlanWith gives. It
// returns that Sync, or nil when the last call failed or there was none.
// Calling it again changes nothing.
func (p *Planner[T]) Explain() *Sync[T] {
	if p.last == nil {
		return nil
	}
	pl := &p.p
	sc := pl.sc
	sc.scale, sc.update, sc.status = &pl.scale, pl.update, &pl.status.Status
	sc.actions, sc.whys = pl.actions, pl.whys
	p.last.Reason = sc.explain(pl.summary, pl.notes, pl.status.Write)
	return p.last
}

// planMem is the memory of one Sync a Planner returns: a Planner
// alternates between two, so that a Sync it returned may be the next
// call's input.
type planMem struct {
	out     []Pod
	revs    []ControllerRevision
	actions []Action
	update  UpdateDecision
	coll    int32     // the status's CollisionCount
	upd     updateMem // the update step's memory
}

// holds reports whether an input's revisions or collision count live, in
// part, in m's memory (the caller passed an older Sync of the Planner
// back). The pods are checked when the sync first writes one
// (planner.outPod): a Sync that changes no pod returns its input pods.
func (m *planMem) holds(coll *int32, revisions []ControllerRevision) bool {
	return overlaps(m.revs, revisions) || coll == &m.coll
}

// overlaps reports whether a and b share memory.
func overlaps[E any](a, b []E) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	size := unsafe.Sizeof(*new(E))
	a0, b0 := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(cap(b))*size && b0 < a0+uintptr(cap(a))*size
}

// reuse returns a copy of src, in dst's memory when it has room; like
// slices.Clone, nil for a nil src.
func reuse[E any](dst, src []E) []E {
	if src == nil || dst == nil {
		return slices.Clone(src)
	}
	return append(dst[:0], src...)
}

// planner carries one reconcile.
type planner[T any] struct {
	in        *CloneSet[T]
	pods      []Pod      // the input, read only
	names     *nameIndex // pods' indexes by name
	order     []int      // the revisions in sortRevisions order
	mem       *planMem   // the memory the Sync is written to
	coll      *int32     // the status's CollisionCount
	revisions []ControllerRevision
	now       time.Time
	opts      Options
	active    ActiveRevisionsResult
	revs      Revisions

	cs CloneSet[T] // the CloneSet as the reconcile changes it
	// out are the pods as the reconcile changes them: pods itself
	// (clipped) until a pod changes (outPod), then a copy in own, the
	// memory of mem.out.
	out     []Pod
	own     []Pod
	copied  bool
	outRevs []ControllerRevision
	scale   ScaleDecision
	update  *UpdateDecision
	status  StatusUpdate
	actions []Action
	whys    []why // whys[i] is actions[i]'s reason
	summary []why // one phrase per kind of write
	notes   []why // why nothing more moved
	sc      scene // the settings the reasons state, as the sync read them
	// updFirst and updEnd delimit the update step's actions in actions.
	updFirst, updEnd int
	requeue          time.Duration
	retry            bool     // a failed update: requeue at once, rate-limited
	warnings         []string // Sync.Warnings
}

func (p *planner[T]) run() error {
	p.cs = *p.in
	p.sc = scene{replicas: p.in.Replicas, historyLimit: historyLimit(p.in), updateRevision: p.revs.Update}
	if v := p.in.UpdateStrategy.Partition; v != nil {
		p.sc.partition, p.sc.hasPartition = *v, true
	}
	// The revisions the steps see: the listed ones and the update
	// revision as written this reconcile.
	p.outRevs = reuse(p.outRevs, p.revisions)
	switch p.active.Action {
	case CreateRevision:
		p.outRevs = append(p.outRevs, p.active.Update)
		p.act(Action{Kind: WriteRevision, Revision: p.active.Update.Name}, why{kind: whyRevisionCreated, number: p.active.Update.Number})
	case Renumber:
		p.outRevs[p.active.Existing].Number = p.active.Update.Number
		p.act(Action{Kind: WriteRevision, Revision: p.active.Update.Name},
			why{kind: whyRevisionRenumbered, fromNumber: p.revisions[p.active.Existing].Number, number: p.active.Update.Number})
	}
	if p.active.Action != ReuseLatest {
		p.summary = append(p.summary, why{kind: sumAction, first: len(p.actions) - 1})
	}
	p.warnMissingRevisions()
	p.out = p.pods[:len(p.pods):len(p.pods)]

	var failure string
	if p.in.Deleting {
		p.notes = append(p.notes, why{kind: noteDeleting})
	} else {
		var err error
		if failure, err = p.sync(); err != nil {
			return err
		}
	}
	return p.finish(failure)
}

// sync is kruise's syncCloneSet: scale, then update unless scale acted.
// It returns the update step's failure, if any.
func (p *planner[T]) sync() (string, error) {
	cs := p.in
	// PlanWith checked the CloneSet and the pods once; the pods it adds
	// get names no pod has (podName), so Scale's, Update's and
	// CalculateStatus's checks would pass: call them without.
	sd := scale(cs, p.pods, p.revs, p.now, p.opts)
	p.scale = sd
	p.applyScale()
	if sd.Modified {
		return "", nil
	}
	p.mem.upd.revOrder = slices.Grow(p.mem.upd.revOrder[:0], len(p.outRevs)) // room for update's order
	// The update step appends its writes to p.actions and p.whys. The
	// scale step modified nothing, so its diffs are the update step's
	// but for the pods in PreparingUpdate that the
	// PreparingUpdateAsUpdate gate counts as updated for scaling only.
	var diffs *Diffs
	if !p.opts.Gates.PreparingUpdateAsUpdate {
		diffs = &p.scale.Diffs
	}
	p.updFirst = len(p.actions)
	// After the update step's actions come at most WriteStatus,
	// TrimPodsToDelete and a DeleteRevision per revision (finish).
	spare := 2 + len(p.revisions)
	ud, actions, whys, err := update(cs, p.pods, p.outRevs, &p.mem.upd, p.revs, p.now, p.opts, p.actions, p.whys, diffs, spare)
	p.actions, p.whys, p.updEnd = actions, whys, len(actions)
	if err != nil {
		return "", err
	}
	p.mem.update = ud
	p.update = &p.mem.update
	p.applyUpdate()
	if ud.Requeue > 0 {
		p.after(ud.Requeue)
	}
	if ud.Branch == UpdateFailed {
		return ud.Failure, nil
	}
	return "", nil
}

func collisionCount[T any](cs *CloneSet[T]) int32 {
	if cs.Status.CollisionCount == nil {
		return 0
	}
	return *cs.Status.CollisionCount
}

// indexByName finds pods by their index in p.pods (built by
// Planner.Plan with the check for duplicate names).
func (p *planner[T]) indexByName() *nameIndex {
	return p.names
}

// outPod returns p.out[i] for writing: the first write copies the pods
// into the Sync's memory, so that a sync that changes no pod does not
// copy them.
func (p *planner[T]) outPod(i int) *Pod {
	if !p.copied {
		if overlaps(p.own, p.pods) {
			p.own = nil // the caller's now: copy into new memory
		}
		p.own = reuse(p.own, p.pods)
		p.out, p.copied = p.own, true
	}
	return &p.out[i]
}

// applyScale records the scale step's writes and applies them to p.out.
func (p *planner[T]) applyScale() {
	sd := &p.scale
	switch sd.Branch {
	case ScaleRegret:
		idx := p.indexByName()
		for _, name := range sd.Regret {
			p.setLifecycle(idx.index(name), PreparingNormal, why{kind: whyRegretted})
		}
		p.summary = append(p.summary, why{kind: sumRegretted, count: len(sd.Regret)})
		return
	case ScaleOut:
		p.create()
		return
	case ScaleWaitForDeletion:
		p.notes = append(p.notes, why{kind: noteWaitForDeletion})
		return
	case ScaleNone:
		return
	}
	// The deleting branches; then finish's actions (see sync).
	p.grow(len(sd.PrepareDelete) + len(sd.Delete) + 2 + len(p.revisions))
	idx := p.indexByName()
	for _, name := range sd.PrepareDelete {
		p.setLifecycle(idx.index(name), PreparingDelete, why{kind: whyPrepareDelete})
	}
	for _, name := range sd.Delete {
		i := idx.index(name)
		p.act(Action{Kind: DeletePod, Pod: name, Revision: p.pods[i].Revision}, why{kind: whyDeleted})
		p.outPod(i).Terminating = true
	}
	if n := len(sd.Delete); n > 0 {
		p.summary = append(p.summary, why{kind: sumDeleted, count: n})
	}
	if n := len(sd.PrepareDelete); n > 0 {
		p.summary = append(p.summary, why{kind: sumPrepareDelete, count: n})
	}
	if sd.Branch == ScaleIn && len(sd.Delete)+len(sd.PrepareDelete) == 0 {
		p.notes = append(p.notes, why{kind: noteNoReadyMayGo})
	}
}

// create records the pods the scale step creates: one CreatePod action
// per revision, with its count; Sync.CreatedPods names them.
func (p *planner[T]) create() {
	sd := &p.scale
	if sd.CreateCurrent == 0 && sd.CreateUpdate == 0 {
		p.notes = append(p.notes, why{kind: noteNoPodCreated})
		return
	}
	// Kruise creates the current-revision pods first.
	if n := sd.CreateCurrent; n > 0 {
		p.act(Action{Kind: CreatePod, Revision: p.revs.current(), Count: n, To: PreparingNormal}, why{kind: whyCreated})
	}
	if n := sd.CreateUpdate; n > 0 {
		p.act(Action{Kind: CreatePod, Revision: p.revs.Update, Count: n, To: PreparingNormal}, why{kind: whyCreated, atUpdate: true})
	}
	p.summary = append(p.summary, why{kind: sumCreated})
}

// setLifecycle moves p.out[i] to state to and records it.
func (p *planner[T]) setLifecycle(i int, to LifecycleState, w why) {
	q := p.outPod(i)
	p.act(Action{Kind: SetPodLifecycle, Pod: q.Name, From: q.Lifecycle, To: to}, w)
	q.Lifecycle = to
}

// applyUpdate applies the update step's writes, which update appended
// to p.actions (p.actions[p.updFirst:p.updEnd], the memory of
// ud.Actions, their facts in p.whys), to p.out.
func (p *planner[T]) applyUpdate() {
	ud := p.update
	var inPlace, recreate, track, moves int
	for n := range ud.Actions {
		ua := &ud.Actions[n]
		q := p.outPod(p.whys[p.updFirst+n].pod)
		switch ua.Kind {
		case SetPodLifecycle:
			q.Lifecycle = ua.To
			if ua.AddHook && p.in.Lifecycle != nil && p.in.Lifecycle.InPlaceUpdate != nil {
				h := p.in.Lifecycle.InPlaceUpdate
				if len(h.LabelsHandler) > 0 {
					q.Labels = maps.Clone(q.Labels)
					if q.Labels == nil {
						q.Labels = map[string]string{}
					}
					maps.Copy(q.Labels, h.LabelsHandler)
				}
				for _, f := range h.FinalizersHandler {
					if !slices.Contains(q.Finalizers, f) {
						q.Finalizers = append(slices.Clip(q.Finalizers), f)
					}
				}
			}
			moves++
		case UpdatePodInPlace:
			q.Revision, q.Lifecycle, q.InPlaceUpdateReady = ua.Revision, Updating, ConditionFalse
			q.InPlaceUpdate = &InPlaceUpdateState{Revision: ua.Revision, UpdateTime: p.now}
			q.InPlaceUpdateGrace = nil
			if ua.GraceSeconds > 0 {
				q.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: ua.Revision, GraceSeconds: ua.GraceSeconds}
			}
			inPlace++
		case RecreatePod:
			q.SpecifiedDelete = true
			recreate++
		case SetPodInPlaceUpdateReady:
			q.InPlaceUpdateReady = ConditionTrue
			track++
		case ApplyHeldPodUpdate, DropHeldPodUpdate:
			q.InPlaceUpdateGrace = nil
			track++
		}
	}
	d := &ud.Diffs
	if inPlace > 0 {
		p.summary = append(p.summary, why{kind: sumInPlace, count: inPlace})
	}
	if recreate > 0 {
		p.summary = append(p.summary, why{kind: sumRecreate, count: recreate})
	}
	if moves > 0 {
		p.summary = append(p.summary, why{kind: sumMoves, first: p.updFirst, end: p.updEnd})
	}
	if track > 0 {
		p.summary = append(p.summary, why{kind: sumTracked, count: track})
	}
	switch ud.Branch {
	case UpdatePaused:
		p.notes = append(p.notes, why{kind: notePaused})
	case UpdateOnDelete:
		p.notes = append(p.notes, why{kind: noteOnDelete})
	case UpdatePods:
		if len(ud.Chosen) < len(ud.Candidates) && inPlace+recreate < int(abs(int64(d.UpdateNum))) {
			more := int(abs(int64(d.UpdateNum))) - len(ud.Chosen)
			p.notes = append(p.notes, why{kind: noteHeldBack, count: more})
		}
	case UpdateFailed:
		p.notes = append(p.notes, why{kind: noteFailed})
	}
}

// finish runs the status step, the trim of podsToDelete and the history
// cleanup.
func (p *planner[T]) finish(failure string) error {
	base := p.in
	if failure != "" || p.active.CollisionCount != collisionCount(p.in) {
		c := *p.in
		n := p.active.CollisionCount
		c.Status.CollisionCount = &n
		if failure != "" {
			st := c.Status
			st.Conditions = slices.Clone(st.Conditions)
			setFailed(&st, ConditionFailedUpdate, failure, p.now)
			c.Status = st
		}
		base = &c
	}
	su := calculateStatus(base, p.pods, p.revs, p.now, p.coll) // inputs checked: see sync
	p.status = su
	if su.Write {
		p.cs.Status = su.Status
		p.act(Action{Kind: WriteStatus}, why{kind: whyStatus})
	}
	if su.HasDeadlineRequeue {
		p.after(su.DeadlineRequeue)
	}
	if failure == "" {
		p.after(su.MinReadyRequeue)
	} else {
		p.retry = true
	}
	p.trim()
	limit := p.in.RevisionHistoryLimit
	if limit != nil && *limit < 0 {
		return inputError("spec.revisionHistoryLimit", "%d: must not be negative", *limit)
	}
	// The revisions were checked and sorted (p.order) by Planner.Plan.
	del := historyToDelete(p.revisions, p.order, p.revs.current(), p.revs.Update, p.pods, int(historyLimit(p.in)))
	if len(del) > 0 {
		gone := make(map[string]bool, len(del))
		for _, i := range del {
			r := &p.revisions[i]
			gone[r.Name] = true
			p.act(Action{Kind: DeleteRevision, Revision: r.Name}, why{kind: whyRevisionDeleted, number: r.Number})
		}
		p.outRevs = slices.DeleteFunc(p.outRevs, func(r ControllerRevision) bool { return gone[r.Name] })
		p.summary = append(p.summary, why{kind: sumRevisionsDeleted, count: len(del)})
	}
	p.settle()
	return nil
}

func historyLimit[T any](cs *CloneSet[T]) int32 {
	if cs.RevisionHistoryLimit == nil {
		return DefaultRevisionHistoryLimit
	}
	return *cs.RevisionHistoryLimit
}

// setFailed sets a FailedScale or FailedUpdate condition as kruise does:
// status True, no reason, the error as message; unchanged when one of
// the same status and reason is there (so the first message stays).
// Upstream: syncCloneSet with SetCloneSetCondition.
func setFailed(st *Status, t ConditionType, msg string, now time.Time) {
	if old := findCondition(st.Conditions, t); old != nil && old.Status == ConditionTrue && old.Reason == "" {
		return
	}
	c := Condition{Type: t, Status: ConditionTrue, Message: msg, LastTransitionTime: now}
	st.Conditions = append(slices.DeleteFunc(st.Conditions, func(c Condition) bool { return c.Type == t }), c)
}

// trim removes names of pods that are not active from podsToDelete.
// Upstream: ReconcileCloneSet.truncatePodsToDelete.
func (p *planner[T]) trim() {
	list := p.in.ScaleStrategy.PodsToDelete
	if len(list) == 0 {
		return
	}
	exist := make(map[string]struct{}, len(p.pods))
	for i := range p.pods {
		if IsPodActive(&p.pods[i]) {
			exist[p.pods[i].Name] = struct{}{}
		}
	}
	var keep []string
	for _, name := range list {
		if _, ok := exist[name]; ok {
			keep = append(keep, name)
		}
	}
	if len(keep) == len(list) {
		return
	}
	p.cs.ScaleStrategy.PodsToDelete = keep
	p.cs.Generation++
	p.act(Action{Kind: TrimPodsToDelete}, why{kind: whyTrimmed, count: len(list) - len(keep)})
}

// after records a positive requeue delay, keeping the shortest.
func (p *planner[T]) after(d time.Duration) {
	if d > 0 && (p.requeue == 0 || d < p.requeue) {
		p.requeue = d
	}
}

// settle adds why nothing more moved: the partition, the rollout's end.
func (p *planner[T]) settle() {
	st := &p.status.Status
	r := p.in.Replicas
	part, err := CalculatePartitionReplicas(p.in.UpdateStrategy.Partition, r)
	if err != nil {
		p.notes = append(p.notes, why{kind: notePartitionUnread})
	}
	waiting := len(p.summary) == 0 && len(p.notes) == 0 && !p.in.Deleting
	if p.revs.current() != p.revs.Update && part > 0 {
		p.notes = append(p.notes, why{kind: noteKeptOld, count: int(part)})
	}
	if !waiting {
		return
	}
	switch {
	case st.Replicas == r && st.UpdatedReplicas == r && st.UpdatedAvailableReplicas == r:
		p.notes = append(p.notes, why{kind: noteComplete})
	case st.UpdatedReplicas >= st.ExpectedUpdatedReplicas && st.UpdatedAvailableReplicas >= st.ExpectedUpdatedReplicas && st.Replicas == r && st.AvailableReplicas == r:
		p.notes = append(p.notes, why{kind: notePartitionDone})
	case st.AvailableReplicas < st.Replicas:
		p.notes = append(p.notes, why{kind: noteWaitAvailable})
	default:
		p.notes = append(p.notes, why{kind: noteNothing})
	}
}

// grow makes room for n more actions.
func (p *planner[T]) grow(n int) {
	p.actions = slices.Grow(p.actions, n)
	p.whys = slices.Grow(p.whys, n)
}

// act records an action and the facts of its reason.
func (p *planner[T]) act(a Action, w why) {
	p.actions = append(p.actions, a)
	p.whys = append(p.whys, w)
}

// result returns the Sync, its reasons not yet written. The update
// step's Actions are the same memory as their copies in Actions, so
// that Explain writes both.
func (p *planner[T]) result() Sync[T] {
	if p.update != nil && p.updEnd > p.updFirst {
		p.update.Actions = p.actions[p.updFirst:p.updEnd:p.updEnd]
	}
	actions := p.actions
	if len(actions) == 0 {
		actions = nil // as a fresh Planner leaves it
	}
	s := Sync[T]{
		Actions:   actions,
		CloneSet:  p.cs,
		Pods:      p.out,
		Revisions: p.outRevs,
		Revs:      p.revs,
		Time:      p.now,
		Scale:     p.scale,
		Update:    p.update,
		Status:    p.status,
		Warnings:  p.warnings,
	}
	if p.retry {
		s.Requeue = true
	} else if p.requeue > 0 {
		s.Requeue, s.RequeueAfter = true, p.requeue
	}
	return s
}

// warnMissingRevisions warns about active pods at a revision that is
// not among p.outRevs (the input's and the update revision), one warning
// per such revision, by revision name.
func (p *planner[T]) warnMissingRevisions() {
	var missing map[string][]string
	for i := range p.pods {
		q := &p.pods[i]
		if !IsPodActive(q) || slices.ContainsFunc(p.outRevs, func(r ControllerRevision) bool { return IsPodAtRevision(q, r.Name) }) {
			continue
		}
		if missing == nil {
			missing = map[string][]string{}
		}
		missing[q.Revision] = append(missing[q.Revision], q.Name)
	}
	if len(missing) == 0 {
		return
	}
	for _, rev := range slices.Sorted(maps.Keys(missing)) {
		p.warnings = append(p.warnings, missingRevisionWarning(rev, missing[rev]))
	}
}

// missingRevisionWarning says that the pods names are at rev, a revision
// that is missing.
func missingRevisionWarning(rev string, names []string) string {
	slices.Sort(names)
	subject, it := "pod "+names[0]+" is", "it"
	if n := len(names); n > 1 {
		list := names
		if n > 3 {
			list = append(names[:3:3], "...")
		}
		subject, it = fmt.Sprintf("%d pods (%s) are", n, strings.Join(list, ", ")), "them"
	}
	where := "at revision " + rev + ", which is not among the revisions"
	if rev == "" {
		where = "without a revision (no " + RevisionLabel + " label)"
	}
	return fmt.Sprintf("%s %s: kruise cannot update %s in place (InPlaceIfPossible recreates %s, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions", subject, where, it, it)
}

// countMoves renders lifecycle moves as "3 pods PreparingNormal -> Normal,
// 1 pod Updating -> Normal", in the order first seen.
func countMoves(moves []string) string {
	var order []string
	n := map[string]int{}
	for _, m := range moves {
		if n[m] == 0 {
			order = append(order, m)
		}
		n[m]++
	}
	parts := make([]string, len(order))
	for i, m := range order {
		parts[i] = fmt.Sprintf("%d %s %s", n[m], plural(n[m], "pod"), m)
	}
	return strings.Join(parts, ", ")
}

// orEmpty names the empty lifecycle state.
func orEmpty(s LifecycleState) LifecycleState {
	if s == "" {
		return "(none)"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func orNone(s string) string {
	if s == "" {
		return "no revision"
	}
	return s
}
