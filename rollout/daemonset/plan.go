package daemonset

import (
	"hash/fnv"
	"slices"
	"strconv"
	"time"
)

// ActionKind is what an Action writes: one kind per write of a sync,
// whichever step makes it (the history, manage, the rolling update, the
// cleanup, the status).
type ActionKind uint8

// The writes of one sync, in the order the controller makes them.
const (
	// LabelRevision adds the HashLabel, with the revision's name as its
	// value, to a revision without one.
	LabelRevision ActionKind = iota + 1
	// WriteRevision creates the current revision (a new template) or gives
	// the revision holding the template the next number (a rollback);
	// Action.Revision and Action.Number say which.
	WriteRevision
	// BumpCollisionCount raises status.collisionCount by one: the name of
	// the revision to create is taken. The sync fails there and is
	// retried.
	BumpCollisionCount
	// RelabelPod sets a pod's HashLabel to Action.Hash, the kept revision
	// among several holding the template.
	RelabelPod
	// CreatePod creates a pod for Action.Node at Action.Hash.
	CreatePod
	// DeletePod deletes a pod (it becomes Terminating).
	DeletePod
	// DeleteRevision deletes a revision: a duplicate of the current one,
	// or an old one beyond revisionHistoryLimit.
	DeleteRevision
	// WriteStatus writes the DaemonSet's status.
	WriteStatus
)

// String returns the kind's name, e.g. "CreatePod".
func (k ActionKind) String() string {
	switch k {
	case LabelRevision:
		return "LabelRevision"
	case WriteRevision:
		return "WriteRevision"
	case BumpCollisionCount:
		return "BumpCollisionCount"
	case RelabelPod:
		return "RelabelPod"
	case CreatePod:
		return "CreatePod"
	case DeletePod:
		return "DeletePod"
	case DeleteRevision:
		return "DeleteRevision"
	case WriteStatus:
		return "WriteStatus"
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one write of a sync, in the controller's order.
type Action struct {
	Kind ActionKind `json:"kind"`
	// Pod names the pod acted on (CreatePod: the name Plan gives it).
	Pod string `json:"pod,omitempty"`
	// Node names the node of the pod acted on.
	Node string `json:"node,omitempty"`
	// Revision names the revision acted on.
	Revision string `json:"revision,omitempty"`
	// Hash is the hash label written (CreatePod, RelabelPod,
	// WriteRevision) or, for DeletePod, the deleted pod's hash.
	Hash string `json:"hash,omitempty"`
	// Number is a written revision's number.
	Number int64 `json:"number,omitempty"`
	// Reason says why, for a person. Planner.Plan leaves it "" until
	// Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Sync is what one sync of the DaemonSet controller does: Plan's result.
type Sync[T any] struct {
	// Actions are the writes in the controller's order: the history
	// (labels, the current revision, relabelled pods and deleted
	// duplicates), manage's creations then deletions, the rolling
	// update's creations then deletions, the history cleanup, the status.
	Actions []Action `json:"actions,omitempty"`
	// DaemonSet is the DaemonSet as the sync leaves it: the status
	// written, or the collision count raised.
	DaemonSet DaemonSet[T] `json:"daemonSet"`
	// Pods are the pods as the sync leaves them, in input order, created
	// ones last: a deleted pod stays with Terminating set, a relabelled
	// pod has its new Hash, and a created pod has Node, Unscheduled (the
	// controller sets a node affinity, not spec.nodeName), Phase Pending,
	// Hash, TemplateGeneration and Created now.
	Pods []Pod `json:"pods"`
	// Revisions are the revisions as the sync leaves them, in input
	// order without deleted ones, a created one last.
	Revisions []ControllerRevision `json:"revisions"`
	// Hash is the current revision's hash: the label pods at the current
	// template carry.
	Hash string `json:"hash"`
	// Budget is the rolling update's budget over the nodes.
	Budget Budget `json:"budget"`
	// Manage is what manage decided (before the burst limit of 250
	// creations and 250 deletions per sync).
	Manage Decision `json:"manage"`
	// RollingUpdate is what the rolling update decided; nil when it did
	// not run: manage wrote something (the controller waits until its
	// cache has seen those writes, normally the next sync), the strategy
	// is OnDelete, or the sync stopped earlier.
	RollingUpdate *Decision `json:"rollingUpdate,omitempty"`
	// Status is the status the sync computed (written when a count
	// differs or the observed generation is behind; see the WriteStatus
	// action).
	Status Status `json:"status"`
	// Requeue says the controller looks at the DaemonSet again after
	// RequeueAfter even without an event (RequeueAfter 0: at once,
	// rate-limited, after a failure).
	Requeue      bool          `json:"requeue,omitempty"`
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Reason summarises the sync in one line. Planner.Plan leaves it ""
	// until Planner.Explain writes it.
	Reason string `json:"reason"`
}

// Plan returns what one sync of the DaemonSet controller does to ds, its
// nodes, pods and ControllerRevisions at time now, with the default
// Options. See PlanWith.
func Plan[T any](ds *DaemonSet[T], nodes []Node, pods []Pod, revisions []ControllerRevision, now time.Time) (Sync[T], error) {
	return PlanWith(ds, nodes, pods, revisions, now, Options{})
}

// PlanWith returns what one sync does, in the controller's order:
//
//  1. Nothing when ds is being deleted (not even status).
//  2. The history ([ConstructHistory]): the current revision's hash is
//     the sync's hash. A name collision raises the collision count and
//     ends the sync (Requeue).
//  3. Manage ([Manage]): creations, then deletions, at most 250 of each
//     (the controller's burst limit; the rest waits for later syncs).
//  4. When manage wrote nothing and the strategy is RollingUpdate, the
//     rolling update ([RollingUpdateStep]). In a cluster, the controller
//     runs it only once its cache has seen manage's writes, which is
//     normally the next sync; Plan therefore skips it after writes. (The
//     upstream unit-test fake sees its own writes at once and runs both in
//     one sync.) A failing rolling update skips the cleanup and requeues.
//  5. The history cleanup ([HistoryToDelete]).
//  6. The status ([CalculateStatus]) over the pods as listed at the start,
//     with observedGeneration set to the generation; written when it
//     differs. Requeue after minReadySeconds when some ready pods are not
//     yet available.
//
// Order: upstream walks nodes in the order its caches list them, which
// is Go's randomised map order for the rolling update, so which nodes
// are updated first varies from run to run. Plan walks nodes by name,
// one of the orders upstream can produce; the counts are upstream's in
// every order. Plan's result does not depend on the order of its inputs
// (beyond the output slices, which follow the input).
//
// Plan assumes the controller's expectations are satisfied: pods holds
// every pod the controller created and shows every pod it deleted as
// terminating or gone. It does not model the failed-pod backoff (a
// Failed pod is deleted at once) or API errors. A created pod is named
// "<ds.Name>-" followed by five characters of Kubernetes' safe alphabet
// derived from the node's name (the API server picks them at random).
//
// ds, nodes, pods and revisions are never modified. Errors (the Sync is
// then zero), each a *field.Error or field.ErrorList wrapping
// field.ErrInvalid: a nil ds, a DaemonSet that [Validate] rejects
// (reported as `daemonset: invalid DaemonSet "name": ...`), empty or
// duplicate node, pod or revision names, a node with ShouldRun but not
// ShouldContinueRunning, an unknown pod phase, a template encoding/json
// cannot encode into a JSON object.
//
// PlanWith is a fresh [Planner] with opts: its Plan, then its Explain.
// Upstream: syncDaemonSet, pkg/controller/daemon/daemon_controller.go.
func PlanWith[T any](ds *DaemonSet[T], nodes []Node, pods []Pod, revisions []ControllerRevision, now time.Time, opts Options) (Sync[T], error) {
	p := Planner[T]{Options: opts}
	if _, err := p.Plan(ds, nodes, pods, revisions, now); err != nil {
		return Sync[T]{}, err
	}
	return *p.Explain(), nil
}

// Planner plans syncs one after another, for a controller loop or a tool
// that replays many rollouts. Its Plan gives the same Sync as PlanWith
// with its Options but leaves the reasons to Explain. In a steady state
// (a DaemonSet whose sync writes nothing but possibly its status, with
// the same UID, generation and collision count as the last call), Plan
// does not allocate: it reuses its memory and the revision data and hash
// it computed for that generation (the API server changes the generation
// with every change of the template). The zero Planner is ready to use.
// A Planner is not safe for concurrent use.
type Planner[T any] struct {
	// Options are the options every Plan call uses.
	Options Options

	p     planner[T]
	bufs  [2]Sync[T]
	rolls [2]Decision // the buffers' RollingUpdate
	next  int
	last  *Sync[T]

	// The revision data and hash of the last template, with its key.
	cached              bool
	cacheName, cacheUID string
	cacheGen            int64
	cacheCount          int32
	cacheHasCount       bool
	cacheData           []byte
	cacheHash           string
}

// Plan returns what one sync does, as PlanWith(ds, nodes, pods,
// revisions, now, p.Options), with two differences: the Sync belongs to
// the Planner and stays valid until the second call of Plan after this
// one (so that its DaemonSet, Pods and Revisions may be the next call's
// input), and reasons are "" until Explain writes them.
func (p *Planner[T]) Plan(ds *DaemonSet[T], nodes []Node, pods []Pod, revisions []ControllerRevision, now time.Time) (*Sync[T], error) {
	p.last = nil
	if ds == nil {
		return nil, nilError()
	}
	if errs := Validate(ds); len(errs) > 0 {
		return nil, errs.WithPrefix(prefix + ": invalid DaemonSet " + strconv.Quote(ds.Name))
	}
	data, hash, err := p.revisionData(ds)
	if err != nil {
		return nil, err
	}
	out := &p.bufs[p.next]
	pl := &p.p
	pl.out = out
	pl.rollDecision = &p.rolls[p.next]
	if err := pl.run(ds, nodes, pods, revisions, now, p.Options, data, hash); err != nil {
		return nil, err
	}
	p.next ^= 1
	p.last = out
	return out, nil
}

// revisionData returns the revision data and the new-revision hash of
// ds's template, from the cache when ds has the cached key.
func (p *Planner[T]) revisionData(ds *DaemonSet[T]) ([]byte, string, error) {
	cc, has := int32(0), ds.Status.CollisionCount != nil
	if has {
		cc = *ds.Status.CollisionCount
	}
	if p.cached && p.cacheName == ds.Name && p.cacheUID == ds.UID && p.cacheGen == ds.Generation && p.cacheHasCount == has && p.cacheCount == cc {
		return p.cacheData, p.cacheHash, nil
	}
	data, err := RevisionData(&ds.Template)
	if err != nil {
		return nil, "", err
	}
	hash := Hash(&ds.Template, ds.Status.CollisionCount)
	p.cached, p.cacheName, p.cacheUID, p.cacheGen, p.cacheHasCount, p.cacheCount = true, ds.Name, ds.UID, ds.Generation, has, cc
	p.cacheData, p.cacheHash = data, hash
	return data, hash, nil
}

// Explain writes the reasons of the Sync the last Plan call returned and
// returns it; nil when the last call failed or there was none.
func (p *Planner[T]) Explain() *Sync[T] {
	if p.last == nil {
		return nil
	}
	p.p.explain()
	return p.last
}

// burstReplicas is the controller's limit on creations and on deletions
// in one sync.
const burstReplicas = 250

// planner carries one sync; its slices are reused.
type planner[T any] struct {
	out  *Sync[T]
	v    view
	hist History
	ord  []int
	roll rollScratch

	creates, deletes []mark // manage's, then the rolling update's
	rollCreates      []mark
	rollDeletes      []mark
	cleanup          []int
	rollDecision     *Decision
	whys             []why
	sc               scene
}

func (p *planner[T]) run(ds *DaemonSet[T], nodes []Node, pods []Pod, revisions []ControllerRevision, now time.Time, opts Options, data []byte, newHash string) error {
	s := p.out
	s.Actions = s.Actions[:0]
	p.whys = p.whys[:0]
	s.DaemonSet = *ds
	s.Pods = append(s.Pods[:0], pods...)
	s.Revisions = append(s.Revisions[:0], revisions...)
	s.Hash, s.Budget, s.RollingUpdate, s.Status = "", Budget{}, nil, Status{}
	s.Manage.Create, s.Manage.Delete = s.Manage.Create[:0], s.Manage.Delete[:0]
	s.Manage.Unavailable, s.Manage.Surge, s.Manage.Available = 0, 0, 0
	s.Requeue, s.RequeueAfter, s.Reason = false, 0, ""
	p.sc = scene{ds: ds.Name, minReady: ds.MinReadySeconds}
	if err := p.v.build(nodes, pods); err != nil {
		return err
	}
	if ds.Deleting {
		p.sc.stop = stopDeleting
		return nil
	}
	b, err := budgets(ds, p.v.desired)
	if err != nil {
		return err
	}
	s.Budget = b
	p.sc.budget = b

	// The history.
	p.ord = p.ord[:0]
	for i := range revisions {
		p.ord = append(p.ord, i)
	}
	if err := constructHistory(ds.Name, revisions, data, newHash, p.ord, &p.hist); err != nil {
		return err
	}
	h := &p.hist
	for _, i := range h.Labelled {
		s.Revisions[i].Hash = s.Revisions[i].Name
		p.act(Action{Kind: LabelRevision, Revision: revisions[i].Name, Hash: revisions[i].Name}, why{kind: whyLabelled})
	}
	switch h.Step {
	case HistoryCollision:
		n := int32(1)
		if c := ds.Status.CollisionCount; c != nil {
			n = *c + 1
		}
		p.act(Action{Kind: BumpCollisionCount, Revision: h.Current.Name}, why{kind: whyCollision, n: int64(n)})
		cc := n
		s.DaemonSet.Status.CollisionCount = &cc
		s.Requeue = true
		p.sc.stop = stopCollision
		return nil
	case HistoryCreate:
		s.Revisions = append(s.Revisions, h.Current)
		p.act(Action{Kind: WriteRevision, Revision: h.Current.Name, Hash: h.Current.Hash, Number: h.Current.Number}, why{kind: whyRevisionCreated})
	}
	hash := h.Current.Hash
	s.Hash = hash
	if len(h.Duplicates) > 0 {
		for _, i := range p.v.nameOrder {
			if pods[i].Hash != hash {
				s.Pods[i].Hash = hash
				p.act(Action{Kind: RelabelPod, Pod: pods[i].Name, Node: pods[i].Node, Hash: hash}, why{kind: whyRelabelled})
			}
		}
		for _, i := range h.Duplicates {
			p.act(Action{Kind: DeleteRevision, Revision: revisions[i].Name}, why{kind: whyDuplicate})
		}
	}
	if h.Step == HistoryRenumber {
		s.Revisions[h.Existing].Number = h.Current.Number
		p.act(Action{Kind: WriteRevision, Revision: h.Current.Name, Hash: hash, Number: h.Current.Number}, why{kind: whyRenumbered, n: revisions[h.Existing].Number})
	}

	// Manage.
	surge := AllowsSurge(ds)
	p.creates, p.deletes = manage(&p.v, ds, hash, surge, now, p.creates[:0], p.deletes[:0])
	for _, m := range p.creates {
		s.Manage.Create = append(s.Manage.Create, p.v.entries[m.i].name)
	}
	for _, m := range p.deletes {
		s.Manage.Delete = append(s.Manage.Delete, pods[m.i].Name)
	}
	wrote := p.syncNodes(ds, p.creates, p.deletes, now, hash, false)

	// The rolling update.
	failed := false
	if !wrote && rolling(ds) {
		var err error
		var counts Decision
		p.rollCreates, p.rollDeletes, counts, err = rollingUpdate(&p.v, ds, b, hash, now, opts, &p.roll, p.rollCreates[:0], p.rollDeletes[:0])
		d := p.rollDecision
		d.Create, d.Delete = d.Create[:0], d.Delete[:0]
		d.Unavailable, d.Surge, d.Available = counts.Unavailable, counts.Surge, counts.Available
		s.RollingUpdate = d
		if err != nil {
			failed = true
			p.sc.failure = err.Error()
			s.Requeue = true
		} else {
			for _, m := range p.rollCreates {
				d.Create = append(d.Create, p.v.entries[m.i].name)
			}
			for _, m := range p.rollDeletes {
				d.Delete = append(d.Delete, pods[m.i].Name)
			}
			p.syncNodes(ds, p.rollCreates, p.rollDeletes, now, hash, true)
		}
	} else if wrote {
		p.sc.waited = true
	}

	// The history cleanup, then the status. The duplicates were deleted
	// with the history, before manage: they leave the output revisions
	// even when a failing rolling update skips the cleanup.
	p.cleanup = p.cleanup[:0]
	if !failed {
		old := append(p.ord[:0], h.Old...)
		p.cleanup = historyToDelete(revisions, old, pods, ds.RevisionHistoryLimit, p.cleanup)
		for _, i := range p.cleanup {
			p.act(Action{Kind: DeleteRevision, Revision: revisions[i].Name}, why{kind: whyHistory, n: revisions[i].Number})
		}
	}
	if len(p.cleanup) > 0 || len(h.Duplicates) > 0 {
		s.Revisions = slices.DeleteFunc(s.Revisions, func(r ControllerRevision) bool {
			for _, i := range p.cleanup {
				if revisions[i].Name == r.Name {
					return true
				}
			}
			for _, i := range h.Duplicates {
				if revisions[i].Name == r.Name {
					return true
				}
			}
			return false
		})
	}
	st := calculateStatus(&p.v, ds, hash, now)
	st.ObservedGeneration = ds.Generation
	s.Status = st
	if statusChanged(&ds.Status, &st, ds.Generation) {
		s.DaemonSet.Status = st
		p.act(Action{Kind: WriteStatus}, why{kind: whyStatus})
	}
	if ds.MinReadySeconds > 0 && st.NumberReady != st.NumberAvailable && !s.Requeue {
		s.Requeue, s.RequeueAfter = true, time.Duration(ds.MinReadySeconds)*time.Second
	}
	return nil
}

// syncNodes records the creations and deletions of one step, at most
// burstReplicas of each, and applies them to the output pods. It reports
// whether it wrote anything.
// Upstream: syncNodes, pkg/controller/daemon/daemon_controller.go.
func (p *planner[T]) syncNodes(ds *DaemonSet[T], creates, deletes []mark, now time.Time, hash string, rolling bool) bool {
	s := p.out
	if len(creates) > burstReplicas {
		p.sc.burst = true
		creates = creates[:burstReplicas]
	}
	if len(deletes) > burstReplicas {
		p.sc.burst = true
		deletes = deletes[:burstReplicas]
	}
	gen := ""
	if g := ds.TemplateGeneration; g != nil {
		gen = strconv.FormatInt(*g, 10)
	}
	for _, m := range creates {
		node := p.v.entries[m.i].name
		name := p.podName(ds.Name, node)
		s.Pods = append(s.Pods, Pod{Name: name, Node: node, Unscheduled: true, Hash: hash, TemplateGeneration: gen, Phase: PodPending, Created: now})
		p.act(Action{Kind: CreatePod, Pod: name, Node: node, Hash: hash}, why{kind: whyCreated, cause: m.c, rolling: rolling})
	}
	for _, m := range deletes {
		q := &s.Pods[m.i]
		q.Terminating = true
		p.act(Action{Kind: DeletePod, Pod: q.Name, Node: q.Node, Hash: p.v.pods[m.i].Hash}, why{kind: whyDeleted, cause: m.c, rolling: rolling})
	}
	return len(creates)+len(deletes) > 0
}

// podName returns a name for a new pod on node that no pod has:
// "<ds>-" and five characters of the safe alphabet from a hash of the
// node's name and a counter.
func (p *planner[T]) podName(ds, node string) string {
	const safe = "bcdfghjklmnpqrstvwxz2456789"
	for k := uint64(0); ; k++ {
		h := fnv.New64a()
		h.Write([]byte(node))
		var buf [20]byte
		h.Write(strconv.AppendUint(buf[:0], k, 10))
		v := h.Sum64()
		var suffix [5]byte
		for i := range suffix {
			suffix[i] = safe[v%uint64(len(safe))]
			v /= uint64(len(safe))
		}
		name := ds + "-" + string(suffix[:])
		if !p.v.taken(name) && !slices.ContainsFunc(p.out.Pods[len(p.v.pods):], func(q Pod) bool { return q.Name == name }) {
			return name
		}
	}
}

// act records an action and the facts of its reason.
func (p *planner[T]) act(a Action, w why) {
	p.out.Actions = append(p.out.Actions, a)
	p.whys = append(p.whys, w)
}
