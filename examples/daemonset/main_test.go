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
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
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
		{name: "default: maxUnavailable 2, then maxSurge 1", args: nil, golden: "default.golden"},
		{name: "6 nodes, maxUnavailable 1, then maxSurge 2", args: []string{"-nodes", "6", "-max-unavailable", "1", "-then-max-surge", "2"}, golden: "six-nodes.golden"},
		{name: "a node whose new pod never becomes ready", args: []string{"-never-ready", "1", "-then=false"}, golden: "never-ready.golden"},
		{name: "percentages round up", args: []string{"-nodes", "7", "-max-unavailable", "30%", "-then-max-surge", "15%"}, golden: "percent.golden"},
		{name: "slow pods: minReadySeconds, ready delay, terminating", args: []string{"-nodes", "4", "-max-unavailable", "", "-min-ready", "15", "-ready", "25s", "-terminating", "12s", "-then-max-surge", "50%"}, golden: "slow.golden"},
		{name: "json", args: []string{"-nodes", "3", "-o", "json", "-now", "2026-11-26T09:30:00+01:00"}, golden: "json.golden"},
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

// perNode counts, in the pods a sync left, the nodes without an
// available pod that is not terminating, and the nodes running more than
// one pod that is not terminating.
func perNode(cfg *config, s *daemonset.Step, nodes []daemonset.Node) (unavailable, double int32) {
	avail, running := map[string]bool{}, map[string]int{}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Terminating {
			continue
		}
		running[p.Node]++
		if available(p, cfg, s.Time) {
			avail[p.Node] = true
		}
	}
	for _, n := range nodes {
		if !avail[n.Name] {
			unavailable++
		}
		if running[n.Name] > 1 {
			double++
		}
	}
	return unavailable, double
}

// TestBudgetsHold checks the runs against what the budgets promise,
// independently of the golden files: without surge, no sync leaves more
// than maxUnavailable nodes without an available pod; with surge, no
// sync has more than maxSurge nodes running two pods and no node is
// ever without an available pod; each update ends with every node
// running exactly one pod, updated and available.
func TestBudgetsHold(t *testing.T) {
	for _, args := range [][]string{nil, {"-nodes", "6", "-max-unavailable", "1", "-then-max-surge", "2"}, {"-nodes", "7", "-max-unavailable", "30%", "-then-max-surge", "15%"},
		{"-nodes", "9", "-max-unavailable", "3", "-ready", "35s", "-terminating", "20s", "-min-ready", "5"}} {
		cfg, r := simulateArgs(t, args...)
		if len(r.updates) != 2 {
			t.Fatalf("%q: %d updates, want 2", args, len(r.updates))
		}
		for _, u := range r.updates {
			surge := u.budget.MaxSurge > 0
			for i := range u.trace.Steps {
				s := &u.trace.Steps[i]
				unavailable, double := perNode(cfg, s, r.nodes)
				if !surge && unavailable > u.budget.MaxUnavailable {
					t.Errorf("%q, %s: sync %d left %d nodes without an available pod, more than maxUnavailable %d", args, u.to, s.Sync, unavailable, u.budget.MaxUnavailable)
				}
				if surge && (double > u.budget.MaxSurge || unavailable > 0) {
					t.Errorf("%q, %s: sync %d left %d nodes with two pods (maxSurge %d) and %d without an available one", args, u.to, s.Sync, double, u.budget.MaxSurge, unavailable)
				}
			}
			if u.trace.Outcome != daemonset.OutcomeComplete {
				t.Fatalf("%q, %s: outcome %v, want Complete", args, u.to, u.trace.Outcome)
			}
			hash := hashOf(&u.trace)
			per := map[string]int{}
			for i := range u.trace.Pods {
				p := &u.trace.Pods[i]
				if p.Hash != hash || p.Terminating || !p.Ready {
					t.Errorf("%q, %s: pod %s ends at %s (terminating %v, ready %v), want %s, running and ready", args, u.to, p.Name, p.Hash, p.Terminating, p.Ready, hash)
				}
				per[p.Node]++
			}
			for _, n := range r.nodes {
				if per[n.Name] != 1 {
					t.Errorf("%q, %s: node %s ends with %d pods, want 1", args, u.to, n.Name, per[n.Name])
				}
			}
		}
	}
}

// TestDefaultRunPace checks the pace of the default run: with
// maxUnavailable 2 on 10 nodes, each rolling update deletes exactly 2
// old pods until none is left (5 rounds); with maxSurge 1, each creates
// exactly 1 new pod beside an old one (10 rounds).
func TestDefaultRunPace(t *testing.T) {
	_, r := simulateArgs(t)
	for i, want := range []struct {
		kind   daemonset.ActionKind
		per    int
		rounds int
	}{{daemonset.DeletePod, 2, 5}, {daemonset.CreatePod, 1, 10}} {
		u := &r.updates[i]
		var rounds int
		for _, s := range u.trace.Steps {
			var n int
			for _, a := range s.Actions {
				if a.Kind == want.kind && strings.HasPrefix(a.Reason, map[daemonset.ActionKind]string{daemonset.DeletePod: "rolling update", daemonset.CreatePod: "surge"}[want.kind]) {
					n++
				}
			}
			if n > 0 {
				rounds++
				if n != want.per {
					t.Errorf("update %d, sync %d: %d %v by the rolling update, want %d", i+1, s.Sync, n, want.kind, want.per)
				}
			}
		}
		if rounds != want.rounds {
			t.Errorf("update %d: %d rounds of the rolling update, want %d", i+1, rounds, want.rounds)
		}
	}
}

// TestNeverReadyStalls checks that a node whose new pod never becomes
// ready stalls the rollout with that node unavailable and the others
// updated, and that the second update does not start.
func TestNeverReadyStalls(t *testing.T) {
	cfg, r := simulateArgs(t, "-never-ready", "1")
	if len(r.updates) != 1 {
		t.Fatalf("%d updates, want 1: the second must not start on a stalled rollout", len(r.updates))
	}
	tr := &r.updates[0].trace
	st := tr.DaemonSet.Status
	if tr.Outcome != daemonset.OutcomeStalled || st.UpdatedNumberScheduled != 10 || st.NumberAvailable != 9 {
		t.Errorf("outcome %v with status %+v, want Stalled with 10 updated and 9 available", tr.Outcome, st)
	}
	if cfg.nodes != 10 {
		t.Errorf("nodes %d, want the default 10", cfg.nodes)
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
		{"argument", []string{"extra"}, 2, `daemonset: unexpected argument "extra"`},
		{"negative nodes", []string{"-nodes", "-1"}, 2, "daemonset: -nodes -1: want 0 to 10000"},
		{"too many nodes", []string{"-nodes", "10001"}, 2, "daemonset: -nodes 10001: want 0 to 10000"},
		{"never-ready", []string{"-nodes", "3", "-never-ready", "4"}, 2, "daemonset: -never-ready 4: want 0 to -nodes (3)"},
		{"min-ready", []string{"-min-ready", "4000"}, 2, "daemonset: -min-ready 4000: want 0 to 3600"},
		{"interval", []string{"-interval", "0s"}, 2, "daemonset: -interval must be positive and -ready, -terminating not negative"},
		{"ready", []string{"-ready", "-1s"}, 2, "daemonset: -interval must be positive and -ready, -terminating not negative"},
		{"max-syncs", []string{"-max-syncs", "0"}, 2, "daemonset: -max-syncs 0: want 1 to 100000"},
		{"output", []string{"-o", "yaml"}, 2, `daemonset: -o "yaml": want table or json`},
		{"now", []string{"-now", "yesterday"}, 2, `daemonset: -now "yesterday": want an RFC 3339 time such as 2026-11-26T09:30:00Z`},
		{"surge with maxUnavailable", []string{"-max-surge", "1"}, 1,
			`The DaemonSet "fluentd" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`},
		{"both 0", []string{"-then-max-surge", "0"}, 1,
			`The DaemonSet "fluentd" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`},
		{"fractional percent", []string{"-max-unavailable", "12.5%"}, 1,
			`The DaemonSet "fluentd" is invalid: [spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "12.5%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0]`},
		{"over 100%", []string{"-then-max-surge", "150%"}, 1,
			`The DaemonSet "fluentd" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "150%": must not be greater than 100%`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != tt.code || stdout != "" {
				t.Errorf("run(%q) = %d with stdout %q, want %d and no stdout", tt.args, code, stdout, tt.code)
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
	if code != 0 || stdout != "" || !strings.Contains(stderr, "-then-max-surge") || !strings.Contains(stderr, "-never-ready") {
		t.Errorf("-h: %d, stdout %q, stderr %q; want 0 and the flags on stderr", code, stdout, stderr)
	}
}

// TestSVG checks the chart of the default run against its golden file,
// and that it is well-formed XML with a line per image.
func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemonset.svg")
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
	for _, image := range []string{"fluentd:1.16", "fluentd:1.17", "fluentd:1.18"} {
		if !strings.Contains(string(b), `data-image="`+image+`"`) {
			t.Errorf("the SVG has no series for %s", image)
		}
	}
	golden.Check(t, "default.svg", b)
}

// TestJSONDecodes checks that -o json is one JSON object whose steps
// decode back into daemonset.Step values, as many as the table shows.
func TestJSONDecodes(t *testing.T) {
	code, stdout, _ := runArgs(t, "-o", "json")
	if code != 0 {
		t.Fatalf("run -o json = %d", code)
	}
	var out struct {
		Updates []struct {
			Steps   []daemonset.Step  `json:"steps"`
			Outcome daemonset.Outcome `json:"outcome"`
		} `json:"updates"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	_, r := simulateArgs(t)
	if len(out.Updates) != 2 {
		t.Fatalf("decoded %d updates, want 2", len(out.Updates))
	}
	for i, u := range out.Updates {
		if len(u.Steps) != len(r.updates[i].trace.Steps) || u.Outcome != daemonset.OutcomeComplete {
			t.Errorf("update %d: decoded %d steps, outcome %v; want %d and Complete", i+1, len(u.Steps), u.Outcome, len(r.updates[i].trace.Steps))
		}
	}
}
