// Command daemonsetplan reads an apps/v1 DaemonSet, the cluster's Nodes
// and optionally its pods and ControllerRevisions from manifests,
// validates the DaemonSet as the API server would, and prints what
// kube-controller-manager v1.36's DaemonSet controller does with it: one
// sync (-once), or the whole rollout sync by sync to its end, with the
// reason for every write, the way `kubectl get ds -w` and `kubectl get
// pods -o wide -w` show it, with a map of the nodes:
//
//	kubectl get ds,pods,controllerrevisions -n kube-system -l app=fluentd -o yaml > ds.yaml
//	kubectl get nodes -o yaml > nodes.yaml
//	go run ./cmd/daemonsetplan -f ds.yaml -f nodes.yaml
//	go run ./cmd/daemonsetplan -f ds.yaml -f nodes.yaml --set-image fluentd=fluentd:1.17 --max-unavailable 25%
//	go run ./cmd/daemonsetplan -f ds.yaml -f nodes.yaml -once
//
// Manifests are YAML or JSON, decoded strictly with apimachinery's
// decoders: apps/v1 DaemonSets, core/v1 Pods and Nodes, and apps/v1
// ControllerRevisions, one per document, or in a List (as `kubectl get
// -o yaml` prints them). Exactly one DaemonSet is required, and the
// nodes its pods run on. Whether the daemon pod should run on a node is
// kubeapps.DaemonSetNode's answer (nodeName, nodeSelector, taints and
// tolerations; a required node affinity is refused). Pods another
// controller owns, pods in another namespace or outside the selector,
// and revisions the DaemonSet does not own are ignored and reported on
// standard error; orphan pods the selector matches are adopted, as the
// controller does.
//
// The first sync runs at "now": --now (RFC 3339), or else the latest
// timestamp the DaemonSet, its pods, the nodes and its revisions hold
// (internal/manifesttime.Fields), or else 2026-01-01T12:00:00Z; the
// output's heading prints it and says which. Existing pods are taken as
// they are: a Ready pod stays ready from its Ready condition's time; a
// pod that is not Ready becomes Running and Ready -ready-delay after
// now, as a created pod does -ready-delay after its creation; a
// terminating pod is gone -terminating after now.
//
// Exit status: 0 on success, 1 for invalid or unreadable manifests or a
// failed plan, 2 for bad flags.
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
	"github.com/rolloutmath/rolloutmath/internal/setimage"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	files          []string
	images         []setimage.Change
	maxUnavailable *string // --max-unavailable, or nil: unchanged
	maxSurge       *string // --max-surge, or nil: unchanged
	once           bool
	output         string
	interval       time.Duration
	readyDelay     time.Duration
	terminating    time.Duration
	maxSyncs       int
	maxNodes       int
	now            *time.Time // --now, or nil: the manifests' time
}

// listFlag collects a repeated string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// optFlag is a string flag that records whether it was given.
type optFlag struct{ v *string }

func (o *optFlag) String() string {
	if o.v == nil {
		return ""
	}
	return *o.v
}
func (o *optFlag) Set(s string) error { o.v = &s; return nil }

var errHelp = errors.New("help requested")

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var files, images listFlag
	var maxUnavailable, maxSurge optFlag
	var now string
	fs := flag.NewFlagSet("daemonsetplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&files, "f", "manifest `file` (YAML or JSON; - for standard input); repeatable")
	fs.Var(&images, "set-image", "`container=image` to roll out, as kubectl set image (* for every container); repeatable")
	fs.Var(&maxUnavailable, "max-unavailable", "spec.updateStrategy.rollingUpdate.maxUnavailable to set with the update: a count or a percentage of the nodes that should run the pod (\"\": unset, the default 1)")
	fs.Var(&maxSurge, "max-surge", "spec.updateStrategy.rollingUpdate.maxSurge to set with the update (\"\": unset, 0); non-zero needs maxUnavailable 0")
	fs.BoolVar(&cfg.once, "once", false, "plan one sync at now, with every write in the controller's order, instead of the whole rollout")
	fs.StringVar(&cfg.output, "o", "table", "output format: table or json")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between syncs of the controller")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a pod that is not Ready (an existing one, from now; a new one, from its creation) takes to become Running and Ready")
	fs.DurationVar(&cfg.terminating, "terminating", 0, "how long a deleted pod stays Terminating (an existing one, from now; 0: gone by the next sync)")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "most syncs to simulate")
	fs.IntVar(&cfg.maxNodes, "max-nodes", 10000, "most nodes to simulate (each sync plans every node)")
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) the first sync runs at; default: the latest timestamp in the manifests ("+strings.Join(manifesttime.Fields, ", ")+")")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: daemonsetplan -f FILE [flags]\n\n%s\nFlags:\n", usageText)
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
	cfg.maxUnavailable, cfg.maxSurge = maxUnavailable.v, maxSurge.v
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
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.terminating < 0 || cfg.maxSyncs <= 0 || cfg.maxNodes <= 0 {
		return cfg, errors.New("-interval, -max-syncs and -max-nodes must be positive, -ready-delay and -terminating not negative")
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
		fmt.Fprintf(stderr, "daemonsetplan: %v\n", err)
		return 2
	}
	var objs objects
	for _, name := range cfg.files {
		if err := readFile(&objs, name, stdin); err != nil {
			fmt.Fprintf(stderr, "daemonsetplan: %v\n", err)
			return 1
		}
	}
	in, err := prepare(&cfg, &objs, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	if cfg.once {
		err = once(stdout, &cfg, in)
	} else {
		err = rollout(stdout, &cfg, in)
	}
	if err != nil {
		fmt.Fprintf(stderr, "daemonsetplan: %v\n", err)
		return 1
	}
	return 0
}

// usageText is the part of -h above the flags.
const usageText = `Prints what kube-controller-manager v1.36's DaemonSet controller does with
the DaemonSet of the manifests, on the Nodes of the manifests (with its pods
and ControllerRevisions, if given): one sync (-once), or the whole rollout,
sync by sync, to its end. Give the nodes too, for example:

  kubectl get ds,pods,controllerrevisions -n kube-system -l app=fluentd -o yaml > ds.yaml
  kubectl get nodes -o yaml > nodes.yaml
  daemonsetplan -f ds.yaml -f nodes.yaml --set-image fluentd=fluentd:1.17

Nodes: whether the daemon pod should run on a node, and may keep running
there, is read from the template's nodeName, nodeSelector and tolerations
against the node's labels and taints, as the controller reads them. A
template with a required node affinity is refused. Nodes are visited by
name, one of the orders the controller (which uses Go's map order) can take.

Time: the first sync runs at "now", on the objects as the manifests show
them, and sync k runs (k-1) * -interval later. Now is --now, or else the
latest timestamp the manifests hold (of the DaemonSet, its pods, the nodes
and its revisions; metadata.deletionTimestamp does not count), or else, for
manifests without timestamps, 2026-01-01T12:00:00Z. The heading says which.

Pods are modelled as they are: a pod that is Ready stays ready from its Ready
condition's lastTransitionTime (and is available minReadySeconds after it);
a pod that is not Ready becomes Running and Ready -ready-delay after now,
like a pod the controller creates, which becomes Running and Ready
-ready-delay after its creation; a pod that failed or succeeded never
becomes ready; a terminating pod is gone -terminating after now. Pods owned
by another controller, in another namespace or outside the selector are
ignored (and reported); orphans the selector matches are adopted, as the
controller adopts them. A pod on a node the manifests do not hold is an
error: add the node.
`

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
