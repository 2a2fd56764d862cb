package statefulset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// EventKind is what a scripted Event does.
type EventKind uint8

// The scripted events Simulate understands.
const (
	// SetTemplate replaces the pod template: a new update revision.
	SetTemplate EventKind = iota + 1
	// SetReplicas changes spec.replicas (scale up or down).
	SetReplicas
	// SetPartition sets spec.updateStrategy.rollingUpdate.partition
	// (creating the rollingUpdate block if needed).
	SetPartition
	// SetMaxUnavailable sets spec.updateStrategy.rollingUpdate.maxUnavailable
	// (nil: unset).
	SetMaxUnavailable
	// GateOn and GateOff switch the MaxUnavailableStatefulSet gate of
	// kube-controller-manager (a restart with another flag); they do not
	// change the set.
	GateOn
	GateOff
)

// String returns the kind's name, e.g. "SetPartition".
func (k EventKind) String() string {
	switch k {
	case SetTemplate:
		return "SetTemplate"
	case SetReplicas:
		return "SetReplicas"
	case SetPartition:
		return "SetPartition"
	case SetMaxUnavailable:
		return "SetMaxUnavailable"
	case GateOn:
		return "GateOn"
	case GateOff:
		return "GateOff"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is a change applied just before sync number Sync (1 is the
// first; an event outside the syncs that run is never applied). Events
// that change the spec raise the generation, as the API server does.
type Event[T any] struct {
	// Sync is the number of the sync the event comes before, from 1.
	Sync int `json:"sync"`
	// Kind is what the event changes; the fields below hold the new
	// value for their kind.
	Kind           EventKind                 `json:"kind"`
	Template       T                         `json:"template"`                 // SetTemplate
	Replicas       int32                     `json:"replicas,omitempty"`       // SetReplicas
	Partition      int32                     `json:"partition,omitempty"`      // SetPartition
	MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"` // SetMaxUnavailable
}

// Config describes the simulated cluster. The zero value is usable: a
// sync every 10 s, pods Running and Ready as soon as they exist,
// deleted pods gone by the next sync, at most 1,000 syncs.
type Config[T any] struct {
	// Start is the time of the initial state; sync k runs at Start +
	// k*Interval. Zero means 1970-01-01T00:00:00Z.
	Start time.Time `json:"start"`
	// Interval is the time between syncs; zero means 10 s.
	Interval time.Duration `json:"interval,omitempty"`
	// ReadyDelay is how long a created pod is Pending before it is
	// Running and Ready (ReadySince then); it is available
	// minReadySeconds later.
	ReadyDelay time.Duration `json:"readyDelay,omitempty"`
	// ReadyAt gives, by name, when a pod passed to Simulate that is not
	// Ready becomes Running and Ready; a pod it does not name does so
	// ReadyDelay after Start.
	ReadyAt map[string]time.Time `json:"readyAt,omitempty"`
	// TerminationDelay is how long a deleted pod stays Terminating; zero
	// means it is gone by the next sync.
	TerminationDelay time.Duration `json:"terminationDelay,omitempty"`
	// NeverReady is how many of the first pods created at each revision
	// (other than the revisions existing at the start) never become
	// ready: they are Running but not Ready for ever.
	NeverReady int32 `json:"neverReady,omitempty"`
	// MaxSyncs bounds the number of syncs; zero means 1,000.
	MaxSyncs int `json:"maxSyncs,omitempty"`
	// Events are the scripted changes, in any order.
	Events []Event[T] `json:"events,omitempty"`
	// Partitions drive a staged rollout as an operator does with
	// partition steps: once the template has changed (a SetTemplate
	// event), whenever the last stored status shows the step done
	// (observedGeneration current, every pod at or above the partition
	// updated, readyReplicas = replicas), the next partition is applied
	// before the next sync, as a SetPartition event would.
	Partitions []int32 `json:"partitions,omitempty"`
	// Options are the options of every sync, as PlanWith's; GateOn and
	// GateOff events change Options.Gates.
	Options Options `json:"options"`
	// RecordPods keeps the pods in every Step (Step.Pods).
	RecordPods bool `json:"recordPods,omitempty"`
}

// Outcome is how a simulation ended.
type Outcome uint8

// The ways a simulation ends.
const (
	// OutcomeComplete: every slot holds an available pod at the update
	// revision, the current revision is the update revision, and
	// nothing is left to do.
	OutcomeComplete Outcome = iota + 1
	// OutcomePartitioned: the slots at or above the partition hold
	// available pods at the update revision, those below it pods at the
	// current revision, and nothing is left to do.
	OutcomePartitioned
	// OutcomeStalled: nothing is left to do but the rollout is neither
	// complete nor partitioned (a pod that never becomes ready, the
	// budget used up by broken pods, OnDelete).
	OutcomeStalled
	// OutcomeSyncLimit: MaxSyncs syncs ran before the cluster settled.
	OutcomeSyncLimit
)

// String returns "Complete", "Partitioned", "Stalled" or "SyncLimit".
func (o Outcome) String() string {
	switch o {
	case OutcomeComplete:
		return "Complete"
	case OutcomePartitioned:
		return "Partitioned"
	case OutcomeStalled:
		return "Stalled"
	case OutcomeSyncLimit:
		return "SyncLimit"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// PodState is one pod in a Step, as `kubectl get pods -w` shows it.
type PodState struct {
	Name     string   `json:"name"`     // metadata.name
	Revision string   `json:"revision"` // the RevisionLabel
	Phase    PodPhase `json:"phase"`    // status.phase
	// Ready, Available and Terminating are the pod's state after the
	// sync: Ready condition True, available for minReadySeconds, and
	// deletionTimestamp set.
	Ready       bool `json:"ready,omitempty"`
	Available   bool `json:"available,omitempty"`
	Terminating bool `json:"terminating,omitempty"`
}

// Step is one recorded sync of a simulation.
type Step struct {
	// Sync numbers the sync, from 1; syncs that changed nothing are not
	// recorded, so numbers may skip.
	Sync int `json:"sync"`
	// Time is when the sync ran; Elapsed is Time - Config.Start.
	Time    time.Time     `json:"time"`
	Elapsed time.Duration `json:"elapsed"`
	// Events describe the events applied just before the sync.
	Events []string `json:"events,omitempty"`
	// Actions and Reason are Plan's.
	Actions []Action `json:"actions,omitempty"`
	Reason  string   `json:"reason"`
	// Status is the status the sync computed, without its
	// collisionCount (Trace.StatefulSet holds the last one).
	Status Status `json:"status"`
	// Replicas and Partition are the spec at this sync; MaxUnavailable
	// is the resolved budget when the gate is on, else 0.
	Replicas       int32 `json:"replicas"`
	Partition      int32 `json:"partition"`
	MaxUnavailable int32 `json:"maxUnavailable,omitempty"`
	// Pods are the pods after the sync, by ordinal, when
	// Config.RecordPods is set.
	Pods []PodState `json:"pods,omitempty"`
}

// String renders the step on one line: the sync, the events applied
// before it, the columns `kubectl get sts -w` adds to (READY
// ready/replicas), the current and updated counts, then the reason.
func (s Step) String() string {
	st := &s.Status
	ev := ""
	if len(s.Events) > 0 {
		ev = " [" + strings.Join(s.Events, "; ") + "]"
	}
	return fmt.Sprintf("sync %d (+%s)%s: ready %d/%d current %d updated %d | %s",
		s.Sync, s.Elapsed, ev, st.ReadyReplicas, s.Replicas, st.CurrentReplicas, st.UpdatedReplicas, s.Reason)
}

// Trace is the result of Simulate.
type Trace[T any] struct {
	// Steps are the syncs that changed something, in order.
	Steps []Step `json:"steps"`
	// Outcome is how the simulation ended; Syncs is how many syncs ran.
	Outcome Outcome `json:"outcome"`
	Syncs   int     `json:"syncs"`
	// StatefulSet, Pods and Revisions are the final state.
	StatefulSet StatefulSet[T]       `json:"statefulSet"`
	Pods        []Pod                `json:"pods"`
	Revisions   []ControllerRevision `json:"revisions"`
}

// String renders every step on its own line, then the outcome.
func (t *Trace[T]) String() string {
	var b strings.Builder
	for _, s := range t.Steps {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s after %d syncs", t.Outcome, t.Syncs)
	return b.String()
}

// simPod is the simulated kubelet's plan for one pod.
type simPod struct {
	readyAt time.Time
	never   bool
	goneAt  time.Time
	deleted bool
}

// sim is the state of one simulation.
type sim[T any] struct {
	cfg     *Config[T]
	opts    Options
	cur     StatefulSet[T]
	cc      int32
	pods    []Pod
	revs    []ControllerRevision
	state   map[string]*simPod
	reached map[string]int32
	initial map[string]bool
	started bool
	batch   int
}

// Simulate runs the StatefulSet controller on set, its pods and its
// revisions against a simulated cluster, one sync per Config.Interval,
// applying cfg.Events and cfg.Partitions, until nothing is left to do
// (see Outcome) or cfg.MaxSyncs syncs ran.
//
// The cluster: a created pod is Pending for ReadyDelay, then Running
// and Ready (or Running and never Ready, see NeverReady), available
// minReadySeconds later. A deleted pod is Terminating for
// TerminationDelay, then gone. Pods passed in keep their state; one that
// is not Ready becomes Ready ReadyDelay after Start (or at its
// Config.ReadyAt), a Terminating one is gone TerminationDelay after
// Start.
//
// What the tests check after every sync of random rollouts, as upstream
// does it: OrderedReady never creates a pod while a lower slot is not
// available; update deletions go from the highest ordinal down and never
// below the partition; with the gate off, at most one update deletion
// per sync; with the gate on, at most maxUnavailable slots unavailable
// when no pod fails and replicas do not change; every status written
// passes ValidateStatus (upstream's negative currentReplicas is refused,
// as the API server refuses it).
//
// Errors: those of Plan, on the initial state or after an event; the
// trace up to that sync is returned with it, with Outcome 0. set, pods
// and revisions are never modified.
func Simulate[T any](set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, cfg Config[T]) (Trace[T], error) {
	return simulate(set, pods, revisions, cfg, nil)
}

// syncCheck is called by simulate after every sync with the sync's
// input and result; the tests check their invariants with it.
type syncCheck[T any] func(k int, set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, now time.Time, opts Options, sync *Sync[T])

func simulate[T any](set *StatefulSet[T], pods []Pod, revisions []ControllerRevision, cfg Config[T], check syncCheck[T]) (Trace[T], error) {
	if cfg.Start.IsZero() {
		cfg.Start = time.Unix(0, 0).UTC()
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.MaxSyncs <= 0 {
		cfg.MaxSyncs = 1000
	}
	var tr Trace[T]
	if err := checkSet(set); err != nil {
		return tr, err
	}
	s := &sim[T]{cfg: &cfg, opts: cfg.Options, cur: *set, pods: slices.Clone(pods), revs: slices.Clone(revisions),
		state: make(map[string]*simPod, len(pods)), reached: map[string]int32{}, initial: map[string]bool{}}
	s.cur.UpdateStrategy.RollingUpdate = cloneRU(set.UpdateStrategy.RollingUpdate)
	s.setCC(set.Status.CollisionCount)
	for _, r := range revisions {
		s.initial[r.Name] = true
	}
	for i := range s.pods {
		p := &s.pods[i]
		sp := &simPod{}
		switch {
		case p.Terminating:
			sp.deleted, sp.goneAt = true, cfg.Start.Add(cfg.TerminationDelay)
		case !p.Ready:
			sp.readyAt = cfg.Start.Add(cfg.ReadyDelay)
			if at, ok := cfg.ReadyAt[p.Name]; ok {
				sp.readyAt = at
			}
		}
		s.state[p.Name] = sp
	}
	lastEvent := 0
	for _, ev := range cfg.Events {
		lastEvent = max(lastEvent, ev.Sync)
	}
	var planner Planner[T]
	for k := 1; k <= cfg.MaxSyncs; k++ {
		tr.Syncs = k
		now := cfg.Start.Add(time.Duration(k) * cfg.Interval)
		var events []string
		for _, ev := range cfg.Events {
			if ev.Sync == k {
				events = append(events, s.apply(ev))
			}
		}
		if e := s.nextBatch(); e != "" {
			events = append(events, e)
		}
		settled := s.observe(now)
		planner.Options = s.opts
		sync, err := planner.Plan(&s.cur, s.pods, s.revs, now)
		if err != nil {
			tr.StatefulSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
			return tr, err
		}
		if check != nil {
			check(k, &s.cur, s.pods, s.revs, now, s.opts, sync)
		}
		idle := len(sync.Actions) == 0 && len(events) == 0
		if !idle {
			planner.Explain()
			tr.Steps = append(tr.Steps, s.step(k, now, events, sync))
		}
		s.take(sync, now)
		if idle && settled && k >= lastEvent && !s.batchPending() && !sync.Requeue {
			tr.Outcome = s.outcome(now)
			break
		}
	}
	if tr.Outcome == 0 {
		tr.Outcome = OutcomeSyncLimit
	}
	tr.StatefulSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
	return tr, nil
}

// cloneRU copies a rollingUpdate block, so that events do not change
// the caller's.
func cloneRU(ru *RollingUpdateStrategy) *RollingUpdateStrategy {
	if ru == nil {
		return nil
	}
	c := *ru
	if ru.MaxUnavailable != nil {
		mu := *ru.MaxUnavailable
		c.MaxUnavailable = &mu
	}
	return &c
}

// setCC points the set's collision count at the simulation's own copy.
func (s *sim[T]) setCC(cc *int32) {
	if cc == nil {
		s.cur.Status.CollisionCount = nil
		return
	}
	s.cc = *cc
	s.cur.Status.CollisionCount = &s.cc
}

// ru returns the set's rollingUpdate block, creating it (a copy, never
// the caller's) when absent.
func (s *sim[T]) ru() *RollingUpdateStrategy {
	if s.cur.UpdateStrategy.RollingUpdate == nil {
		s.cur.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{}
	} else {
		s.cur.UpdateStrategy.RollingUpdate = cloneRU(s.cur.UpdateStrategy.RollingUpdate)
	}
	return s.cur.UpdateStrategy.RollingUpdate
}

// apply applies ev and describes it.
func (s *sim[T]) apply(ev Event[T]) string {
	c := &s.cur
	switch ev.Kind {
	case SetTemplate:
		c.Generation++
		c.Template = ev.Template
		s.started = true
		return "template changed"
	case SetReplicas:
		c.Generation++
		from := c.Replicas
		c.Replicas = ev.Replicas
		return fmt.Sprintf("replicas %d -> %d", from, ev.Replicas)
	case SetPartition:
		c.Generation++
		ru := s.ru()
		from := ru.Partition
		ru.Partition = ev.Partition
		return fmt.Sprintf("partition %d -> %d", from, ev.Partition)
	case SetMaxUnavailable:
		c.Generation++
		ru := s.ru()
		ru.MaxUnavailable = nil
		if ev.MaxUnavailable != nil {
			mu := *ev.MaxUnavailable
			ru.MaxUnavailable = &mu
			return "maxUnavailable " + mu.String()
		}
		return "maxUnavailable unset"
	case GateOn:
		s.opts.Gates.MaxUnavailableStatefulSet = true
		return "gate MaxUnavailableStatefulSet on"
	case GateOff:
		s.opts.Gates.MaxUnavailableStatefulSet = false
		return "gate MaxUnavailableStatefulSet off"
	}
	return ev.Kind.String()
}

// partition is the set's partition (0 without a rollingUpdate block).
func (s *sim[T]) partition() int32 {
	if ru := s.cur.UpdateStrategy.RollingUpdate; ru != nil {
		return ru.Partition
	}
	return 0
}

// batchPending reports whether partition steps remain.
func (s *sim[T]) batchPending() bool {
	return s.started && s.batch < len(s.cfg.Partitions)
}

// nextBatch applies the next partition step when the last one is done.
func (s *sim[T]) nextBatch() string {
	if !s.batchPending() {
		return ""
	}
	st := &s.cur.Status
	if st.ObservedGeneration < s.cur.Generation || st.ReadyReplicas != s.cur.Replicas || st.Replicas != s.cur.Replicas {
		return ""
	}
	want := int64(s.cur.Replicas) - int64(s.partition())
	if s.partition() > s.cur.Replicas {
		want = 0
	}
	if int64(st.UpdatedReplicas) < want {
		return ""
	}
	p := s.cfg.Partitions[s.batch]
	s.batch++
	s.cur.Generation++
	ru := s.ru()
	from := ru.Partition
	ru.Partition = p
	return fmt.Sprintf("partition %d -> %d (next step)", from, p)
}

// observe moves the pods to their state at now; it reports whether no
// pod will change by itself later.
func (s *sim[T]) observe(now time.Time) bool {
	settled := true
	kept := s.pods[:0]
	for _, p := range s.pods {
		sp := s.state[p.Name]
		if sp == nil {
			sp = &simPod{}
			s.state[p.Name] = sp
		}
		if sp.deleted {
			if !now.Before(sp.goneAt) {
				delete(s.state, p.Name)
				continue
			}
			settled = false
			kept = append(kept, p)
			continue
		}
		if !p.Ready && !sp.never {
			if now.Before(sp.readyAt) {
				settled = false
			} else {
				p.Phase, p.Ready, p.ReadySince = PodRunning, true, sp.readyAt
			}
		} else if sp.never && p.Phase == PodPending && !now.Before(sp.readyAt) {
			p.Phase = PodRunning
		} else if sp.never && p.Phase == PodPending {
			settled = false
		}
		if p.Ready && s.cur.MinReadySeconds > 0 && !IsAvailable(&p, s.cur.MinReadySeconds, now) {
			settled = false
		}
		kept = append(kept, p)
	}
	s.pods = kept
	return settled
}

// take makes the sync's result the cluster's state.
func (s *sim[T]) take(sync *Sync[T], now time.Time) {
	for _, a := range sync.Actions {
		switch a.Kind {
		case CreatePod:
			if a.Rejected != "" {
				continue // the name is taken: no pod is created
			}
			sp := &simPod{readyAt: now.Add(s.cfg.ReadyDelay)}
			if !s.initial[a.Revision] && s.reached[a.Revision] < s.cfg.NeverReady {
				sp.never = true
			}
			s.reached[a.Revision]++
			s.state[a.Pod] = sp
		case DeletePod:
			if sp := s.state[a.Pod]; sp != nil && !sp.deleted {
				sp.deleted, sp.goneAt = true, now.Add(s.cfg.TerminationDelay)
			}
		}
	}
	s.cur = sync.StatefulSet
	s.cur.UpdateStrategy.RollingUpdate = cloneRU(sync.StatefulSet.UpdateStrategy.RollingUpdate)
	s.setCC(sync.StatefulSet.Status.CollisionCount)
	s.pods = append(s.pods[:0:0], sync.Pods...)
	s.revs = append(s.revs[:0:0], sync.Revisions...)
}

// step records one sync.
func (s *sim[T]) step(k int, now time.Time, events []string, sync *Sync[T]) Step {
	st := Step{Sync: k, Time: now, Elapsed: now.Sub(s.cfg.Start), Events: events,
		Actions: slices.Clone(sync.Actions), Reason: sync.Reason, Status: sync.Status,
		Replicas: s.cur.Replicas, Partition: s.partition(), MaxUnavailable: sync.MaxUnavailable}
	st.Status.CollisionCount = nil
	if s.cfg.RecordPods {
		for _, p := range sync.Pods {
			st.Pods = append(st.Pods, PodState{Name: p.Name, Revision: p.Revision, Phase: p.Phase, Ready: p.Ready,
				Available: IsAvailable(&p, s.cur.MinReadySeconds, now), Terminating: p.Terminating})
		}
		slices.SortFunc(st.Pods, func(a, b PodState) int {
			_, oa := ParseOrdinal(a.Name)
			_, ob := ParseOrdinal(b.Name)
			if oa != ob {
				return int(oa) - int(ob)
			}
			return strings.Compare(a.Name, b.Name)
		})
	}
	return st
}

// outcome classifies a settled simulation.
func (s *sim[T]) outcome(now time.Time) Outcome {
	set := &s.cur
	st := &set.Status
	start := int64(set.Ordinals.Start)
	slots := make([]*Pod, set.Replicas)
	for i := range s.pods {
		p := &s.pods[i]
		if parent, ord := ParseOrdinal(p.Name); parent == set.Name && int64(ord) >= start && int64(ord) < start+int64(set.Replicas) {
			slots[int64(ord)-start] = p
		}
	}
	complete, partitioned := true, true
	part := int(s.partition())
	if readStrategy(set.UpdateStrategy).ruNil {
		part = 0
	}
	for k, p := range slots {
		ok := p != nil && !p.Terminating && IsAvailable(p, set.MinReadySeconds, now)
		if !ok || p.Revision != st.UpdateRevision {
			complete = false
		}
		switch {
		case !ok:
			partitioned = false
		case k >= part && p.Revision != st.UpdateRevision:
			partitioned = false
		case k < part && p.Revision != st.CurrentRevision:
			partitioned = false
		}
	}
	if len(s.pods) != len(slots) {
		complete, partitioned = false, false
	}
	switch {
	case complete && st.CurrentRevision == st.UpdateRevision:
		return OutcomeComplete
	case partitioned && part > 0 && readStrategy(set.UpdateStrategy).typ == RollingUpdate:
		return OutcomePartitioned
	}
	return OutcomeStalled
}
