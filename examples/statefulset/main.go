// Command statefulset simulates a StatefulSet update sync by sync, as the
// StatefulSet controller of kube-controller-manager v1.36 runs it, and
// prints it the way `kubectl get sts -w` and `kubectl get pods -w` show
// it, with the controller's reason for every sync.
//
// With no flags it updates a 5-replica OrderedReady StatefulSet from
// nginx:1.25 to nginx:1.26 in partition steps 4 -> 2 -> 0, as an operator
// does: the next step once the previous one is updated and ready.
//
//	go run ./examples/statefulset
//	go run ./examples/statefulset -parallel -gate -max-unavailable 2 -partitions 0
//	go run ./examples/statefulset -parallel -gate -max-unavailable 2 -partitions 0 -broken 3,4
//	go run ./examples/statefulset -parallel -gate -max-unavailable 2 -partitions 0 -broken 3,4 -replace-unavailable-first
//	go run ./examples/statefulset -svg statefulset.svg
//
// -broken names old pods that never become ready: with the gate on and
// Parallel, they use up maxUnavailable and the update never starts
// (kubernetes/kubernetes#137409); -replace-unavailable-first is the v1.37
// fix, a named option of the library. A StatefulSet the API server would
// reject is reported in its words, with exit status 1; arguments that
// cannot be read give exit status 2.
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

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is one run: the StatefulSet, the update and the cluster.
type config struct {
	replicas           int32
	parallel, gate     bool
	maxUnavailable     string // "" for unset
	partitions         []int32
	broken             []int32 // ordinals of old pods that never become ready
	fixBudget          bool
	minReadySeconds    int32
	fromImage, toImage string
	interval           time.Duration
	readyDelay         time.Duration
	terminating        time.Duration
	maxSyncs           int
	svgPath            string
}

var errHelp = errors.New("help requested")

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("statefulset", flag.ContinueOnError)
	fs.SetOutput(stderr)
	replicas := fs.Int("replicas", 5, "spec.replicas")
	fs.BoolVar(&cfg.parallel, "parallel", false, "podManagementPolicy Parallel (default OrderedReady)")
	fs.BoolVar(&cfg.gate, "gate", false, "turn on kube-controller-manager's MaxUnavailableStatefulSet gate (off by default in v1.36)")
	fs.StringVar(&cfg.maxUnavailable, "max-unavailable", "", "rollingUpdate.maxUnavailable, a count or a percentage (\"\": unset, 1); read only with -gate")
	partitions := fs.String("partitions", "4,2,0", "partition steps, comma-separated: the first is set with the new image, each next one once the previous step is updated and ready")
	broken := fs.String("broken", "", "ordinals of old pods that are Running but never Ready, comma-separated")
	fs.BoolVar(&cfg.fixBudget, "replace-unavailable-first", false, "the library's BudgetReplaceUnavailableFirst option (the v1.37 fix of kubernetes#137409)")
	minReady := fs.Int("min-ready", 0, "spec.minReadySeconds")
	fs.StringVar(&cfg.fromImage, "image-from", "nginx:1.25", "the image before the update")
	fs.StringVar(&cfg.toImage, "image-to", "nginx:1.26", "the image after the update")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between syncs")
	fs.DurationVar(&cfg.readyDelay, "ready", 15*time.Second, "how long a created pod takes to become ready")
	fs.DurationVar(&cfg.terminating, "terminating", 5*time.Second, "how long a deleted pod stays terminating")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 100, "the most syncs to run")
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
	if *replicas < 0 || *replicas > 1000 {
		return cfg, fmt.Errorf("-replicas %d: want 0 to 1000", *replicas)
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
	cfg.replicas, cfg.minReadySeconds = int32(*replicas), int32(*minReady)
	var err error
	if cfg.partitions, err = ints("-partitions", *partitions); err != nil {
		return cfg, err
	}
	if cfg.broken, err = ints("-broken", *broken); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// ints reads a comma-separated list of int32 values.
func ints(flagName, s string) ([]int32, error) {
	var out []int32
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %v", flagName, f, err)
		}
		out = append(out, int32(n))
	}
	return out, nil
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
	tr, before, err := simulate(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	writeTable(stdout, &cfg, before, tr)
	if cfg.svgPath != "" {
		if err := writeSVGFile(cfg.svgPath, &cfg, before, tr); err != nil {
			fmt.Fprintf(stderr, "statefulset: %v\n", err)
			return 1
		}
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
	Image string `json:"image"`
	Name  string `json:"name"`
}

func nginx(image string) template {
	var t template
	t.Metadata.Labels = map[string]string{"app": "web"}
	t.Spec.Containers = []container{{Name: "nginx", Image: image}}
	return t
}

// simulate runs the update: the set at rest on fromImage (every pod
// Running and Ready, but the broken ones Running and never Ready), then
// the new image and the first partition in one write, then the steps.
func simulate(cfg *config) (*statefulset.Trace[template], *statefulset.StatefulSet[template], error) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	set := &statefulset.StatefulSet[template]{Name: "web", Namespace: "default", UID: "uid-web", Generation: 1,
		Replicas: cfg.replicas, MinReadySeconds: cfg.minReadySeconds, Template: nginx(cfg.fromImage),
		RevisionHistoryLimit: new(int32)}
	*set.RevisionHistoryLimit = 10
	if cfg.parallel {
		set.PodManagementPolicy = statefulset.Parallel
	}
	ru := &statefulset.RollingUpdateStrategy{Partition: cfg.replicas}
	if cfg.maxUnavailable != "" {
		var v intorpercent.IntOrString
		_ = v.UnmarshalText([]byte(cfg.maxUnavailable)) // never fails: text that is no count is kept as written
		ru.MaxUnavailable = &v
	}
	set.UpdateStrategy.RollingUpdate = ru
	if errs := statefulset.Validate(set); len(errs) > 0 {
		return nil, nil, fmt.Errorf("The StatefulSet %q is invalid: %v", set.Name, errs)
	}
	for _, p := range cfg.partitions {
		check := *set
		check.UpdateStrategy.RollingUpdate = &statefulset.RollingUpdateStrategy{Partition: p, MaxUnavailable: ru.MaxUnavailable}
		if errs := statefulset.Validate(&check); len(errs) > 0 {
			return nil, nil, fmt.Errorf("The StatefulSet %q is invalid: %v", set.Name, errs)
		}
	}

	// The set at rest: its revision and its pods, ready an hour ago.
	b, _ := json.Marshal(set.Template)
	data, err := statefulset.RevisionData(b)
	if err != nil {
		return nil, nil, err
	}
	hash := statefulset.HashRevision(data, 0)
	rev := statefulset.ControllerRevision{Name: statefulset.RevisionName(set.Name, hash), Number: 1, Hash: hash, Data: data}
	var pods []statefulset.Pod
	readyAt := map[string]time.Time{}
	for k := int32(0); k < cfg.replicas; k++ {
		name := statefulset.PodName(set.Name, int64(k))
		p := statefulset.Pod{Name: name, Revision: rev.Name, PodNameLabel: name, ControllerUID: set.UID,
			Phase: statefulset.PodRunning, Ready: true, ReadySince: start.Add(-time.Hour), CreationTime: start.Add(-time.Hour)}
		for _, o := range cfg.broken {
			if o == k {
				p.Ready, p.ReadySince = false, time.Time{}
				readyAt[name] = start.Add(24 * 365 * time.Hour) // never, in this simulation
			}
		}
		pods = append(pods, p)
	}
	rest, err := statefulset.PlanWith(set, pods, []statefulset.ControllerRevision{rev}, start, statefulset.Options{})
	if err != nil {
		return nil, nil, err
	}
	before := rest.StatefulSet

	events := []statefulset.Event[template]{{Sync: 1, Kind: statefulset.SetTemplate, Template: nginx(cfg.toImage)}}
	parts := cfg.partitions
	if len(parts) > 0 {
		events = append(events, statefulset.Event[template]{Sync: 1, Kind: statefulset.SetPartition, Partition: parts[0]})
		parts = parts[1:]
	}
	opts := statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: cfg.gate}}
	if cfg.fixBudget {
		opts.Budget = statefulset.BudgetReplaceUnavailableFirst
	}
	tr, err := statefulset.Simulate(&before, pods, []statefulset.ControllerRevision{rev}, statefulset.Config[template]{
		Start: start, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, ReadyAt: readyAt, TerminationDelay: cfg.terminating,
		MaxSyncs: cfg.maxSyncs, Events: events, Partitions: parts, Options: opts, RecordPods: true,
	})
	if err != nil {
		return nil, nil, err
	}
	return &tr, &before, nil
}

// writeTable prints the trace: a heading, then per sync a comment line
// (its time, the events, Plan's reason), the `kubectl get sts -w` columns
// of the status the sync computed, and the pods as the sync leaves them,
// by ordinal, as `kubectl get pods -w` would list them (o and n for the
// old and new revision; R Running and Ready, A also available when
// minReadySeconds is set, P Pending, U Running not Ready, T terminating).
func writeTable(w io.Writer, cfg *config, before *statefulset.StatefulSet[template], tr *statefulset.Trace[template]) {
	policy := "OrderedReady"
	if cfg.parallel {
		policy = "Parallel"
	}
	mu := cfg.maxUnavailable
	if mu == "" {
		mu = "unset"
	}
	gate := "off"
	if cfg.gate {
		gate = "on"
	}
	var steps []string
	for _, p := range cfg.partitions {
		steps = append(steps, strconv.Itoa(int(p)))
	}
	fmt.Fprintf(w, "StatefulSet %s: %d replicas, %s, maxUnavailable %s (gate %s), image %s -> %s, partitions %s\n",
		before.Name, before.Replicas, policy, mu, gate, cfg.fromImage, cfg.toImage, strings.Join(steps, " -> "))
	if cfg.fixBudget {
		fmt.Fprintln(w, "option: BudgetReplaceUnavailableFirst (kubernetes#137409)")
	}
	fmt.Fprintf(w, "%-6s %-5s %-7s %-7s %-9s  %s\n", "SYNC", "READY", "CURRENT", "UPDATED", "PARTITION", "PODS")
	oldRev := before.Status.CurrentRevision
	for _, s := range tr.Steps {
		comment := "# +" + s.Elapsed.String()
		if len(s.Events) > 0 {
			comment += " [" + strings.Join(s.Events, "; ") + "]"
		}
		fmt.Fprintf(w, "%s %s\n", comment, s.Reason)
		fmt.Fprintf(w, "%-6d %-5s %-7d %-7d %-9d  %s\n", s.Sync, fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, s.Replicas),
			s.Status.CurrentReplicas, s.Status.UpdatedReplicas, s.Partition, podMap(s.Pods, oldRev, cfg.minReadySeconds > 0))
	}
	fmt.Fprintf(w, "%s after %d syncs (%s)\n", tr.Outcome, tr.Syncs, time.Duration(tr.Syncs)*cfg.interval)
}

// podMap renders pods as "0:oR 1:nP ...".
func podMap(pods []statefulset.PodState, oldRev string, minReady bool) string {
	var b strings.Builder
	for i, p := range pods {
		if i > 0 {
			b.WriteByte(' ')
		}
		_, ord := statefulset.ParseOrdinal(p.Name)
		rev := "n"
		if p.Revision == oldRev {
			rev = "o"
		}
		state := "U"
		switch {
		case p.Terminating:
			state = "T"
		case p.Phase == statefulset.PodPending:
			state = "P"
		case p.Ready && minReady && p.Available:
			state = "A"
		case p.Ready:
			state = "R"
		}
		fmt.Fprintf(&b, "%d:%s%s", ord, rev, state)
	}
	return b.String()
}
