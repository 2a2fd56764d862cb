package rollout

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/revision"
)

// EventKind is what a scripted Event does to the deployment.
type EventKind uint8

// The scripted events Simulate understands.
const (
	// SetTemplate replaces the pod template (a new image), starting a
	// rollout.
	SetTemplate EventKind = iota + 1
	// SetReplicas changes spec.replicas (a resize, mid-rollout or not).
	SetReplicas
	// Pause sets spec.paused.
	Pause
	// Resume clears spec.paused.
	Resume
	// Rollback asks the controller to roll back to Event.Revision (0: the
	// previous revision), as the deprecated rollback annotation does.
	Rollback
)

// String returns the kind's name, e.g. "SetReplicas".
func (k EventKind) String() string {
	switch k {
	case SetTemplate:
		return "SetTemplate"
	case SetReplicas:
		return "SetReplicas"
	case Pause:
		return "Pause"
	case Resume:
		return "Resume"
	case Rollback:
		return "Rollback"
	}
	return "EventKind(" + itoa(int64(k)) + ")"
}

// Event is a change a user makes to the deployment, applied just before
// sync number Step (1 is the first sync; an event whose Step is below 1 or
// beyond the last sync is never applied). Template, spec.replicas, pause
// and resume raise the deployment's generation, as the API server does.
type Event[T any] struct {
	Step     int
	Kind     EventKind
	Template T     // for SetTemplate
	Replicas int32 // for SetReplicas
	Revision int64 // for Rollback: the revision, 0 for the previous one
}

// Config describes the simulated cluster. The zero value is a usable
// cluster: syncs every 10 s, pods ready as soon as they exist, deleted pods
// gone at once, at most 1,000 syncs.
type Config[T any] struct {
	// Start is the time of the initial state; sync k runs at
	// Start + k*Interval. Zero means 1970-01-01T00:00:00Z.
	Start time.Time
	// Interval is the time between syncs; zero means 10 s. The ReplicaSet
	// controller acts half an interval after each sync: it creates the
	// missing pods and deletes the surplus (unready pods first, then the
	// newest).
	Interval time.Duration
	// ReadyDelay is how long a pod takes from creation to Ready; it becomes
	// available MinReadySeconds later. With ReadyDelay == Interval, pods
	// created after sync k are first available at sync k+2.
	ReadyDelay time.Duration
	// TerminationDelay is how long a deleted pod stays terminating (counted
	// in status.terminatingReplicas); zero means it is gone at once.
	TerminationDelay time.Duration
	// NeverReady is how many of the first pods of each ReplicaSet created
	// during the simulation never become ready.
	NeverReady int32
	// MaxSteps bounds the number of syncs; zero means 1,000.
	MaxSteps int
	// Events are the scripted changes, in any order.
	Events []Event[T]
	// Options are passed to PlanWith.
	Options Options
}

// Outcome is how a simulation ended.
type Outcome uint8

// The ways a simulation ends.
const (
	// OutcomeComplete: the rollout completed and nothing is left to do.
	OutcomeComplete Outcome = iota + 1
	// OutcomeTimedOut: the deployment reports ProgressDeadlineExceeded and
	// nothing is left to do.
	OutcomeTimedOut
	// OutcomePaused: the deployment is paused and nothing is left to do.
	OutcomePaused
	// OutcomeStalled: nothing is left to do, but the rollout is not
	// complete (pods that never become ready without a progress deadline,
	// an upstream dead end, or a selector that selects everything, which
	// the controller refuses to roll out).
	OutcomeStalled
	// OutcomeStepLimit: MaxSteps syncs ran before the cluster settled.
	OutcomeStepLimit
)

// String returns "Complete", "TimedOut", "Paused", "Stalled" or
// "StepLimit".
func (o Outcome) String() string {
	switch o {
	case OutcomeComplete:
		return "Complete"
	case OutcomeTimedOut:
		return "TimedOut"
	case OutcomePaused:
		return "Paused"
	case OutcomeStalled:
		return "Stalled"
	case OutcomeStepLimit:
		return "StepLimit"
	}
	return "Outcome(" + itoa(int64(o)) + ")"
}

// MarshalText returns String, so an Outcome reads well in JSON.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// ReplicaSetState is one ReplicaSet in a Step, as `kubectl get rs` shows
// it: Desired is spec.replicas after the sync; Current, Ready, Available
// and Terminating are the pods the sync saw.
type ReplicaSetState struct {
	Name        string `json:"name"`
	Revision    int64  `json:"revision"`
	New         bool   `json:"new,omitempty"`
	Desired     int32  `json:"desired"`
	Current     int32  `json:"current"`
	Ready       int32  `json:"ready"`
	Available   int32  `json:"available"`
	Terminating int32  `json:"terminating,omitempty"`
}

// Step is one sync of a simulation.
type Step struct {
	// Sync numbers the sync, from 1; syncs that changed nothing are not
	// recorded, so numbers may skip.
	Sync int `json:"sync"`
	// Time is when the sync ran; Elapsed is Time - Config.Start.
	Time    time.Time     `json:"time"`
	Elapsed time.Duration `json:"elapsed"`
	// Events describe the scripted events applied just before the sync.
	Events []string `json:"events,omitempty"`
	// Path, Actions and Reason are Plan's.
	Path    Path     `json:"path"`
	Actions []Action `json:"actions,omitempty"`
	Reason  string   `json:"reason"`
	// ReplicaSets are all ReplicaSets after the sync (deleted ones left
	// out), oldest first.
	ReplicaSets []ReplicaSetState `json:"replicaSets"`
	// Status is the deployment status the sync wrote.
	Status Status `json:"status"`
	// Replicas, MaxSurge and MaxUnavailable are R and its resolved bounds
	// at this sync: pods may reach Replicas + MaxSurge and available pods
	// should not fall below Replicas - MaxUnavailable.
	Replicas       int32 `json:"replicas"`
	MaxSurge       int32 `json:"maxSurge"`
	MaxUnavailable int32 `json:"maxUnavailable"`
	// Pods counts the pods the sync saw, terminating ones included.
	Pods int32 `json:"pods"`
}

// String renders the step on one line: each ReplicaSet as
// "name desired (current/ready/available)", then the reason.
func (s Step) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sync %d (+%s) %s:", s.Sync, s.Elapsed, s.Path)
	for _, rs := range s.ReplicaSets {
		fmt.Fprintf(&b, " %s %d (%d/%d/%d)", rs.Name, rs.Desired, rs.Current, rs.Ready, rs.Available)
		if rs.Terminating > 0 {
			fmt.Fprintf(&b, " +%d terminating", rs.Terminating)
		}
	}
	fmt.Fprintf(&b, " | %s", s.Reason)
	return b.String()
}

// Trace is the result of Simulate.
type Trace[T any] struct {
	// Steps are the syncs that changed something, in order.
	Steps []Step
	// Outcome is how the simulation ended; Syncs is how many syncs ran.
	Outcome Outcome
	Syncs   int
	// Deployment and ReplicaSets are the final state.
	Deployment  Deployment[T]
	ReplicaSets []ReplicaSet[T]
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

// pods is a group of pods of one ReplicaSet that share their timeline.
type pods struct {
	n       int32
	created time.Time
	ready   time.Time // when Ready; meaningless if never
	never   bool      // never becomes ready
	gone    time.Time // deleted: when the pod is gone
	deleted bool
}

// rsPods are the pods of one ReplicaSet, kept so that a sync costs the
// same however many syncs came before it.
//
// Active pods that were ready and available at an observation (and so stay
// so: minReadySeconds does not change during a simulation) are only
// counted in settled. Every other active group is deleted before them:
// unready pods go first, and a ready group not yet settled became ready
// later than any settled pod, so the most-recently-ready rule deletes it
// first. So once settled, a pod's own times no longer matter, and the
// groups a long rollout creates one per sync collapse into one number.
// pending holds the rest, in creation order (the order breaks ties when
// the controller picks pods to delete): groups not yet available, pods
// that never become ready, and deleted pods still terminating.
type rsPods struct {
	settled int64
	pending []pods
}

// cluster is the simulated ReplicaSet controller and kubelet.
type cluster struct {
	pods    map[string]*rsPods // by ReplicaSet name
	made    map[string]int32   // pods created so far, for ReplicaSets created in the simulation
	tracked map[string]bool    // ReplicaSets created in the simulation
}

// of returns the pods of the ReplicaSet named name, adding an empty entry
// for a name not seen before.
func (c *cluster) of(name string) *rsPods {
	p := c.pods[name]
	if p == nil {
		p = &rsPods{}
		c.pods[name] = p
	}
	return p
}

// Simulate runs the controller on d and rss against a simulated cluster,
// one sync per Config.Interval, applying cfg.Events, until nothing is left
// to do (see Outcome) or cfg.MaxSteps syncs ran. The pods of rss at the
// start are taken from their counters (available pods are available,
// ready ones become available after minReadySeconds, the others ready
// after ReadyDelay, terminating ones gone after TerminationDelay).
//
// The cost is one Plan per sync, and a sync costs O(ReplicaSets + pod
// groups not yet available or still terminating), not O(pods) and not
// O(syncs so far): pods created or deleted together are one group, and
// groups that became available are merged into one count. So the total
// cost is linear in the number of syncs, a rollout of 100,000 replicas
// costs about what one of 10 costs with percentage bounds, and the number
// of syncs grows with R/(maxSurge + maxUnavailable) and with
// ReadyDelay/Interval.
//
// Errors: as for Plan, every bad input is a *field.Error (or a list of
// them) wrapping field.ErrInvalid: an invalid d or ReplicaSet, two
// ReplicaSets with the same name (field.ErrDuplicate), an event making the deployment invalid, or a
// sync that would overflow a counter (ErrCounterOverflow, see Plan); the trace up to that sync is returned with it,
// with Outcome 0. d and rss are never modified.
func Simulate[T any](d *Deployment[T], rss []ReplicaSet[T], cfg Config[T]) (Trace[T], error) {
	if cfg.Start.IsZero() {
		cfg.Start = time.Unix(0, 0).UTC()
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 1000
	}
	var tr Trace[T]
	if errs := validate(d); len(errs) > 0 {
		name := ""
		if d != nil {
			name = d.Name
		}
		return tr, invalidObject("Deployment", name, errs)
	}
	cur := *d
	set := append([]ReplicaSet[T](nil), rss...)
	c := &cluster{pods: map[string]*rsPods{}, made: map[string]int32{}, tracked: map[string]bool{}}
	minReady := time.Duration(cur.MinReadySeconds) * time.Second
	if err := validateReplicaSets(set); err != nil {
		return tr, err
	}
	for i := range set {
		rs := &set[i]
		var g []pods
		long := cfg.Start.Add(-minReady - time.Hour)
		add := func(p pods) {
			if p.n > 0 {
				g = append(g, p)
			}
		}
		add(pods{n: rs.AvailableReplicas, created: long, ready: long})
		add(pods{n: rs.ReadyReplicas - rs.AvailableReplicas, created: cfg.Start, ready: cfg.Start})
		add(pods{n: rs.StatusReplicas - rs.ReadyReplicas, created: cfg.Start, ready: cfg.Start.Add(cfg.ReadyDelay)})
		add(pods{n: terminating(rs), created: long, ready: long, deleted: true, gone: cfg.Start.Add(cfg.TerminationDelay)})
		c.pods[rs.Name] = &rsPods{pending: g}
	}
	planner := &Planner[T]{Options: cfg.Options}
	newName := ""
	lastEvent := 0
	for _, ev := range cfg.Events {
		lastEvent = max(lastEvent, ev.Step)
	}
	// The ReplicaSet controller reacts to the initial specs before sync 1.
	reconcile(c, set, &cfg, cfg.Start, cfg.Start.Add(cfg.Interval/2), minReady)
	for k := 1; k <= cfg.MaxSteps; k++ {
		tr.Syncs = k
		now := cfg.Start.Add(time.Duration(k) * cfg.Interval)
		var events []string
		for _, ev := range cfg.Events {
			if ev.Step == k {
				events = append(events, applyEvent(&cur, ev))
			}
		}
		minReady = time.Duration(cur.MinReadySeconds) * time.Second
		podsSeen := observe(c, set, now, minReady)
		// The new ReplicaSet of the last sync is still FindNew's answer
		// when no event came between and the last sync was not a
		// rollback (which restores another template): the template is
		// the same, and a sync only deletes old ReplicaSets and creates
		// newer ones.
		known := ""
		if len(events) == 0 && newName != "" {
			known = newName
		}
		sync, err := planner.Plan(&cur, set, now, known)
		if err != nil {
			tr.Deployment, tr.ReplicaSets = ownDeployment(cur), slices.Clone(set)
			return tr, err
		}
		idle := len(sync.Actions) == 0 && len(events) == 0 && equalStatus(&cur.Status, &sync.Deployment.Status) &&
			equalAnnotations(cur.Annotations, sync.Deployment.Annotations)
		if !idle {
			planner.Explain()
			tr.Steps = append(tr.Steps, step(k, now, cfg.Start, events, sync, set, podsSeen))
		}
		// The Planner's memory is reused two syncs on: keep copies of
		// what the trace holds longer (step copies what it keeps).
		cur, set = sync.Deployment, sync.ReplicaSets
		newName = ""
		if sync.NewReplicaSet >= 0 && sync.Path != PathRollback {
			newName = set[sync.NewReplicaSet].Name
		}
		for i := range set {
			if _, ok := c.pods[set[i].Name]; !ok {
				c.pods[set[i].Name] = &rsPods{}
				c.tracked[set[i].Name] = true
			}
		}
		forgetDeleted(c, set)
		settled := reconcile(c, set, &cfg, now, now.Add(cfg.Interval/2), minReady)
		if idle && settled && k >= lastEvent && !sync.Requeue {
			tr.Outcome = outcome(&cur)
			if sync.Path == PathSelectingAll {
				tr.Outcome = OutcomeStalled // refused, whatever the stale status says
			}
			break
		}
	}
	if tr.Outcome == 0 {
		tr.Outcome = OutcomeStepLimit
	}
	tr.Deployment, tr.ReplicaSets = ownDeployment(cur), slices.Clone(set)
	return tr, nil
}

// ownDeployment returns d with its status in memory of its own, not a
// Planner's.
func ownDeployment[T any](d Deployment[T]) Deployment[T] {
	d.Status = ownStatus(d.Status)
	return d
}

// ownStatus returns s with its conditions and counters in memory of its
// own, not a Planner's.
func ownStatus(s Status) Status {
	if s.Conditions != nil {
		s.Conditions = append([]Condition{}, s.Conditions...)
	}
	if s.TerminatingReplicas != nil {
		n := *s.TerminatingReplicas
		s.TerminatingReplicas = &n
	}
	if s.CollisionCount != nil {
		n := *s.CollisionCount
		s.CollisionCount = &n
	}
	return s
}

// outcome classifies a deployment with nothing left to do.
func outcome[T any](d *Deployment[T]) Outcome {
	if c, ok := FindCondition(d.Status.Conditions, DeploymentProgressing); ok && c.Reason == ReasonProgressDeadlineExceeded {
		return OutcomeTimedOut
	}
	if Complete(d, &d.Status) {
		return OutcomeComplete
	}
	if d.Paused {
		return OutcomePaused
	}
	return OutcomeStalled
}

func equalAnnotations(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			return false
		}
	}
	return true
}

// applyEvent applies ev to d and describes it.
func applyEvent[T any](d *Deployment[T], ev Event[T]) string {
	switch ev.Kind {
	case SetTemplate:
		d.Template = ev.Template
		d.Generation++
		return "template changed"
	case SetReplicas:
		from := d.Replicas
		d.Replicas = ev.Replicas
		d.Generation++
		return fmt.Sprintf("replicas %d -> %d", from, ev.Replicas)
	case Pause:
		d.Paused = true
		d.Generation++
		return "paused"
	case Resume:
		d.Paused = false
		d.Generation++
		return "resumed"
	case Rollback:
		rev := ev.Revision
		d.RollbackTo = &rev
		if rev == 0 {
			return "rollback to the previous revision requested"
		}
		return fmt.Sprintf("rollback to revision %d requested", rev)
	}
	return "unknown event " + ev.Kind.String() + " ignored"
}

// step records a sync.
func step[T any](k int, now, start time.Time, events []string, s *Sync[T], before []ReplicaSet[T], podsSeen int32) Step {
	// Few ReplicaSets are looked up by a scan, many through a map.
	var seen map[string]*ReplicaSet[T]
	if len(before) > smallOrder {
		seen = make(map[string]*ReplicaSet[T], len(before))
		for i := range before {
			seen[before[i].Name] = &before[i]
		}
	}
	find := func(name string) *ReplicaSet[T] {
		if seen != nil {
			return seen[name]
		}
		for i := range before {
			if before[i].Name == name {
				return &before[i]
			}
		}
		return nil
	}
	st := Step{
		Sync: k, Time: now, Elapsed: now.Sub(start), Events: events,
		Path: s.Path, Actions: slices.Clone(s.Actions), Reason: s.Reason, Status: ownStatus(s.Deployment.Status),
		Replicas: s.Deployment.Replicas, MaxSurge: MaxSurge(&s.Deployment), MaxUnavailable: MaxUnavailable(&s.Deployment),
		Pods: podsSeen,
	}
	var buf [smallOrder]int
	order := sortOldest(buf[:0], s.ReplicaSets, -1)
	st.ReplicaSets = make([]ReplicaSetState, 0, len(order))
	for _, i := range order {
		rs := &s.ReplicaSets[i]
		rev, _ := revision.Revision(rs.Annotations)
		state := ReplicaSetState{Name: rs.Name, Revision: rev, New: i == s.NewReplicaSet, Desired: rs.Replicas}
		if b := find(rs.Name); b != nil {
			state.Current, state.Ready, state.Available, state.Terminating = b.StatusReplicas, b.ReadyReplicas, b.AvailableReplicas, terminating(b)
		}
		st.ReplicaSets = append(st.ReplicaSets, state)
	}
	return st
}

// observe fills the ReplicaSets' status from the pods at now (dropping
// pods whose termination has finished, and merging pods that became
// available into the settled count) and returns the number of pods,
// terminating ones included.
func observe[T any](c *cluster, set []ReplicaSet[T], now time.Time, minReady time.Duration) int32 {
	var total int64
	terms := make([]int32, len(set)) // one allocation for every status.terminatingReplicas
	for i := range set {
		rs := &set[i]
		p := c.of(rs.Name)
		replicas, ready, available, term := p.settled, p.settled, p.settled, int64(0)
		kept := p.pending[:0]
		for _, g := range p.pending {
			if g.deleted {
				if !g.gone.After(now) {
					continue
				}
				term += int64(g.n)
			} else {
				replicas += int64(g.n)
				if !g.never && !g.ready.After(now) {
					ready += int64(g.n)
					if !g.ready.Add(minReady).After(now) {
						available += int64(g.n)
						p.settled += int64(g.n)
						continue
					}
				}
			}
			kept = append(kept, g)
		}
		clear(p.pending[len(kept):])
		p.pending = kept
		rs.StatusReplicas, rs.ReadyReplicas, rs.AvailableReplicas = sat(replicas), sat(ready), sat(available)
		terms[i] = sat(term)
		rs.TerminatingReplicas = &terms[i]
		total += replicas + term
	}
	return sat(total)
}

// reconcile is the ReplicaSet controller at time at: it creates missing
// pods and deletes surplus ones (unready first, then the most recently
// ready, then the newest) and marks every ReplicaSet's generation as
// observed. It reports whether the cluster is settled: nothing created or
// deleted, no pod terminating, and every pod that will become available
// already was at now.
func reconcile[T any](c *cluster, set []ReplicaSet[T], cfg *Config[T], now, at time.Time, minReady time.Duration) bool {
	settled := true
	for i := range set {
		rs := &set[i]
		rs.ObservedGeneration = rs.Generation
		p := c.of(rs.Name)
		active := p.settled
		for _, g := range p.pending {
			if !g.deleted {
				active += int64(g.n)
			}
		}
		switch spec := int64(rs.Replicas); {
		case spec > active:
			settled = false
			n := spec - active
			var never int64
			if c.tracked[rs.Name] {
				never = min(n, max(0, int64(cfg.NeverReady)-int64(c.made[rs.Name])))
				c.made[rs.Name] = sat(int64(c.made[rs.Name]) + n)
			}
			if never > 0 {
				p.pending = append(p.pending, pods{n: int32(never), created: at, never: true})
			}
			if n > never {
				p.pending = append(p.pending, pods{n: int32(n - never), created: at, ready: at.Add(cfg.ReadyDelay)})
			}
		case spec < active:
			settled = false
			deletePods(p, active-spec, at, at.Add(cfg.TerminationDelay), cfg.TerminationDelay > 0)
		}
		// Settled pods were available at an earlier now, so only pending
		// ones can keep the cluster busy.
		for _, g := range p.pending {
			if g.deleted || !g.never && g.ready.Add(minReady).After(now) {
				settled = false
			}
		}
	}
	return settled
}

// deletePods removes n active pods of p, unready ones first, then the
// most recently ready, then the newest; with keep they stay as
// terminating until gone. Pending groups all go before settled pods (see
// rsPods), so the settled count is only drawn on when they are exhausted.
func deletePods(p *rsPods, n int64, at, gone time.Time, keep bool) {
	groups := p.pending
	active := len(groups) // deleted groups are appended after these
	for n > 0 {
		best := -1
		for i := range active {
			g := groups[i]
			if g.deleted || g.n == 0 {
				continue
			}
			if best < 0 || deleteFirst(g, groups[best], at) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		take := min(n, int64(groups[best].n))
		groups[best].n -= int32(take)
		n -= take
		if keep {
			d := groups[best]
			d.n, d.deleted, d.gone = int32(take), true, gone
			groups = append(groups, d)
		}
	}
	if take := min(n, p.settled); take > 0 {
		p.settled -= take
		// A terminating pod's creation and readiness no longer matter.
		for keep && take > 0 {
			chunk := min(take, math.MaxInt32)
			groups = append(groups, pods{n: int32(chunk), deleted: true, gone: gone})
			take -= chunk
		}
	}
	kept := groups[:0]
	for _, g := range groups {
		if g.n > 0 {
			kept = append(kept, g)
		}
	}
	clear(groups[len(kept):])
	p.pending = kept
}

// deleteFirst reports whether the ReplicaSet controller deletes pods of a
// before those of b at time at.
func deleteFirst(a, b pods, at time.Time) bool {
	aReady, bReady := !a.never && !a.ready.After(at), !b.never && !b.ready.After(at)
	if aReady != bReady {
		return !aReady
	}
	if aReady && !a.ready.Equal(b.ready) {
		return a.ready.After(b.ready)
	}
	return a.created.After(b.created)
}

// forgetDeleted drops the pods of ReplicaSets no longer in set.
func forgetDeleted[T any](c *cluster, set []ReplicaSet[T]) {
	if len(c.pods) == len(set) {
		return
	}
	keep := make(map[string]bool, len(set))
	for i := range set {
		keep[set[i].Name] = true
	}
	for name := range c.pods {
		if !keep[name] {
			delete(c.pods, name)
		}
	}
}
