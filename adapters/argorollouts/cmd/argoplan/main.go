// Command argoplan reads an Argo Rollout and its ReplicaSets from
// manifests (`kubectl get rollout,rs -o yaml`), checks the Rollout as the
// Argo Rollouts controller v1.10.1 does, and prints what the controller
// does next: one reconcile (-once), or the whole rollout to its end,
// reconcile by reconcile, the way `kubectl argo rollouts get rollout -w`
// shows it, with the reason for every write:
//
//	kubectl get rollout,rs -l app=web -o yaml | go run ./cmd/argoplan -f -
//	go run ./cmd/argoplan -f rollout.yaml -f replicasets.yaml -once
//	go run ./cmd/argoplan -f web.yaml -promote 12 -o json
//	go run ./cmd/argoplan -f web.yaml -abort 3
//
// See usageText (the -h output) for time, pods and promotions.
//
// Exit status: 0 on success, 1 for manifests that cannot be read, that do
// not hold one Rollout and its ReplicaSets, or whose Rollout Argo would
// reject, 2 for bad flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	files      []string
	once       bool
	promote    []int
	abort      []int
	output     string
	interval   time.Duration
	readyDelay time.Duration
	maxSyncs   int
	maxPods    int
	now        *time.Time // --now, or nil: the manifests' time
}

// listFlag collects a repeated string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

var errHelp = errors.New("help requested")

// usageText is the part of -h above the flags.
const usageText = `Usage: argoplan -f FILE [flags]

Reads an argoproj.io/v1alpha1 Rollout and the apps/v1 ReplicaSets it owns
(kubectl get rollout,rs -o yaml: YAML or JSON, single objects or Lists;
server fields such as managedFields, resourceVersion, uid and status are
read or ignored as the controller does), checks the Rollout as the Argo
Rollouts controller v1.10.1 does (an invalid one is reported in the words
of its InvalidSpec condition), and prints what the controller does next:
with -once the one reconcile it runs at now, otherwise the whole rollout,
reconcile by reconcile, until nothing changes any more, as
"kubectl argo rollouts get rollout -w" shows it.

Time: now is --now, or else the latest timestamp the manifests hold
(internal/manifesttime's: metadata.creationTimestamp,
metadata.managedFields[].time, status.conditions[].lastTransitionTime,
lastUpdateTime and lastProbeTime, and every startTime, such as
status.pauseConditions[].startTime; not metadata.deletionTimestamp nor the
scale-down-deadline annotation, which lie in the future), or else, for
manifests without timestamps,
2026-01-01T12:00:00Z. The header prints it and says which. -once plans the
reconcile at now; otherwise reconcile k runs at now + k * -interval. Pause
steps' durations, blue-green auto-promotion and scale-down deadlines run in
this virtual time, counted from the times the manifests record
(pauseConditions[].startTime, the scale-down-deadline annotation).

Pods: the ReplicaSets' pods are taken as their status counts them: ready
pods stay ready (and count as available at once); pods that are not ready
become ready -ready-delay after now, as pods the controller creates become
ready -ready-delay after the reconcile that creates them. No pod fails,
and pods go only when the controller scales a ReplicaSet down.

Promotions: an indefinite pause step, or a blue-green Rollout without
auto-promotion, waits for "kubectl argo rollouts promote"; -promote N runs
one just before reconcile N (repeat the flag or give a list). -abort N runs
"kubectl argo rollouts abort" just before reconcile N.

Flags:
`

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var files, promote, abort listFlag
	var now string
	fs := flag.NewFlagSet("argoplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&files, "f", "manifest `file` (YAML or JSON; - for standard input); repeatable")
	fs.BoolVar(&cfg.once, "once", false, "plan only the reconcile at now")
	fs.Var(&promote, "promote", "reconcile `numbers` (comma-separated, or repeat the flag) before which to run kubectl argo rollouts promote")
	fs.Var(&abort, "abort", "reconcile `numbers` (comma-separated, or repeat the flag) before which to run kubectl argo rollouts abort")
	fs.StringVar(&cfg.output, "o", "text", "output format: text or json")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between reconciles of the controller")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a pod that is not ready (or a created one) takes to become ready")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "most reconciles to simulate")
	fs.IntVar(&cfg.maxPods, "max-pods", 10000, "largest spec.replicas, and most pods in all the ReplicaSets, to plan (the simulation tracks every pod)")
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) of the state the manifests show; default: their latest timestamp")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
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
	var err error
	if cfg.promote, err = syncNumbers("-promote", promote); err != nil {
		return cfg, err
	}
	if cfg.abort, err = syncNumbers("-abort", abort); err != nil {
		return cfg, err
	}
	if cfg.once && len(cfg.promote)+len(cfg.abort) > 0 {
		return cfg, errors.New("-promote and -abort script the whole rollout; they cannot be used with -once")
	}
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
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.maxSyncs <= 0 || cfg.maxSyncs > 100000 || cfg.maxPods <= 0 {
		return cfg, errors.New("-interval and -max-pods must be positive, -ready-delay not negative, -max-syncs from 1 to 100000")
	}
	return cfg, nil
}

// syncNumbers reads the values of a repeated flag of reconcile numbers,
// each a comma-separated list of numbers from 1.
func syncNumbers(name string, values []string) ([]int, error) {
	var out []int
	for _, v := range values {
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%s %q: want reconcile numbers from 1, comma-separated", name, v)
			}
			out = append(out, n)
		}
	}
	return out, nil
}

// run runs the program and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "argoplan: %v\n", err)
		return 2
	}
	in, err := load(&cfg, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	var out *plan
	if cfg.once {
		out, err = planOnce(in)
	} else {
		out, err = simulate(&cfg, in)
	}
	if err != nil {
		fmt.Fprintf(stderr, "argoplan: %v\n", err)
		return 1
	}
	if cfg.output == "json" {
		err = writeJSON(stdout, out)
	} else {
		err = writeText(stdout, &cfg, out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "argoplan: %v\n", err)
		return 1
	}
	return 0
}
