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
	"github.com/rolloutmath/rolloutmath/rollout/argo"
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
		{name: "default: 10 replicas, 20 -> pause 30s -> 50 -> pause 30s -> 100", args: nil, golden: "default.golden"},
		{name: "traffic routing with dynamicStableScale", args: []string{"-traffic-routing", "-dynamic-stable-scale"}, golden: "traffic-routing.golden"},
		{name: "abort at step 2", args: []string{"-abort-at", "2"}, golden: "abort.golden"},
		{name: "blue-green, preview 2, promoted by hand", args: []string{"-blue-green", "-replicas", "4", "-preview-replicas", "2", "-auto-promotion=false", "-promote-at", "8"}, golden: "bluegreen.golden"},
		{name: "3 replicas, setWeight 20: 1 canary and 3 stable", args: []string{"-replicas", "3", "-steps", "20,pause,100", "-promote-at", "8", "-ready-delay", "20s"}, golden: "three-replicas.golden"},
		// An HPA doubles the Rollout at step 3 (the second pause): the
		// split follows the new size.
		{name: "resized mid-rollout", args: []string{"-scale", "20@15"}, golden: "scale.golden"},
		{name: "json", args: []string{"-replicas", "3", "-steps", "20,100", "-o", "json", "-now", "2026-11-26T09:30:00Z"}, golden: "three-replicas.json.golden"},
		{name: "split table, 3 replicas", args: []string{"split", "-replicas", "3"}, golden: "split-3.golden"},
		{name: "split table, 10 replicas, traffic routing", args: []string{"-table", "-traffic-routing", "-dynamic-stable-scale"}, golden: "split-10-routed.golden"},
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

// TestDefaultRunFollowsTheSteps checks the default run against what the
// steps ask, independently of the golden file: each step holds the
// split its weight asks of 10 replicas (2/8, 5/5, 10/0), the pauses last
// at least 30 s, no reconcile leaves more than 10 + maxSurge 3 pods or
// fewer than 10 - maxUnavailable 2 available, and the rollout completes.
func TestDefaultRunFollowsTheSteps(t *testing.T) {
	cfg, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	res, err := simulate(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	held := map[int32][2]int32{} // step index -> canary, stable pods when the step was left
	lastStep := int32(-1)
	var pausedAt = map[int32]int{}
	for _, s := range res.trace.Steps {
		var pods, avail, canary, stable int32
		for _, rs := range s.ReplicaSets {
			pods += rs.Pods
			avail += rs.Available
			if len(rs.Roles) > 0 && rs.Roles[0] == "canary" {
				canary = rs.Available
			}
			if len(rs.Roles) > 0 && rs.Roles[0] == "stable" {
				stable = rs.Available
			}
		}
		if pods > 13 {
			t.Errorf("reconcile %d: %d pods, more than 10 + maxSurge 3", s.Sync, pods)
		}
		if avail < 8 {
			t.Errorf("reconcile %d: %d available pods, fewer than 10 - maxUnavailable 2", s.Sync, avail)
		}
		if s.Sync > 1 && s.StepIndex != lastStep {
			held[s.StepIndex] = [2]int32{canary, stable}
			lastStep = s.StepIndex
		}
		if len(s.Status.PauseConditions) > 0 {
			if _, ok := pausedAt[s.StepIndex]; !ok {
				pausedAt[s.StepIndex] = s.Sync
			}
		}
	}
	// The step index moves on only once the step before it is done: the
	// split held when steps 1, 3 and 5 begin is the one the setWeight
	// before them asked for.
	want := map[int32][2]int32{1: {2, 8}, 3: {5, 5}, 5: {10, 0}}
	for i, w := range want {
		if held[i] != w {
			t.Errorf("entering step %d: canary/stable available %v, want %v", i, held[i], w)
		}
	}
	for _, i := range []int32{1, 3} {
		k, ok := pausedAt[i]
		if !ok {
			t.Errorf("step %d (pause: 30s) never paused", i)
			continue
		}
		var left int
		for _, s := range res.trace.Steps {
			if s.StepIndex == i+1 && s.Sync > k {
				left = s.Sync
				break
			}
		}
		if d := (left - k) * 10; left == 0 || d < 30 {
			t.Errorf("step %d paused at reconcile %d and moved on at reconcile %d: %d s, want at least 30 s", i, k, left, d)
		}
	}
	if res.trace.Outcome != argo.OutcomeComplete {
		t.Errorf("outcome %v, want Complete", res.trace.Outcome)
	}
}

// TestSplitTableAnswersTheQuestion pins the row users ask about: at 3
// replicas with the default maxSurge, setWeight 20 targets 1 canary and
// 3 stable pods.
func TestSplitTableAnswersTheQuestion(t *testing.T) {
	code, stdout, stderr := runArgs(t, "split", "-replicas", "3")
	if code != 0 {
		t.Fatalf("split = %d, stderr %q", code, stderr)
	}
	var row string
	for _, l := range strings.Split(stdout, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "20" {
			row = strings.Join(f, " ")
		}
	}
	if row != "20 1 3 4 25.0%" {
		t.Errorf("weight 20 row = %q, want %q", row, "20 1 3 4 25.0%")
	}
	if n := strings.Count(stdout, "\n"); n != 4+1+1+101 {
		t.Errorf("the table has %d lines, want 107: the heading, a blank, the header and a row per weight 0..100", n)
	}
}

func TestRunRejectsInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"weight above 100", []string{"-steps", "150"}, 1,
			`The Rollout "demo" is invalid: spec.strategy.steps[0].setWeight: Invalid value: 150: SetWeight needs to be between 0 and 100` + "\n"},
		{"both bounds zero", []string{"-max-surge", "0", "-max-unavailable", "0"}, 1,
			`The Rollout "demo" is invalid: spec.strategy.maxSurge: Invalid value: 0: MaxSurge and MaxUnavailable both can not be zero` + "\n"},
		{"setCanaryScale without traffic routing", []string{"-steps", "scale:2"}, 1,
			`The Rollout "demo" is invalid: spec.strategy.trafficRouting: Required value: SetCanaryScale requires TrafficRouting to be set` + "\n"},
		{"negative pause", []string{"-steps", "pause:-5"}, 1,
			`The Rollout "demo" is invalid: spec.strategy.steps[0].pause.duration: Invalid value: -5: Duration needs to be greater than 0` + "\n"},
		{"split of a blue-green", []string{"split", "-blue-green"}, 1, "canary: the split table is a canary's; drop -blue-green\n"},
		{"abort at a step never reached", []string{"-steps", "20,pause,100", "-abort-at", "2"}, 1,
			"canary: -abort-at 2: the rollout never reaches step 2 (Paused after 7 reconciles)\n"},
		{"unreadable step", []string{"-steps", "20,abc"}, 2,
			`canary: -steps: step 1 "abc": want a weight (20), pause, pause:DURATION (pause:30s), scale:N, scale:N% or scale:match` + "\n"},
		{"unknown output", []string{"-o", "yaml"}, 2, "canary: -o \"yaml\": want text or json\n"},
		{"abort beyond the steps", []string{"-abort-at", "9"}, 2, "canary: -abort-at 9: want -1 (never) or a step from 0 to 5\n"},
		{"abort with blue-green", []string{"-blue-green", "-abort-at", "1"}, 2, "canary: -abort-at counts canary steps; it cannot be used with -blue-green\n"},
		{"dynamic stable scale alone", []string{"-dynamic-stable-scale"}, 2, "canary: -dynamic-stable-scale needs -traffic-routing\n"},
		{"blue-green with traffic routing", []string{"-blue-green", "-traffic-routing"}, 2, "canary: -traffic-routing is a canary's; it cannot be used with -blue-green\n"},
		{"bad now", []string{"-now", "yesterday"}, 2, "canary: --now \"yesterday\": want an RFC 3339 time such as 2026-11-20T09:30:00Z\n"},
		{"negative replicas", []string{"-replicas", "-1"}, 2, "canary: -replicas -1: want 0 to 100000\n"},
		{"bad preview", []string{"-preview-replicas", "-2"}, 2, "canary: -preview-replicas -2: want -1 (unset) or 0 to 100000\n"},
		{"promote at 0", []string{"-promote-at", "0"}, 2, "canary: -promote-at \"0\": want reconcile numbers from 1, comma-separated\n"},
		{"bad scale", []string{"-scale", "20"}, 2, "canary: -scale \"20\": want N@K (replicas 0 to 100000 before reconcile K from 1), comma-separated\n"},
		{"negative ready delay", []string{"-ready-delay", "-1s"}, 2, "canary: -interval must be positive and -ready-delay not negative\n"},
		{"stray argument", []string{"now"}, 2, "canary: unexpected argument \"now\"\n"},
		{"split after a flag", []string{"-replicas", "3", "split"}, 2, "canary: unexpected argument \"split\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != tt.code || stderr != tt.stderr || stdout != "" {
				t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, no stdout, stderr %q", tt.args, code, stdout, stderr, tt.code, tt.stderr)
			}
		})
	}
}

func TestHelpSaysTheClockIsFixed(t *testing.T) {
	code, stdout, stderr := runArgs(t, "-h")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "FIXED clock,\n2026-11-26T12:00:00Z") || !strings.Contains(stderr, "-abort-at STEP") {
		t.Errorf("run(-h) = %d, stderr %q; want 0 and the usage with the fixed clock and the flags", code, stderr)
	}
}

// TestJSONDecodes checks that -o json is one JSON object whose steps
// decode as argo.Step and end where the text output ends.
func TestJSONDecodes(t *testing.T) {
	code, stdout, stderr := runArgs(t, "-o", "json")
	if code != 0 {
		t.Fatalf("run(-o json) = %d, stderr %q", code, stderr)
	}
	var out struct {
		Steps      []argo.Step `json:"steps"`
		Outcome    string      `json:"outcome"`
		Reconciles int         `json:"reconciles"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Outcome != "Complete" || out.Reconciles != 25 || len(out.Steps) == 0 || out.Steps[len(out.Steps)-1].Sync != 24 {
		t.Errorf("json: outcome %q after %d reconciles, %d steps; want Complete after 25, the last recorded at reconcile 24", out.Outcome, out.Reconciles, len(out.Steps))
	}
}

// TestChart draws the default run and checks, with encoding/xml, that the
// document is well formed and has a group per ReplicaSet, both reference
// lines and both totals, and that the new image's line ends at 10 pods.
func TestChart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "canary.svg")
	code, _, stderr := runArgs(t, "-svg", path)
	if code != 0 {
		t.Fatalf("run(-svg) = %d, stderr %q", code, stderr)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := chart.Groups(svg)
	if err != nil {
		t.Fatalf("the chart is not well-formed XML: %v", err)
	}
	cfg, _ := parseFlags(nil, io.Discard)
	res, err := simulate(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	last := res.trace.Steps[len(res.trace.Steps)-1].ReplicaSets
	want := []string{"data-bound=ceiling", "data-bound=floor", "data-total=pods", "data-total=available",
		"data-replicaset=" + last[1].Name, "data-replicaset=" + last[0].Name}
	if got := strings.Join(groups, " "); got != strings.Join(want, " ") {
		t.Errorf("chart groups = %v, want %v", groups, want)
	}
	if !strings.Contains(string(svg), ">argoproj/rollouts-demo:yellow (rev 2) = 10</text>") {
		t.Errorf("the new image's line does not end labelled at 10 pods")
	}
}

// FuzzRun checks that no command line makes the program panic and that
// it exits 0, 1 or 2, writing to stderr exactly when it fails. Arguments
// are split on spaces; -svg (a file) and large sizes are left out to keep
// each run fast and hermetic.
func FuzzRun(f *testing.F) {
	for _, s := range []string{"", "-replicas -1", "-max-surge 2.5%", "-max-surge 0 -max-unavailable 0", "-steps 20,pause,abc",
		"split -replicas 7", "-traffic-routing -dynamic-stable-scale -steps 10,scale:3,scale:50%,scale:match,60", "-blue-green -preview-replicas 1",
		"-abort-at 0", "-steps pause:1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for i, a := range args {
			if a == "-svg" || a == "-max-syncs" || a == "-scale" || a == "-h" || a == "-help" || a == "--help" ||
				((a == "-replicas" || a == "-preview-replicas") && i+1 < len(args) && len(args[i+1]) > 3) {
				t.Skip()
			}
		}
		code, _, stderr := runArgs(t, args...)
		switch {
		case code != 0 && code != 1 && code != 2:
			t.Fatalf("run(%q) = %d, want 0, 1 or 2", args, code)
		case (code == 0) != (stderr == ""):
			t.Fatalf("run(%q) = %d with stderr %q", args, code, stderr)
		}
	})
}

// TestReadmeExcerpts keeps the README's Argo Rollouts section true: every
// line of its split excerpt is a line `split -replicas 3` prints, and its
// reconcile block is a part of the default run's output.
func TestReadmeExcerpts(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Argo Rollouts\n")
	if !ok {
		t.Fatal("README.md has no Argo Rollouts section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	// The fenced blocks, in order: the commands, the split excerpt, a
	// reconcile.
	var blocks []string
	var cur []string
	in := false
	for _, l := range strings.Split(sec, "\n") {
		switch {
		case strings.HasPrefix(l, "```") && in:
			blocks = append(blocks, strings.Join(cur, "\n")+"\n")
			cur, in = nil, false
		case strings.HasPrefix(l, "```"):
			in = true
		case in:
			cur = append(cur, l)
		}
	}
	if len(blocks) != 3 {
		t.Fatalf("the Argo Rollouts section has %d fenced blocks, want 3: the commands, the split excerpt and a reconcile", len(blocks))
	}
	_, split, _ := runArgs(t, "split", "-replicas", "3")
	lines := map[string]bool{}
	for _, l := range strings.Split(split, "\n") {
		lines[l] = true
	}
	for _, l := range strings.Split(strings.TrimSuffix(blocks[1], "\n"), "\n") {
		if !lines[l] {
			t.Errorf("README split excerpt line %q is not in the output of split -replicas 3", l)
		}
	}
	_, out, _ := runArgs(t)
	if !strings.Contains(out, blocks[2]) {
		t.Errorf("README reconcile block is not in the default output:\n%s", blocks[2])
	}
}
