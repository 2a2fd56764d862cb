// Command rolloutplan reads a Deployment (and optionally its ReplicaSets)
// from Kubernetes manifests, validates it as the API server would, and
// prints the rollout kube-controller-manager v1.36 would run, sync by
// sync, as `kubectl get rs -w` shows it, with the reason for every step:
//
//	go run ./cmd/rolloutplan -f deployment.yaml --set-image nginx=nginx:1.9.3
//	go run ./cmd/rolloutplan -f deployment.yaml -f replicasets.yaml
//	kubectl get deploy web -o yaml | go run ./cmd/rolloutplan -f - --set-image '*=web:v2'
//
// Manifests are YAML or JSON, decoded strictly with apimachinery's
// decoders: apps/v1 Deployments and ReplicaSets, one per document, or
// in a List; each document's apiVersion and kind are checked before its
// fields, and input that is not such an object gets a one-line message.
// Exactly one Deployment is required. ReplicaSets it does not
// control (by owner reference, or, for orphans, by selector) are ignored.
// A ReplicaSet name that appears twice is an error (exit status 1): a
// namespace holds one ReplicaSet per name.
//
// Without ReplicaSets, the Deployment is first settled on its template
// (one ReplicaSet, revision 1, every pod available), as after an earlier
// rollout, and the output says that its revision numbers assume no other
// ReplicaSets exist; --set-image then starts the update at sync 1. Without
// --set-image the Deployment's own state is simply run to the end.
//
// The state before sync 1 is the manifests' state at "now": --now (RFC
// 3339), or else the latest timestamp the Deployment and its ReplicaSets
// hold (internal/manifesttime.Fields: creationTimestamp, managedFields'
// time, conditions' lastTransitionTime and lastUpdateTime; not
// deletionTimestamp), or else 2026-01-01T12:00:00Z; the output's second
// line prints it and says which. Sync k runs k * -interval after now.
//
// ReplicaSet names carry the pod-template-hash, which is computed over
// the template as given: they match the cluster's when the manifest is as
// the API server stored it (kubectl get -o yaml), since defaulting fills
// in pod fields that change the hash.
//
// -o json prints the rollout in the JSON schema of examples/rollout -o
// json (examples/internal/report). Both outputs end with the capacity the
// rollout needs beyond its steady state: the peak extra pods, CPU and
// memory, from each ReplicaSet's pod template requests as the scheduler
// totals them (examples/internal/capacity).
//
// Exit status: 0 on success, 1 for invalid or unreadable manifests or a
// failed simulation, 2 for bad flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/internal/report"
	"github.com/rolloutmath/rolloutmath/internal/setimage"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	files      []string
	images     []setimage.Change
	interval   time.Duration
	readyDelay time.Duration
	maxSyncs   int
	output     string     // "table" or "json"
	now        *time.Time // --now, or nil: the manifests' time
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
	var now string
	fs := flag.NewFlagSet("rolloutplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&files, "f", "manifest `file` (YAML or JSON; - for standard input); repeatable")
	fs.Var(&images, "set-image", "`container=image` to roll out, as kubectl set image (* for every container); repeatable")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between syncs of the controller")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a new pod takes to become ready")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "most syncs to simulate")
	fs.StringVar(&cfg.output, "o", "table", "output format: table, or json in examples/rollout's schema")
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) of the state before sync 1; default: the latest timestamp in the manifests ("+strings.Join(manifesttime.Fields, ", ")+"), else 2026-01-01T12:00:00Z")
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
	if cfg.output != "table" && cfg.output != "json" {
		return cfg, fmt.Errorf("invalid value %q for flag -o: want table or json", cfg.output)
	}
	if now != "" {
		t, err := manifesttime.Parse(now)
		if err != nil {
			return cfg, err
		}
		cfg.now = &t
	}
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.maxSyncs <= 0 {
		return cfg, errors.New("-interval and -max-syncs must be positive, -ready-delay not negative")
	}
	return cfg, nil
}

// run runs the program and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "rolloutplan: %v\n", err)
		return 2
	}
	var objs objects
	for _, name := range cfg.files {
		if err := readFile(&objs, name, stdin); err != nil {
			fmt.Fprintf(stderr, "rolloutplan: %v\n", err)
			return 1
		}
	}
	t, err := simulate(&cfg, &objs, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	write := writeTable
	if cfg.output == "json" {
		write = func(w io.Writer, t *trace) error { return report.Write(w, t.report()) }
	}
	if err := write(stdout, t); err != nil {
		fmt.Fprintf(stderr, "rolloutplan: %v\n", err)
		return 1
	}
	return 0
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
