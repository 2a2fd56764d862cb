package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/internal/brtable"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{name: "default: CloneSet then Deployment, 20% -> 50% -> 100%", args: nil, golden: "default.golden"},
		{name: "the R-1 guard: 95% of 10 is 9 new pods on a Deployment", args: []string{"-workload", "deployment", "-batches", "50%,95%,100%"}, golden: "deployment-r1-guard.golden"},
		{name: "the same steps on a CloneSet update 10 at 95%", args: []string{"-workload", "cloneset", "-batches", "50%,95%,100%", "-pause", "0s"}, golden: "cloneset-95.golden"},
		{name: "rollback in batches with 5 pods already at the target", args: []string{"-workload", "cloneset", "-rollback-no-need-update", "5"}, golden: "rollback.golden"},
		{name: "count batches, failure threshold 1, slow pods", args: []string{"-workload", "cloneset", "-batches", "2,5,10", "-failure-threshold", "1", "-ready-delay", "20s", "-pause", "10s"}, golden: "threshold.golden"},
		{name: "StatefulSet: the plan only", args: []string{"-workload", "statefulset", "-replicas", "7"}, golden: "statefulset.golden"},
		{name: "json", args: []string{"-workload", "deployment", "-replicas", "4", "-batches", "50%,100%", "-o", "json", "-now", "2026-11-26T09:30:00+01:00"}, golden: "json.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("run(%q) = %d with stderr %q, want 0 and no stderr", tt.args, code, stderr)
			}
			golden.Check(t, tt.golden, []byte(stdout))
		})
	}
}

// simulateArgs runs the simulation of args for one workload.
func simulateArgs(t *testing.T, kind batchrelease.Kind, args ...string) *result {
	t.Helper()
	cfg, err := parseFlags(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	r, err := simulate(&cfg, kind)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readyAt returns, per batch, the updated and updated-ready pods of the
// first sync that found the batch ready, and checks that batches never
// go back.
func readyAt(t *testing.T, r *result) (updated, ready []int32) {
	t.Helper()
	last := int32(0)
	for _, s := range r.trace.Steps {
		if s.Batch < last {
			t.Errorf("sync %d: batch went back from %d to %d", s.Sync, last, s.Batch)
		}
		last = s.Batch
		if s.Phase == batchrelease.Progressing && s.State == batchrelease.Ready && int(s.Batch) == len(updated) {
			updated, ready = append(updated, s.Updated), append(ready, s.UpdatedReady)
		}
	}
	return updated, ready
}

// TestBatchesEndWherePlanned checks the runs without the golden files:
// each batch is found ready with exactly the pods its row plans updated
// and ready, the planned numbers are CalculateBatchReplicas' (for a
// Deployment NewRSReplicasLimit's, R-1 for 95% of 10), the partition
// written is the pods kept old for a CloneSet and the pods made new for
// a Deployment, and every release completes.
func TestBatchesEndWherePlanned(t *testing.T) {
	tests := []struct {
		name    string
		kind    batchrelease.Kind
		args    []string
		planned []int32
		desired []int32
		written []string
	}{
		{"CloneSet 20/50/100", batchrelease.CloneSet, nil, []int32{2, 5, 10}, []int32{2, 5, 10}, []string{"partition 80%", "partition 50%", "partition 0%"}},
		{"Deployment 20/50/100", batchrelease.Deployment, nil, []int32{2, 5, 10}, []int32{2, 5, 10},
			[]string{"partition 20% (new RS limit 2)", "partition 50% (new RS limit 5)", "partition 100% (new RS limit 10)"}},
		{"CloneSet 95%", batchrelease.CloneSet, []string{"-batches", "50%,95%,100%"}, []int32{5, 10, 10}, []int32{5, 10, 10}, []string{"partition 50%", "partition 0%", "partition 0% (already)"}},
		{"Deployment 95%: the R-1 guard", batchrelease.Deployment, []string{"-batches", "50%,95%,100%"}, []int32{5, 9, 10}, []int32{5, 9, 10},
			[]string{"partition 50% (new RS limit 5)", "partition 95% (new RS limit 9)", "partition 100% (new RS limit 10)"}},
		{"Deployment of 1 replica: no R-1 guard", batchrelease.Deployment, []string{"-replicas", "1", "-batches", "50%,100%"}, []int32{1, 1}, []int32{1, 1},
			[]string{"partition 50% (new RS limit 1)", "partition 100% (new RS limit 1)"}},
		{"CloneSet 7 replicas, percent round trip", batchrelease.CloneSet, []string{"-replicas", "7", "-batches", "30%,60%,100%"}, []int32{3, 5, 7}, []int32{3, 5, 7},
			[]string{"partition 57%", "partition 28%", "partition 0%"}},
		{"CloneSet counts", batchrelease.CloneSet, []string{"-batches", "2,5,10"}, []int32{2, 5, 10}, []int32{2, 5, 10}, []string{"partition 8", "partition 5", "partition 0"}},
		{"CloneSet rollback, 5 at the target", batchrelease.CloneSet, []string{"-workload", "cloneset", "-rollback-no-need-update", "5"}, []int32{2, 5, 10}, []int32{6, 8, 10},
			[]string{"partition 40%", "partition 20%", "partition 0%"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := simulateArgs(t, tt.kind, tt.args...)
			if r.trace.Outcome != batchrelease.OutcomeComplete {
				t.Fatalf("outcome %v after %d syncs, want OutcomeComplete", r.trace.Outcome, r.trace.Syncs)
			}
			var planned, desired []int32
			var written []string
			for _, row := range r.rows {
				planned, desired, written = append(planned, row.Planned), append(desired, row.Desired), append(written, row.Written)
				if row.State != "Ready" || row.Ready == nil {
					t.Errorf("batch %d: state %q, ready %v; want Ready", row.Batch, row.State, row.Ready)
				}
			}
			if fmt.Sprint(planned) != fmt.Sprint(tt.planned) || fmt.Sprint(desired) != fmt.Sprint(tt.desired) {
				t.Errorf("planned %v, desired %v; want %v, %v", planned, desired, tt.planned, tt.desired)
			}
			if strings.Join(written, "|") != strings.Join(tt.written, "|") {
				t.Errorf("written %q, want %q", written, tt.written)
			}
			updated, ready := readyAt(t, r)
			if fmt.Sprint(updated) != fmt.Sprint(tt.desired) || fmt.Sprint(ready) != fmt.Sprint(tt.desired) {
				t.Errorf("batches found ready with %v updated, %v ready; want %v", updated, ready, tt.desired)
			}
		})
	}
}

// TestFailureThresholdLetsUnreadyPodsThrough checks failureThreshold 1
// with pods slow to become ready: batches 1 and 2 are found ready with
// one updated pod still unready, and without the threshold no batch is
// ever found ready with an unready updated pod.
func TestFailureThresholdLetsUnreadyPodsThrough(t *testing.T) {
	args := []string{"-batches", "2,5,10", "-ready-delay", "20s", "-pause", "10s"}
	r := simulateArgs(t, batchrelease.CloneSet, append(args, "-failure-threshold", "1")...)
	updated, ready := readyAt(t, r)
	if fmt.Sprint(updated) != "[2 5 10]" || fmt.Sprint(ready) != "[2 4 9]" {
		t.Errorf("failureThreshold 1: batches ready with %v updated, %v ready; want [2 5 10], [2 4 9]", updated, ready)
	}
	r = simulateArgs(t, batchrelease.CloneSet, args...)
	updated, ready = readyAt(t, r)
	if fmt.Sprint(updated) != "[2 5 10]" || fmt.Sprint(ready) != "[2 5 10]" {
		t.Errorf("no failureThreshold: batches ready with %v updated, %v ready; want every updated pod ready", updated, ready)
	}
}

// TestStatefulSetPlan checks the StatefulSet plan: partition R - planned
// for each batch.
func TestStatefulSetPlan(t *testing.T) {
	r := simulateArgs(t, batchrelease.StatefulSet, "-replicas", "7")
	var got []string
	for _, row := range r.rows {
		got = append(got, fmt.Sprintf("%s:%d:%s", row.CanaryReplicas, row.Planned, row.Written))
	}
	if want := "20%:2:partition 5|50%:4:partition 3|100%:7:partition 0"; strings.Join(got, "|") != want {
		t.Errorf("StatefulSet plan %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestRunRejectsInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown flag", []string{"-bogus"}, 2, "flag provided but not defined: -bogus"},
		{"argument", []string{"extra"}, 2, `batchrelease: unexpected argument "extra"`},
		{"replicas 0", []string{"-replicas", "0"}, 2, "batchrelease: -replicas 0: want 1 to 10000"},
		{"replicas too many", []string{"-replicas", "10001"}, 2, "batchrelease: -replicas 10001: want 1 to 10000"},
		{"workload", []string{"-workload", "daemonset"}, 2, `batchrelease: -workload "daemonset": want cloneset, deployment or statefulset, comma-separated`},
		{"workload twice", []string{"-workload", "cloneset,cloneset"}, 2, `batchrelease: -workload "cloneset,cloneset": cloneset given twice`},
		{"failure threshold text", []string{"-failure-threshold", "half"}, 2, `batchrelease: -failure-threshold "half": want a count (1) or a percent of the updated pods from 0% to 100% (20%)`},
		{"failure threshold over 100%", []string{"-failure-threshold", "120%"}, 2, `batchrelease: -failure-threshold "120%": want a count (1) or a percent of the updated pods from 0% to 100% (20%)`},
		{"rollback negative", []string{"-rollback-no-need-update", "-1"}, 2, "batchrelease: -rollback-no-need-update -1: want 0 to -replicas (10)"},
		{"rollback too many", []string{"-rollback-no-need-update", "11"}, 2, "batchrelease: -rollback-no-need-update 11: want 0 to -replicas (10)"},
		{"rollback on a Deployment", []string{"-rollback-no-need-update", "3"}, 2, "batchrelease: -rollback-no-need-update rolls a CloneSet back in batches: use it with -workload cloneset"},
		{"ready delay", []string{"-ready-delay", "-1s"}, 2, "batchrelease: -interval must be positive and -ready-delay not negative"},
		{"interval", []string{"-interval", "0s"}, 2, "batchrelease: -interval must be positive and -ready-delay not negative"},
		{"pause fraction", []string{"-pause", "1500ms"}, 2, "batchrelease: -pause 1.5s: want whole seconds from 0 to 24h (pause.duration is in seconds)"},
		{"pause negative", []string{"-pause", "-5s"}, 2, "batchrelease: -pause -5s: want whole seconds from 0 to 24h (pause.duration is in seconds)"},
		{"max-syncs", []string{"-max-syncs", "0"}, 2, "batchrelease: -max-syncs 0: want 1 to 100000"},
		{"output", []string{"-o", "yaml"}, 2, `batchrelease: -o "yaml": want text or json`},
		{"now", []string{"-now", "noon"}, 2, `batchrelease: -now "noon": want an RFC 3339 time such as 2026-11-26T09:30:00Z`},
		{"decreasing steps", []string{"-batches", "50%,20%"}, 1,
			`admission webhook "vrollout.kb.io" denied the request: Spec.Strategy.Canary.Steps.CanaryReplicas: Invalid value: Steps.CanaryReplicas must be a non decreasing sequence`},
		{"a step that is no percent", []string{"-batches", "5,abc"}, 1,
			`admission webhook "vrollout.kb.io" denied the request: Spec.Strategy.Canary.Steps[1].Replicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"abc"}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
		{"a step of 0", []string{"-batches", "0,100%"}, 1,
			`admission webhook "vrollout.kb.io" denied the request: Spec.Strategy.Canary.Steps[0].Replicas: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
		{"svg of the plan only", []string{"-workload", "statefulset", "-svg", filepath.Join(os.TempDir(), "never.svg")}, 1,
			"batchrelease: -svg: no simulation to draw (a StatefulSet prints the plan only)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != tt.code {
				t.Errorf("run(%q) = %d, want %d", tt.args, code, tt.code)
			}
			if tt.code == 2 && stdout != "" {
				t.Errorf("run(%q) printed %q on stdout, want nothing", tt.args, stdout)
			}
			if tt.name == "unknown flag" {
				if first, _, _ := strings.Cut(stderr, "\n"); first != tt.stderr {
					t.Errorf("stderr begins %q, want %q", first, tt.stderr)
				}
				return
			}
			if stderr != tt.stderr+"\n" {
				t.Errorf("stderr = %q, want %q", stderr, tt.stderr+"\n")
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "-h")
	for _, want := range []string{"-rollback-no-need-update", "-failure-threshold", "The clock is fixed: the run starts at\n2026-11-26T12:00:00Z unless -now"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h does not say %q:\n%s", want, stderr)
		}
	}
	if code != 0 || stdout != "" {
		t.Errorf("-h: %d, stdout %q; want 0 and the usage on stderr", code, stdout)
	}
}

// TestSVG checks the charts of the default run: one file per workload,
// well-formed XML with the old, new and desired series, the CloneSet's
// against its golden file.
func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "release.svg")
	if code, _, stderr := runArgs(t, "-svg", path); code != 0 {
		t.Fatalf("run -svg = %d, stderr %q", code, stderr)
	}
	for _, kind := range []string{"cloneset", "deployment"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(path), "release-"+kind+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chart.Groups(b); err != nil {
			t.Fatalf("%s: the SVG is not well-formed XML: %v", kind, err)
		}
		if n := strings.Count(string(b), `data-series="`); n != 3 {
			t.Errorf("%s: the SVG has %d series, want 3 (old, new, desired)", kind, n)
		}
		if kind == "cloneset" {
			golden.Check(t, "cloneset.svg", b)
		}
	}
	one := filepath.Join(t.TempDir(), "one.svg")
	if code, _, stderr := runArgs(t, "-workload", "deployment", "-svg", one); code != 0 {
		t.Fatalf("run -workload deployment -svg = %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(one); err != nil {
		t.Errorf("with one workload the chart goes to -svg FILE itself: %v", err)
	}
}

// TestJSONDecodes checks that -o json is one JSON object whose steps
// decode back into batchrelease.Step values and whose batches match the
// text table's.
func TestJSONDecodes(t *testing.T) {
	code, stdout, _ := runArgs(t, "-o", "json")
	if code != 0 {
		t.Fatalf("run -o json = %d", code)
	}
	var out struct {
		Runs []struct {
			Workload string               `json:"workload"`
			Batches  []brtable.Row        `json:"batches"`
			Steps    []batchrelease.Step  `json:"steps"`
			Outcome  batchrelease.Outcome `json:"outcome"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Runs) != 2 || out.Runs[0].Workload != "CloneSet" || out.Runs[1].Workload != "Deployment" {
		t.Fatalf("decoded %d runs, want CloneSet and Deployment", len(out.Runs))
	}
	for _, r := range out.Runs {
		if r.Outcome != batchrelease.OutcomeComplete || len(r.Steps) == 0 || len(r.Batches) != 3 || r.Batches[2].Planned != 10 {
			t.Errorf("%s: outcome %v, %d steps, batches %+v; want Complete, steps, 3 batches ending at 10", r.Workload, r.Outcome, len(r.Steps), r.Batches)
		}
	}
}

// TestReadmeExcerpt checks that the output README.md shows in its
// kruise-rollout section is what `-workload deployment` prints from its
// batch table on, line for line, so that the excerpt cannot drift.
func TestReadmeExcerpt(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## kruise-rollout batch release\n")
	if !ok {
		t.Fatal("README.md has no kruise-rollout batch release section")
	}
	_, block, ok := strings.Cut(section, "\n```\nBATCH ")
	if !ok {
		t.Fatal("the section has no output block starting with the batch table")
	}
	block, _, _ = strings.Cut("BATCH "+block, "```\n")
	_, stdout, _ := runArgs(t, "-workload", "deployment")
	i := strings.Index(stdout, "BATCH ")
	if i < 0 || !strings.HasPrefix(stdout[i:], block) {
		t.Errorf("README.md's excerpt is not what -workload deployment prints from its batch table on:\n%s", block)
	}
}
