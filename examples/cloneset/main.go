// Command cloneset simulates an OpenKruise CloneSet update reconcile by
// reconcile, as kruise v1.9.1's controller runs it, and prints it the way
// `kubectl get cloneset -w` shows it, with the controller's reason for
// every reconcile and a map of the pods' revisions.
//
// With no flags it updates a 10-replica CloneSet from nginx:1.25 to
// nginx:1.26 with maxSurge 1, in partition batches 80% -> 60% -> 40% ->
// 20% -> 0, as a progressive-delivery tool drives it: the next batch
// starts once the previous one is updated and available.
//
//	go run ./examples/cloneset
//	go run ./examples/cloneset -type InPlaceIfPossible -max-surge 0
//	go run ./examples/cloneset -replicas 17 -partitions 60%,0 -max-surge 2
//	go run ./examples/cloneset -svg cloneset.svg
//
// A CloneSet kruise's webhook would reject is reported in the webhook's
// words, with exit status 1; arguments that cannot be read give exit
// status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/clonesettable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is one run: the CloneSet, the update and the cluster.
type config struct {
	name               string
	replicas           int32
	updateType         string
	maxSurge           string // "" for none
	maxUnavailable     string // "" for kruise's default
	partitions         []string
	minReadySeconds    int32
	fromImage, toImage string
	interval           time.Duration
	readyDelay         time.Duration
	inPlaceDelay       time.Duration
	terminating        time.Duration
	maxSyncs           int
	svgPath            string
}

var errHelp = errors.New("help requested")

func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{name: "demo"}
	fs := flag.NewFlagSet("cloneset", flag.ContinueOnError)
	fs.SetOutput(stderr)
	replicas := fs.Int("replicas", 10, "spec.replicas")
	fs.StringVar(&cfg.updateType, "type", "ReCreate", "updateStrategy.type: ReCreate, InPlaceIfPossible or InPlaceOnly")
	fs.StringVar(&cfg.maxSurge, "max-surge", "1", "updateStrategy.maxSurge, a count or a percentage (\"\" for none)")
	fs.StringVar(&cfg.maxUnavailable, "max-unavailable", "", "updateStrategy.maxUnavailable, a count or a percentage (\"\": kruise's default 20%)")
	partitions := fs.String("partitions", "80%,60%,40%,20%,0", "partition steps, comma-separated: the first is set with the new image, each next one once the previous batch is updated and available")
	minReady := fs.Int("min-ready", 0, "spec.minReadySeconds")
	fs.StringVar(&cfg.fromImage, "image-from", "nginx:1.25", "the image before the update")
	fs.StringVar(&cfg.toImage, "image-to", "nginx:1.26", "the image after the update")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between reconciles")
	fs.DurationVar(&cfg.readyDelay, "ready", 10*time.Second, "how long a created pod takes to become ready")
	fs.DurationVar(&cfg.inPlaceDelay, "in-place", 5*time.Second, "how long an in-place update takes to restart the containers")
	fs.DurationVar(&cfg.terminating, "terminating", 0, "how long a deleted pod stays terminating")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 300, "the most reconciles to run")
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
	if *minReady < 0 || *minReady > 3600 {
		return cfg, fmt.Errorf("-min-ready %d: want 0 to 3600", *minReady)
	}
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.inPlaceDelay < 0 || cfg.terminating < 0 {
		return cfg, errors.New("-interval must be positive and -ready, -in-place, -terminating not negative")
	}
	if cfg.maxSyncs < 1 || cfg.maxSyncs > 100000 {
		return cfg, fmt.Errorf("-max-syncs %d: want 1 to 100000", cfg.maxSyncs)
	}
	cfg.replicas, cfg.minReadySeconds = int32(*replicas), int32(*minReady)
	for _, p := range strings.Split(*partitions, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.partitions = append(cfg.partitions, p)
		}
	}
	return cfg, nil
}

// value reads a flag as intorpercent.IntOrString.UnmarshalText reads
// text: a number is a count, anything else a string.
func value(s string) *intorpercent.IntOrString {
	if s == "" {
		return nil
	}
	var v intorpercent.IntOrString
	_ = v.UnmarshalText([]byte(s)) // never fails: text that is no count is kept as written
	return &v
}

// run runs the program and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "cloneset: %v\n", err)
		return 2
	}
	tr, cs, err := simulate(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	if err := writeTable(stdout, &cfg, cs, tr); err != nil {
		fmt.Fprintf(stderr, "cloneset: %v\n", err)
		return 1
	}
	if cfg.svgPath != "" {
		if err := writeSVGFile(cfg.svgPath, &cfg, cs, tr); err != nil {
			fmt.Fprintf(stderr, "cloneset: %v\n", err)
			return 1
		}
	}
	return 0
}

// template is the pod template as encoding/json writes a
// corev1.PodTemplateSpec with one container, so that the image is at
// /spec/containers/0/image and kruise can update it in place.
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
	t.Metadata.Labels = map[string]string{"app": "demo"}
	t.Spec.Containers = []container{{Name: "nginx", Image: image}}
	return t
}

// invalid reports a CloneSet the webhook rejects as kubectl shows it.
func invalid(name string, err error) error {
	return fmt.Errorf("The CloneSet %q is invalid: %v", name, err)
}

// simulate runs the update: the CloneSet at rest on fromImage, then the
// new image and the first partition in one write, then the batches. It
// returns the trace and the CloneSet as the update begins.
func simulate(cfg *config) (*cloneset.Trace[template], *cloneset.CloneSet[template], error) {
	cs := &cloneset.CloneSet[template]{Name: cfg.name, Replicas: cfg.replicas, Generation: 1, MinReadySeconds: cfg.minReadySeconds, Template: nginx(cfg.fromImage)}
	us := &cs.UpdateStrategy
	us.Type = cloneset.UpdateStrategyType(cfg.updateType)
	us.MaxSurge, us.MaxUnavailable = value(cfg.maxSurge), value(cfg.maxUnavailable)
	if err := cloneset.Validate(cs); err != nil {
		return nil, nil, invalid(cs.Name, err)
	}
	var parts []intorpercent.IntOrString
	for _, p := range cfg.partitions {
		v := value(p)
		check := *cs
		check.UpdateStrategy.Partition = v
		if err := cloneset.Validate(&check); err != nil {
			return nil, nil, invalid(cs.Name, err)
		}
		parts = append(parts, *v)
	}
	// The CloneSet at rest on the old image: pods created and ready.
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rest, err := cloneset.Simulate(cs, nil, nil, cloneset.Config[template]{Start: start.Add(-time.Hour), Interval: cfg.interval, MaxSyncs: cfg.maxSyncs})
	if err != nil {
		return nil, nil, err
	}
	before := rest.CloneSet
	events := []cloneset.Event[template]{{Sync: 1, Kind: cloneset.SetTemplate, Template: nginx(cfg.toImage)}}
	if len(parts) > 0 {
		events = append(events, cloneset.Event[template]{Sync: 1, Kind: cloneset.SetPartition, Partition: &parts[0]})
		parts = parts[1:]
	}
	tr, err := cloneset.Simulate(&before, rest.Pods, rest.Revisions, cloneset.Config[template]{
		Start: start, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, InPlaceDelay: cfg.inPlaceDelay,
		TerminationDelay: cfg.terminating, MaxSyncs: cfg.maxSyncs, Events: events, Partitions: parts, RecordPods: true,
	})
	if err != nil {
		return nil, nil, err
	}
	return &tr, &before, nil
}

// writeTable prints the trace as `kubectl get cloneset -w` would, with a
// comment line per reconcile: its time, the partition and Plan's reason.
// The columns are the status the reconcile wrote (counted from the pods
// it saw); PODS maps the pods as the reconcile leaves them, oldest first.
// The layout is examples/internal/clonesettable's, shared with
// adapters/kruiseapps's clonesetplan.
func writeTable(w io.Writer, cfg *config, before *cloneset.CloneSet[template], tr *cloneset.Trace[template]) error {
	us := &before.UpdateStrategy
	surge, unavailable := written(us.MaxSurge, "0"), written(us.MaxUnavailable, "20%")
	tab := clonesettable.Table{
		Heading: fmt.Sprintf("CloneSet %s: %d replicas, %s (maxSurge %s, maxUnavailable %s), image %s -> %s, partitions %s",
			before.Name, before.Replicas, typeOf(cfg), surge, unavailable, cfg.fromImage, cfg.toImage, joinArrow(cfg.partitions)),
		Name:    before.Name,
		Update:  tr.CloneSet.Status.UpdateRevision,
		Outcome: tr.Outcome.String(),
		Syncs:   tr.Syncs,
	}
	// Before the update every pod is available at the old revision.
	old := make([]cloneset.PodState, before.Status.Replicas)
	for i := range old {
		old[i] = cloneset.PodState{Revision: before.Status.CurrentRevision, Available: true}
	}
	tab.Rows = append(tab.Rows, clonesettable.Row{Comment: "before the update", Replicas: before.Replicas, Status: before.Status, Pods: old})
	for i := range tr.Steps {
		s := &tr.Steps[i]
		tab.Rows = append(tab.Rows, clonesettable.Row{Comment: clonesettable.Comment(s), Replicas: s.Replicas, Status: s.Status, Pods: s.Pods})
		tab.Elapsed = s.Elapsed
	}
	return clonesettable.Write(w, &tab)
}

// typeOf is the update strategy type, "" read as ReCreate.
func typeOf(cfg *config) string {
	if cfg.updateType == "" {
		return string(cloneset.ReCreate)
	}
	return cfg.updateType
}

// joinArrow renders the partition steps as "80% -> 60% -> 0", or "none".
func joinArrow(parts []string) string {
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " -> ")
}

// written renders an int-or-percent as the user wrote it, or def for nil.
func written(v *intorpercent.IntOrString, def string) string {
	if v == nil {
		return def
	}
	return v.String()
}
