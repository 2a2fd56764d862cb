package daemonset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// EventKind is what an Event changes.
type EventKind uint8

// The changes a simulation can script.
const (
	// SetTemplate replaces the template with Event.Template: the
	// generation and the template generation (when set) go up by one, as
	// the API server does.
	SetTemplate EventKind = iota + 1
	// AddNodes adds Event.Nodes to the cluster.
	AddNodes
	// RemoveNodes removes the nodes named in Event.Names; their pods go
	// with them (the pod garbage collector deletes pods bound to a node
	// that no longer exists).
	RemoveNodes
	// UpdateNodes replaces the scheduling answers (ShouldRun,
	// ShouldContinueRunning) of the nodes in Event.Nodes, by name: a taint
	// added or removed, a label changed.
	UpdateNodes
	// SetMaxSurge sets rollingUpdate.maxSurge to Event.Value (nil: unset);
	// the generation goes up by one.
	SetMaxSurge
	// SetMaxUnavailable sets rollingUpdate.maxUnavailable to Event.Value
	// (nil: unset, the default 1); the generation goes up by one.
	SetMaxUnavailable
)

// String returns the kind's name, e.g. "SetTemplate".
func (k EventKind) String() string {
	switch k {
	case SetTemplate:
		return "SetTemplate"
	case AddNodes:
		return "AddNodes"
	case RemoveNodes:
		return "RemoveNodes"
	case UpdateNodes:
		return "UpdateNodes"
	case SetMaxSurge:
		return "SetMaxSurge"
	case SetMaxUnavailable:
		return "SetMaxUnavailable"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is a change a user (or the cluster) makes, applied just before
// sync number Sync (from 1). Several events may share a sync; they apply
// in the order given.
type Event[T any] struct {
	Sync     int                       `json:"sync"`
	Kind     EventKind                 `json:"kind"`
	Template T                         `json:"template"`        // SetTemplate
	Nodes    []Node                    `json:"nodes,omitempty"` // AddNodes, UpdateNodes
	Names    []string                  `json:"names,omitempty"` // RemoveNodes
	Value    *intorpercent.IntOrString `json:"value,omitempty"` // SetMaxSurge, SetMaxUnavailable
}

// Config is the simulated cluster.
type Config[T any] struct {
	// Start is the time of the first sync.
	Start time.Time `json:"start"`
	// Interval is the time between syncs; 0 means 10 s.
	Interval time.Duration `json:"interval,omitempty"`
	// ReadyDelay is how long after its creation a pod becomes Running and
	// Ready; 0 means at the next sync's observation.
	ReadyDelay time.Duration `json:"readyDelay,omitempty"`
	// NodeReadyDelays overrides ReadyDelay for pods on the named nodes.
	NodeReadyDelays map[string]time.Duration `json:"nodeReadyDelays,omitempty"`
	// ReadyAt gives, by name, when a pod passed to Simulate that is not
	// Ready (nor Terminating, nor Failed or Succeeded, nor on a node or
	// at a hash that never becomes ready) becomes Running and Ready; an
	// input pod it does not name does so ReadyDelay (per node:
	// NodeReadyDelays) after its creation. It applies to the input pods
	// only, not to pods the simulation creates under the same name. A
	// program reading pods from a cluster sets it to the time each
	// unready pod's own delay ends.
	ReadyAt map[string]time.Time `json:"readyAt,omitempty"`
	// NeverReadyNodes names nodes whose pods never become ready.
	NeverReadyNodes []string `json:"neverReadyNodes,omitempty"`
	// NeverReadyHashes names revision hashes whose pods never become ready
	// (a broken template).
	NeverReadyHashes []string `json:"neverReadyHashes,omitempty"`
	// TerminationDelay is how long a deleted pod stays terminating; 0
	// means it is gone at the next sync. A pod passed to Simulate that is
	// already terminating is gone TerminationDelay after Start.
	TerminationDelay time.Duration `json:"terminationDelay,omitempty"`
	// NodeTerminationDelays overrides TerminationDelay on the named
	// nodes; a negative delay means the pod never finishes terminating.
	NodeTerminationDelays map[string]time.Duration `json:"nodeTerminationDelays,omitempty"`
	// MaxSyncs bounds the simulation; 0 means 1000.
	MaxSyncs int `json:"maxSyncs,omitempty"`
	// Events are the scripted changes.
	Events []Event[T] `json:"events,omitempty"`
	// Options are the options every sync is planned with.
	Options Options `json:"options"`
	// RecordPods keeps the pods as each recorded sync leaves them in
	// Step.Pods.
	RecordPods bool `json:"recordPods,omitempty"`
}

// Outcome is how a simulation ended.
type Outcome uint8

// The outcomes.
const (
	// OutcomeComplete: every node that should run the pod runs exactly one
	// pod, updated and available, no other node runs one, nothing is
	// terminating, the status says so, and no event is left. Pods for no
	// node (Pod.Node ""), which the controller ignores, do not count.
	OutcomeComplete Outcome = iota + 1
	// OutcomeSyncLimit: MaxSyncs syncs ran first.
	OutcomeSyncLimit
	// OutcomeStalled: a sync wrote nothing, no event is left, and nothing
	// in the cluster will change by itself (pods that never become ready,
	// or a rolling update that waits for them).
	OutcomeStalled
)

// String returns the outcome's name, e.g. "OutcomeComplete".
func (o Outcome) String() string {
	switch o {
	case OutcomeComplete:
		return "OutcomeComplete"
	case OutcomeSyncLimit:
		return "OutcomeSyncLimit"
	case OutcomeStalled:
		return "OutcomeStalled"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Step is one recorded sync of a trace: one that wrote something or
// followed an event.
type Step struct {
	// Sync is the sync's number, from 1.
	Sync int `json:"sync"`
	// Time is when it ran.
	Time time.Time `json:"time"`
	// Events describe the events applied just before it.
	Events []string `json:"events,omitempty"`
	// Actions are its writes, with reasons.
	Actions []Action `json:"actions,omitempty"`
	// Reason is the sync's summary.
	Reason string `json:"reason"`
	// Status is the status it computed.
	Status Status `json:"status"`
	// Pods are the pods as it left them, when Config.RecordPods is set.
	Pods []Pod `json:"pods,omitempty"`
}

// String renders the step as one line: the sync's number, its time of
// day (UTC as given) and its reason.
func (s Step) String() string {
	return fmt.Sprintf("sync %d %s: %s", s.Sync, s.Time.Format("15:04:05"), s.Reason)
}

// Trace is a simulated rollout.
type Trace[T any] struct {
	// Steps are the recorded syncs.
	Steps []Step `json:"steps"`
	// Outcome says how the simulation ended.
	Outcome Outcome `json:"outcome"`
	// Syncs is how many syncs ran.
	Syncs int `json:"syncs"`
	// The objects as the simulation left them.
	DaemonSet DaemonSet[T]         `json:"daemonSet"`
	Nodes     []Node               `json:"nodes"`
	Pods      []Pod                `json:"pods"`
	Revisions []ControllerRevision `json:"revisions"`
}

// Simulate runs syncs of the DaemonSet controller over a simulated
// cluster until the rollout completes, stalls, or cfg.MaxSyncs syncs ran.
// Sync k runs at cfg.Start + (k-1)*Interval. Before each sync the events
// of that sync are applied, then the cluster moves on to the sync's time:
// a created pod is scheduled on its node and Running at once, and becomes
// Ready ReadyDelay (per node: NodeReadyDelays) after its creation unless
// its node or hash never becomes ready; a deleted pod disappears
// TerminationDelay after its deletion. Input pods that are not ready
// become ready the same way, counted from their creation, or at their
// time in cfg.ReadyAt; input pods
// that are terminating are gone TerminationDelay (per node:
// NodeTerminationDelays) after cfg.Start. Each sync is
// [Planner.Plan] with cfg.Options, and the cluster takes its writes: the
// DaemonSet's status, the pods (deleted ones terminating, created ones
// pending), the revisions. Because every write is seen by the next sync,
// a sync in which manage wrote something is followed by one that runs the
// rolling update, as in a cluster.
//
// ds, nodes, pods and revisions are not modified. Errors: those of Plan
// (the trace up to the failing sync is returned with the error), an event
// with an unknown kind or a sync below 1, a node added twice.
func Simulate[T any](ds *DaemonSet[T], nodes []Node, pods []Pod, revisions []ControllerRevision, cfg Config[T]) (Trace[T], error) {
	if ds == nil {
		return Trace[T]{}, nilError()
	}
	for i, ev := range cfg.Events {
		if ev.Sync < 1 {
			return Trace[T]{}, inputError(indexed("events", i, "sync"), field.ErrRange, "%d: must be at least 1", ev.Sync)
		}
		if ev.Kind < SetTemplate || ev.Kind > SetMaxUnavailable {
			return Trace[T]{}, inputError(indexed("events", i, "kind"), field.ErrUnsupported, "%d: unknown kind", ev.Kind)
		}
	}
	interval := cfg.Interval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	limit := cfg.MaxSyncs
	if limit <= 0 {
		limit = 1000
	}
	s := &sim[T]{cfg: &cfg, ds: *ds, nodes: slices.Clone(nodes), pods: slices.Clone(pods), revisions: slices.Clone(revisions),
		deletedAt: map[string]time.Time{}, readyAt: map[podKey]time.Time{}}
	for i := range s.pods {
		p := &s.pods[i]
		if p.Terminating {
			s.deletedAt[p.Name] = cfg.Start
		} else if at, ok := cfg.ReadyAt[p.Name]; ok {
			s.readyAt[podKey{p.Name, p.Created}] = at
		}
	}
	if ru := ds.UpdateStrategy.RollingUpdate; ru != nil {
		c := *ru
		s.ds.UpdateStrategy.RollingUpdate = &c
	}
	var tr Trace[T]
	var planner Planner[T]
	planner.Options = cfg.Options
	for k := 1; k <= limit; k++ {
		now := cfg.Start.Add(time.Duration(k-1) * interval)
		var events []string
		for _, ev := range cfg.Events {
			if ev.Sync == k {
				events = append(events, s.apply(ev))
			}
		}
		s.observe(now)
		sync, err := planner.Plan(&s.ds, s.nodes, s.pods, s.revisions, now)
		tr.Syncs = k
		if err != nil {
			s.fill(&tr)
			return tr, err
		}
		sync = planner.Explain()
		s.take(sync, now)
		if len(sync.Actions) > 0 || len(events) > 0 {
			st := Step{Sync: k, Time: now, Events: events, Actions: slices.Clone(sync.Actions), Reason: sync.Reason, Status: sync.Status}
			if cfg.RecordPods {
				st.Pods = slices.Clone(s.pods)
			}
			tr.Steps = append(tr.Steps, st)
		}
		pending := slices.ContainsFunc(cfg.Events, func(ev Event[T]) bool { return ev.Sync > k })
		if pending {
			continue
		}
		if s.complete(sync, now) {
			tr.Outcome = OutcomeComplete
			s.fill(&tr)
			return tr, nil
		}
		if len(sync.Actions) == 0 && !s.moving(now) {
			tr.Outcome = OutcomeStalled
			s.fill(&tr)
			return tr, nil
		}
	}
	tr.Outcome = OutcomeSyncLimit
	s.fill(&tr)
	return tr, nil
}

// sim is the simulated cluster.
type sim[T any] struct {
	cfg       *Config[T]
	ds        DaemonSet[T]
	nodes     []Node
	pods      []Pod
	revisions []ControllerRevision
	deletedAt map[string]time.Time
	// readyAt holds Config.ReadyAt for the input pods, by name and
	// creation time, so that a pod created later under the same name
	// does not take it.
	readyAt map[podKey]time.Time
}

// podKey identifies a pod across syncs: the controller may create a pod
// under the name of one gone before.
type podKey struct {
	name    string
	created time.Time
}

func (s *sim[T]) fill(tr *Trace[T]) {
	tr.DaemonSet, tr.Nodes, tr.Pods, tr.Revisions = s.ds, s.nodes, s.pods, s.revisions
}

// apply applies one event and describes it.
func (s *sim[T]) apply(ev Event[T]) string {
	switch ev.Kind {
	case SetTemplate:
		s.ds.Template = ev.Template
		s.ds.Generation++
		if g := s.ds.TemplateGeneration; g != nil {
			n := *g + 1
			s.ds.TemplateGeneration = &n
		}
		return "template changed"
	case AddNodes:
		s.nodes = append(s.nodes, ev.Nodes...)
		return fmt.Sprintf("%d %s added", len(ev.Nodes), plural(len(ev.Nodes), "node"))
	case RemoveNodes:
		s.nodes = slices.DeleteFunc(s.nodes, func(n Node) bool { return slices.Contains(ev.Names, n.Name) })
		s.pods = slices.DeleteFunc(s.pods, func(p Pod) bool { return slices.Contains(ev.Names, p.Node) })
		return "removed " + strings.Join(ev.Names, ", ")
	case UpdateNodes:
		for _, u := range ev.Nodes {
			for i := range s.nodes {
				if s.nodes[i].Name == u.Name {
					s.nodes[i] = u
				}
			}
		}
		return fmt.Sprintf("%d %s changed", len(ev.Nodes), plural(len(ev.Nodes), "node"))
	case SetMaxSurge, SetMaxUnavailable:
		ru := RollingUpdateParams{}
		if r := s.ds.UpdateStrategy.RollingUpdate; r != nil {
			ru = *r
		}
		var v *intorpercent.IntOrString
		if ev.Value != nil {
			c := *ev.Value
			v = &c
		}
		what := "maxSurge"
		if ev.Kind == SetMaxSurge {
			ru.MaxSurge = v
		} else {
			ru.MaxUnavailable, what = v, "maxUnavailable"
		}
		s.ds.UpdateStrategy.RollingUpdate = &ru
		s.ds.Generation++
		if v == nil {
			return what + " unset"
		}
		return what + " set to " + v.String()
	}
	return ""
}

func (s *sim[T]) readyDelay(node string) time.Duration {
	if d, ok := s.cfg.NodeReadyDelays[node]; ok {
		return d
	}
	return s.cfg.ReadyDelay
}

func (s *sim[T]) termDelay(node string) time.Duration {
	if d, ok := s.cfg.NodeTerminationDelays[node]; ok {
		return d
	}
	return s.cfg.TerminationDelay
}

func (s *sim[T]) never(p *Pod) bool {
	return slices.Contains(s.cfg.NeverReadyNodes, p.Node) || slices.Contains(s.cfg.NeverReadyHashes, p.Hash) || terminal(p)
}

// observe moves the cluster on to now.
func (s *sim[T]) observe(now time.Time) {
	s.pods = slices.DeleteFunc(s.pods, func(p Pod) bool {
		if !p.Terminating {
			return false
		}
		d := s.termDelay(p.Node)
		at, ok := s.deletedAt[p.Name]
		if !ok || d < 0 || at.Add(d).After(now) {
			return false
		}
		delete(s.deletedAt, p.Name)
		return true
	})
	for i := range s.pods {
		p := &s.pods[i]
		if p.Unscheduled && slices.ContainsFunc(s.nodes, func(n Node) bool { return n.Name == p.Node }) {
			p.Unscheduled = false
			p.Phase = PodRunning
		}
		if p.Ready || p.Terminating || p.Unscheduled || s.never(p) {
			continue
		}
		at, ok := s.readyAt[podKey{p.Name, p.Created}]
		if !ok {
			at = p.Created.Add(s.readyDelay(p.Node))
		}
		if !at.After(now) {
			p.Phase, p.Ready, p.ReadySince = PodRunning, true, at
		}
	}
}

// moving reports whether the cluster will change by itself after now:
// a pod still to terminate or to become ready or scheduled.
func (s *sim[T]) moving(now time.Time) bool {
	for i := range s.pods {
		p := &s.pods[i]
		if p.Terminating && s.termDelay(p.Node) >= 0 {
			return true
		}
		if p.Unscheduled && slices.ContainsFunc(s.nodes, func(n Node) bool { return n.Name == p.Node }) {
			return true
		}
		if !p.Ready && !p.Terminating && !s.never(p) {
			return true
		}
		if p.Ready && s.ds.MinReadySeconds > 0 && !IsPodAvailable(p, s.ds.MinReadySeconds, now) {
			return true
		}
	}
	return false
}

// take applies the sync's writes to the cluster.
func (s *sim[T]) take(sync *Sync[T], now time.Time) {
	s.ds.Status = sync.DaemonSet.Status
	s.pods = append(s.pods[:0], sync.Pods...)
	s.revisions = append(s.revisions[:0], sync.Revisions...)
	for _, a := range sync.Actions {
		if a.Kind == DeletePod {
			if _, ok := s.deletedAt[a.Pod]; !ok {
				s.deletedAt[a.Pod] = now
			}
		}
	}
}

// complete reports whether the rollout is over after sync.
func (s *sim[T]) complete(sync *Sync[T], now time.Time) bool {
	st := &s.ds.Status
	if len(sync.Actions) > 0 || st.ObservedGeneration != s.ds.Generation || st.NumberMisscheduled != 0 ||
		st.UpdatedNumberScheduled != st.DesiredNumberScheduled || st.NumberAvailable != st.DesiredNumberScheduled ||
		st.CurrentNumberScheduled != st.DesiredNumberScheduled {
		return false
	}
	per := map[string]int{}
	for i := range s.pods {
		p := &s.pods[i]
		if p.Node == "" {
			continue // the controller ignores a pod for no node
		}
		if p.Terminating {
			return false
		}
		if !IsPodUpdated(p, sync.Hash, s.ds.TemplateGeneration) || !IsPodAvailable(p, s.ds.MinReadySeconds, now) {
			return false
		}
		per[p.Node]++
	}
	for _, n := range s.nodes {
		if n.ShouldRun && per[n.Name] != 1 || !n.ShouldRun && per[n.Name] != 0 {
			return false
		}
	}
	return true
}
