package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/internal/capacity"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// config is everything one run simulates and prints: the deployment as it
// runs before the update, the update, the cluster's behaviour and the
// scripted events.
type config struct {
	name                    string
	labels                  map[string]string
	replicas                int32
	strategy                string
	maxSurge                *intOrPercent // nil: not set (the apps/v1 default for RollingUpdate)
	maxUnavailable          *intOrPercent // nil: not set
	minReadySeconds         int32
	progressDeadlineSeconds *int32
	revisionHistoryLimit    *int32
	paused                  bool
	containers              []cluster.Container // the first container's image is replaced by fromImage before the update
	pod                     *capacity.Pod       // the template's requests; nil without a manifest
	fromImage, toImage      string

	interval         time.Duration
	readyDelay       time.Duration
	neverReady       int32
	terminating      time.Duration
	terminatingAware bool
	maxSyncs         int

	scales     []scaleEvent
	pauseAt    int
	resumeAt   int
	rollbackAt int
	rollbackTo int64

	output   string
	svgPath  string
	manifest string

	// now is the time of the state before sync 1 (sync k runs k *
	// interval later), and nowFrom says where it came from, as the
	// table's second line prints it.
	now     time.Time
	nowFrom string
}

// scaleEvent changes spec.replicas to replicas before sync step at.
type scaleEvent struct {
	replicas int32
	at       int
}

// defaultConfig is the classic example: 10 nginx pods with the apps/v1
// default strategy (maxSurge and maxUnavailable 25%), updated from
// nginx:1.9 to nginx:1.9.3, with a sync every 10 s and pods ready 10 s
// after they are created, so that pods created after one sync are
// available two syncs later, the pace of the canonical trace.
func defaultConfig() config {
	return config{
		name:       "nginx-deployment",
		labels:     map[string]string{"app": "nginx"},
		replicas:   10,
		strategy:   "RollingUpdate",
		containers: []cluster.Container{{Name: "nginx", Image: "nginx:1.9.3"}},
		fromImage:  "nginx:1.9",
		toImage:    "nginx:1.9.3",
		interval:   10 * time.Second,
		readyDelay: 10 * time.Second,
		maxSyncs:   100,
		output:     "table",
		now:        demoNow,
		nowFrom:    demoNowFrom,
	}
}

// demoNow is "now" for the built-in demo, and for a manifest that holds
// no timestamp, unless --now is given. The program never reads the
// clock: a fixed instant keeps the default output reproducible.
var demoNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// demoNowFrom and noTimestampFrom say where now came from when it is
// demoNow.
const (
	demoNowFrom     = "fixed for the built-in demo; set one with --now"
	noTimestampFrom = "the manifest holds no timestamp; set one with --now"
)

// errHelp is returned by parseFlags after it printed the usage for -h.
var errHelp = errors.New("help requested")

// parseFlags reads args into a config: the defaults, then the manifest
// named by -f, then every flag given explicitly, in that order. It prints
// only the usage, for -h, to stderr; every other problem is returned.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("rollout", flag.ContinueOnError)
	// The flag package's own messages are dropped: parseFlags returns
	// the error, and run prints it once, with the usage only for -h.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}

	var replicas int32Flag = 10
	surge := intOrPercent(written(nil, rollout.DefaultMaxSurge()))
	unavailable := intOrPercent(written(nil, rollout.DefaultMaxUnavailable()))
	var minReady, neverReady int32Flag
	fs.Var(&replicas, "replicas", "spec.replicas `R`")
	fs.TextVar(&surge, "max-surge", surge, "maxSurge: pods above R during the update, a count or a percent of R")
	fs.TextVar(&unavailable, "max-unavailable", unavailable, "maxUnavailable: pods below R during the update, a count or a percent of R")
	fs.StringVar(&cfg.strategy, "strategy", cfg.strategy, "RollingUpdate or Recreate")
	fs.Var(&minReady, "min-ready-seconds", "spec.minReadySeconds: how long a ready pod must stay ready to be available")
	fs.DurationVar(&cfg.interval, "interval", cfg.interval, "simulated time between two syncs of the deployment controller")
	fs.DurationVar(&cfg.readyDelay, "ready-delay", cfg.readyDelay, "how long a new pod takes to become ready")
	fs.Var(&neverReady, "never-ready", "how many of the first pods of each new ReplicaSet never become ready")
	fs.DurationVar(&cfg.terminating, "terminating", cfg.terminating, "how long a deleted pod stays terminating")
	fs.BoolVar(&cfg.terminatingAware, "terminating-aware", false, "count terminating pods against maxSurge (beyond upstream, off by default)")
	fs.Func("scale", "scale to `N@K`: spec.replicas becomes N before sync K (repeatable)", func(s string) error {
		e, err := parseScale(s)
		cfg.scales = append(cfg.scales, e)
		return err
	})
	fs.IntVar(&cfg.pauseAt, "pause-at", 0, "pause the deployment before sync `K` (0: never)")
	fs.IntVar(&cfg.resumeAt, "resume-at", 0, "resume the deployment before sync `K` (0: never)")
	fs.IntVar(&cfg.rollbackAt, "rollback-at", 0, "roll back before sync `K` (0: never)")
	fs.Int64Var(&cfg.rollbackTo, "rollback-to", 0, "the `revision` -rollback-at returns to (0: the previous one)")
	fs.StringVar(&cfg.manifest, "f", "", "read the Deployment from an apps/v1 manifest in JSON `file`; its first container's image is the new image, and its resource requests give the capacity the rollout needs")
	fs.StringVar(&cfg.fromImage, "image-from", cfg.fromImage, "the first container's image before the update")
	fs.StringVar(&cfg.toImage, "image-to", cfg.toImage, "the first container's image after the update")
	fs.IntVar(&cfg.maxSyncs, "max-syncs", cfg.maxSyncs, "stop after this many syncs")
	fs.StringVar(&cfg.output, "o", cfg.output, "output format: table or json")
	fs.StringVar(&cfg.svgPath, "svg", "", "also write a chart of the rollout to `file` (SVG)")
	var now string
	fs.StringVar(&now, "now", "", "`time` (RFC 3339) of the state before sync 1; sync k runs k * -interval later. Default: with -f, the latest timestamp in the manifest ("+
		strings.Join(manifesttime.Fields, ", ")+"), else "+demoNow.Format(time.RFC3339)+"; without -f, the built-in demo keeps "+demoNow.Format(time.RFC3339)+" so that its output is reproducible")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintf(stderr, "usage: go run ./examples/rollout [flags]\n\n"+
				"Simulates a Deployment rollout sync by sync, as kube-controller-manager v1.36\n"+
				"runs it, and prints it like `kubectl get rs -w`.\n\nflags:\n")
			fs.PrintDefaults()
			return cfg, errHelp
		}
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["now"] {
		t, err := manifesttime.Parse(now)
		if err != nil {
			return cfg, err
		}
		cfg.now, cfg.nowFrom = t, "--now"
	}
	if cfg.manifest != "" {
		if err := cfg.applyManifest(cfg.manifest, set); err != nil {
			return cfg, err
		}
	}
	if set["replicas"] {
		cfg.replicas = int32(replicas)
	}
	if set["max-surge"] {
		cfg.maxSurge = &surge
	}
	if set["max-unavailable"] {
		cfg.maxUnavailable = &unavailable
	}
	if set["min-ready-seconds"] {
		cfg.minReadySeconds = int32(minReady)
	}
	cfg.neverReady = int32(neverReady)
	if set["image-to"] || cfg.manifest == "" {
		cfg.containers[0].Image = cfg.toImage
	}
	cfg.toImage = cfg.containers[0].Image
	return cfg, cfg.check()
}

// applyManifest reads the Deployment in the file at path into cfg, and
// takes now from the latest timestamp it holds (manifesttime.Fields), or
// demoNow when it holds none. Flags in set were given explicitly and win
// over the manifest, so they are left alone here.
func (cfg *config) applyManifest(path string, set map[string]bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := readManifest(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !set["now"] {
		t, ok, err := manifesttime.Latest(json.RawMessage(b))
		switch {
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		case ok:
			cfg.now, cfg.nowFrom = t, "the latest timestamp in the manifest"
		default:
			cfg.now, cfg.nowFrom = demoNow, noTimestampFrom
		}
	}
	cfg.name = m.Metadata.Name
	cfg.labels = m.Spec.Template.Metadata.Labels
	cfg.replicas = 1 // the apps/v1 default when spec.replicas is absent
	if m.Spec.Replicas != nil {
		cfg.replicas = *m.Spec.Replicas
	}
	if !set["strategy"] {
		cfg.strategy = m.Spec.Strategy.Type
		if cfg.strategy == "" {
			cfg.strategy = "RollingUpdate"
		}
	}
	if ru := m.Spec.Strategy.RollingUpdate; ru != nil {
		cfg.maxSurge, cfg.maxUnavailable = ru.MaxSurge, ru.MaxUnavailable
	}
	cfg.minReadySeconds = m.Spec.MinReadySeconds
	cfg.paused = m.Spec.Paused
	cfg.progressDeadlineSeconds = m.Spec.ProgressDeadlineSeconds
	cfg.revisionHistoryLimit = m.Spec.RevisionHistoryLimit
	cfg.containers = m.Spec.Template.Spec.clusterSpec().Containers
	if cfg.pod, err = m.Spec.Template.Spec.pod(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// check rejects flag values that the simulation cannot use. Values the
// API server validates (replicas, the strategy, maxSurge, ...) are left
// to rollout.Validate, so that their errors read as the API server's.
func (cfg *config) check() error {
	switch {
	case cfg.output != "table" && cfg.output != "json":
		return fmt.Errorf("invalid value %q for flag -o: want table or json", cfg.output)
	case cfg.maxSyncs < 1:
		return fmt.Errorf("invalid value %d for flag -max-syncs: want at least 1", cfg.maxSyncs)
	case cfg.neverReady < 0:
		return fmt.Errorf("invalid value %d for flag -never-ready: want at least 0", cfg.neverReady)
	case cfg.interval <= 0:
		return fmt.Errorf("invalid value %v for flag -interval: want a positive duration", cfg.interval)
	case cfg.readyDelay < 0 || cfg.terminating < 0:
		return fmt.Errorf("-ready-delay and -terminating must not be negative")
	case cfg.pauseAt < 0 || cfg.resumeAt < 0 || cfg.rollbackAt < 0:
		return fmt.Errorf("-pause-at, -resume-at and -rollback-at take a sync step >= 1, or 0 for never")
	}
	return nil
}

// parseScale reads a -scale value "N@K".
func parseScale(s string) (scaleEvent, error) {
	n, k, ok := strings.Cut(s, "@")
	replicas, err1 := strconv.ParseInt(n, 10, 32)
	at, err2 := strconv.Atoi(k)
	if !ok || err1 != nil || err2 != nil || at < 1 {
		return scaleEvent{}, fmt.Errorf("want REPLICAS@STEP with STEP >= 1, such as 20@3")
	}
	return scaleEvent{replicas: int32(replicas), at: at}, nil
}

// int32Flag is a flag.Value holding an int32; it accepts negative
// numbers, which validation then rejects in the API server's words.
type int32Flag int32

func (f *int32Flag) String() string { return strconv.Itoa(int(*f)) }

func (f *int32Flag) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return errors.New("want a whole number within int32")
	}
	*f = int32Flag(n)
	return nil
}
