// Command daemonset simulates a DaemonSet update sync by sync, as
// kube-controller-manager v1.36's DaemonSet controller runs it, and
// prints it the way `kubectl get ds -w` and `kubectl get pods -o wide -w`
// show it, with a map of the nodes and the controller's reason for every
// sync and every pod write.
//
// With no flags it updates a 10-node DaemonSet from fluentd:1.16 to
// fluentd:1.17 with maxUnavailable 2 (two nodes at a time, each without
// its pod between the old pod's deletion and the new pod's readiness),
// then to fluentd:1.18 with maxSurge 1 and maxUnavailable 0 (one node at
// a time runs both pods; no node is ever without an available pod):
//
//	go run ./examples/daemonset
//	go run ./examples/daemonset -nodes 6 -max-unavailable 1 -then-max-surge 2
//	go run ./examples/daemonset -never-ready 1 -then=false
//	go run ./examples/daemonset -svg daemonset.svg
//
// A DaemonSet's budgets are counted in nodes: maxUnavailable and maxSurge
// resolve against the number of nodes that should run the pod, and a
// percentage rounds up. Upstream visits nodes in Go's randomised map
// order; the simulation visits them by name, one order upstream can
// produce.
//
// The run is deterministic: it starts at 2026-01-01T00:00:00Z unless -now
// says otherwise. A DaemonSet the API server would reject is reported in
// its words, with exit status 1; arguments that cannot be read give exit
// status 2.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/dstable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is one run: the DaemonSet, the updates and the cluster.
type config struct {
	name                       string
	nodes                      int
	maxUnavailable, maxSurge   string // the first update's budgets ("": unset)
	then                       bool   // run a second update
	thenUnavailable, thenSurge string // the second update's budgets
	images                     [3]string
	neverReady                 int
	minReadySeconds            int32
	interval, readyDelay       time.Duration
	terminating                time.Duration
	maxSyncs                   int
	now                        time.Time
	output                     string
	svgPath                    string
}

var errHelp = errors.New("help requested")

// demoNow is when the built-in demo starts, unless -now says otherwise.
var demoNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{name: "fluentd"}
	fs := flag.NewFlagSet("daemonset", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.nodes, "nodes", 10, "number of nodes, all schedulable (node-01, node-02, ...)")
	fs.StringVar(&cfg.maxUnavailable, "max-unavailable", "2", "the first update's spec.updateStrategy.rollingUpdate.maxUnavailable, a count or a percentage of the nodes (\"\": unset, read as 1)")
	fs.StringVar(&cfg.maxSurge, "max-surge", "", "the first update's maxSurge, a count or a percentage (\"\": unset, 0); non-zero needs -max-unavailable 0")
	fs.BoolVar(&cfg.then, "then", true, "once the first update is complete, run a second one with -then-max-unavailable and -then-max-surge")
	fs.StringVar(&cfg.thenUnavailable, "then-max-unavailable", "0", "the second update's maxUnavailable (\"\": unset, read as 1)")
	fs.StringVar(&cfg.thenSurge, "then-max-surge", "1", "the second update's maxSurge (\"\": unset, 0)")
	fs.StringVar(&cfg.images[0], "image", "fluentd:1.16", "the image before the updates")
	fs.StringVar(&cfg.images[1], "image-to", "fluentd:1.17", "the image of the first update")
	fs.StringVar(&cfg.images[2], "image-then", "fluentd:1.18", "the image of the second update")
	fs.IntVar(&cfg.neverReady, "never-ready", 0, "how many nodes, from the last by name, never get a new pod Ready (a node whose pods crash); their old pods stay ready")
	minReady := fs.Int("min-ready", 0, "spec.minReadySeconds")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between syncs")
	fs.DurationVar(&cfg.readyDelay, "ready", 10*time.Second, "how long a created pod takes to become Running and Ready")
	fs.DurationVar(&cfg.terminating, "terminating", 0, "how long a deleted pod stays Terminating (0: gone by the next sync)")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 300, "the most syncs to run per update")
	now := fs.String("now", "", "`time` (RFC 3339) the run starts at (default 2026-01-01T00:00:00Z)")
	fs.StringVar(&cfg.output, "o", "table", "output format: table or json")
	fs.StringVar(&cfg.svgPath, "svg", "", "also draw the rollout as an SVG chart to `FILE`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, errHelp
		}
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.nodes < 0 || cfg.nodes > 10000 {
		return cfg, fmt.Errorf("-nodes %d: want 0 to 10000", cfg.nodes)
	}
	if cfg.neverReady < 0 || cfg.neverReady > cfg.nodes {
		return cfg, fmt.Errorf("-never-ready %d: want 0 to -nodes (%d)", cfg.neverReady, cfg.nodes)
	}
	if *minReady < 0 || *minReady > 3600 {
		return cfg, fmt.Errorf("-min-ready %d: want 0 to 3600", *minReady)
	}
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.terminating < 0 {
		return cfg, errors.New("-interval must be positive and -ready, -terminating not negative")
	}
	if cfg.maxSyncs < 1 || cfg.maxSyncs > 100000 {
		return cfg, fmt.Errorf("-max-syncs %d: want 1 to 100000", cfg.maxSyncs)
	}
	if cfg.output != "table" && cfg.output != "json" {
		return cfg, fmt.Errorf("-o %q: want table or json", cfg.output)
	}
	cfg.now = demoNow
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			return cfg, fmt.Errorf("-now %q: want an RFC 3339 time such as 2026-11-26T09:30:00Z", *now)
		}
		cfg.now = t.UTC()
	}
	cfg.minReadySeconds = int32(*minReady)
	return cfg, nil
}

// run runs the program and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "daemonset: %v\n", err)
		return 2
	}
	r, err := simulate(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	if cfg.output == "json" {
		err = writeJSON(stdout, &cfg, r)
	} else {
		err = writeTable(stdout, &cfg, r)
	}
	if err == nil && cfg.svgPath != "" {
		err = writeSVGFile(cfg.svgPath, &cfg, r)
	}
	if err != nil {
		fmt.Fprintf(stderr, "daemonset: %v\n", err)
		return 1
	}
	return 0
}

// template is the pod template as encoding/json writes a
// corev1.PodTemplateSpec with one container.
type template struct {
	Metadata struct {
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Containers []container `json:"containers"`
	} `json:"spec"`
}

type container struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

func agent(image string) template {
	var t template
	t.Metadata.Labels = map[string]string{"app": "fluentd"}
	t.Spec.Containers = []container{{Name: "fluentd", Image: image}}
	return t
}

// update is one simulated update: the DaemonSet and its pods as it
// begins, the budgets, and the trace.
type update struct {
	from, to string // images
	start    time.Time
	before   daemonset.DaemonSet[template]
	pods     []daemonset.Pod
	budget   daemonset.Budget
	trace    daemonset.Trace[template]
}

// result is a run: one or two updates over the same nodes.
type result struct {
	nodes   []daemonset.Node
	updates []update
}

// value reads a budget flag as IntOrString.UnmarshalText reads text: a
// number is a count, anything else a string, kept as written for
// Validate to judge; "" is nil (unset).
func value(s string) *intorpercent.IntOrString {
	if s == "" {
		return nil
	}
	var v intorpercent.IntOrString
	_ = v.UnmarshalText([]byte(s)) // never fails: text that is no count is kept as written
	return &v
}

// invalid reports a DaemonSet the API server rejects as kubectl shows
// it.
func invalid(name string, err error) error {
	return fmt.Errorf("The DaemonSet %q is invalid: %v", name, err)
}

// nodeNames returns n node names that sort in numeric order.
func nodeNames(n int) []string {
	width := len(fmt.Sprint(n))
	width = max(width, 2)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("node-%0*d", width, i+1)
	}
	return out
}

// simulate runs the run: the DaemonSet at rest on the first image (every
// node's pod created and ready, an hour before the start), then the first
// update (image and budgets in one write), then, once it is complete, the
// second.
func simulate(cfg *config) (*result, error) {
	one := int64(1)
	ds := daemonset.DaemonSet[template]{
		Name: cfg.name, Namespace: "kube-system", UID: "5b0e7c1a-3f4d-4e2b-9a6c-8d1f2e3a4b5c", Generation: 1,
		Selector:        &ownership.Selector{MatchLabels: map[string]string{"app": "fluentd"}},
		Template:        agent(cfg.images[0]),
		MinReadySeconds: cfg.minReadySeconds, TemplateGeneration: &one,
		UpdateStrategy: daemonset.UpdateStrategy{Type: daemonset.RollingUpdate,
			RollingUpdate: &daemonset.RollingUpdateParams{MaxUnavailable: value(cfg.maxUnavailable), MaxSurge: value(cfg.maxSurge)}},
	}
	steps := []struct{ mu, ms string }{{cfg.maxUnavailable, cfg.maxSurge}}
	if cfg.then {
		steps = append(steps, struct{ mu, ms string }{cfg.thenUnavailable, cfg.thenSurge})
	}
	for _, s := range steps {
		check := ds
		check.UpdateStrategy.RollingUpdate = &daemonset.RollingUpdateParams{MaxUnavailable: value(s.mu), MaxSurge: value(s.ms)}
		if list := daemonset.Validate(&check); len(list) > 0 {
			return nil, invalid(ds.Name, list.ToError())
		}
	}
	r := &result{}
	names := nodeNames(cfg.nodes)
	for _, n := range names {
		r.nodes = append(r.nodes, daemonset.Node{Name: n, ShouldRun: true, ShouldContinueRunning: true})
	}
	rest, err := daemonset.Simulate(&ds, r.nodes, nil, nil, daemonset.Config[template]{
		Start: cfg.now.Add(-time.Hour), Interval: cfg.interval, MaxSyncs: 100000})
	if err != nil {
		return nil, err
	}
	if rest.Outcome != daemonset.OutcomeComplete {
		return nil, fmt.Errorf("daemonset: creating the pods before the update: %v after %d syncs", rest.Outcome, rest.Syncs)
	}
	never := names[len(names)-cfg.neverReady:]
	cur, pods, revs, start := rest.DaemonSet, rest.Pods, rest.Revisions, cfg.now
	for i, s := range steps {
		u := update{from: cfg.images[i], to: cfg.images[i+1], start: start, before: cur, pods: pods}
		var events []daemonset.Event[template]
		events = append(events, daemonset.Event[template]{Sync: 1, Kind: daemonset.SetTemplate, Template: agent(u.to)})
		ru := cur.UpdateStrategy.RollingUpdate
		if !same(ru.MaxSurge, value(s.ms)) || !same(ru.MaxUnavailable, value(s.mu)) {
			// Lower maxSurge before raising maxUnavailable and the
			// other way round, so that the two never both hold a
			// non-zero value, which the API server refuses.
			budgets := []daemonset.Event[template]{
				{Sync: 1, Kind: daemonset.SetMaxUnavailable, Value: value(s.mu)},
				{Sync: 1, Kind: daemonset.SetMaxSurge, Value: value(s.ms)},
			}
			if value(s.ms) == nil || (value(s.ms).IsString == false && value(s.ms).Int == 0) {
				budgets[0], budgets[1] = budgets[1], budgets[0]
			}
			events = append(events, budgets...)
		}
		after := cur
		after.UpdateStrategy.RollingUpdate = &daemonset.RollingUpdateParams{MaxUnavailable: value(s.mu), MaxSurge: value(s.ms)}
		if u.budget, err = daemonset.Budgets(&after, r.nodes); err != nil {
			return nil, invalid(ds.Name, err)
		}
		u.trace, err = daemonset.Simulate(&cur, r.nodes, pods, revs, daemonset.Config[template]{
			Start: start, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, NeverReadyNodes: never,
			TerminationDelay: cfg.terminating, MaxSyncs: cfg.maxSyncs, Events: events, RecordPods: true,
		})
		if err != nil {
			return nil, err
		}
		r.updates = append(r.updates, u)
		if u.trace.Outcome != daemonset.OutcomeComplete {
			break // the second update would start on a rollout that never ended
		}
		cur, pods, revs = u.trace.DaemonSet, u.trace.Pods, u.trace.Revisions
		start = start.Add(time.Duration(u.trace.Syncs) * cfg.interval)
	}
	return r, nil
}

// same reports whether two budget values are equal (nil is unset).
func same(a, b *intorpercent.IntOrString) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// budgetText describes an update's budgets, e.g. "maxUnavailable 2,
// maxSurge 0 (of 10 nodes: 2 unavailable, 0 surge)".
func budgetText(u *update) string {
	ru := u.trace.DaemonSet.UpdateStrategy.RollingUpdate
	text := func(v *intorpercent.IntOrString, unset string) string {
		if v == nil {
			return unset
		}
		return v.String()
	}
	return fmt.Sprintf("maxUnavailable %s, maxSurge %s = %d unavailable, %d surging of %d nodes",
		text(ru.MaxUnavailable, "unset (1)"), text(ru.MaxSurge, "unset (0)"), u.budget.MaxUnavailable, u.budget.MaxSurge, u.budget.Desired)
}

// heading describes one update in two lines.
func heading(cfg *config, u *update, i int) string {
	s := fmt.Sprintf("DaemonSet %s/%s on %d nodes, update %d: image %s -> %s, RollingUpdate with %s",
		u.before.Namespace, u.before.Name, cfg.nodes, i+1, u.from, u.to, budgetText(u))
	s += "\nkube-controller-manager v1.36; nodes visited by name (upstream: Go's map order)"
	if cfg.minReadySeconds > 0 {
		s += fmt.Sprintf("; minReadySeconds %d", cfg.minReadySeconds)
	}
	if cfg.neverReady > 0 {
		s += fmt.Sprintf("; new pods never ready on the last %d %s", cfg.neverReady, plural(cfg.neverReady, "node"))
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// outcome is an outcome as the closing line says it: "Complete".
func outcome(o daemonset.Outcome) string {
	return strings.TrimPrefix(o.String(), "Outcome")
}

// writeTable prints each update with internal/dstable, the layout
// adapters/kubeapps/cmd/daemonsetplan shares.
func writeTable(w io.Writer, cfg *config, r *result) error {
	for i := range r.updates {
		u := &r.updates[i]
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		tr := &u.trace
		tab := dstable.Table{Heading: heading(cfg, u, i) + "\nstart " + u.start.Format(time.RFC3339) + "; sync k runs (k-1) * " + cfg.interval.String() + " later",
			Name: cfg.name, Update: hashOf(tr), TemplateGeneration: tr.DaemonSet.TemplateGeneration, MinReadySeconds: cfg.minReadySeconds,
			Outcome: outcome(tr.Outcome), Syncs: tr.Syncs, Elapsed: time.Duration(tr.Syncs-1) * cfg.interval}
		tab.Rows = append(tab.Rows, dstable.Row{Comment: "before the update", Status: beforeStatus(u, r.nodes), Nodes: r.nodes, Pods: u.pods, Now: u.start})
		for j := range tr.Steps {
			s := &tr.Steps[j]
			tab.Rows = append(tab.Rows, dstable.Row{Comment: dstable.Comment(s, u.start), Status: s.Status, Nodes: r.nodes, Pods: s.Pods, Now: s.Time, Actions: s.Actions})
		}
		if err := dstable.Write(w, &tab); err != nil {
			return err
		}
	}
	return nil
}

// hashOf is the hash of the template the trace ends with: the label its
// updated pods carry.
func hashOf(tr *daemonset.Trace[template]) string {
	return daemonset.Hash(&tr.DaemonSet.Template, tr.DaemonSet.Status.CollisionCount)
}

// beforeStatus is the status of the pods before an update, as the
// controller counts them at its start, against the old revision.
func beforeStatus(u *update, nodes []daemonset.Node) daemonset.Status {
	hash := daemonset.Hash(&u.before.Template, u.before.Status.CollisionCount)
	st, err := daemonset.CalculateStatus(&u.before, nodes, u.pods, hash, u.start)
	if err != nil {
		return u.before.Status // the pods came from Simulate: cannot happen
	}
	st.ObservedGeneration = u.before.Status.ObservedGeneration
	return st
}

// writeJSON prints the run as one JSON object: per update the heading,
// the start, the budget, the status and pods before it, the recorded
// syncs as daemonset.Step encodes them, the outcome and the number of
// syncs.
func writeJSON(w io.Writer, cfg *config, r *result) error {
	type out struct {
		Heading string            `json:"heading"`
		Start   time.Time         `json:"start"`
		Budget  daemonset.Budget  `json:"budget"`
		Before  daemonset.Status  `json:"before"`
		Pods    []daemonset.Pod   `json:"pods"`
		Steps   []daemonset.Step  `json:"steps"`
		Outcome daemonset.Outcome `json:"outcome"`
		Syncs   int               `json:"syncs"`
	}
	var all []out
	for i := range r.updates {
		u := &r.updates[i]
		all = append(all, out{heading(cfg, u, i), u.start, u.budget, beforeStatus(u, r.nodes), u.pods, u.trace.Steps, u.trace.Outcome, u.trace.Syncs})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Nodes   []daemonset.Node `json:"nodes"`
		Updates []out            `json:"updates"`
	}{r.nodes, all})
}
