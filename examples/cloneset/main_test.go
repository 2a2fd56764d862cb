package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/examples/internal/chart"
	"github.com/rolloutmath/rolloutmath/internal/golden"
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
		{name: "default: partition batches with maxSurge 1", args: nil, golden: "default.golden"},
		{name: "in place, two batches", args: []string{"-type", "InPlaceIfPossible", "-max-surge", "0", "-replicas", "6", "-partitions", "50%,0"}, golden: "inplace.golden"},
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

// TestDefaultRunFollowsTheBatches checks the default run against what the
// partition batches ask, independently of the golden file: after each
// batch, 2, 4, 6, 8 and then 10 pods are updated.
func TestDefaultRunFollowsTheBatches(t *testing.T) {
	cfg, err := parseFlags(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := simulate(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	var held []int32
	for i, s := range tr.Steps {
		if i+1 < len(tr.Steps) && len(tr.Steps[i+1].Events) > 0 || i+1 == len(tr.Steps) {
			held = append(held, s.Status.UpdatedAvailableReplicas)
		}
		if s.Active > s.Replicas+1 {
			t.Errorf("reconcile %d: %d pods, more than 10 + maxSurge 1", s.Sync, s.Active)
		}
	}
	want := []int32{2, 4, 6, 8, 10}
	if len(held) != len(want) {
		t.Fatalf("batches ended with %v updated and available pods, want %v", held, want)
	}
	for i := range want {
		if held[i] != want[i] {
			t.Errorf("batches ended with %v updated and available pods, want %v", held, want)
			break
		}
	}
	if tr.Outcome.String() != "Complete" {
		t.Errorf("outcome %v, want Complete", tr.Outcome)
	}
}

func TestRunRejectsInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"both bounds zero", []string{"-max-surge", "0", "-max-unavailable", "0%"}, 1,
			`The CloneSet "demo" is invalid: spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: maxUnavailable and maxSurge should not both be less than 1` + "\n"},
		{"surge with InPlaceOnly", []string{"-type", "InPlaceOnly"}, 1,
			`The CloneSet "demo" is invalid: spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly` + "\n"},
		{"partition without percent", []string{"-partitions", "50%,abc"}, 1,
			`The CloneSet "demo" is invalid: spec.updateStrategy.partition: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage` + "\n"},
		{"OnDelete", []string{"-type", "OnDelete"}, 1,
			`The CloneSet "demo" is invalid: spec.updateStrategy.type: Invalid value: "OnDelete": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'` + "\n"},
		{"negative partition", []string{"-partitions", "-1"}, 1,
			`The CloneSet "demo" is invalid: spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0` + "\n"},
		{"negative replicas", []string{"-replicas", "-1"}, 2, "cloneset: -replicas -1: want 0 to 100000\n"},
		{"stray argument", []string{"now"}, 2, "cloneset: unexpected argument \"now\"\n"},
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

func TestHelp(t *testing.T) {
	code, _, stderr := runArgs(t, "-h")
	if code != 0 || !strings.Contains(stderr, "-partitions") {
		t.Errorf("run(-h) = %d, stderr %q; want 0 and the flags", code, stderr)
	}
}

// TestChart draws the default run and checks, with encoding/xml, that the
// document is well formed and has a group per revision, both bounds and
// both totals, and that the new revision's label ends at 10 pods.
func TestChart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cloneset.svg")
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
	tr, before, err := simulate(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"data-bound=ceiling", "data-bound=floor", "data-total=pods", "data-total=available",
		"data-revision=" + before.Status.UpdateRevision, "data-revision=" + tr.CloneSet.Status.UpdateRevision}
	if diff := strings.Join(groups, " "); diff != strings.Join(want, " ") {
		t.Errorf("chart groups = %v, want %v", groups, want)
	}
	if !strings.Contains(string(svg), ">nginx:1.26 ("+tr.CloneSet.Status.UpdateRevision+") = 10</text>") {
		t.Errorf("the new revision's line does not end labelled at 10 pods")
	}
}

// FuzzRun checks that no command line makes the program panic and that
// it exits 0, 1 or 2, writing to stderr exactly when it fails. Arguments
// are split on spaces; -svg (a file) and large sizes are left out to keep
// each run fast and hermetic.
func FuzzRun(f *testing.F) {
	for _, s := range []string{"", "-replicas -1", "-max-surge 2.5%", "-max-surge 0 -max-unavailable 0%", "-type OnDelete",
		"-partitions 100%,50%,abc", "-type InPlaceIfPossible -max-surge 0 -partitions 1e2%,0", "-ready -1s", "-max-unavailable 25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for i, a := range args {
			if a == "-svg" || a == "-max-syncs" || a == "-h" || a == "-help" || a == "--help" ||
				(a == "-replicas" && i+1 < len(args) && len(args[i+1]) > 3) {
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
