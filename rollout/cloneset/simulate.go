package cloneset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// EventKind is what a scripted Event does to the CloneSet.
type EventKind uint8

// The scripted events Simulate understands.
const (
	// SetTemplate replaces the pod template (a new image): a new update
	// revision.
	SetTemplate EventKind = iota + 1
	// SetReplicas changes spec.replicas.
	SetReplicas
	// SetPartition changes spec.updateStrategy.partition (nil: 0).
	SetPartition
	// Pause sets spec.updateStrategy.paused.
	Pause
	// Resume clears spec.updateStrategy.paused.
	Resume
	// DeletePods adds pods to spec.scaleStrategy.podsToDelete: the pods
	// named in Event.Pods, then the Event.Count active pods with the
	// smallest names not yet listed.
	DeletePods
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
	case Pause:
		return "Pause"
	case Resume:
		return "Resume"
	case DeletePods:
		return "DeletePods"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is a change a user makes to the CloneSet, applied just before
// sync (reconcile) number Sync (1 is the first; an event whose Sync is
// below 1 or beyond the last sync is never applied). Every event changes
// the spec and raises the generation, as the API server does.
type Event[T any] struct {
	Sync      int                       `json:"sync"`
	Kind      EventKind                 `json:"kind"`
	Template  T                         `json:"template"`            // SetTemplate
	Replicas  int32                     `json:"replicas,omitempty"`  // SetReplicas
	Partition *intorpercent.IntOrString `json:"partition,omitempty"` // SetPartition
	Pods      []string                  `json:"pods,omitempty"`      // DeletePods
	Count     int32                     `json:"count,omitempty"`     // DeletePods
}

// Config describes the simulated cluster. The zero value is a usable
// cluster: a reconcile every 10 s, pods ready as soon as they exist,
// in-place updates done at once, deleted pods gone at once, at most 1,000
// reconciles.
type Config[T any] struct {
	// Start is the time of the initial state; reconcile k runs at Start +
	// k*Interval. Zero means 1970-01-01T00:00:00Z.
	Start time.Time `json:"start"`
	// Interval is the time between reconciles; zero means 10 s.
	Interval time.Duration `json:"interval,omitempty"`
	// ReadyDelay is how long a created pod takes from creation to Running
	// and Ready. It is scheduled (gets a node) at once. It becomes
	// available minReadySeconds after it is ready.
	ReadyDelay time.Duration `json:"readyDelay,omitempty"`
	// ReadyAt gives, by name, when a pod passed to Simulate that is not
	// Ready (nor Terminating, nor in an in-place update) becomes Running
	// and Ready; a pod it does not name does so ReadyDelay after Start. A
	// program reading pods from a cluster sets it to the time each pod's
	// own delay ends, so that the first reconcile sees them unready.
	ReadyAt map[string]time.Time `json:"readyAt,omitempty"`
	// InPlaceDelay is how long an in-place update takes from the moment
	// the new images are applied (after the grace period, if any) to the
	// restarted containers being Ready again; usually much less than
	// ReadyDelay, since the pod keeps its node, IP and volumes.
	InPlaceDelay time.Duration `json:"inPlaceDelay,omitempty"`
	// TerminationDelay is how long a deleted pod stays Terminating; zero
	// means it is gone by the next reconcile.
	TerminationDelay time.Duration `json:"terminationDelay,omitempty"`
	// NeverReady is how many of the first pods to reach each revision
	// created during the simulation (by creation or in place) never become
	// ready.
	NeverReady int32 `json:"neverReady,omitempty"`
	// Nodes is how many nodes pods are spread over, round-robin by
	// creation; zero means 3.
	Nodes int `json:"nodes,omitempty"`
	// MaxSyncs bounds the number of syncs (reconciles); zero means 1,000.
	MaxSyncs int `json:"maxSyncs,omitempty"`
	// Events are the scripted changes, in any order.
	Events []Event[T] `json:"events,omitempty"`
	// Partitions drive a batch rollout as a progressive-delivery tool does:
	// once the template has changed (a SetTemplate event), whenever the
	// last written status shows the current batch done (observed
	// generation current, UpdatedAvailableReplicas >=
	// ExpectedUpdatedReplicas, no pod unavailable), the next partition is
	// applied before the next reconcile, as a SetPartition event would.
	Partitions []intorpercent.IntOrString `json:"partitions,omitempty"`
	// Options are the options of every sync, as PlanWith's.
	Options Options `json:"options"`
	// RecordPods keeps every pod in every Step (Step.Pods); off, one
	// holds only the counts, so long simulations of many pods stay small.
	RecordPods bool `json:"recordPods,omitempty"`
	// MaxPods bounds the pods the simulated cluster holds (active and
	// terminating); zero means DefaultMaxPods. See Simulate.
	MaxPods int `json:"maxPods,omitempty"`
}

// DefaultMaxPods is the bound on the simulated cluster's pods when
// Config.MaxPods is zero: 1,000,000. Every reconcile plans every pod, in
// about half a microsecond per pod (BenchmarkPlan), and the simulation
// holds about 1 KiB per pod (the pods of the state and of the Planner's
// two syncs, their simulated kubelet's plan, the index by name), so a
// reconcile at the bound takes about half a second and the simulation a
// GiB: a rollout of MaxSyncs 1,000 reconciles then takes minutes, which
// is as much as a simulation should. A real CloneSet is far smaller
// (kruise creates its pods one API call at a time).
const DefaultMaxPods = 1_000_000

// Outcome is how a simulation ended.
type Outcome uint8

// The ways a simulation ends.
const (
	// OutcomeComplete: every pod is at the update revision and available,
	// and nothing is left to do.
	OutcomeComplete Outcome = iota + 1
	// OutcomePartitioned: the pods the partition lets update are updated
	// and available; the rest stay on the current revision.
	OutcomePartitioned
	// OutcomePaused: the update strategy is paused and nothing is left to
	// do.
	OutcomePaused
	// OutcomeTimedOut: the Progressing condition says
	// ProgressDeadlineExceeded and nothing is left to do.
	OutcomeTimedOut
	// OutcomeStalled: nothing is left to do, but the rollout is not
	// complete (pods that never become ready, a negative update budget,
	// an update that fails).
	OutcomeStalled
	// OutcomeSyncLimit: MaxSyncs reconciles ran before the cluster
	// settled.
	OutcomeSyncLimit
)

// String returns "Complete", "Partitioned", "Paused", "TimedOut",
// "Stalled" or "SyncLimit".
func (o Outcome) String() string {
	switch o {
	case OutcomeComplete:
		return "Complete"
	case OutcomePartitioned:
		return "Partitioned"
	case OutcomePaused:
		return "Paused"
	case OutcomeTimedOut:
		return "TimedOut"
	case OutcomeStalled:
		return "Stalled"
	case OutcomeSyncLimit:
		return "SyncLimit"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// PodState is one pod in a Step, as `kubectl get pods` would show it.
type PodState struct {
	Name        string         `json:"name"`
	Revision    string         `json:"revision"`
	Lifecycle   LifecycleState `json:"lifecycle,omitempty"`
	Ready       bool           `json:"ready,omitempty"`
	Available   bool           `json:"available,omitempty"`
	Terminating bool           `json:"terminating,omitempty"`
}

// Step is one recorded sync (kruise: reconcile) of a simulation: a step
// of a Trace.
type Step struct {
	// Sync numbers the sync, from 1; syncs that changed nothing are not
	// recorded, so numbers may skip.
	Sync int `json:"sync"`
	// Time is when the reconcile ran; Elapsed is Time - Config.Start.
	Time    time.Time     `json:"time"`
	Elapsed time.Duration `json:"elapsed"`
	// Events describe the events applied just before the reconcile.
	Events []string `json:"events,omitempty"`
	// Actions and Reason are Plan's.
	Actions []Action `json:"actions,omitempty"`
	Reason  string   `json:"reason"`
	// Warnings are Plan's (see Sync.Warnings).
	Warnings []string `json:"warnings,omitempty"`
	// Status is the status the reconcile computed from the pods it saw
	// (what `kubectl get cloneset` shows once it is written).
	Status Status `json:"status"`
	// Replicas, Partition, MaxSurge and MaxUnavailable are R and the
	// resolved settings at this reconcile ([Resolve]): active pods may
	// reach Replicas + MaxSurge, and the partition keeps Partition pods on
	// the current revision.
	Replicas       int32 `json:"replicas"`
	Partition      int32 `json:"partition"`
	MaxSurge       int32 `json:"maxSurge"`
	MaxUnavailable int32 `json:"maxUnavailable"`
	// Active counts the pods after the reconcile that are not
	// terminating; Terminating those that are.
	Active      int32 `json:"active"`
	Terminating int32 `json:"terminating,omitempty"`
	// Pods are the pods after the reconcile, by creation time then name,
	// when Config.RecordPods is set.
	Pods []PodState `json:"pods,omitempty"`
}

// String renders the step on one line: the status columns of `kubectl get
// cloneset` (DESIRED UPDATED UPDATED_READY READY TOTAL), then the reason.
func (s Step) String() string {
	st := &s.Status
	return fmt.Sprintf("reconcile %d (+%s): desired %d updated %d updatedReady %d ready %d total %d | %s",
		s.Sync, s.Elapsed, s.Replicas, st.UpdatedReplicas, st.UpdatedReadyReplicas, st.ReadyReplicas, st.Replicas, s.Reason)
}

// Trace is the result of Simulate.
type Trace[T any] struct {
	// Steps are the reconciles that changed something, in order.
	Steps []Step `json:"steps"`
	// Outcome is how the simulation ended; Syncs is how many syncs
	// (reconciles) ran, recorded or not.
	Outcome Outcome `json:"outcome"`
	Syncs   int     `json:"syncs"`
	// CloneSet, Pods and Revisions are the final state.
	CloneSet  CloneSet[T]          `json:"cloneSet"`
	Pods      []Pod                `json:"pods"`
	Revisions []ControllerRevision `json:"revisions"`
}

// String renders every step on its own line, then the outcome.
func (t *Trace[T]) String() string {
	var b strings.Builder
	for _, s := range t.Steps {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s after %d reconciles", t.Outcome, t.Syncs)
	return b.String()
}

// simPod is the simulated kubelet's plan for one pod.
type simPod struct {
	readyAt   time.Time // Running and Ready from then on (creation or in-place)
	never     bool      // never becomes ready
	inPlace   bool      // an in-place update is under way
	appliedAt time.Time
	goneAt    time.Time // deleted: gone from then on
	deleted   bool
}

// Simulate runs kruise's CloneSet controller on cs, its pods and its
// revisions against a simulated cluster, one reconcile per
// Config.Interval, applying cfg.Events and cfg.Partitions, until
// nothing is left to do (see Outcome) or cfg.MaxSyncs reconciles ran.
// Events and partition steps are a user's edits, which pass kruise's
// webhook: when those of a reconcile leave a CloneSet that Validate
// refuses (scaling up from 0 with maxUnavailable and maxSurge both 0,
// say), Simulate stops before that reconcile with an error wrapping
// Validate's, and the trace holds the reconciles that ran.
//
// The cluster: a created pod is scheduled at once, Running and Ready
// after ReadyDelay (or never, see NeverReady), and available
// minReadySeconds later. An in-place update takes its grace period (the
// controller applies the held images when it is over), then
// InPlaceDelay, after which the pod's update is Done and the pod Ready
// again; the controller then marks it InPlaceUpdateReady and Normal. A
// deleted pod is Terminating for TerminationDelay. Pods passed in keep
// their state; a pod passed in that is not Ready becomes Ready after
// ReadyDelay from the start (or at its Config.ReadyAt), and a Terminating one is gone after
// TerminationDelay. Lifecycle hooks are never released by anyone, so a
// pod waiting for one waits for ever.
//
// The cost is one Plan per reconcile: O(pods log pods) each, with the
// pods bounded by Config.MaxPods (DefaultMaxPods when zero): a state
// passed in, or a reconcile that creates pods, that would make the
// cluster hold more pods ends the simulation with an error wrapping
// field.ErrRange, before any pod beyond the bound is built:
//
//	cloneset: spec.replicas: 2147483647: reconcile 1 would leave 2147483647 pods, more than Config.MaxPods 1000000
//
// The number of reconciles grows with R/(maxUnavailable + maxSurge) and
// with ReadyDelay/Interval.
//
// What the tests check after every reconcile of random rollouts
// (replicas 0-200, counts and percentages, delays, events), and where
// kruise breaks it (kept as kruise does it):
//
//   - Without a replicas decrease, active pods never exceed replicas +
//     maxSurge (maxSurge as if not paused; terminating pods are not
//     counted, as kruise does not count them).
//   - At rest, with a resolved partition that never rose, the pods at the
//     update revision number replicas - CalculatePartitionReplicas. Once
//     every pod is at the update revision (after a scale to 0, say),
//     kruise makes it the current revision and the partition keeps
//     nothing back.
//   - When no pod fails, available pods never fall below replicas -
//     maxUnavailable once reached, while that floor stays the same (a
//     pause changes it: maxSurge is forced to 0 and maxUnavailable is
//     then rounded up instead of down). Kruise breaks it with
//     podsToDelete naming an unavailable pod: specified-delete pods are
//     not counted as unavailable, so the ready limit lets an available
//     pod go as well.
//   - A rollout whose pods all become ready and that ends unpaused at
//     partition 0 completes within L + (R + S + 1 + B) * (5 + ceil(W /
//     Interval)) reconciles, where L is the step of the last scripted
//     event, R the largest replicas, S maxSurge, B the partition batches
//     and W = ReadyDelay + InPlaceDelay + minReadySeconds + the in-place
//     grace period: each pod needs at most a mark, a deletion, a creation
//     or in-place update, the wait W and a lifecycle move.
//
// Errors: those of Plan, on the initial state or after an event; the
// trace up to that reconcile is returned with it, with Outcome 0. cs,
// pods and revisions are never modified.
func Simulate[T any](cs *CloneSet[T], pods []Pod, revisions []ControllerRevision, cfg Config[T]) (Trace[T], error) {
	if cfg.Start.IsZero() {
		cfg.Start = time.Unix(0, 0).UTC()
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.MaxSyncs <= 0 {
		cfg.MaxSyncs = 1000
	}
	if cfg.Nodes <= 0 {
		cfg.Nodes = 3
	}
	if cfg.MaxPods <= 0 {
		cfg.MaxPods = DefaultMaxPods
	}
	var tr Trace[T]
	if err := checkCloneSet(cs); err != nil {
		return tr, ofCloneSet(cs, err)
	}
	if err := checkPods(pods); err != nil {
		return tr, err
	}
	if len(pods) > cfg.MaxPods {
		return tr, tooManyPods(cs.Replicas, 0, int64(len(pods)), cfg.MaxPods)
	}
	s := &sim[T]{cfg: &cfg, cur: *cs, pods: slices.Clone(pods), revs: slices.Clone(revisions),
		state: make(map[string]*simPod, len(pods)), reached: map[string]int32{}, initial: map[string]bool{}}
	s.cur.ScaleStrategy.PodsToDelete = slices.Clone(cs.ScaleStrategy.PodsToDelete)
	for _, r := range revisions {
		s.initial[r.Name] = true
	}
	for i := range s.pods {
		p := &s.pods[i]
		sp := &simPod{}
		switch {
		case p.Terminating:
			sp.deleted, sp.goneAt = true, cfg.Start.Add(cfg.TerminationDelay)
		case p.InPlaceUpdate != nil && !p.InPlaceUpdate.Done:
			sp.inPlace, sp.appliedAt = true, cfg.Start
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
	planner := Planner[T]{Options: cfg.Options}
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
		if len(events) > 0 {
			// A user's change goes through kruise's webhook, which
			// refuses a CloneSet that fails Validate.
			if err := Validate(&s.cur); err != nil {
				tr.Syncs = k - 1 // reconcile k does not run
				tr.CloneSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
				return tr, fmt.Errorf("cloneset: the changes before reconcile %d (%s) make CloneSet %q one kruise's webhook refuses: %w", k, strings.Join(events, "; "), s.cur.Name, err)
			}
		}
		settled := s.observe(now)
		sync, err := planner.Plan(&s.cur, s.pods, s.revs, now)
		if err != nil {
			tr.CloneSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
			return tr, err
		}
		if n := int64(len(sync.Pods)) + int64(sync.Scale.CreateCurrent) + int64(sync.Scale.CreateUpdate); n > int64(cfg.MaxPods) {
			tr.CloneSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
			return tr, tooManyPods(s.cur.Replicas, k, n, cfg.MaxPods)
		}
		all, err := sync.AppendCreatedPods(slices.Clip(sync.Pods))
		if err != nil {
			tr.CloneSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
			return tr, err
		}
		idle := len(sync.Actions) == 0 && len(events) == 0
		if !idle {
			planner.Explain()
			tr.Steps = append(tr.Steps, s.step(k, now, events, sync, all))
		}
		s.take(sync, all, now)
		// A pending partition batch cannot start either: the status it
		// waits for no longer changes.
		if idle && settled && k >= lastEvent && !sync.Requeue {
			tr.Outcome = outcomeOf(&s.cur)
			break
		}
	}
	if tr.Outcome == 0 {
		tr.Outcome = OutcomeSyncLimit
	}
	tr.CloneSet, tr.Pods, tr.Revisions = s.cur, s.pods, s.revs
	return tr, nil
}

// sim is the state of one simulation.
type sim[T any] struct {
	cfg     *Config[T]
	cur     CloneSet[T]
	pods    []Pod
	revs    []ControllerRevision
	state   map[string]*simPod
	reached map[string]int32 // pods that reached each revision during the simulation
	initial map[string]bool  // revisions that existed at the start
	created int              // pods created, for node assignment
	started bool             // a SetTemplate event was applied
	batch   int              // the next entry of cfg.Partitions
}

// apply applies ev to the CloneSet and describes it.
func (s *sim[T]) apply(ev Event[T]) string {
	c := &s.cur
	c.Generation++
	switch ev.Kind {
	case SetTemplate:
		c.Template = ev.Template
		s.started = true
		return "template changed"
	case SetReplicas:
		from := c.Replicas
		c.Replicas = ev.Replicas
		return fmt.Sprintf("replicas %d -> %d", from, ev.Replicas)
	case SetPartition:
		return s.setPartition(ev.Partition)
	case Pause:
		c.UpdateStrategy.Paused = true
		return "paused"
	case Resume:
		c.UpdateStrategy.Paused = false
		return "resumed"
	case DeletePods:
		list := slices.Clone(c.ScaleStrategy.PodsToDelete)
		for _, name := range ev.Pods {
			if !slices.Contains(list, name) {
				list = append(list, name)
			}
		}
		names := make([]string, 0, len(s.pods))
		for i := range s.pods {
			if IsPodActive(&s.pods[i]) && !slices.Contains(list, s.pods[i].Name) {
				names = append(names, s.pods[i].Name)
			}
		}
		slices.Sort(names)
		list = append(list, names[:min(len(names), int(max(ev.Count, 0)))]...)
		c.ScaleStrategy.PodsToDelete = list
		return fmt.Sprintf("podsToDelete %v", list)
	}
	c.Generation--
	return "unknown event " + ev.Kind.String() + " ignored"
}

func (s *sim[T]) setPartition(v *intorpercent.IntOrString) string {
	c := &s.cur
	from := "0"
	if c.UpdateStrategy.Partition != nil {
		from = c.UpdateStrategy.Partition.String()
	}
	to := "0"
	if v != nil {
		cp := *v
		v = &cp
		to = cp.String()
	}
	c.UpdateStrategy.Partition = v
	return fmt.Sprintf("partition %s -> %s", from, to)
}

// batchPending reports whether a partition batch is still to be applied.
func (s *sim[T]) batchPending() bool {
	return s.started && s.batch < len(s.cfg.Partitions)
}

// nextBatch applies the next partition when the current batch is done.
func (s *sim[T]) nextBatch() string {
	if !s.batchPending() {
		return ""
	}
	st := &s.cur.Status
	if st.ObservedGeneration != s.cur.Generation || st.UpdatedAvailableReplicas < st.ExpectedUpdatedReplicas || st.AvailableReplicas < st.Replicas {
		return ""
	}
	v := s.cfg.Partitions[s.batch]
	s.batch++
	s.cur.Generation++
	return s.setPartition(&v)
}

// observe moves the pods to time now and reports whether no pod will
// change by itself any more.
func (s *sim[T]) observe(now time.Time) bool {
	settled := true
	keep := s.pods[:0:0]
	minReady := time.Duration(s.cur.MinReadySeconds) * time.Second
	for i := range s.pods {
		p := s.pods[i]
		sp := s.state[p.Name]
		if sp == nil {
			sp = &simPod{}
			s.state[p.Name] = sp
		}
		if sp.deleted {
			if !sp.goneAt.After(now) {
				delete(s.state, p.Name)
				continue
			}
			settled = false
			keep = append(keep, p)
			continue
		}
		if p.NodeName == "" {
			p.NodeName = "node-" + strconv.Itoa(s.created%s.cfg.Nodes+1)
			s.created++
		}
		if p.InPlaceUpdateGrace != nil {
			// The controller applies the held images once the grace
			// period is over.
			settled = false
		} else if sp.inPlace {
			if done := sp.appliedAt.Add(s.cfg.InPlaceDelay); !done.After(now) {
				// The restarted containers are ready when the update is
				// done, or when the pod would have been ready anyway if
				// it was still starting.
				sp.inPlace = false
				st := *p.InPlaceUpdate
				st.Done = true
				p.InPlaceUpdate = &st
				if done.After(sp.readyAt) {
					sp.readyAt = done
				}
			} else {
				settled = false
			}
		}
		if sp.inPlace || p.InPlaceUpdateGrace != nil {
			// Not ready while the update is under way.
		} else if !p.Ready && !sp.never {
			if !sp.readyAt.After(now) {
				p.Phase, p.Ready, p.ReadySince = PodRunning, true, sp.readyAt
			} else {
				settled = false
			}
		}
		if sp.never && p.Phase == PodPending && !sp.readyAt.After(now) {
			p.Phase = PodRunning
		}
		if p.Ready && minReady > 0 && !p.ReadySince.Add(minReady).Before(now) {
			settled = false
		}
		keep = append(keep, p)
	}
	s.pods = keep
	return settled
}

// tooManyPods is Simulate's error for a state of n pods, more than max,
// before reconcile k (0: the state passed in).
func tooManyPods(replicas int32, k int, n int64, max int) error {
	what := "the pods passed in are " + strconv.FormatInt(n, 10)
	if k > 0 {
		what = "reconcile " + strconv.Itoa(k) + " would leave " + strconv.FormatInt(n, 10) + " pods"
	}
	return &field.Error{Prefix: "cloneset", Field: "spec.replicas", Value: strconv.FormatInt(int64(replicas), 10),
		Detail: what + ", more than Config.MaxPods " + strconv.Itoa(max), Err: field.ErrRange}
}

// take adopts the reconcile's result, with all its pods (sync.Pods and
// the created ones, last), and lets the simulated kubelet act on its
// writes.
func (s *sim[T]) take(sync *Sync[T], all []Pod, now time.Time) {
	s.cur = sync.CloneSet
	s.pods, s.revs = all, sync.Revisions
	for i := len(sync.Pods); i < len(all); i++ {
		p := &all[i]
		s.state[p.Name] = &simPod{readyAt: now.Add(s.cfg.ReadyDelay), never: s.never(p.Revision)}
		p.NodeName = "node-" + strconv.Itoa(s.created%s.cfg.Nodes+1)
		s.created++
	}
	for _, a := range sync.Actions {
		switch a.Kind {
		case DeletePod:
			sp := s.state[a.Pod]
			if sp == nil {
				sp = &simPod{}
				s.state[a.Pod] = sp
			}
			sp.deleted, sp.goneAt = true, now.Add(s.cfg.TerminationDelay)
		case UpdatePodInPlace:
			sp := s.state[a.Pod]
			sp.inPlace, sp.appliedAt = true, now
			if a.GraceSeconds > 0 {
				sp.appliedAt = now.Add(time.Duration(a.GraceSeconds) * time.Second)
			}
			sp.never = s.never(a.Revision)
			if i := s.index(a.Pod); i >= 0 {
				s.pods[i].Ready = false
			}
		case ApplyHeldPodUpdate:
			if sp := s.state[a.Pod]; sp != nil {
				sp.appliedAt = now
			}
		case DropHeldPodUpdate:
			if sp := s.state[a.Pod]; sp != nil {
				sp.inPlace = false
			}
		}
	}
}

// never reports whether the next pod to reach rev never becomes ready.
func (s *sim[T]) never(rev string) bool {
	if s.initial[rev] || s.cfg.NeverReady <= 0 {
		return false
	}
	n := s.reached[rev]
	s.reached[rev] = n + 1
	return n < s.cfg.NeverReady
}

func (s *sim[T]) index(name string) int {
	for i := range s.pods {
		if s.pods[i].Name == name {
			return i
		}
	}
	return -1
}

// step records a reconcile; all are the pods it leaves (sync.Pods and
// the created ones).
func (s *sim[T]) step(k int, now time.Time, events []string, sync *Sync[T], all []Pod) Step {
	res := resolve(&s.cur)
	st := Step{
		Sync: k, Time: now, Elapsed: now.Sub(s.cfg.Start), Events: events,
		Actions: slices.Clone(sync.Actions), Reason: sync.Reason, Warnings: sync.Warnings, Status: sync.Status.Status,
		Replicas: s.cur.Replicas, Partition: res.Partition, MaxSurge: sat32(res.MaxSurge), MaxUnavailable: sat32(res.MaxUnavailable),
	}
	// The Planner reuses the Sync's memory two reconciles later: keep a
	// copy of what lives there.
	if c := st.Status.CollisionCount; c != nil {
		n := *c
		st.Status.CollisionCount = &n
	}
	for i := range all {
		if IsPodActive(&all[i]) {
			st.Active++
		} else if all[i].Terminating {
			st.Terminating++
		}
	}
	if s.cfg.RecordPods {
		order := make([]int, len(all))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			pa, pb := &all[a], &all[b]
			if c := pa.CreationTime.Compare(pb.CreationTime); c != 0 {
				return c
			}
			return strings.Compare(pa.Name, pb.Name)
		})
		st.Pods = make([]PodState, len(order))
		minReady := s.cur.MinReadySeconds
		for n, i := range order {
			p := &all[i]
			st.Pods[n] = PodState{Name: p.Name, Revision: p.Revision, Lifecycle: p.Lifecycle, Ready: IsPodUpdateReady(p, 0, now),
				Available: IsPodAvailable(p, minReady, now), Terminating: p.Terminating}
		}
	}
	return st
}

// outcomeOf classifies a CloneSet with nothing left to do.
func outcomeOf[T any](cs *CloneSet[T]) Outcome {
	st := &cs.Status
	if c := findCondition(st.Conditions, ConditionProgressing); c != nil && c.Reason == ReasonProgressDeadlineExceeded {
		return OutcomeTimedOut
	}
	r := cs.Replicas
	switch {
	case st.CurrentRevision == st.UpdateRevision && st.Replicas == r && st.UpdatedReplicas == r && st.UpdatedAvailableReplicas == r && st.AvailableReplicas == r:
		return OutcomeComplete
	case cs.UpdateStrategy.Paused:
		return OutcomePaused
	case st.Replicas == r && st.AvailableReplicas == r && st.ExpectedUpdatedReplicas < r && st.UpdatedAvailableReplicas >= st.ExpectedUpdatedReplicas:
		return OutcomePartitioned
	}
	return OutcomeStalled
}
