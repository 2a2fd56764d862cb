// Command statefulsetplan reads an apps/v1 StatefulSet (and optionally
// its pods and ControllerRevisions) from manifests, validates it as the
// API server would, and prints what kube-controller-manager v1.36's
// StatefulSet controller does with it: one sync (-once), or the whole
// rollout sync by sync to its end, with the reason for every write, the
// way `kubectl get sts -w` and `kubectl get pods -w` show it:
//
//	go run ./cmd/statefulsetplan -f web.yaml --set-image nginx=nginx:1.26
//	go run ./cmd/statefulsetplan -f web.yaml --set-image nginx=nginx:1.26 --partition 3
//	kubectl get sts,pods,controllerrevisions -l app=web -o yaml | go run ./cmd/statefulsetplan -f -
//	kubectl get sts,pods,controllerrevisions -l app=web -o yaml | go run ./cmd/statefulsetplan -f - -once
//
// Manifests are YAML or JSON, decoded strictly with apimachinery's
// decoders: apps/v1 StatefulSets, core/v1 Pods and apps/v1
// ControllerRevisions, one per document, or in a List (as `kubectl get
// -o yaml` prints them). Exactly one StatefulSet is required. Pods
// another controller owns and revisions the set does not own are ignored
// and reported on standard error; orphan pods are adopted when the
// selector matches them, as the controller does.
//
// The first sync runs at "now": --now (RFC 3339), or else the latest
// timestamp the set, its pods and its revisions hold
// (internal/manifesttime.Fields), or else 2026-01-01T12:00:00Z; the
// output's heading prints it and says which. Existing pods are taken as
// they are: a Ready pod stays ready from its Ready condition's time; a
// pod that is not Ready becomes Running and Ready -ready-delay after
// now, as a created pod does -ready-delay after its creation; a
// terminating pod is gone -terminating after now.
//
// Without pods, --set-image and --partition apply to a set first
// settled on its template (every pod created and ready, as after an
// earlier rollout). Revision names are the controller's for a template
// as the API server stores it (kubectl get -o yaml prints it so).
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
	"strconv"
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
	files       []string
	images      []setimage.Change
	partition   *int32
	once        bool
	gate        bool
	output      string
	interval    time.Duration
	readyDelay  time.Duration
	terminating time.Duration
	maxSyncs    int
	maxPods     int
	now         *time.Time // --now, or nil: the manifests' time
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
	fs := flag.NewFlagSet("statefulsetplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&files, "f", "manifest `file` (YAML or JSON; - for standard input); repeatable")
	fs.Var(&images, "set-image", "`container=image` to roll out, as kubectl set image (* for every container); repeatable")
	fs.StringVar(&partition, "partition", "", "spec.updateStrategy.rollingUpdate.partition to set with the update: a whole number from 0")
	fs.BoolVar(&cfg.once, "once", false, "plan one sync at now, with every write in the controller's order, instead of the whole rollout")
	fs.BoolVar(&cfg.gate, "gate", false, "turn kube-controller-manager's MaxUnavailableStatefulSet feature gate on (off by default in v1.36): without it maxUnavailable is ignored")
	fs.StringVar(&cfg.output, "o", "table", "output format: table or json")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between syncs of the controller")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a pod that is not Ready (an existing one, from now; a new one, from its creation) takes to become Running and Ready")
	fs.DurationVar(&cfg.terminating, "terminating", 0, "how long a deleted pod stays Terminating (0: gone by the next sync)")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "most syncs to simulate")
	fs.IntVar(&cfg.maxPods, "max-pods", 10000, "largest spec.replicas to simulate (each sync plans every pod)")
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) the first sync runs at; default: the latest timestamp in the manifests ("+strings.Join(manifesttime.Fields, ", ")+")")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: statefulsetplan -f FILE [flags]\n\n%s\nFlags:\n", usageText)
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
		n, err := strconv.ParseInt(partition, 10, 32)
		if err != nil || n < 0 {
			return cfg, fmt.Errorf("--partition %q: want a whole number from 0", partition)
		}
		p := int32(n)
		cfg.partition = &p
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
	if cfg.interval <= 0 || cfg.readyDelay < 0 || cfg.terminating < 0 || cfg.maxSyncs <= 0 || cfg.maxPods <= 0 {
		return cfg, errors.New("-interval, -max-syncs and -max-pods must be positive, -ready-delay and -terminating not negative")
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
		fmt.Fprintf(stderr, "statefulsetplan: %v\n", err)
		return 2
	}
	var objs objects
	for _, name := range cfg.files {
		if err := readFile(&objs, name, stdin); err != nil {
			fmt.Fprintf(stderr, "statefulsetplan: %v\n", err)
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
		fmt.Fprintf(stderr, "statefulsetplan: %v\n", err)
		return 1
	}
	return 0
}

// usageText is the part of -h above the flags.
const usageText = `Prints what kube-controller-manager v1.36's StatefulSet controller does with
the StatefulSet of the manifests (with its pods and ControllerRevisions, if
given): one sync (-once), or the whole rollout, sync by sync, to its end.

Time: the first sync runs at "now", on the objects as the manifests show
them, and sync k runs (k-1) * -interval later. Now is --now, or else the
latest timestamp the manifests hold (of the StatefulSet, its pods and its
revisions; metadata.deletionTimestamp does not count), or else, for
manifests without timestamps, 2026-01-01T12:00:00Z. The heading says which.

Pods are modelled as they are: a pod that is Ready stays ready from its Ready
condition's lastTransitionTime (and is available minReadySeconds after it);
a pod that is not Ready becomes Running and Ready -ready-delay after now,
like a pod the controller creates, which becomes Running and Ready
-ready-delay after its creation; a terminating pod is gone -terminating
after now. Pods owned by another controller are ignored (and reported);
orphans the selector matches are adopted, as the controller adopts them.
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
