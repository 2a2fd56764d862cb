// Command batchreleaseplan reads a kruise-rollout Rollout and/or
// BatchRelease and the workload it releases from manifests (as `kubectl
// get rollout,batchrelease,cloneset,deployment,pods -o yaml` prints
// them), validates the Rollout's steps in the webhook's words, and prints
// what openkruise/rollouts v0.6.3's BatchRelease controller does next:
// one reconcile (-once), or the whole release to its end, batch by batch
// and sync by sync, with the reason for every step.
//
//	kubectl get rollout,batchrelease,cloneset -o yaml | go run ./cmd/batchreleaseplan -f -
//	go run ./cmd/batchreleaseplan -f release.yaml -once
//	go run ./cmd/batchreleaseplan -f release.yaml -o json --now 2026-11-26T10:00:00Z
//
// Manifests are YAML or JSON (kruiserollouts.Read): rollouts.kruise.io
// v1beta1 (or v1alpha1) Rollouts and BatchReleases, apps.kruise.io CloneSets and
// Advanced StatefulSets, apps/v1 Deployments and StatefulSets, v1 Pods,
// one per document or in a List. At most one Rollout and one
// BatchRelease; the workload is the one their workloadRef names. Without
// a BatchRelease, the release is the one the Rollout creates for its
// current step (batchrelease.ReleaseFor). The pods count as the
// workload's (the release's label counts).
//
// Now is --now, or else the latest timestamp in the manifests
// (internal/manifesttime.Fields), or else 2026-01-01T12:00:00Z; the
// output's second line prints it and says which. The whole release is
// simulated with batchrelease.Simulate (a CloneSet) or
// batchrelease.SimulateDeployment (a Deployment), from pods modelled on
// the workload's status, as -h says; a StatefulSet has -once only.
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

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	files      []string
	once       bool
	output     string
	interval   time.Duration
	readyDelay time.Duration
	maxSyncs   int
	maxPods    int32
	now        *time.Time // --now, or nil: the manifests' time
	options    batchrelease.Options
}

// listFlag collects a repeated string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

var errHelp = errors.New("help requested")

// usageText is the part of -h above the flags.
const usageText = `Prints what kruise-rollout v0.6.3's BatchRelease controller does with the
Rollout and/or BatchRelease of the manifests and the workload they name:
one reconcile (-once), or the whole release to its end, batch by batch.
A Rollout's steps are checked first, as its webhook checks them.

Time: "now" is when the objects are as the manifests show them; -once
plans the reconcile at now, and the whole release runs sync k at k *
-interval after now. Now is --now, or else the latest timestamp in
the manifests (any of these fields:
  ` + "%s" + `;
never metadata.deletionTimestamp), or else 2026-01-01T12:00:00Z. The
output's second line prints it and says which.

Existing pods (the whole release only): the manifests' pods are not
replayed; the workload's pods are modelled on its status. A CloneSet has
status.updatedReplicas pods at the update revision (updatedReadyReplicas
of them ready) and the rest of status.replicas at the stable revision
(ready up to status.readyReplicas), updated in ReCreate fashion whatever
updateStrategy.type says (the stable template is not in the manifests);
the update revision keeps the name status.updateRevision gives it (else
kruise's hash of the template as the manifest holds it). A Deployment has two ReplicaSets, <name>-<stable-revision
label> with the pods not updated and <name>-<pod-template-hash of the
Rollout's status, or the BatchRelease's updateRevision> with
status.updatedReplicas pods (ready as the extra-status annotation
says). A pod not ready becomes ready -ready-delay after now, like a pod
the simulation creates. The Rollout's timed pauses are waited; a manual
pause (pause: {}) counts as resumed at once.`

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var files listFlag
	var now string
	fs := flag.NewFlagSet("batchreleaseplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&files, "f", "manifest `file` (YAML or JSON; - for standard input); repeatable")
	fs.BoolVar(&cfg.once, "once", false, "plan one reconcile of the BatchRelease controller, not the whole release")
	fs.StringVar(&cfg.output, "o", "text", "output format: text or json")
	fs.DurationVar(&cfg.interval, "interval", batchrelease.DefaultRequeue, "time between syncs (the release's requeue)")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a pod that is not ready (an existing one, or one the simulation creates) takes to become ready")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "most syncs to simulate")
	maxPods := fs.Int("max-pods", 10000, "largest spec.replicas or status.replicas the whole release simulates (each sync plans every pod)")
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) the first sync runs at; default: the latest timestamp in the manifests")
	fs.BoolVar(&cfg.options.FailureThresholdFallback, "failure-threshold-fallback", false, "an unset failureThreshold falls back to the workload's maxUnavailable, as the API comment promises (batchrelease.Options; v0.6.3 tolerates no unready pod)")
	fs.BoolVar(&cfg.options.CompareDeploymentPartitionsOnReplicas, "compare-partitions-on-replicas", false, "a Deployment's partitions are compared on its replicas, so that mixed count and percent steps do not stall (batchrelease.Options)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: batchreleaseplan -f FILE [flags]\n\n"+usageText+"\n\nFlags:\n", strings.Join(manifesttime.Fields, ",\n  "))
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
	if cfg.output != "text" && cfg.output != "json" {
		return cfg, fmt.Errorf("-o %q: want text or json", cfg.output)
	}
	if now != "" {
		t, err := manifesttime.Parse(now)
		if err != nil {
			return cfg, err
		}
		cfg.now = &t
	}
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.maxSyncs <= 0 || cfg.maxSyncs > 100000 {
		return cfg, errors.New("-interval must be positive, -ready-delay not negative, -max-syncs from 1 to 100000")
	}
	if *maxPods < 1 || *maxPods > 1000000 {
		return cfg, fmt.Errorf("-max-pods %d: want 1 to 1000000", *maxPods)
	}
	cfg.maxPods = int32(*maxPods)
	return cfg, nil
}

// run runs the program and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "batchreleaseplan: %v\n", err)
		return 2
	}
	objs := &kruiserollouts.Objects{}
	for _, name := range cfg.files {
		if err := readFile(objs, name, stdin); err != nil {
			fmt.Fprintf(stderr, "batchreleaseplan: %v\n", err)
			return 1
		}
	}
	in, err := load(&cfg, objs)
	var denied *deniedError
	if errors.As(err, &denied) {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "batchreleaseplan: %v\n", err)
		return 1
	}
	if cfg.once {
		err = planOnce(stdout, &cfg, in)
	} else {
		err = planRelease(stdout, &cfg, in)
	}
	if err != nil {
		fmt.Fprintf(stderr, "batchreleaseplan: %v\n", err)
		return 1
	}
	return 0
}

// readFile decodes the manifest file name ("-": stdin) into objs.
func readFile(objs *kruiserollouts.Objects, name string, stdin io.Reader) error {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	} else {
		name = "standard input"
	}
	got, err := kruiserollouts.Read(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	objs.Rollouts = append(objs.Rollouts, got.Rollouts...)
	objs.BatchReleases = append(objs.BatchReleases, got.BatchReleases...)
	objs.CloneSets = append(objs.CloneSets, got.CloneSets...)
	objs.Deployments = append(objs.Deployments, got.Deployments...)
	objs.StatefulSets = append(objs.StatefulSets, got.StatefulSets...)
	objs.AdvancedStatefulSets = append(objs.AdvancedStatefulSets, got.AdvancedStatefulSets...)
	objs.Pods = append(objs.Pods, got.Pods...)
	return nil
}
