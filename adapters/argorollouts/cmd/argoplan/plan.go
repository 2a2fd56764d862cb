package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/internal/argotable"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// fallbackNow is "now" for manifests that hold no timestamp (written by
// hand) when --now is not given. The program never reads the clock, so
// that its output is reproducible.
var fallbackNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// input is the Rollout and its ReplicaSets as the manifests show them.
type input struct {
	ro      argo.Rollout[argorollouts.Template]
	rss     []argo.ReplicaSet[argorollouts.Template]
	now     time.Time
	nowFrom string
}

// load reads the manifests, checks that they hold one Rollout and only
// its ReplicaSets, converts them, validates the Rollout as Argo does,
// and finds now.
func load(cfg *config, stdin io.Reader) (*input, error) {
	var objs argorollouts.Objects
	for _, name := range cfg.files {
		if err := readFile(&objs, name, stdin); err != nil {
			return nil, fmt.Errorf("argoplan: %s: %w", name, err)
		}
	}
	switch n := len(objs.Rollouts); n {
	case 0:
		return nil, fmt.Errorf("argoplan: the manifests hold no Rollout, want exactly 1")
	case 1:
	default:
		names := make([]string, n)
		for i := range objs.Rollouts {
			names[i] = strconv.Quote(objs.Rollouts[i].Name)
		}
		return nil, fmt.Errorf("argoplan: the manifests hold %d Rollouts (%s), want exactly 1: plan one Rollout at a time", n, strings.Join(names, ", "))
	}
	obj := &objs.Rollouts[0]
	for i := range objs.ReplicaSets {
		if err := ownedBy(obj, &objs.ReplicaSets[i]); err != nil {
			return nil, err
		}
	}
	ro, err := argorollouts.Rollout(obj)
	if err != nil {
		return nil, fmt.Errorf("argoplan: %w", err)
	}
	if errs := argo.Validate(&ro); len(errs) > 0 {
		// The controller records only the first error in the InvalidSpec
		// condition (createInvalidRolloutCondition, rollout/controller.go).
		return nil, fmt.Errorf("The Rollout %q is invalid: %v", ro.Name, errs[0])
	}
	rss, err := argorollouts.ReplicaSets(objs.ReplicaSets)
	if err != nil {
		return nil, fmt.Errorf("argoplan: %w", err)
	}
	pods := int64(argo.ReplicasOrDefault(ro.Replicas))
	for _, rs := range rss {
		pods += int64(max(rs.Replicas, rs.StatusReplicas, 0))
	}
	if limit := int64(cfg.maxPods); int64(argo.ReplicasOrDefault(ro.Replicas)) > limit || pods > 3*limit {
		return nil, fmt.Errorf("argoplan: Rollout %q has %d replicas and its ReplicaSets %d pods: more than -max-pods %d (3 * -max-pods in all): raise -max-pods to plan it", ro.Name, argo.ReplicasOrDefault(ro.Replicas), pods-int64(argo.ReplicasOrDefault(ro.Replicas)), limit)
	}
	in := &input{ro: ro, rss: rss}
	switch {
	case cfg.now != nil:
		in.now, in.nowFrom = *cfg.now, "--now"
	default:
		all := []any{obj}
		for i := range objs.ReplicaSets {
			all = append(all, &objs.ReplicaSets[i])
		}
		t, ok, err := manifesttime.Latest(all...)
		if err != nil {
			return nil, fmt.Errorf("argoplan: %w", err)
		}
		if ok {
			in.now, in.nowFrom = t, "the latest timestamp in the manifests"
		} else {
			in.now, in.nowFrom = fallbackNow, "no timestamp in the manifests; --now to set one"
		}
	}
	return in, nil
}

// ownedBy checks that rs is one of ro's: in its namespace, with a
// controller owner reference naming it (and its uid, when both have one).
// Argo's controller also adopts an orphan whose labels match
// spec.selector; argoplan does not, so an orphan is an error too.
func ownedBy(ro *argorollouts.RolloutObject, rs interface {
	GetName() string
	GetNamespace() string
	GetOwnerReferences() []metav1.OwnerReference
}) error {
	where := fmt.Sprintf("argoplan: ReplicaSet %q", rs.GetName())
	if rs.GetNamespace() != ro.Namespace {
		return fmt.Errorf("%s is in namespace %q, not in Rollout %q's namespace %q: give the ReplicaSets of one Rollout", where, rs.GetNamespace(), ro.Name, ro.Namespace)
	}
	var ref *metav1.OwnerReference
	for _, r := range rs.GetOwnerReferences() {
		if r.Controller != nil && *r.Controller {
			ref = &r
			break
		}
	}
	switch {
	case ref == nil:
		return fmt.Errorf("%s has no controller: it is not Rollout %q's (Argo adopts orphans whose labels match the selector; argoplan does not)", where, ro.Name)
	case ref.Kind != argorollouts.Kind || ref.Name != ro.Name:
		return fmt.Errorf("%s is controlled by %s %q, not by Rollout %q: give only its own ReplicaSets", where, ref.Kind, ref.Name, ro.Name)
	case ref.UID != "" && ro.UID != "" && ref.UID != ro.UID:
		return fmt.Errorf("%s is controlled by another Rollout %q (uid %s, not %s)", where, ref.Name, ref.UID, ro.UID)
	}
	return nil
}

// readFile decodes the manifest file name ("-": stdin) into objs.
func readFile(objs *argorollouts.Objects, name string, stdin io.Reader) error {
	if name == "-" {
		return objs.Read(stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return objs.Read(f)
}

// plan is what the program prints: the state the manifests show, then
// the reconciles.
type plan struct {
	in *input
	// initial is the state the manifests show, as kubectl shows it.
	initial argo.Step
	// steps are the reconciles that wrote something; outcome and syncs
	// are the simulation's ("" and 1 with -once); requeue is the planned
	// reconcile's requeue with -once.
	steps        []argo.Step
	outcome      string
	syncs        int
	requeueAfter time.Duration
	requeue      bool
	once         bool
}

// planOnce plans the reconcile at now.
func planOnce(in *input) (*plan, error) {
	sync, err := argo.Plan(&in.ro, in.rss, in.now)
	if err != nil {
		return nil, err
	}
	s := argotable.FromSync(&sync.Rollout, sync.ReplicaSets, sync.Actions, sync.Reason)
	s.Sync, s.Time = 1, in.now
	return &plan{in: in, initial: argotable.FromSync(&in.ro, in.rss, nil, ""), steps: []argo.Step{s}, syncs: 1,
		requeue: sync.Requeue, requeueAfter: sync.RequeueAfter, once: true}, nil
}

// simulate runs the rollout from the manifests' state to its end.
func simulate(cfg *config, in *input) (*plan, error) {
	var events []argo.Event[argorollouts.Template]
	for _, k := range cfg.promote {
		events = append(events, argo.Event[argorollouts.Template]{Sync: k, Kind: argo.Promote})
	}
	for _, k := range cfg.abort {
		events = append(events, argo.Event[argorollouts.Template]{Sync: k, Kind: argo.Abort})
	}
	tr, err := argo.Simulate(&in.ro, in.rss, argo.Config[argorollouts.Template]{
		Start: in.now, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, MaxSyncs: cfg.maxSyncs, Events: events,
	})
	if err != nil {
		return nil, err
	}
	return &plan{in: in, initial: argotable.FromSync(&in.ro, in.rss, nil, ""), steps: tr.Steps, outcome: tr.Outcome.String(), syncs: tr.Syncs}, nil
}

// heading describes the Rollout on one line.
func heading(ro *argo.Rollout[argorollouts.Template]) string {
	name := ro.Name
	if ro.Namespace != "" {
		name = ro.Namespace + "/" + ro.Name
	}
	return fmt.Sprintf("Rollout %s: %d replicas, %s", name, argo.ReplicasOrDefault(ro.Replicas), argotable.Strategy(ro))
}

// writeText prints the header, the state the manifests show, every
// recorded reconcile (kubectl's view after it, then the writes with
// their reasons), and the outcome.
func writeText(w io.Writer, cfg *config, p *plan) error {
	var b strings.Builder
	ro := &p.in.ro
	canary := ro.Strategy.Canary != nil
	fmt.Fprintln(&b, heading(ro))
	if l := argotable.Steps(ro); l != "" {
		fmt.Fprintln(&b, l)
	}
	if p.once {
		fmt.Fprintf(&b, "Now: %s (%s); the reconcile runs at now\n", p.in.now.Format(time.RFC3339), p.in.nowFrom)
	} else {
		fmt.Fprintf(&b, "Now: %s (%s); reconcile k runs at now + k * %s; pods not ready become ready %s after now\n",
			p.in.now.Format(time.RFC3339), p.in.nowFrom, cfg.interval, cfg.readyDelay)
	}
	if p.once {
		fmt.Fprintln(&b, argotable.Legend)
	} else {
		fmt.Fprintln(&b, argotable.Legend, argotable.Skipped)
	}
	fmt.Fprintf(&b, "\nas the manifests show it (%s)\n", p.in.now.Format(time.RFC3339))
	argotable.Block(&b, canary, ro.Generation, &p.initial)
	for i := range p.steps {
		s := &p.steps[i]
		if p.once {
			fmt.Fprintf(&b, "\nthe reconcile at %s: %s\n", s.Time.Format(time.RFC3339), s.Reason)
		} else {
			fmt.Fprintf(&b, "\nreconcile %d at %s (+%s)", s.Sync, s.Time.Format(time.RFC3339), s.Elapsed)
			if len(s.Events) > 0 {
				fmt.Fprintf(&b, " after %s", strings.Join(s.Events, ", "))
			}
			b.WriteByte('\n')
		}
		argotable.Block(&b, canary, generationAt(ro, cfg.promote, s.Sync), s)
	}
	switch {
	case p.once && p.requeue:
		fmt.Fprintf(&b, "\nThe controller looks again in %s (or on the next event).\n", p.requeueAfter)
	case p.once && len(p.steps[0].Actions) == 0:
		fmt.Fprintf(&b, "\nThe reconcile writes nothing.\n")
	case p.once:
	default:
		fmt.Fprintf(&b, "\n%s after %s (%s)\n", p.outcome, argotable.Reconciles(p.syncs), p.in.now.Add(time.Duration(p.syncs)*cfg.interval).Format(time.RFC3339))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// generationAt is the Rollout's generation at reconcile k: a promote
// raises it only when it clears spec.paused (the only scripted change to
// the spec), which argo.Simulate applies at the first promote.
func generationAt(ro *argo.Rollout[argorollouts.Template], promote []int, k int) int64 {
	if ro.Paused {
		for _, p := range promote {
			if p <= k {
				return ro.Generation + 1
			}
		}
	}
	return ro.Generation
}

// writeJSON prints the plan as one JSON object: the heading, now and
// where it came from, the state the manifests show and the reconciles
// (argo.Step), then the outcome and the number of reconciles that ran
// (or, with -once, the requeue).
func writeJSON(w io.Writer, p *plan) error {
	out := struct {
		Heading      string        `json:"heading"`
		Now          time.Time     `json:"now"`
		NowFrom      string        `json:"nowFrom"`
		Initial      argo.Step     `json:"initial"`
		Steps        []argo.Step   `json:"steps"`
		Outcome      string        `json:"outcome,omitempty"`
		Reconciles   int           `json:"reconciles"`
		RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	}{heading(&p.in.ro), p.in.now, p.in.nowFrom, p.initial, p.steps, p.outcome, p.syncs, p.requeueAfter}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
