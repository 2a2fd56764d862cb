// Command rollout simulates a Kubernetes Deployment rollout sync by sync,
// as kube-controller-manager v1.36 runs it, and prints it the way
// `kubectl get rs -w` shows it, with the reason for every step.
//
// With no flags it updates the classic 10-replica nginx Deployment
// (maxSurge 25%, maxUnavailable 25%) from nginx:1.9 to nginx:1.9.3:
//
//	go run ./examples/rollout
//	go run ./examples/rollout -replicas 4 -max-surge 0 -max-unavailable 1
//	go run ./examples/rollout -strategy Recreate
//	go run ./examples/rollout -f deployment.json -o json
//	go run ./examples/rollout -svg rollout.svg
//
// Given a manifest (-f), the summary and the JSON also report the peak
// extra pods, CPU and memory the rollout needs beyond its steady state,
// from the pod template's requests (see examples/internal/capacity).
//
// The state before sync 1 is at "now", and sync k runs k * -interval
// later: --now (RFC 3339), or else, with -f, the latest timestamp in the
// manifest (internal/manifesttime.Fields: creationTimestamp, managedFields'
// time, conditions' lastTransitionTime and lastUpdateTime; not
// deletionTimestamp), or else 2026-01-01T12:00:00Z. The built-in demo
// (no -f) keeps that fixed instant unless --now is given, so that its
// output is the same on every run. The table's second line prints now and
// says where it came from; the JSON holds it as "now".
//
// Run it with -h for every flag. A Deployment the API server would reject
// is reported in the API server's words, with exit status 1; arguments or
// a manifest that cannot be read at all give exit status 2.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the program with the command-line arguments args (without the
// program name) and returns its exit status: 0 on success, 1 for a
// Deployment the API server would reject or a failed simulation or write,
// 2 for arguments or a manifest that cannot be read. It never panics
// (FuzzRun checks).
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "rollout: %v\n", err)
		return 2
	}
	t, err := simulate(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	if err := write(stdout, &cfg, t); err != nil {
		fmt.Fprintf(stderr, "rollout: %v\n", err)
		return 1
	}
	return 0
}

// write prints t in the format cfg asks for, and writes the chart when
// cfg names an SVG file.
func write(stdout io.Writer, cfg *config, t *trace) error {
	var err error
	switch cfg.output {
	case "json":
		err = writeJSON(stdout, t)
	default:
		err = writeTable(stdout, t, cfg.nowFrom)
	}
	if err != nil || cfg.svgPath == "" {
		return err
	}
	return writeSVGFile(cfg.svgPath, t)
}

// writeSVGFile writes the chart of t to the file at path.
func writeSVGFile(path string, t *trace) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeSVG(f, t); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
