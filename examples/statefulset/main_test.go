package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
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
		{name: "default: OrderedReady, partitions 4, 2, 0", args: nil, golden: "default.golden"},
		{name: "Parallel with the gate and maxUnavailable 2", args: []string{"-policy", "Parallel", "-gate", "-max-unavailable", "2", "-partitions", "0"}, golden: "parallel-gate.golden"},
		{name: "maxUnavailable ignored with the gate off", args: []string{"-policy", "Parallel", "-max-unavailable", "40%", "-partitions", "0", "-replicas", "3"}, golden: "gate-off.golden"},
		{name: "the #137409 trap", args: []string{"-policy", "Parallel", "-gate", "-broken", "2", "-max-unavailable", "2", "-partitions", "0", "-max-syncs", "20"}, golden: "trap-137409.golden"},
		{name: "the #137409 fix", args: []string{"-policy", "Parallel", "-gate", "-broken", "2", "-max-unavailable", "2", "-partitions", "0", "-replace-unavailable-first"}, golden: "replace-first.golden"},
		{name: "ordinals from 3, terminating pods", args: []string{"-start", "3", "-replicas", "4", "-partitions", "2,0", "-terminating", "15s", "-min-ready", "5"}, golden: "start.golden"},
		{name: "json", args: []string{"-replicas", "2", "-partitions", "1,0", "-o", "json", "-now", "2026-11-26T09:30:00+01:00"}, golden: "json.golden"},
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

// simulateArgs runs the simulation of args.
func simulateArgs(t *testing.T, args ...string) (*config, *result) {
	t.Helper()
	cfg, err := parseFlags(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	r, err := simulate(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &cfg, r
}

// TestDefaultRunFollowsThePartitions checks the default run against what
// the partition steps ask, independently of the golden file: one update
// deletion per sync, from the highest ordinal down, never below the
// partition; at the end of each step 1, 3 and then 5 pods updated; the
// rollout completes with the current revision moved to the new one.
func TestDefaultRunFollowsThePartitions(t *testing.T) {
	_, r := simulateArgs(t)
	oldRev := r.before.Status.UpdateRevision
	var held []int32
	var deleted []string
	for i, s := range r.trace.Steps {
		var dels int
		for _, a := range s.Actions {
			if a.Kind == statefulset.DeletePod {
				dels++
				deleted = append(deleted, a.Pod)
				if a.Ordinal < s.Partition {
					t.Errorf("sync %d deleted %s, below partition %d", s.Sync, a.Pod, s.Partition)
				}
				if a.Revision != oldRev {
					t.Errorf("sync %d deleted %s at %s, want only pods at the old revision %s", s.Sync, a.Pod, a.Revision, oldRev)
				}
			}
		}
		if dels > 1 {
			t.Errorf("sync %d deleted %d pods; with the gate off, at most 1", s.Sync, dels)
		}
		if i+1 < len(r.trace.Steps) && len(r.trace.Steps[i+1].Events) > 0 || i+1 == len(r.trace.Steps) {
			held = append(held, s.Status.UpdatedReplicas)
		}
	}
	if got, want := strings.Join(deleted, ","), "web-4,web-3,web-2,web-1,web-0"; got != want {
		t.Errorf("deleted %s, want %s", got, want)
	}
	if got, want := held, []int32{1, 3, 5}; !equal(got, want) {
		t.Errorf("steps ended with %v updated pods, want %v", got, want)
	}
	st := r.trace.StatefulSet.Status
	if r.trace.Outcome != statefulset.OutcomeComplete || st.CurrentRevision != st.UpdateRevision || st.CurrentReplicas != 5 {
		t.Errorf("outcome %v with status %+v, want Complete with 5 current pods at the update revision", r.trace.Outcome, st)
	}
}

// TestTrap137409 checks the trap and its fix without the golden files:
// with two old pods broken and maxUnavailable 2 under Parallel, v1.36
// never deletes a pod; the v1.37 rule replaces the broken pods first and
// completes the rollout.
func TestTrap137409(t *testing.T) {
	args := []string{"-policy", "Parallel", "-gate", "-broken", "2", "-max-unavailable", "2", "-partitions", "0", "-max-syncs", "50"}
	_, trap := simulateArgs(t, args...)
	for _, s := range trap.trace.Steps {
		for _, a := range s.Actions {
			if a.Kind == statefulset.DeletePod {
				t.Errorf("v1.36: sync %d deleted %s; the broken pods use up maxUnavailable, want no deletion", s.Sync, a.Pod)
			}
		}
	}
	if trap.trace.Outcome == statefulset.OutcomeComplete {
		t.Errorf("v1.36: outcome Complete, want the update stuck")
	}
	_, fix := simulateArgs(t, append(args, "-replace-unavailable-first")...)
	if fix.trace.Outcome != statefulset.OutcomeComplete {
		t.Errorf("-replace-unavailable-first: outcome %v, want Complete", fix.trace.Outcome)
	}
	first := fix.trace.Steps[0]
	var dels []string
	for _, a := range first.Actions {
		if a.Kind == statefulset.DeletePod {
			dels = append(dels, a.Pod)
		}
	}
	if got, want := strings.Join(dels, ","), "web-4,web-3"; got != want {
		t.Errorf("-replace-unavailable-first: sync 1 deleted %q, want the broken pods %q", got, want)
	}
}

// TestParallelGateKeepsTheBudget checks that with the gate on no sync
// leaves more than maxUnavailable slots unavailable (no pod fails on
// its own in this run).
func TestParallelGateKeepsTheBudget(t *testing.T) {
	_, r := simulateArgs(t, "-policy", "Parallel", "-gate", "-max-unavailable", "2", "-partitions", "0", "-replicas", "7")
	for _, s := range r.trace.Steps {
		var up int32
		for _, p := range s.Pods {
			if p.Available && !p.Terminating {
				up++
			}
		}
		if s.Replicas-up > 2 {
			t.Errorf("sync %d: %d of %d slots unavailable, more than maxUnavailable 2", s.Sync, s.Replicas-up, s.Replicas)
		}
	}
	if r.trace.Outcome != statefulset.OutcomeComplete {
		t.Errorf("outcome %v, want Complete", r.trace.Outcome)
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRunRejectsInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown flag", []string{"-bogus"}, 2, "flag provided but not defined: -bogus"},
		{"argument", []string{"extra"}, 2, `statefulset: unexpected argument "extra"`},
		{"negative replicas", []string{"-replicas", "-1"}, 2, "statefulset: -replicas -1: want 0 to 100000"},
		{"negative start", []string{"-start", "-2"}, 2, "statefulset: -start -2: want 0 to 1000000"},
		{"policy", []string{"-policy", "Ordered"}, 2, `statefulset: -policy "Ordered": want OrderedReady or Parallel`},
		{"min-ready", []string{"-min-ready", "4000"}, 2, "statefulset: -min-ready 4000: want 0 to 3600"},
		{"broken", []string{"-broken", "6"}, 2, "statefulset: -broken 6: want 0 to -replicas (5)"},
		{"interval", []string{"-interval", "0s"}, 2, "statefulset: -interval must be positive and -ready, -terminating not negative"},
		{"max-syncs", []string{"-max-syncs", "0"}, 2, "statefulset: -max-syncs 0: want 1 to 100000"},
		{"output", []string{"-o", "yaml"}, 2, `statefulset: -o "yaml": want table or json`},
		{"fix without gate", []string{"-replace-unavailable-first"}, 2, "statefulset: -replace-unavailable-first changes how maxUnavailable is spent: it needs -gate"},
		{"now", []string{"-now", "yesterday"}, 2, `statefulset: -now "yesterday": want an RFC 3339 time such as 2026-11-26T09:30:00Z`},
		{"partition text", []string{"-partitions", "4,two"}, 2, `statefulset: -partitions: "two" is not a partition: want whole numbers from 0, such as 4,2,0`},
		{"negative partition", []string{"-partitions", "-1"}, 2, `statefulset: -partitions: "-1" is not a partition: want whole numbers from 0, such as 4,2,0`},
		{"maxUnavailable 0", []string{"-gate", "-max-unavailable", "0"}, 1,
			`The StatefulSet "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0`},
		{"maxUnavailable text", []string{"-gate", "-max-unavailable", "half"}, 1,
			`The StatefulSet "web" is invalid: [spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "half": cannot be 0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != tt.code || stdout != "" {
				t.Errorf("run(%q) = %d with stdout %q, want %d and no stdout", tt.args, code, stdout, tt.code)
			}
			if tt.code == 2 && tt.name == "unknown flag" {
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
	if code != 0 || stdout != "" || !strings.Contains(stderr, "-replace-unavailable-first") || !strings.Contains(stderr, "MaxUnavailableStatefulSet") {
		t.Errorf("-h: %d, stdout %q, stderr %q; want 0 and the flags on stderr", code, stdout, stderr)
	}
}

// TestSVG checks the chart of the default run against its golden file,
// and that it is well-formed XML with a line per revision.
func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "statefulset.svg")
	if code, _, stderr := runArgs(t, "-svg", path); code != 0 {
		t.Fatalf("run -svg = %d, stderr %q", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chart.Groups(b); err != nil {
		t.Fatalf("the SVG is not well-formed XML: %v", err)
	}
	if n := strings.Count(string(b), `data-revision="`); n < 2 {
		t.Errorf("the SVG has %d revision series, want 2", n)
	}
	golden.Check(t, "default.svg", b)
}

// TestJSONDecodes checks that -o json is one JSON object whose steps
// decode back into statefulset.Step values.
func TestJSONDecodes(t *testing.T) {
	code, stdout, _ := runArgs(t, "-o", "json")
	if code != 0 {
		t.Fatalf("run -o json = %d", code)
	}
	var out struct {
		Steps   []statefulset.Step  `json:"steps"`
		Outcome statefulset.Outcome `json:"outcome"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Steps) != 13 || out.Outcome != statefulset.OutcomeComplete {
		t.Errorf("decoded %d steps, outcome %v; want the table's 13 and Complete", len(out.Steps), out.Outcome)
	}
}
