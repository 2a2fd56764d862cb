// Command statefulset simulates a StatefulSet update sync by sync, as
// kube-controller-manager v1.36's StatefulSet controller runs it, and
// prints it the way `kubectl get sts -w` and `kubectl get pods -w` show
// it, with the controller's reason for every sync and every pod write.
//
// With no flags it updates a 5-replica OrderedReady StatefulSet from
// nginx:1.25 to nginx:1.26 in partition steps 4 -> 2 -> 0, as an
// operator stages it: the next step is set once the pods of the
// previous one are updated and ready.
//
//	go run ./examples/statefulset
//	go run ./examples/statefulset -policy Parallel -gate -max-unavailable 2 -partitions 0
//	go run ./examples/statefulset -start 3 -replicas 4 -partitions 2,0
//	go run ./examples/statefulset -svg statefulset.svg
//
// The trap of kubernetes/kubernetes#137409 (fixed in v1.37): under
// Parallel with the MaxUnavailableStatefulSet gate on, old pods that are
// broken use up maxUnavailable and the update never starts; -replace-unavailable-first
// replaces them first, as v1.37 does:
//
//	go run ./examples/statefulset -policy Parallel -gate -broken 2 -max-unavailable 2 -partitions 0
//	go run ./examples/statefulset -policy Parallel -gate -broken 2 -max-unavailable 2 -partitions 0 -replace-unavailable-first
//
// The run is deterministic: it starts at 2026-01-01T00:00:00Z unless
// -now says otherwise. A StatefulSet the API server would reject is
// reported in its words, with exit status 1; arguments that cannot be
// read give exit status 2.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/ststable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is one run: the StatefulSet, the update and the cluster.
type config struct {
	name               string
	replicas           int32
	start              int32
	policy             string
	gate               bool
	maxUnavailable     string // "" for none (1)
	partitions         []int32
	minReadySeconds    int32
	fromImage, toImage string
	interval           time.Duration
	readyDelay         time.Duration
	terminating        time.Duration
	broken             int32
	replaceFirst       bool
	maxSyncs           int
	now                time.Time
	output             string
	svgPath            string
}

var errHelp = errors.New("help requested")

// demoNow is when the built-in demo starts, unless -now says otherwise.
var demoNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{name: "web"}
	fs := flag.NewFlagSet("statefulset", flag.ContinueOnError)
	fs.SetOutput(stderr)
	replicas := fs.Int("replicas", 5, "spec.replicas")
	start := fs.Int("start", 0, "spec.ordinals.start: the ordinal of the first pod")
	fs.StringVar(&cfg.policy, "policy", "OrderedReady", "spec.podManagementPolicy: OrderedReady or Parallel")
	fs.BoolVar(&cfg.gate, "gate", false, "turn kube-controller-manager's MaxUnavailableStatefulSet feature gate on (off by default in v1.36): without it maxUnavailable is ignored and one pod is updated at a time")
	fs.StringVar(&cfg.maxUnavailable, "max-unavailable", "", "spec.updateStrategy.rollingUpdate.maxUnavailable, a count or a percentage (\"\": unset, read as 1; read only with -gate)")
	partitions := fs.String("partitions", "4,2,0", "partition steps, comma-separated: the first is set with the new image, each next one once the pods of the previous step are updated and ready")
	minReady := fs.Int("min-ready", 0, "spec.minReadySeconds")
	fs.StringVar(&cfg.fromImage, "image-from", "nginx:1.25", "the image before the update")
	fs.StringVar(&cfg.toImage, "image-to", "nginx:1.26", "the image after the update")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between syncs")
	fs.DurationVar(&cfg.readyDelay, "ready", 10*time.Second, "how long a created pod takes to become Running and Ready")
	fs.DurationVar(&cfg.terminating, "terminating", 0, "how long a deleted pod stays Terminating (0: gone by the next sync)")
	broken := fs.Int("broken", 0, "how many pods at the old image, from the highest ordinal down, are Running but never Ready")
	fs.BoolVar(&cfg.replaceFirst, "replace-unavailable-first", false, "with -gate, replace old pods that are already unavailable first, outside maxUnavailable (kubernetes/kubernetes#137409, the v1.37 behaviour)")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 300, "the most syncs to run")
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
	if *replicas < 0 || *replicas > 100000 {
		return cfg, fmt.Errorf("-replicas %d: want 0 to 100000", *replicas)
	}
	if *start < 0 || *start > 1000000 {
		return cfg, fmt.Errorf("-start %d: want 0 to 1000000", *start)
	}
	if cfg.policy != string(statefulset.OrderedReady) && cfg.policy != string(statefulset.Parallel) {
		return cfg, fmt.Errorf("-policy %q: want OrderedReady or Parallel", cfg.policy)
	}
	if *minReady < 0 || *minReady > 3600 {
		return cfg, fmt.Errorf("-min-ready %d: want 0 to 3600", *minReady)
	}
	if *broken < 0 || *broken > *replicas {
		return cfg, fmt.Errorf("-broken %d: want 0 to -replicas (%d)", *broken, *replicas)
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
	if cfg.replaceFirst && !cfg.gate {
		return cfg, errors.New("-replace-unavailable-first changes how maxUnavailable is spent: it needs -gate")
	}
	cfg.now = demoNow
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			return cfg, fmt.Errorf("-now %q: want an RFC 3339 time such as 2026-11-26T09:30:00Z", *now)
		}
		cfg.now = t.UTC()
	}
	cfg.replicas, cfg.start, cfg.minReadySeconds, cfg.broken = int32(*replicas), int32(*start), int32(*minReady), int32(*broken)
	for _, p := range strings.Split(*partitions, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil || n < 0 {
			return cfg, fmt.Errorf("-partitions: %q is not a partition: want whole numbers from 0, such as 4,2,0", p)
		}
		cfg.partitions = append(cfg.partitions, int32(n))
	}
	return cfg, nil
}

// run runs the program and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "statefulset: %v\n", err)
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
		fmt.Fprintf(stderr, "statefulset: %v\n", err)
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

func nginx(image string) template {
	var t template
	t.Metadata.Labels = map[string]string{"app": "web"}
	t.Spec.Containers = []container{{Name: "nginx", Image: image}}
	return t
}

// result is a simulated update: the set and its pods as the update
// begins, and the trace.
type result struct {
	before statefulset.StatefulSet[template]
	pods   []statefulset.Pod
	trace  statefulset.Trace[template]
	// budget is maxUnavailable resolved for the set (1 with the gate
	// off).
	budget int32
}

// invalid reports a StatefulSet the API server rejects as kubectl shows
// it.
func invalid(name string, err error) error {
	return fmt.Errorf("The StatefulSet %q is invalid: %v", name, err)
}

// maxUnavailableValue reads -max-unavailable as IntOrString.UnmarshalText
// reads text: a number is a count, anything else a string.
func (cfg *config) maxUnavailableValue() *intorpercent.IntOrString {
	if cfg.maxUnavailable == "" {
		return nil
	}
	var v intorpercent.IntOrString
	_ = v.UnmarshalText([]byte(cfg.maxUnavailable)) // never fails: text that is no count is kept as written
	return &v
}

// simulate runs the update: the set at rest on fromImage (every pod
// created and ready, -broken of them then failing their readiness
// probe), then the new image and the first partition in one write, then
// the partition steps.
func simulate(cfg *config) (*result, error) {
	set := statefulset.StatefulSet[template]{
		Name: cfg.name, Namespace: "default", UID: "0c3f2a6e-5d1b-4f7a-9e2c-7b1d8a4f6e30", Generation: 1,
		Replicas: cfg.replicas, Ordinals: statefulset.Ordinals{Start: cfg.start},
		PodManagementPolicy: statefulset.PodManagementPolicy(cfg.policy),
		UpdateStrategy: statefulset.UpdateStrategy{Type: statefulset.RollingUpdate,
			RollingUpdate: &statefulset.RollingUpdateStrategy{MaxUnavailable: cfg.maxUnavailableValue()}},
		MinReadySeconds: cfg.minReadySeconds,
		TemplateLabels:  map[string]string{"app": "web"},
		Template:        nginx(cfg.fromImage),
	}
	for _, p := range cfg.partitions {
		check := set
		check.UpdateStrategy.RollingUpdate = &statefulset.RollingUpdateStrategy{Partition: p, MaxUnavailable: cfg.maxUnavailableValue()}
		if list := statefulset.Validate(&check); len(list) > 0 {
			return nil, invalid(set.Name, list.ToError())
		}
	}
	if list := statefulset.Validate(&set); len(list) > 0 {
		return nil, invalid(set.Name, list.ToError())
	}
	opts := statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: cfg.gate}}
	if cfg.replaceFirst {
		opts.Budget = statefulset.BudgetReplaceUnavailableFirst
	}
	// The set at rest on the old image, created an hour before.
	rest, err := statefulset.Simulate(&set, nil, nil, statefulset.Config[template]{Start: cfg.now.Add(-time.Hour), Interval: cfg.interval, MaxSyncs: 100000, Options: opts})
	if err != nil {
		return nil, err
	}
	if rest.Outcome != statefulset.OutcomeComplete {
		return nil, fmt.Errorf("statefulset: creating the pods before the update: %v after %d syncs", rest.Outcome, rest.Syncs)
	}
	r := &result{before: rest.StatefulSet, pods: rest.Pods, budget: 1}
	if cfg.gate {
		if r.budget, err = statefulset.MaxUnavailable(cfg.maxUnavailableValue(), cfg.replicas); err != nil {
			return nil, invalid(set.Name, err)
		}
	}
	// -broken pods fail their readiness probe: Running, not Ready, and
	// never ready again during the run.
	never := map[string]time.Time{}
	for k := cfg.replicas - cfg.broken; k < cfg.replicas; k++ {
		name := statefulset.PodName(set.Name, int64(cfg.start)+int64(k))
		for i := range r.pods {
			if r.pods[i].Name == name {
				r.pods[i].Ready, r.pods[i].ReadySince = false, time.Time{}
				never[name] = cfg.now.Add(time.Duration(cfg.maxSyncs+1) * cfg.interval)
			}
		}
	}
	events := []statefulset.Event[template]{{Sync: 1, Kind: statefulset.SetTemplate, Template: nginx(cfg.toImage)}}
	parts := cfg.partitions
	if len(parts) > 0 {
		events = append(events, statefulset.Event[template]{Sync: 1, Kind: statefulset.SetPartition, Partition: parts[0]})
		parts = parts[1:]
	}
	r.trace, err = statefulset.Simulate(&r.before, r.pods, rest.Revisions, statefulset.Config[template]{
		Start: cfg.now, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, ReadyAt: never,
		TerminationDelay: cfg.terminating, MaxSyncs: cfg.maxSyncs, Events: events, Partitions: parts,
		Options: opts, RecordPods: true,
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// heading describes the run in two lines: the set and the update, then
// the controller's configuration.
func heading(cfg *config, r *result) string {
	parts := make([]string, len(cfg.partitions))
	for i, p := range cfg.partitions {
		parts[i] = strconv.Itoa(int(p))
	}
	part := "0 (none)"
	if len(parts) > 0 {
		part = strings.Join(parts, " -> ")
	}
	ords := ""
	if cfg.start != 0 {
		ords = fmt.Sprintf(", ordinals from %d", cfg.start)
	}
	s := fmt.Sprintf("StatefulSet %s: %d replicas%s, %s, RollingUpdate with partitions %s, image %s -> %s",
		cfg.name, cfg.replicas, ords, cfg.policy, part, cfg.fromImage, cfg.toImage)
	switch {
	case !cfg.gate:
		s += "\nkube-controller-manager v1.36, MaxUnavailableStatefulSet gate off: one pod updated at a time"
		if cfg.maxUnavailable != "" {
			s += " (maxUnavailable " + cfg.maxUnavailable + " is ignored)"
		}
	default:
		mu := cfg.maxUnavailable
		if mu == "" {
			mu = "unset"
		}
		s += fmt.Sprintf("\nkube-controller-manager v1.36, MaxUnavailableStatefulSet gate on: maxUnavailable %s = %d pods", mu, r.budget)
		if cfg.replaceFirst {
			s += "; unavailable old pods replaced first (kubernetes/kubernetes#137409, v1.37)"
		}
	}
	if cfg.broken > 0 {
		s += fmt.Sprintf("; %d old pods never ready", cfg.broken)
	}
	return s
}

// writeTable prints the run with internal/ststable, the layout
// adapters/kubeapps/cmd/statefulsetplan shares.
func writeTable(w io.Writer, cfg *config, r *result) error {
	tab := ststable.Table{Heading: heading(cfg, r) + "\nstart " + cfg.now.Format(time.RFC3339) + "; sync k runs k * " + cfg.interval.String() + " later",
		Name: cfg.name, Start: cfg.start, Update: r.trace.StatefulSet.Status.UpdateRevision, Outcome: r.trace.Outcome.String(), Syncs: r.trace.Syncs}
	tab.Rows = append(tab.Rows, ststable.Row{Comment: "before the update", Replicas: r.before.Replicas,
		Status: beforeStatus(cfg, r), Pods: podStates(r.pods, cfg.minReadySeconds, cfg.now)})
	for i := range r.trace.Steps {
		s := &r.trace.Steps[i]
		tab.Rows = append(tab.Rows, ststable.Row{Comment: ststable.Comment(s), Replicas: s.Replicas, Partition: s.Partition,
			Status: s.Status, Pods: s.Pods, Actions: s.Actions})
	}
	tab.Elapsed = time.Duration(r.trace.Syncs) * cfg.interval
	return ststable.Write(w, &tab)
}

// beforeStatus is the status of the pods before the update, as the
// controller would count them at the start (the stored status predates
// the -broken pods' failure).
func beforeStatus(cfg *config, r *result) statefulset.Status {
	st := &r.before.Status
	out := statefulset.ComputeStatus(r.pods, cfg.minReadySeconds, st.CurrentRevision, st.UpdateRevision, cfg.now)
	out.ObservedGeneration = st.ObservedGeneration
	return out
}

// podStates returns pods as a Step records them, at now.
func podStates(pods []statefulset.Pod, minReadySeconds int32, now time.Time) []statefulset.PodState {
	out := make([]statefulset.PodState, len(pods))
	for i := range pods {
		p := &pods[i]
		out[i] = statefulset.PodState{Name: p.Name, Revision: p.Revision, Phase: p.Phase, Ready: p.Ready,
			Available: statefulset.IsAvailable(p, minReadySeconds, now), Terminating: p.Terminating}
	}
	return out
}

// writeJSON prints the run as one JSON object: the heading, the start,
// the status and pods before the update, the recorded syncs as
// statefulset.Step encodes them, the outcome and the number of syncs.
func writeJSON(w io.Writer, cfg *config, r *result) error {
	out := struct {
		Heading string                 `json:"heading"`
		Start   time.Time              `json:"start"`
		Before  statefulset.Status     `json:"before"`
		Pods    []statefulset.PodState `json:"pods"`
		Steps   []statefulset.Step     `json:"steps"`
		Outcome statefulset.Outcome    `json:"outcome"`
		Syncs   int                    `json:"syncs"`
		Options statefulset.Options    `json:"options"`
	}{heading(cfg, r), cfg.now, beforeStatus(cfg, r), podStates(r.pods, cfg.minReadySeconds, cfg.now), r.trace.Steps, r.trace.Outcome, r.trace.Syncs,
		statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: cfg.gate}}}
	if cfg.replaceFirst {
		out.Options.Budget = statefulset.BudgetReplaceUnavailableFirst
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
