package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		{name: "default: OrderedReady, partitions 4, 2, 0", args: nil, golden: "default.golden"},
		{name: "Parallel, gate on, maxUnavailable 2", args: []string{"-parallel", "-gate", "-max-unavailable", "2", "-partitions", "0"}, golden: "parallel.golden"},
		{name: "kubernetes#137409: broken old pods use up the budget", args: []string{"-parallel", "-gate", "-max-unavailable", "2", "-partitions", "0", "-broken", "3,4", "-max-syncs", "20"}, golden: "stuck.golden"},
		{name: "the same with BudgetReplaceUnavailableFirst", args: []string{"-parallel", "-gate", "-max-unavailable", "2", "-partitions", "0", "-broken", "3,4", "-replace-unavailable-first"}, golden: "fixed.golden"},
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

// TestDefaultRunFollowsThePartitions checks the default run against
// what the partition steps ask, independently of the golden file: when
// each step is done, 1, 3 and then 5 pods are updated, one pod at a
// time (gate off), from the top.
func TestDefaultRunFollowsThePartitions(t *testing.T) {
	cfg, err := parseFlags(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := simulate(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	var held []int32
	var deleted []string
	for i, s := range tr.Steps {
		if i+1 < len(tr.Steps) && len(tr.Steps[i+1].Events) > 0 || i+1 == len(tr.Steps) {
			held = append(held, s.Status.UpdatedReplicas)
		}
		n := 0
		for _, a := range s.Actions {
			if a.Kind.String() == "DeletePod" {
				n++
				deleted = append(deleted, a.Pod)
			}
		}
		if n > 1 {
			t.Errorf("sync %d deletes %d pods, want at most 1 with the gate off", s.Sync, n)
		}
	}
	if got := fmt.Sprint(held); got != "[1 3 5]" {
		t.Errorf("updated pods at each step's end = %s, want [1 3 5]", got)
	}
	if got := strings.Join(deleted, " "); got != "web-4 web-3 web-2 web-1 web-0" {
		t.Errorf("deleted %s, want web-4 down to web-0", got)
	}
	if tr.Outcome.String() != "Complete" {
		t.Errorf("outcome %s, want Complete", tr.Outcome)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-replicas", "-1"}, 2, "statefulset: -replicas -1: want 0 to 1000\n"},
		{[]string{"-partitions", "a"}, 2, "statefulset: -partitions \"a\": strconv.ParseInt: parsing \"a\": invalid syntax\n"},
		{[]string{"-max-unavailable", "0"}, 1, "The StatefulSet \"web\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0\n"},
		{[]string{"-partitions", "-1"}, 1, "The StatefulSet \"web\" is invalid: spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0\n"},
	}
	for _, tt := range tests {
		code, _, stderr := runArgs(t, tt.args...)
		if code != tt.code || stderr != tt.stderr {
			t.Errorf("run(%q) = %d, %q; want %d, %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}

// TestSVG: the chart is well-formed XML with one series per revision.
func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sts.svg")
	if code, _, stderr := runArgs(t, "-svg", path); code != 0 {
		t.Fatalf("run -svg: %d %s", code, stderr)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	series := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			for _, a := range se.Attr {
				if a.Name.Local == "data-revision" {
					series++
				}
			}
		}
	}
	if series != 2 {
		t.Errorf("%d revision series, want 2", series)
	}
}
