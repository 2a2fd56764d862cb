// Command canary simulates an Argo Rollouts canary (or blue-green)
// update reconcile by reconcile, as argo-rollouts v1.10.1's controller
// runs it (package rollout/argo), and prints it the way `kubectl argo
// rollouts get rollout -w` shows it: the status, the step, the weight the
// steps set and the weight the pods carry, the ReplicaSets with their
// revision, role and pods, and the controller's reason for every write.
//
// With no flags it updates a 10-replica Rollout from
// argoproj/rollouts-demo:blue to :yellow with the steps setWeight 20,
// pause 30s, setWeight 50, pause 30s, setWeight 100.
//
//	go run ./examples/canary
//	go run ./examples/canary -replicas 3 -steps 20,pause:30s,100
//	go run ./examples/canary -traffic-routing -dynamic-stable-scale
//	go run ./examples/canary -abort-at 2
//	go run ./examples/canary -scale 20@12
//	go run ./examples/canary -blue-green -preview-replicas 2 -auto-promotion=false -promote-at 8
//	go run ./examples/canary -svg canary.svg
//	go run ./examples/canary split -replicas 3    # the canary/stable split for every weight
//
// A Rollout Argo would reject is reported in the controller's words, with
// exit status 1; arguments that cannot be read give exit status 2.
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
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// defaultNow is the fixed clock of a run without -now: the state before
// reconcile 1 is at this instant, so that the output does not change
// from one run to the next.
var defaultNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// config is one run: the Rollout, the update and the cluster.
type config struct {
	name               string
	replicas           int32
	steps              []argo.CanaryStep
	stepsText          string
	maxSurge           string // "" for Argo's default
	maxUnavailable     string // "" for Argo's default
	trafficRouting     bool
	dynamicStableScale bool
	blueGreen          bool
	previewReplicas    *int32
	autoPromotion      bool
	autoPromotionSecs  int32
	abortAt            int32 // -1: none
	promoteAt          []int
	scales             []scale
	fromImage, toImage string
	interval           time.Duration
	readyDelay         time.Duration
	maxSyncs           int
	now                time.Time
	nowGiven           bool
	output             string
	svgPath            string
	table              bool
}

// scale is one -scale change: spec.replicas before reconcile at.
type scale struct {
	replicas int32
	at       int
}

var errHelp = errors.New("help requested")

// usageText is the part of -h above the flags.
const usageText = `Usage: canary [split] [flags]

Simulates an Argo Rollouts update reconcile by reconcile, as the Argo
Rollouts controller v1.10.1 runs it, and prints each reconcile the way
"kubectl argo rollouts get rollout -w" shows it, with the controller's
reasons. The Rollout starts at rest on -image-from, every pod ready; the
new image is applied just before reconcile 1.

Time: the state before reconcile 1 is at -now, which is a FIXED clock,
2026-11-26T12:00:00Z, unless you give one (so that the output is the same
on every run); reconcile k runs k * -interval later. Pause durations,
blue-green auto-promotion and scale-down delays run in this virtual time.
A created pod becomes ready -ready-delay after the reconcile that created
it.

"canary split" (or -table) prints, for every weight 0..100, the
canary/stable split a basic canary steps toward at -replicas with
-max-surge, and with -traffic-routing the pods a traffic-routed canary
runs.

Flags:
`

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{name: "demo", abortAt: -1}
	if len(args) > 0 && args[0] == "split" {
		cfg.table = true
		args = args[1:]
	}
	fs := flag.NewFlagSet("canary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	replicas := fs.Int("replicas", 10, "spec.replicas")
	fs.StringVar(&cfg.stepsText, "steps", "20,pause:30s,50,pause:30s,100", "canary steps, comma-separated: N is setWeight N, pause is an indefinite pause, pause:30s (or pause:30) a timed one, scale:N setCanaryScale replicas N, scale:N% setCanaryScale weight N, scale:match matchTrafficWeight")
	fs.StringVar(&cfg.maxSurge, "max-surge", "", "canary.maxSurge, a count or a percentage (default: Argo's 25%)")
	fs.StringVar(&cfg.maxUnavailable, "max-unavailable", "", "canary.maxUnavailable (blueGreen.maxUnavailable with -blue-green), a count or a percentage (default: Argo's 25% for a canary, none for blue-green)")
	fs.BoolVar(&cfg.trafficRouting, "traffic-routing", false, "give the canary traffic routing (an nginx router, services demo-canary and demo-stable): the router carries the weight and the canary gets ceil(weight * replicas / 100) pods")
	fs.BoolVar(&cfg.dynamicStableScale, "dynamic-stable-scale", false, "canary.dynamicStableScale: scale the stable ReplicaSet down as traffic leaves it (needs -traffic-routing)")
	fs.BoolVar(&cfg.blueGreen, "blue-green", false, "use the blue-green strategy (services demo-active and demo-preview) instead of the canary; -steps is ignored")
	preview := fs.Int("preview-replicas", -1, "blueGreen.previewReplicaCount; -1 leaves it unset (the preview gets all replicas)")
	fs.BoolVar(&cfg.autoPromotion, "auto-promotion", true, "blueGreen.autoPromotionEnabled; false pauses the rollout until a promote (see -promote-at)")
	autoSecs := fs.Int("auto-promotion-seconds", 0, "blueGreen.autoPromotionSeconds: promote that long after the preview is ready")
	abortAt := fs.Int("abort-at", -1, "abort (kubectl argo rollouts abort) once the rollout reaches canary step `STEP` (0 is the first); -1 for never")
	scaleAt := fs.String("scale", "", "`N@K`: set spec.replicas to N just before reconcile K, as an HPA or kubectl scale does; comma-separated for several")
	promoteAt := fs.String("promote-at", "", "reconcile numbers, comma-separated, before which to run kubectl argo rollouts promote (for indefinite pauses)")
	fs.StringVar(&cfg.fromImage, "image-from", "argoproj/rollouts-demo:blue", "the image before the update")
	fs.StringVar(&cfg.toImage, "image-to", "argoproj/rollouts-demo:yellow", "the image after the update")
	fs.DurationVar(&cfg.interval, "interval", 10*time.Second, "time between reconciles")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", 10*time.Second, "how long a created pod takes to become ready")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", 1000, "the most reconciles to run")
	now := fs.String("now", "", "`time` (RFC 3339) of the state before reconcile 1 (default: the fixed 2026-11-26T12:00:00Z)")
	fs.StringVar(&cfg.output, "o", "text", "output format: text or json")
	fs.StringVar(&cfg.svgPath, "svg", "", "also draw the rollout as an SVG chart to `FILE`")
	fs.BoolVar(&cfg.table, "table", cfg.table, "print the split table instead of simulating (as the split subcommand)")
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
	if *replicas < 0 || *replicas > 100000 {
		return cfg, fmt.Errorf("-replicas %d: want 0 to 100000", *replicas)
	}
	cfg.replicas = int32(*replicas)
	steps, err := parseSteps(cfg.stepsText)
	if err != nil {
		return cfg, err
	}
	cfg.steps = steps
	if *preview < -1 || *preview > 100000 {
		return cfg, fmt.Errorf("-preview-replicas %d: want -1 (unset) or 0 to 100000", *preview)
	}
	if *preview >= 0 {
		n := int32(*preview)
		cfg.previewReplicas = &n
	}
	if *autoSecs < 0 || *autoSecs > 86400 {
		return cfg, fmt.Errorf("-auto-promotion-seconds %d: want 0 to 86400", *autoSecs)
	}
	cfg.autoPromotionSecs = int32(*autoSecs)
	if *abortAt < -1 || *abortAt > len(steps) {
		return cfg, fmt.Errorf("-abort-at %d: want -1 (never) or a step from 0 to %d", *abortAt, len(steps))
	}
	cfg.abortAt = int32(*abortAt)
	if cfg.blueGreen && cfg.abortAt >= 0 {
		return cfg, errors.New("-abort-at counts canary steps; it cannot be used with -blue-green")
	}
	if cfg.blueGreen && cfg.trafficRouting {
		return cfg, errors.New("-traffic-routing is a canary's; it cannot be used with -blue-green")
	}
	if cfg.dynamicStableScale && !cfg.trafficRouting {
		return cfg, errors.New("-dynamic-stable-scale needs -traffic-routing")
	}
	if *promoteAt != "" {
		for _, f := range strings.Split(*promoteAt, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return cfg, fmt.Errorf("-promote-at %q: want reconcile numbers from 1, comma-separated", *promoteAt)
			}
			cfg.promoteAt = append(cfg.promoteAt, n)
		}
	}
	if *scaleAt != "" {
		for _, f := range strings.Split(*scaleAt, ",") {
			n, k, ok := strings.Cut(strings.TrimSpace(f), "@")
			r, err1 := strconv.Atoi(n)
			at, err2 := strconv.Atoi(k)
			if !ok || err1 != nil || err2 != nil || r < 0 || r > 100000 || at < 1 {
				return cfg, fmt.Errorf("-scale %q: want N@K (replicas 0 to 100000 before reconcile K from 1), comma-separated", *scaleAt)
			}
			cfg.scales = append(cfg.scales, scale{replicas: int32(r), at: at})
		}
	}
	if cfg.interval <= 0 || cfg.readyDelay < 0 {
		return cfg, errors.New("-interval must be positive and -ready-delay not negative")
	}
	if cfg.maxSyncs < 1 || cfg.maxSyncs > 100000 {
		return cfg, fmt.Errorf("-max-syncs %d: want 1 to 100000", cfg.maxSyncs)
	}
	if cfg.output != "text" && cfg.output != "json" {
		return cfg, fmt.Errorf("-o %q: want text or json", cfg.output)
	}
	cfg.now = defaultNow
	if *now != "" {
		t, err := manifesttime.Parse(*now)
		if err != nil {
			return cfg, err
		}
		cfg.now, cfg.nowGiven = t, true
	}
	return cfg, nil
}

// parseSteps reads -steps. Values the flag reads but Argo rejects (a
// setWeight of 150) are left for argo.Validate to word.
func parseSteps(s string) ([]argo.CanaryStep, error) {
	var steps []argo.CanaryStep
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		bad := fmt.Errorf("-steps: step %d %q: want a weight (20), pause, pause:DURATION (pause:30s), scale:N, scale:N%% or scale:match", len(steps), f)
		switch {
		case f == "pause":
			steps = append(steps, argo.CanaryStep{Pause: &argo.RolloutPause{}})
		case strings.HasPrefix(f, "pause:"):
			d := strings.TrimPrefix(f, "pause:")
			var v intorpercent.IntOrString
			if n, err := strconv.ParseInt(d, 10, 32); err == nil {
				v = intorpercent.FromInt(int32(n))
			} else if _, err := time.ParseDuration(d); err == nil {
				v = intorpercent.FromString(d)
			} else {
				return nil, bad
			}
			steps = append(steps, argo.CanaryStep{Pause: &argo.RolloutPause{Duration: &v}})
		case f == "scale:match":
			steps = append(steps, argo.CanaryStep{SetCanaryScale: &argo.SetCanaryScale{MatchTrafficWeight: true}})
		case strings.HasPrefix(f, "scale:"):
			v := strings.TrimPrefix(f, "scale:")
			percent := strings.HasSuffix(v, "%")
			n, err := strconv.ParseInt(strings.TrimSuffix(v, "%"), 10, 32)
			if err != nil {
				return nil, bad
			}
			n32 := int32(n)
			if percent {
				steps = append(steps, argo.CanaryStep{SetCanaryScale: &argo.SetCanaryScale{Weight: &n32}})
			} else {
				steps = append(steps, argo.CanaryStep{SetCanaryScale: &argo.SetCanaryScale{Replicas: &n32}})
			}
		default:
			n, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				return nil, bad
			}
			n32 := int32(n)
			steps = append(steps, argo.CanaryStep{SetWeight: &n32})
		}
	}
	return steps, nil
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
		fmt.Fprintf(stderr, "canary: %v\n", err)
		return 2
	}
	ro := rollout(&cfg, cfg.fromImage)
	if errs := argo.Validate(&ro); len(errs) > 0 {
		fmt.Fprintf(stderr, "%v\n", invalid(ro.Name, errs[0]))
		return 1
	}
	if cfg.table {
		if err := writeSplit(stdout, &cfg, &ro); err != nil {
			fmt.Fprintf(stderr, "canary: %v\n", err)
			return 1
		}
		return 0
	}
	res, err := simulate(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "canary: %v\n", err)
		return 1
	}
	if cfg.output == "json" {
		err = writeJSON(stdout, &cfg, res)
	} else {
		err = writeText(stdout, &cfg, res)
	}
	if err == nil && cfg.svgPath != "" {
		err = writeSVGFile(cfg.svgPath, &cfg, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "canary: %v\n", err)
		return 1
	}
	return 0
}

// invalid reports a Rollout Argo rejects as the controller words its
// InvalidSpec condition, which kubectl argo rollouts shows: the first
// error only (createInvalidRolloutCondition, rollout/controller.go).
func invalid(name string, err error) error {
	return fmt.Errorf("The Rollout %q is invalid: %v", name, err)
}
