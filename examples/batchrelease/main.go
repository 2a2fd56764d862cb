// Command batchrelease simulates a kruise-rollout (openkruise/rollouts
// v0.6.3) batch release sync by sync and prints it at both levels: the
// BatchRelease's batches (what each batch plans, what it writes to the
// workload, when it is ready) and the workload's `kubectl get -w` lines,
// with the reason for every sync.
//
// With no flags it releases a 10-replica CloneSet from nginx:1.25 to
// nginx:1.26 in batches 20% -> 50% -> 100%, pausing 30 s after each
// batch is ready, then the same release on a Deployment through
// kruise-rollout's advanced Deployment controller:
//
//	go run ./examples/batchrelease
//	go run ./examples/batchrelease -workload deployment -batches 1,5,100%
//	go run ./examples/batchrelease -workload cloneset -rollback-no-need-update 5
//	go run ./examples/batchrelease -workload statefulset
//	go run ./examples/batchrelease -o json -svg batchrelease.svg
//
// The traps it shows: a CloneSet's partition is the pods kept old (20%
// is written as partition 80%), a Deployment's is the pods made new (20%
// is written as 20%, and a percent below 100% never reaches all R pods:
// the new ReplicaSet is limited to R-1); a percent batch is written back
// as a percent that CloneSet's rounding must land on.
//
// The run is deterministic: it starts at 2026-11-26T12:00:00Z unless
// -now says otherwise. Steps kruise-rollout's webhook would reject are
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
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/brtable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is one run: the release, the workloads and the cluster.
type config struct {
	name             string
	replicas         int32
	batches          []intorpercent.IntOrString
	batchesText      string
	workloads        []batchrelease.Kind
	failureThreshold *intorpercent.IntOrString
	noNeedUpdate     int32
	readyDelay       time.Duration
	pause            time.Duration
	interval         time.Duration
	maxSyncs         int
	now              time.Time
	nowSet           bool // now came from -now
	output           string
	svgPath          string
}

var errHelp = errors.New("help requested")

// demoNow is when the run starts, unless -now says otherwise.
var demoNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

const usageText = `Simulates a kruise-rollout v0.6.3 batch release of a CloneSet and of a
Deployment (through the advanced Deployment controller), sync by sync:
the batch table, then the workload as kubectl get -w shows it, with the
reason for every sync. The pods start at nginx:1.25, all ready; the
release moves them to nginx:1.26. The clock is fixed: the run starts at
2026-11-26T12:00:00Z unless -now gives another time, so the output is
the same on every run. A sync runs every -interval; after a batch is
ready the Rollout waits -pause before it raises the batch partition.
-workload statefulset prints the batch plan only (partition numbers):
batchrelease has no StatefulSet simulation.`

func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{name: "demo"}
	fs := flag.NewFlagSet("batchrelease", flag.ContinueOnError)
	fs.SetOutput(stderr)
	replicas := fs.Int("replicas", 10, "the workload's spec.replicas")
	fs.StringVar(&cfg.batchesText, "batches", "20%,50%,100%", "the Rollout's steps' replicas, comma-separated: percents of the replicas (20%) or counts (2); they become the BatchRelease's batches")
	workloads := fs.String("workload", "cloneset,deployment", "the workloads to release, comma-separated: cloneset, deployment, statefulset (the batch plan only)")
	threshold := fs.String("failure-threshold", "", "spec.strategy.canary.failureThreshold: how many updated pods (a count, or a percent of the updated pods) may be unready in a ready batch (\"\": none, kruise-rollout v0.6.3 then tolerates 0)")
	noNeed := fs.Int("rollback-no-need-update", 0, "roll a CloneSet back in batches: N of its pods never left nginx:1.25, the others run nginx:1.26, and the CloneSet's template is back at nginx:1.25 (cloneset only)")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a created or updated pod takes to become ready")
	fs.DurationVar(&cfg.pause, "pause", 30*time.Second, "each step's pause.duration: how long the Rollout waits after a batch is ready before the next one (whole seconds)")
	fs.DurationVar(&cfg.interval, "interval", batchrelease.DefaultRequeue, "time between syncs (the release's requeue)")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "the most syncs to run per workload")
	now := fs.String("now", "", "`time` (RFC 3339) the run starts at (default: the fixed 2026-11-26T12:00:00Z, so that every run prints the same)")
	fs.StringVar(&cfg.output, "o", "text", "output format: text or json")
	fs.StringVar(&cfg.svgPath, "svg", "", "also draw the release as an SVG chart to `FILE` (with several workloads, one file each, the kind before the extension: FILE-cloneset.svg)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: batchrelease [flags]\n\n%s\n\nFlags:\n", usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, errHelp
		}
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *replicas < 1 || *replicas > 10000 {
		return cfg, fmt.Errorf("-replicas %d: want 1 to 10000", *replicas)
	}
	cfg.replicas = int32(*replicas)
	for _, b := range strings.Split(cfg.batchesText, ",") {
		b = strings.TrimSpace(b)
		var v intorpercent.IntOrString
		_ = v.UnmarshalText([]byte(b)) // never fails: text that is no count is kept as written, for the webhook to judge
		cfg.batches = append(cfg.batches, v)
	}
	seen := map[batchrelease.Kind]bool{}
	for _, w := range strings.Split(*workloads, ",") {
		var k batchrelease.Kind
		switch strings.TrimSpace(w) {
		case "cloneset":
			k = batchrelease.CloneSet
		case "deployment":
			k = batchrelease.Deployment
		case "statefulset":
			k = batchrelease.StatefulSet
		default:
			return cfg, fmt.Errorf("-workload %q: want cloneset, deployment or statefulset, comma-separated", w)
		}
		if seen[k] {
			return cfg, fmt.Errorf("-workload %q: %s given twice", *workloads, strings.TrimSpace(w))
		}
		seen[k] = true
		cfg.workloads = append(cfg.workloads, k)
	}
	if *threshold != "" {
		var v intorpercent.IntOrString
		_ = v.UnmarshalText([]byte(*threshold))
		if val, ok := v.Value(); !ok || val.IsPercent() && val.Number() > 100 {
			return cfg, fmt.Errorf("-failure-threshold %q: want a count (1) or a percent of the updated pods from 0%% to 100%% (20%%)", *threshold)
		}
		cfg.failureThreshold = &v
	}
	if *noNeed < 0 || *noNeed > *replicas {
		return cfg, fmt.Errorf("-rollback-no-need-update %d: want 0 to -replicas (%d)", *noNeed, *replicas)
	}
	cfg.noNeedUpdate = int32(*noNeed)
	if cfg.noNeedUpdate > 0 && (len(cfg.workloads) != 1 || cfg.workloads[0] != batchrelease.CloneSet) {
		return cfg, errors.New("-rollback-no-need-update rolls a CloneSet back in batches: use it with -workload cloneset")
	}
	if cfg.readyDelay < 0 || cfg.interval <= 0 {
		return cfg, errors.New("-interval must be positive and -ready-delay not negative")
	}
	if cfg.pause < 0 || cfg.pause%time.Second != 0 || cfg.pause > 24*time.Hour {
		return cfg, fmt.Errorf("-pause %v: want whole seconds from 0 to 24h (pause.duration is in seconds)", cfg.pause)
	}
	if cfg.maxSyncs < 1 || cfg.maxSyncs > 100000 {
		return cfg, fmt.Errorf("-max-syncs %d: want 1 to 100000", cfg.maxSyncs)
	}
	if cfg.output != "text" && cfg.output != "json" {
		return cfg, fmt.Errorf("-o %q: want text or json", cfg.output)
	}
	cfg.now = demoNow
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			return cfg, fmt.Errorf("-now %q: want an RFC 3339 time such as 2026-11-26T09:30:00Z", *now)
		}
		cfg.now, cfg.nowSet = t.UTC(), true
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
		fmt.Fprintf(stderr, "batchrelease: %v\n", err)
		return 2
	}
	var runs []*result
	for _, k := range cfg.workloads {
		r, err := simulate(&cfg, k)
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			return 1
		}
		runs = append(runs, r)
	}
	if cfg.output == "json" {
		err = writeJSON(stdout, &cfg, runs)
	} else {
		err = writeText(stdout, &cfg, runs)
	}
	if err == nil && cfg.svgPath != "" {
		err = writeSVGFiles(&cfg, runs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "batchrelease: %v\n", err)
		return 1
	}
	return 0
}

// writeJSON prints the runs as one JSON object: the start and, per
// workload, the heading, the batch table and the recorded syncs as
// batchrelease.Step encodes them, the outcome and the number of syncs.
func writeJSON(w io.Writer, cfg *config, runs []*result) error {
	type jsonRun struct {
		Workload      string                    `json:"workload"`
		Heading       []string                  `json:"heading"`
		Batches       []brtable.Row             `json:"batches"`
		Steps         []batchrelease.Step       `json:"steps,omitempty"`
		ReplicaSet    map[string]string         `json:"replicaSets,omitempty"`
		Outcome       batchrelease.Outcome      `json:"outcome,omitempty"`
		Syncs         int                       `json:"syncs,omitempty"`
		Release       *batchrelease.Release     `json:"release,omitempty"`
		FinalWorkload *batchrelease.Workload    `json:"finalWorkload,omitempty"`
		Threshold     *intorpercent.IntOrString `json:"failureThreshold,omitempty"`
	}
	out := struct {
		Start time.Time `json:"start"`
		Runs  []jsonRun `json:"runs"`
	}{Start: cfg.now}
	for _, r := range runs {
		jr := jsonRun{Workload: r.kind.String(), Heading: heading(cfg, r), Batches: r.rows, Threshold: cfg.failureThreshold}
		if r.trace != nil {
			jr.Steps, jr.Outcome, jr.Syncs = r.trace.Steps, r.trace.Outcome, r.trace.Syncs
			jr.Release, jr.FinalWorkload = &r.trace.Release, &r.trace.Workload
		}
		if r.kind == batchrelease.Deployment {
			jr.ReplicaSet = map[string]string{"old": r.oldRS, "new": r.newRS}
		}
		out.Runs = append(out.Runs, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
