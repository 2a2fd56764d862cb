package statefulset

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// MaxReplicas is the largest spec.replicas Plan accepts: it keeps one
// slot per replica, as the controller does.
const MaxReplicas = 10_000_000

// maxBatch is the controller's largest slow-start batch under Parallel.
const maxBatch = 500

// Plan returns what one sync of kube-controller-manager v1.36's
// StatefulSet controller does to set, its pods and its ControllerRevisions
// at now, with the v1.36 defaults (every gate off): PlanWith with the
// zero Options.
func Plan[T any](set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, now time.Time) (Sync[T], error) {
	return PlanWith(set, pods, revisions, now, Options{})
}

// PlanWith returns what one sync does to set, pods (any pods of the
// set's namespace; non-members are ignored) and revisions (the set's
// ControllerRevisions) at now, with opts' gates and deviations. The
// sync goes in the controller's order:
//
//  1. claim the pods (with a Selector: adopt matching orphan members,
//     release owned pods that no longer match or are not members);
//  2. choose the update revision (create or renumber one) and the
//     current one (see [ChooseRevisions]);
//  3. sort the claimed pods into slots (ordinal - start in [0,
//     replicas)) and condemned pods (other ordinals, descending); empty
//     slots get a placeholder at [NewPodRevision];
//  4. if the set is being deleted, go to 8 with the status counted over
//     every claimed pod;
//  5. the replica step, slots ascending ([ProcessReplica]): under
//     OrderedReady the first stop ends the pod writes (go to 8); a
//     creation the API server refuses because a pod the set does not own
//     holds the name ends them under either policy (Parallel: after its
//     slow-start batch), and the sync fails ([BlockRefused]);
//  6. the condemned step, descending ([ProcessCondemned]), same rule;
//  7. the rolling update ([UpdateStep]; nothing for OnDelete);
//  8. the status ([ComputeStatus] over slots and condemned pods, minus
//     the update deletions, then [CompleteRollingUpdate]), written when
//     [StatusChanged]; a status the API server would refuse (a negative
//     currentReplicas) is recorded as a rejected write, the stored
//     status stays, and the set is requeued at once;
//  9. the history ([TruncateHistory]);
//  10. the requeue: with minReadySeconds > 0 and ready != available,
//     after the first claimed pod becomes available (else after
//     minReadySeconds).
//
// Like the controller, a sync does not see its own writes: a pod deleted
// in step 5 or 6 is still counted in step 8, and a pod created in step 5
// is a placeholder until the next sync. The revision data of the
// template is [RevisionData] of the template encoded by encoding/json;
// callers whose T does not encode as the API server stores the template
// must make it so.
//
// Bad input is an error (a *field.Error, or a field.ErrorList from
// Validate with the set named first) and the Sync is zero: a nil set,
// a set Validate rejects, an empty name, replicas beyond MaxReplicas or
// slots beyond ordinal math.MaxInt32, a Selector without UID or one that
// does not parse; pods without a name or phase, with a duplicate name,
// or members whose ordinal is written other than the controller writes
// it ("web-01"); revisions with empty or duplicate names. set, pods and
// revisions are never modified, and the result does not depend on their
// order (but for the order of Sync.Pods and Sync.Revisions, which follow
// the input).
// Upstream: StatefulSetController.sync and syncStatefulSet
// (pkg/controller/statefulset/stateful_set.go), defaultStatefulSetControl.UpdateStatefulSet
// (stateful_set_control.go).
func PlanWith[T any](set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, now time.Time, opts Options) (Sync[T], error) {
	p := Planner[T]{Options: opts}
	if _, err := p.Plan(set, pods, revisions, now); err != nil {
		return Sync[T]{}, err
	}
	return *p.Explain(), nil
}

// Planner plans syncs one after another, for a controller loop, a
// simulation or a benchmark. Its Plan gives the same Sync as PlanWith
// with its Options but leaves the reasons to Explain, and reuses its
// memory: in a steady state (no pod or revision created) Plan does not
// allocate. The zero Planner is ready to use. A Planner is not safe for
// concurrent use.
type Planner[T any] struct {
	// Options are the options every Plan call uses.
	Options Options

	p    planner[T]
	bufs [2]Sync[T]
	cc   [2][2]int32 // per buffer: the collision count after the sync, and the input's
	next int
	last *Sync[T]

	// The revision data of the last template encoded, by set name, UID
	// and generation.
	dataName, dataUID string
	dataGen           int64
	data              []byte
}

// Plan returns what one sync does, as PlanWith(set, pods, revisions,
// now, p.Options), with the same errors, and three differences:
//
//   - The Sync belongs to the Planner and stays valid until the second
//     Plan call after this one, so that its StatefulSet, Pods and
//     Revisions may be the next call's input.
//   - Reasons are "" until Explain writes them.
//   - The template's revision data is reused from the previous call when
//     the set's name, UID and generation are the same (the API server
//     raises the generation on every change of the spec, as upstream's
//     revision cache assumes): a caller that changes Template without
//     raising Generation must use a new Planner.
func (p *Planner[T]) Plan(set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, now time.Time) (*Sync[T], error) {
	p.last = nil
	if err := checkSet(set); err != nil {
		return nil, err
	}
	data, err := p.revisionData(set)
	if err != nil {
		return nil, err
	}
	out := &p.bufs[p.next]
	cc := &p.cc[p.next]
	p.next ^= 1
	pl := &p.p
	pl.reset(set, pods, revisions, now, p.Options, data, out, cc)
	if err := pl.run(); err != nil {
		pl.reset(nil, nil, nil, time.Time{}, Options{}, nil, nil, nil)
		out.Actions, out.Pods, out.Revisions = out.Actions[:0], out.Pods[:0], out.Revisions[:0]
		return nil, err
	}
	p.last = out
	return out, nil
}

// Explain writes the reasons of the Sync the last Plan call returned
// (every Action.Reason and Sync.Reason, the text PlanWith gives) and
// returns it; nil when the last call failed or there was none.
func (p *Planner[T]) Explain() *Sync[T] {
	if p.last == nil {
		return nil
	}
	p.p.explain()
	return p.last
}

// revisionData returns the revision data of set's template, from the
// cache when name, UID and generation are those of the last call.
func (p *Planner[T]) revisionData(set *StatefulSet[T]) ([]byte, error) {
	if p.data != nil && p.dataName == set.Name && p.dataUID == set.UID && p.dataGen == set.Generation {
		return p.data, nil
	}
	tmpl, err := json.Marshal(&set.Template)
	if err != nil {
		return nil, inputError("spec.template", "encoding: %v", err)
	}
	data, err := RevisionData(tmpl)
	if err != nil {
		return nil, err
	}
	p.data, p.dataName, p.dataUID, p.dataGen = data, set.Name, set.UID, set.Generation
	return data, nil
}

// checkSet reports a set Plan cannot plan.
func checkSet[T any](set *StatefulSet[T]) error {
	if set == nil {
		return &field.Error{Type: field.TypeRequired, Field: "statefulset", Err: field.ErrRequired}
	}
	if list := Validate(set); len(list) > 0 {
		return list.WithPrefix("statefulset: invalid StatefulSet " + strconv.Quote(set.Name)).ToError()
	}
	switch {
	case set.Name == "":
		return requiredError("metadata.name")
	case set.Replicas > MaxReplicas:
		return &field.Error{Prefix: "statefulset", Field: "spec.replicas", Value: strconv.FormatInt(int64(set.Replicas), 10),
			Detail: "must not be greater than " + strconv.Itoa(MaxReplicas) + " (this package keeps one slot per replica)", Err: field.ErrRange}
	case EndOrdinal(set) > math.MaxInt32:
		return &field.Error{Prefix: "statefulset", Field: "spec.ordinals.start", Value: strconv.FormatInt(int64(set.Ordinals.Start), 10),
			Detail: "the last ordinal, start + replicas - 1, must not pass " + strconv.Itoa(math.MaxInt32) + " (a pod name beyond it has no ordinal)", Err: field.ErrRange}
	case set.Selector != nil && set.UID == "":
		return requiredError("metadata.uid")
	}
	if set.Selector != nil {
		if err := set.Selector.Validate(); err != nil {
			var list field.ErrorList
			if errors.As(err, &list) {
				return list.WithPrefix("statefulset: invalid StatefulSet " + strconv.Quote(set.Name) + ": spec.selector").ToError()
			}
			return err
		}
	}
	return nil
}

// Pod states in planner.state, one per input pod.
const (
	podClaimed  uint8 = 1 << iota // the set's pod this sync
	podAdopted                    // adopted this sync
	podDeleted                    // deleted this sync
	podIdentity                   // identity fixed this sync
)

// slotEmpty marks, in planner.slots, a slot without a pod of the set and
// without a pod holding its name; a slot whose name is held by input pod
// i that the set does not own holds heldBy(i), below slotEmpty.
const slotEmpty = -1

// heldBy is the planner.slots value of a slot whose name input pod i
// holds without being the set's.
func heldBy(i int32) int32 { return -2 - i }

// holder returns the input pod holding the name of a slot whose value
// is v, or -1.
func holder(v int32) int32 {
	if v < slotEmpty {
		return -2 - v
	}
	return -1
}

// planner carries one sync.
type planner[T any] struct {
	set       *StatefulSet[T]
	pods      []Pod
	revisions []ControllerRevision
	now       time.Time
	opts      Options
	data      []byte
	out       *Sync[T]
	cc        *[2]int32

	strat     strategy
	start     int64
	monotonic bool
	revs      Revisions

	state       []uint8  // per input pod
	ords        []int32  // per input pod: its ordinal, -1 for non-members
	others      []int32  // input pods not in a slot, by name
	order       []int    // revisions in history order
	name        []byte   // scratch for revision names
	slots       []int32  // per slot: input pod index, or slotEmpty
	condemned   []int32  // input pod indices, descending ordinal
	created     []int32  // slots created this sync, in order
	createdName []string // their pod names
	createdDel  []bool   // created[i] deleted this sync
	slotState   []Slot
	refused     string // the first pod whose creation is refused this sync
	del         []int32
	dropRevs    []int
	whys        []why
	first       firstUnavailable
	status      Status
	upd         UpdateDecision
}

// firstUnavailable is the sync's first unavailable pod.
type firstUnavailable struct {
	slot      int64 // slot index, or -1
	condemned int32 // input pod index, or -1
}

func (p *planner[T]) reset(set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, now time.Time, opts Options, data []byte, out *Sync[T], cc *[2]int32) {
	p.set, p.pods, p.revisions, p.now, p.opts, p.data, p.out, p.cc = set, pods, revisions, now, opts, data, out, cc
	p.revs = Revisions{}
	p.whys = p.whys[:0]
	p.created = p.created[:0]
	p.createdName = p.createdName[:0]
	p.createdDel = p.createdDel[:0]
	p.condemned = p.condemned[:0]
	p.del = p.del[:0]
	p.dropRevs = p.dropRevs[:0]
	p.status = Status{}
	p.refused = ""
	p.upd = UpdateDecision{}
	p.first = firstUnavailable{slot: -1, condemned: -1}
}

// grow returns s with length n, reusing its memory.
func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

func (p *planner[T]) run() error {
	set := p.set
	out := p.out
	out.Actions = out.Actions[:0]
	out.Pods = out.Pods[:0]
	out.Revisions = out.Revisions[:0]
	out.StoppedAt, out.StoppedPod, out.Blocker = 0, "", 0
	out.Requeue, out.RequeueAfter, out.Reason, out.MaxUnavailable = false, 0, "", 0
	p.strat = readStrategy(set.UpdateStrategy)
	p.start = StartOrdinal(set)
	p.monotonic = set.PodManagementPolicy != Parallel

	if err := p.checkPods(); err != nil {
		return err
	}
	p.claim()

	// 2. Revisions.
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	p.order = grow(p.order, len(p.revisions))
	revs, err := chooseRevisions(set.Name, p.revisions, p.order, &p.name, p.data, set.Status.CurrentRevision, cc)
	if err != nil {
		return err
	}
	p.revs = revs
	switch revs.Choice {
	case Create:
		p.add(Action{Kind: CreateRevision, Stage: StageRevisions, Revision: revs.Update.Name, Number: revs.Update.Number, Collisions: revs.Collisions}, why{})
	case Rollback:
		p.add(Action{Kind: RenumberRevision, Stage: StageRevisions, Revision: revs.Update.Name, Number: revs.Update.Number},
			why{number: p.revisions[revs.Existing].Number})
	}
	p.cc[0] = revs.CollisionCount
	p.status = Status{ObservedGeneration: set.Generation, CurrentRevision: revs.Current, UpdateRevision: revs.Update.Name}

	// 3. Slots and condemned pods.
	p.sortSlots()

	if set.Deleting {
		for i := range p.pods {
			if p.state[i]&podClaimed != 0 {
				countPod(&p.status, &p.pods[i], set.MinReadySeconds, p.now)
			}
		}
	} else {
		p.sync()
	}
	p.finish()
	return nil
}

// checkPods reports pods Plan cannot plan. It records each pod's
// ordinal in p.ords (-1 for non-members and unparsable ordinals), puts
// the members that fall in a slot in p.slots (a second pod for a slot is
// a duplicate name) and the other pods in p.others, sorted by name.
func (p *planner[T]) checkPods() error {
	pods := p.pods
	r := int(p.set.Replicas)
	end := p.start + int64(r) - 1
	p.slots = grow(p.slots, r)
	for k := range p.slots {
		p.slots[k] = slotEmpty
	}
	p.ords = grow(p.ords, len(pods))
	p.others = p.others[:0]
	for i := range pods {
		path := func() string { return "pods[" + strconv.Itoa(i) + "]" }
		switch {
		case pods[i].Name == "":
			return requiredError(path() + ".name")
		case pods[i].Phase == "":
			return requiredError(path() + ".phase")
		}
		parent, ord := ParseOrdinal(pods[i].Name)
		if parent != p.set.Name {
			ord = -1
		} else if ord >= 0 && !canonicalOrdinal(pods[i].Name, len(parent)) {
			return &field.Error{Prefix: "statefulset", Field: path() + ".name", Value: strconv.Quote(pods[i].Name),
				Detail: "ordinal " + strconv.Itoa(int(ord)) + " is not written as the controller writes it (" + strconv.Quote(PodName(parent, int64(ord))) + ")", Err: field.ErrSyntax}
		}
		p.ords[i] = ord
		if o := int64(ord); ord >= 0 && o >= p.start && o <= end {
			if j := p.slots[o-p.start]; j >= 0 {
				return duplicateError(path()+".name", pods[i].Name)
			}
			p.slots[o-p.start] = int32(i)
			continue
		}
		p.others = append(p.others, int32(i))
	}
	slices.SortFunc(p.others, func(a, b int32) int { return strings.Compare(pods[a].Name, pods[b].Name) })
	for k := 1; k < len(p.others); k++ {
		if a, b := p.others[k-1], p.others[k]; pods[a].Name == pods[b].Name {
			i := int(max(a, b))
			return duplicateError("pods["+strconv.Itoa(i)+"].name", pods[i].Name)
		}
	}
	return nil
}

// canonicalOrdinal reports whether the digits after name[:n+1] have no
// leading zero.
func canonicalOrdinal(name string, n int) bool {
	digits := name[n+1:]
	return len(digits) == 1 || digits[0] != '0'
}

// claim decides which pods are the set's: the pods in the slots by
// ordinal, then the others by name (the controller's order is its
// informer's, which is not fixed).
// Upstream: PodControllerRefManager.ClaimPods with isMemberOf
// (pkg/controller/controller_ref_manager.go).
func (p *planner[T]) claim() {
	p.state = grow(p.state, len(p.pods))
	clear(p.state)
	for _, i := range p.slots {
		if i >= 0 {
			p.claimPod(int(i))
		}
	}
	for _, i := range p.others {
		p.claimPod(int(i))
	}
}

// claimPod decides for pod i.
func (p *planner[T]) claimPod(i int) {
	set := p.set
	pod := &p.pods[i]
	parent, _ := ParseOrdinal(pod.Name)
	member := parent == set.Name
	if set.Selector == nil {
		if member && pod.ControllerUID == set.UID {
			p.state[i] = podClaimed
		}
		return
	}
	if pod.ControllerUID != "" && pod.ControllerUID != set.UID {
		return
	}
	match := member && p.selects(pod.Labels)
	switch {
	case pod.ControllerUID != "" && match:
		p.state[i] = podClaimed
	case pod.ControllerUID != "":
		if !set.Deleting {
			p.add(Action{Kind: ReleasePod, Stage: StageClaim, Pod: pod.Name, Revision: pod.Revision}, why{member: member})
		}
	case set.Deleting || !match || pod.Terminating:
	default:
		p.state[i] = podClaimed | podAdopted
		p.add(Action{Kind: AdoptPod, Stage: StageClaim, Pod: pod.Name, Revision: pod.Revision}, why{})
	}
}

// selects reports whether the set's selector (validated in checkSet)
// matches labels, as ownership.Selector.Matches does; a selector of
// matchLabels alone is matched here without validating it again.
func (p *planner[T]) selects(labels map[string]string) bool {
	sel := p.set.Selector
	if len(sel.MatchExpressions) > 0 {
		ok, _ := sel.Matches(labels)
		return ok
	}
	for k, v := range sel.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// sortSlots keeps the claimed pods in p.slots and puts the claimed
// condemned pods in p.condemned, by descending ordinal.
func (p *planner[T]) sortSlots() {
	for k, i := range p.slots {
		if i >= 0 && p.state[i]&podClaimed == 0 {
			p.slots[k] = heldBy(i)
		}
	}
	for _, i := range p.others {
		if p.state[i]&podClaimed != 0 && p.ords[i] >= 0 {
			p.condemned = append(p.condemned, i)
		}
	}
	slices.SortFunc(p.condemned, func(a, b int32) int { return int(p.ords[b]) - int(p.ords[a]) })
}

// slotPod returns slot k's pod, nil for an empty slot.
func (p *planner[T]) slotPod(k int) *Pod {
	if i := p.slots[k]; i >= 0 {
		return &p.pods[i]
	}
	return nil
}

// placeholderRevision is the revision of the pod created for slot k.
func (p *planner[T]) placeholderRevision(k int) string {
	return NewPodRevision(p.set.UpdateStrategy, p.start+int64(k), p.set.Ordinals.Start, p.set.Status.CurrentReplicas, p.revs.Current, p.revs.Update.Name)
}

// batcher numbers the slow-start batches of a Parallel step.
type batcher struct {
	batch, size, used, remaining int
}

func newBatcher(n int) batcher { return batcher{batch: 1, size: min(n, 1), remaining: n} }

// next returns the batch of the next item.
func (b *batcher) next() int32 {
	if b.used == b.size {
		b.remaining -= b.size
		b.size = min(2*b.size, b.remaining, maxBatch)
		b.batch++
		b.used = 0
	}
	b.used++
	return int32(b.batch)
}

// sync runs steps 5 to 7 and counts the status.
func (p *planner[T]) sync() {
	set := p.set
	min := set.MinReadySeconds
	r := len(p.slots)

	for k := 0; k < r; k++ {
		if IsUnavailable(p.slotPod(k), min, p.now) {
			p.first.slot = int64(k)
			break
		}
	}
	if p.first.slot < 0 {
		for j := len(p.condemned) - 1; j >= 0; j-- {
			if IsUnavailable(&p.pods[p.condemned[j]], min, p.now) {
				p.first.condemned = p.condemned[j]
				break
			}
		}
	}

	if !p.replicaStep() || !p.condemnedStep() {
		p.countSlots()
		return
	}
	p.countSlots()
	if p.strat.typ == OnDelete {
		return
	}
	p.updateStep()
}

// replicaStep is step 5; it reports whether the sync goes on.
//
// A creation whose name a pod the set does not own holds is refused by
// the API server (AlreadyExists): processReplica returns the error, and
// runForAll ends the step at once under OrderedReady, and under Parallel
// once the slow-start batch holding the slot has run; the sync then
// fails.
func (p *planner[T]) replicaStep() bool {
	set := p.set
	b := newBatcher(len(p.slots))
	var failed int32 // the Parallel batch holding a refused creation
	for k := range p.slots {
		var batch int32
		if !p.monotonic {
			batch = b.next()
			if failed != 0 && batch > failed {
				p.stop(StageReplicas, p.refused, BlockRefused)
				return false
			}
		}
		pod := p.slotPod(k)
		d := ProcessReplica(pod, set.PodManagementPolicy, set.MinReadySeconds, p.now)
		ord := int32(p.start + int64(k))
		switch {
		case d.Create && holder(p.slots[k]) >= 0:
			h := holder(p.slots[k])
			name := PodName(set.Name, int64(ord))
			if p.refused == "" {
				p.refused = name
			}
			failed = batch
			p.add(Action{Kind: CreatePod, Stage: StageReplicas, Pod: name, Ordinal: ord, Revision: p.placeholderRevision(k), Batch: batch,
				Rejected: `pods "` + name + `" already exists`}, why{held: p.heldHow(h), label: p.pods[h].ControllerUID})
			if p.monotonic {
				p.stop(StageReplicas, name, BlockRefused)
				return false
			}
			continue
		case d.Create:
			name := PodName(set.Name, int64(ord))
			p.created = append(p.created, int32(k))
			p.createdName = append(p.createdName, name)
			p.createdDel = append(p.createdDel, false)
			p.add(Action{Kind: CreatePod, Stage: StageReplicas, Pod: name, Ordinal: ord, Revision: p.placeholderRevision(k), Batch: batch}, why{})
		case d.Delete:
			p.state[p.slots[k]] |= podDeleted
			p.add(Action{Kind: DeletePod, Stage: StageReplicas, Pod: pod.Name, Ordinal: ord, Revision: pod.Revision, Batch: batch}, why{phase: pod.Phase})
		case d.UpdateIdentity:
			p.state[p.slots[k]] |= podIdentity
			p.add(Action{Kind: UpdatePod, Stage: StageReplicas, Pod: pod.Name, Ordinal: ord, Revision: pod.Revision, Batch: batch}, why{label: pod.PodNameLabel})
		}
		if p.monotonic && d.Stop != 0 {
			p.stop(StageReplicas, p.slotName(k), d.Stop)
			return false
		}
	}
	if failed != 0 {
		p.stop(StageReplicas, p.refused, BlockRefused)
		return false
	}
	return true
}

// heldHow says why the set does not own input pod i, which holds a
// slot's name.
func (p *planner[T]) heldHow(i int32) heldReason {
	pod := &p.pods[i]
	switch {
	case pod.ControllerUID == p.set.UID:
		return heldReleased
	case pod.ControllerUID != "":
		return heldOwned
	case p.set.Selector == nil:
		return heldOrphan
	case pod.Terminating:
		return heldTerminating
	}
	return heldUnmatched
}

// stop records where the sync stopped.
func (p *planner[T]) stop(step Stage, pod string, b Blocker) {
	p.out.StoppedAt, p.out.StoppedPod, p.out.Blocker = step, pod, b
}

// slotName returns the name of slot k's pod: the input pod's, or the
// one created this sync (the last created when k is empty).
func (p *planner[T]) slotName(k int) string {
	if i := p.slots[k]; i >= 0 {
		return p.pods[i].Name
	}
	for j := len(p.created) - 1; j >= 0; j-- {
		if p.created[j] == int32(k) {
			return p.createdName[j]
		}
	}
	return PodName(p.set.Name, p.start+int64(k))
}

// condemnedStep is step 6; it reports whether the sync goes on.
func (p *planner[T]) condemnedStep() bool {
	set := p.set
	b := newBatcher(len(p.condemned))
	for _, i := range p.condemned {
		var batch int32
		if !p.monotonic {
			batch = b.next()
		}
		pod := &p.pods[i]
		d := ProcessCondemned(pod, p.first.condemned == i, set.PodManagementPolicy, set.MinReadySeconds, p.now)
		ord := p.ords[i]
		if d.Delete {
			p.state[i] |= podDeleted
			p.add(Action{Kind: DeletePod, Stage: StageCondemned, Pod: pod.Name, Ordinal: ord, Revision: pod.Revision, Batch: batch}, why{first: p.first.condemned == i})
		}
		if p.monotonic && d.Stop != 0 {
			p.stop(StageCondemned, pod.Name, d.Stop)
			return false
		}
	}
	return true
}

// countSlots counts the status over the slot pods and condemned pods.
func (p *planner[T]) countSlots() {
	min := p.set.MinReadySeconds
	for k := range p.slots {
		if pod := p.slotPod(k); pod != nil {
			countPod(&p.status, pod, min, p.now)
		}
	}
	for _, i := range p.condemned {
		countPod(&p.status, &p.pods[i], min, p.now)
	}
}

// updateStep is step 7.
func (p *planner[T]) updateStep() {
	set := p.set
	update := p.revs.Update.Name
	p.slotState = grow(p.slotState, len(p.slots))
	for k := range p.slots {
		if pod := p.slotPod(k); pod != nil {
			p.slotState[k] = Slot{Outdated: pod.Revision != update, Terminating: pod.Terminating, Unavailable: IsUnavailable(pod, set.MinReadySeconds, p.now)}
		} else {
			p.slotState[k] = Slot{Outdated: p.placeholderRevision(k) != update, Unavailable: true}
		}
	}
	gate := p.opts.Gates.MaxUnavailableStatefulSet
	var mu int32
	partition := int32(0)
	if !p.strat.ruNil {
		partition = p.strat.partition
	}
	if gate {
		mu = 1
		if !p.strat.ruNil {
			mu, _ = MaxUnavailable(p.strat.mu, set.Replicas) // validated in checkSet
		}
		p.out.MaxUnavailable = mu
	}
	p.upd = UpdateStep(p.slotState, partition, gate, mu, !p.monotonic, p.opts.Budget, p.del[:0])
	p.del = p.upd.Delete
	for _, k := range p.upd.Delete {
		ord := int32(p.start + int64(k))
		rev := ""
		counted := false // the pod is in status.currentReplicas
		if i := p.slots[k]; i >= 0 {
			p.state[i] |= podDeleted
			rev = p.pods[i].Revision
			counted = rev == p.revs.Current && !p.pods[i].Terminating
		} else {
			rev = p.placeholderRevision(int(k))
			for j, c := range p.created {
				if c == k {
					p.createdDel[j] = true
				}
			}
		}
		if p.opts.CurrentReplicas == CurrentReplicasUpstream || counted {
			p.status.CurrentReplicas--
		}
		p.add(Action{Kind: DeletePod, Stage: StageUpdate, Pod: p.slotName(int(k)), Ordinal: ord, Revision: rev}, why{unavailable: p.upd.Unavailable, budget: p.upd.MaxUnavailable, gate: gate})
	}
	if p.upd.Stop != 0 {
		p.out.StoppedAt, p.out.Blocker = StageUpdate, p.upd.Stop
		if p.upd.StopSlot >= 0 {
			p.out.StoppedPod = p.slotName(int(p.upd.StopSlot))
		}
	}
}

// finish runs steps 8 to 10 and fills the Sync.
func (p *planner[T]) finish() {
	set := p.set
	out := p.out
	st := &p.status
	completeRollingUpdate(p.strat, set.Replicas, st, p.opts.ZeroReplicas)
	st.CollisionCount = &p.cc[0]
	out.Status = *st
	out.CurrentRevision, out.UpdateRevision = p.revs.Current, p.revs.Update.Name
	out.StatefulSet = *set
	written := false
	if p.refused != "" {
		out.Requeue = true
	}
	if StatusChanged(&set.Status, st) {
		a := Action{Kind: WriteStatus, Stage: StageStatus}
		if list := ValidateStatus(st); len(list) > 0 {
			a.Rejected = list.Error()
			out.Requeue = true
		} else {
			written = true
		}
		p.add(a, why{})
	}
	if written {
		out.StatefulSet.Status = *st
	} else if set.Status.CollisionCount != nil {
		p.cc[1] = *set.Status.CollisionCount
		out.StatefulSet.Status.CollisionCount = &p.cc[1]
	}

	// Pods.
	if n := len(p.pods) + len(p.created); cap(out.Pods) < n {
		out.Pods = make([]Pod, 0, n)
	}
	for i := range p.pods {
		s := p.state[i]
		if s&podClaimed == 0 {
			continue
		}
		pod := p.pods[i]
		if s&podAdopted != 0 {
			pod.ControllerUID = set.UID
		}
		if s&podDeleted != 0 {
			pod.Terminating = true
		}
		if s&podIdentity != 0 {
			pod.PodNameLabel = pod.Name
		}
		out.Pods = append(out.Pods, pod)
	}
	for j, k := range p.created {
		name := p.createdName[j]
		out.Pods = append(out.Pods, Pod{Name: name, Revision: p.placeholderRevision(int(k)), PodNameLabel: name, Labels: set.TemplateLabels,
			ControllerUID: set.UID, Phase: PodPending, Terminating: p.createdDel[j], CreationTime: p.now})
	}

	// 9. History.
	limit := DefaultRevisionHistoryLimit
	if set.RevisionHistoryLimit != nil {
		limit = *set.RevisionHistoryLimit
	}
	p.dropRevs = truncateHistory(p.revisions, p.order, p.revs.Current, p.revs.Update.Name, out.Pods, limit, p.dropRevs[:0])
	for _, i := range p.dropRevs {
		r := &p.revisions[i]
		p.add(Action{Kind: DeleteRevision, Stage: StageHistory, Revision: r.Name, Number: r.Number}, why{limit: limit})
	}
	for i := range p.revisions {
		if slices.Contains(p.dropRevs, i) {
			continue
		}
		r := p.revisions[i]
		if i == p.revs.Existing {
			r.Number = p.revs.Update.Number
		}
		out.Revisions = append(out.Revisions, r)
	}
	if p.revs.Choice == Create {
		out.Revisions = append(out.Revisions, p.revs.Update)
	}

	// Empty results are the same whatever memory the Planner reuses:
	// no Actions is nil, no Pods or Revisions an empty slice.
	if len(out.Actions) == 0 {
		out.Actions = nil
	}
	if out.Pods == nil {
		out.Pods = []Pod{}
	}
	if out.Revisions == nil {
		out.Revisions = []ControllerRevision{}
	}

	// 10. Requeue.
	if !out.Requeue && set.MinReadySeconds > 0 && st.ReadyReplicas != st.AvailableReplicas {
		after := time.Duration(set.MinReadySeconds) * time.Second
		for i := range p.pods {
			if p.state[i]&podClaimed == 0 {
				continue
			}
			if d, ok := nextAvailable(&p.pods[i], set.MinReadySeconds, p.now); ok && d < after {
				after = d
			}
		}
		out.Requeue, out.RequeueAfter = true, after
	}
}
