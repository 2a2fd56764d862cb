// Command clonesetplan reads an OpenKruise CloneSet (and optionally its
// pods and ControllerRevisions) from manifests, validates it as kruise's
// webhook would, and prints the rollout kruise v1.9.1's CloneSet
// controller would run, reconcile by reconcile, with the reason for every
// step:
//
//	go run ./cmd/clonesetplan -f cloneset.yaml --set-image nginx=nginx:1.25
//	go run ./cmd/clonesetplan -f cloneset.yaml --set-image nginx=nginx:1.25 --partition 40%
//	go run ./cmd/clonesetplan -f cloneset.yaml -f pods.yaml -o json
//	kubectl get cloneset web -o yaml | go run ./cmd/clonesetplan -f - --set-image '*=web:v2'
//
// Manifests are YAML or JSON, decoded strictly with apimachinery's
// decoders: apps.kruise.io/v1alpha1 CloneSets, core/v1 Pods and apps/v1
// ControllerRevisions, one per document, or in a List (as `kubectl get
// -o yaml` prints them). Exactly one CloneSet is required. Pods and
// revisions it does not control are ignored. The CloneSet types are
// kruise-api v1.8.0's, which has no spec.progressDeadlineSeconds: a
// manifest holding that field is rejected as an unknown field.
//
// Reconcile 1 runs at "now", on the objects as the manifests show them:
// --now (RFC 3339), or else the latest timestamp the CloneSet, its pods
// and its revisions hold (internal/manifesttime.Fields: creationTimestamp,
// managedFields' time, conditions' lastTransitionTime and lastUpdateTime,
// a pod's startTime, containers' startedAt and finishedAt; not
// deletionTimestamp), or else 2026-01-01T12:00:00Z; the output's second
// line prints it and says which. A Ready pod stays ready from its Ready
// condition's time; a pod that is not Ready becomes ready -ready-delay
// after now. The closing line's time is when the last reconcile ran.
//
// Without pods, the CloneSet is first settled on its template (every pod
// at one revision, available), as after an earlier rollout; --set-image
// and --partition then change the CloneSet just before reconcile 1. With
// pods, their state is taken as it is. Revision names are kruise's for a
// template as the API server stored it (kubectl get -o yaml), since the
// webhook's defaults change the bytes the hash is taken over.
//
// Exit status: 0 on success, 1 for invalid or unreadable manifests or a
// failed simulation, 2 for bad flags.
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

	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/internal/setimage"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	files        []string
	images       []setimage.Change
	partition    *intorpercent.IntOrString
	output       string
	interval     time.Duration
	readyDelay   time.Duration
	inPlaceDelay time.Duration
	maxSyncs     int
	maxPods      int
	now          *time.Time // --now, or nil: the manifests' time
}

// listFlag collects a repeated string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

var errHelp = errors.New("help requested")

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var files, images listFlag
	var partition, now string
	fs := flag.NewFlagSet("clonesetplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&files, "f", "manifest `file` (YAML or JSON; - for standard input); repeatable")
	fs.Var(&images, "set-image", "`container=image` to roll out, as kubectl set image (* for every container); repeatable")
	fs.StringVar(&partition, "partition", "", "spec.updateStrategy.partition to set with the update: a count (3) or a percentage (40%)")
	fs.StringVar(&cfg.output, "o", "table", "output format: table or json")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between reconciles of the controller")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a new pod takes to become ready")
	fs.DurationVar(&cfg.inPlaceDelay, "inplace-delay", 5*time.Second, "how long an in-place update takes to be ready again")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "most reconciles to simulate")
	fs.IntVar(&cfg.maxPods, "max-pods", 10000, "largest spec.replicas to simulate, and most pods the simulated cluster may hold at once, surge and terminating pods included (each reconcile plans every pod)")
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) reconcile 1 runs at; default: the latest timestamp in the manifests ("+strings.Join(manifesttime.Fields, ", ")+")")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: clonesetplan -f FILE [flags]\n\n%s\nFlags:\n", usageText)
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
	if len(files) == 0 {
		return cfg, errors.New("no manifest: give one with -f")
	}
	cfg.files = files
	changes, err := setimage.Parse(images)
	if err != nil {
		return cfg, err
	}
	cfg.images = changes
	if partition != "" {
		v, err := parsePartition(partition)
		if err != nil {
			return cfg, err
		}
		cfg.partition = &v
	}
	if cfg.output != "table" && cfg.output != "json" {
		return cfg, fmt.Errorf("-o %q: want table or json", cfg.output)
	}
	if now != "" {
		t, err := manifesttime.Parse(now)
		if err != nil {
			return cfg, err
		}
		cfg.now = &t
	}
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.inPlaceDelay < 0 || cfg.maxSyncs <= 0 || cfg.maxPods <= 0 {
		return cfg, errors.New("-interval, -max-syncs and -max-pods must be positive, -ready-delay and -inplace-delay not negative")
	}
	return cfg, nil
}

// parsePartition reads --partition: a count or "N%", each a whole number
// from 0. Kruise's webhook accepts every such value (a percentage above
// 100% keeps every pod back), and also fractional percentages, which the
// flag does not take.
func parsePartition(s string) (intorpercent.IntOrString, error) {
	v, err := intorpercent.Parse(s)
	if err != nil {
		return intorpercent.IntOrString{}, fmt.Errorf("--partition %q: want a count (3) or a percentage (40%%)", s)
	}
	if v.IsPercent() {
		return intorpercent.FromString(s), nil
	}
	return intorpercent.FromInt(v.Number()), nil
}

// run runs the program and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "clonesetplan: %v\n", err)
		return 2
	}
	var objs objects
	for _, name := range cfg.files {
		if err := readFile(&objs, name, stdin); err != nil {
			fmt.Fprintf(stderr, "clonesetplan: %v\n", err)
			return 1
		}
	}
	t, err := simulate(&cfg, &objs, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	printWarnings(stderr, &t.t)
	if cfg.output == "json" {
		err = writeJSON(stdout, t)
	} else {
		err = writeTable(stdout, t)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clonesetplan: %v\n", err)
		return 1
	}
	return 0
}

// usageText is the part of -h above the flags.
const usageText = `Prints the rollout kruise v1.9.1's CloneSet controller would run on the
CloneSet of the manifests (with its pods and ControllerRevisions, if given),
reconcile by reconcile.

Time: reconcile 1 runs at "now", on the objects as the manifests show them,
and reconcile k runs (k-1) * -interval later. Now is --now, or else the
latest timestamp the manifests hold (of the CloneSet, its pods and its
revisions; metadata.deletionTimestamp does not count), or else, for
manifests without timestamps, 2026-01-01T12:00:00Z. The output's second
line says which. A pod that is Ready stays ready from its Ready condition's
lastTransitionTime (and is available minReadySeconds after it); a pod that
is not Ready becomes ready -ready-delay after now, like a pod the
controller creates, which becomes ready -ready-delay after its creation.
The closing line's time is when the last reconcile ran, counted from now.
`

// writeJSON prints the rollout as one JSON object: the heading, now (when
// reconcile 1 runs) and where it came from, the state before reconcile 1,
// the recorded syncs (reconciles, as cloneset.Step encodes them, with
// elapsed counted from now), the outcome and the number of syncs that ran.
func writeJSON(w io.Writer, t *trace) error {
	out := struct {
		Heading string    `json:"heading"`
		Now     time.Time `json:"now"`
		NowFrom string    `json:"nowFrom"`
		Initial any       `json:"initial"`
		Steps   any       `json:"steps"`
		Outcome string    `json:"outcome"`
		Syncs   int       `json:"syncs"`
	}{describe(t), t.now, t.nowFrom, t.initial, t.t.Steps, t.t.Outcome.String(), t.t.Syncs}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// readFile decodes the manifest file name ("-": stdin) into objs.
func readFile(objs *objects, name string, stdin io.Reader) error {
	if name == "-" {
		return objs.decode("standard input", stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return objs.decode(name, f)
}
