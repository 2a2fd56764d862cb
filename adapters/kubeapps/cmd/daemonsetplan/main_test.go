package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

func runArgs(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

const ignoredCoreDNS = `daemonsetplan: ignoring pod "coredns-7db6d8ff4d-4kq9x": controlled by ReplicaSet "coredns-7db6d8ff4d", not DaemonSet "fluentd"` + "\n"

func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
		golden string
	}{
		{"today: the rest of the rollout", []string{"-f", "testdata/today.yaml"}, ignoredCoreDNS, "today.golden"},
		{"today: one sync", []string{"-f", "testdata/today.yaml", "-once"}, ignoredCoreDNS, "today-once.golden"},
		{"today: switched to maxSurge mid-rollout", []string{"-f", "testdata/today.yaml", "--max-unavailable", "0", "--max-surge", "1"}, ignoredCoreDNS, "today-surge.golden"},
		{"today: slow pods", []string{"-f", "testdata/today.yaml", "-ready-delay", "45s", "-terminating", "15s", "-interval", "15s"}, ignoredCoreDNS, "today-slow.golden"},
		{"today: one sync at --now", []string{"-f", "testdata/today.yaml", "-once", "--now", "2026-11-26T11:20:00+01:00"}, ignoredCoreDNS, "today-now.golden"},
		{"today: one sync as JSON", []string{"-f", "testdata/today.yaml", "-once", "-o", "json"}, ignoredCoreDNS, "today-once.json.golden"},
		{"settled: an update with maxUnavailable 50%", []string{"-f", "testdata/settled.yaml", "--set-image", "fluentd=fluent/fluentd:v1.17-1", "--max-unavailable", "50%"}, "", "settled-update.golden"},
		{"misscheduled: a toleration removed", []string{"-f", "testdata/misscheduled.yaml"}, "", "misscheduled.golden"},
		{"hand-written: surge 50%, no timestamps", []string{"-f", "testdata/hand-written.yaml", "--set-image", "*=quay.io/prometheus/node-exporter:v1.10.0"}, "", "hand-written.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "", tt.args...)
			if code != 0 || stderr != tt.stderr {
				t.Fatalf("run(%q) = %d with stderr %q, want 0 and stderr %q", tt.args, code, stderr, tt.stderr)
			}
			golden.Check(t, tt.golden, []byte(stdout))
		})
	}
}

// TestStdin checks that -f - reads standard input, as the file does.
func TestStdin(t *testing.T) {
	b, err := os.ReadFile("testdata/today.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, fromFile, _ := runArgs(t, "", "-f", "testdata/today.yaml", "-once")
	code, fromStdin, stderr := runArgs(t, string(b), "-f", "-", "-once")
	if code != 0 || stderr != ignoredCoreDNS || fromStdin != fromFile {
		t.Errorf("-f -: %d, stderr %q, output differs from -f today.yaml: %v", code, stderr, fromStdin != fromFile)
	}
}

// TestTodayFacts checks today's rollout without the golden files: now is
// the latest timestamp in the manifests; node-a's pod, not ready in the
// manifests, becomes ready -ready-delay after now; the old pods go one
// node at a time (maxUnavailable 1) in node order; the rollout completes
// with every node running one pod at the new revision.
func TestTodayFacts(t *testing.T) {
	cfg, err := parseFlags([]string{"-f", "testdata/today.yaml"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var objs objects
	if err := readFile(&objs, cfg.files[0], nil); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	in, err := prepare(&cfg, &objs, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 11, 26, 10, 14, 31, 0, time.UTC); !in.now.Equal(want) {
		t.Errorf("now %v, want %v", in.now, want)
	}
	tr, err := simulate(in, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, s := range tr.Steps {
		var n int
		for _, a := range s.Actions {
			if a.Kind == daemonset.DeletePod {
				n++
				deleted = append(deleted, a.Node)
			}
		}
		if n > 1 {
			t.Errorf("sync %d deleted %d pods, want at most 1 (maxUnavailable 1)", s.Sync, n)
		}
		for _, p := range s.Pods {
			if p.Name == "fluentd-t9v2w" && p.Ready != !s.Time.Before(in.now.Add(cfg.readyDelay)) {
				t.Errorf("sync %d at %v: fluentd-t9v2w ready %v; want ready from now + %v", s.Sync, s.Time, p.Ready, cfg.readyDelay)
			}
		}
	}
	if got, want := strings.Join(deleted, ","), "node-b,node-c,node-d,node-e"; got != want {
		t.Errorf("deleted the pods of %s, want %s", got, want)
	}
	if tr.Outcome != daemonset.OutcomeComplete || len(tr.Pods) != 6 {
		t.Errorf("outcome %v with %d pods, want Complete with 6", tr.Outcome, len(tr.Pods))
	}
}

// TestOnceJSONDecodes checks that -once -o json decodes into the
// library's types and agrees with Plan's counts.
func TestOnceJSONDecodes(t *testing.T) {
	_, stdout, _ := runArgs(t, "", "-f", "testdata/today.yaml", "-once", "-o", "json")
	var out struct {
		Actions []daemonset.Action `json:"actions"`
		Status  daemonset.Status   `json:"status"`
		Budget  daemonset.Budget   `json:"budget"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Budget != (daemonset.Budget{Desired: 6, MaxUnavailable: 1}) || out.Status.NumberReady != 5 || out.Status.UpdatedNumberScheduled != 2 {
		t.Errorf("budget %+v, status %+v; want 6 desired, maxUnavailable 1, 5 ready, 2 updated", out.Budget, out.Status)
	}
}

func TestRunRejectsInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no manifest", nil, 2, "daemonsetplan: no manifest: give one with -f"},
		{"argument", []string{"-f", "x.yaml", "extra"}, 2, `daemonsetplan: unexpected argument "extra"`},
		{"output", []string{"-f", "x.yaml", "-o", "yaml"}, 2, `daemonsetplan: -o "yaml": want table or json`},
		{"interval", []string{"-f", "x.yaml", "-interval", "0s"}, 2, "daemonsetplan: -interval, -max-syncs and -max-nodes must be positive, -ready-delay and -terminating not negative"},
		{"missing file", []string{"-f", "testdata/nope.yaml"}, 1, "daemonsetplan: open testdata/nope.yaml: no such file or directory"},
		{"bad YAML", []string{"-f", "testdata/malformed.yaml"}, 1,
			"daemonsetplan: testdata/malformed.yaml: document 1: yaml: line 8: did not find expected key"},
		{"unknown kind in apps/v1", []string{"-f", "testdata/unknown-kind.yaml"}, 1,
			"daemonsetplan: testdata/unknown-kind.yaml: document 1: want an apps/v1 DaemonSet, a v1 Pod, a v1 Node or an apps/v1 ControllerRevision (or a List of them), got apps/v1 Daemonset"},
		{"a Service", []string{"-f", "testdata/service.yaml"}, 1,
			"daemonsetplan: testdata/service.yaml: document 1: want an apps/v1 DaemonSet, a v1 Pod, a v1 Node or an apps/v1 ControllerRevision (or a List of them), got v1 Service"},
		{"two DaemonSets", []string{"-f", "testdata/settled.yaml", "-f", "testdata/hand-written.yaml"}, 1, "daemonsetplan: the manifests hold 2 DaemonSets, want exactly 1"},
		{"a pod on an unknown node", []string{"-f", "testdata/unknown-node.yaml"}, 1,
			`daemonsetplan: pod "fluentd-r2j6p" (testdata/unknown-node.yaml: document 1: items[6]) is on node "node-e", which the manifests do not hold: add the node (kubectl get nodes -o yaml)`},
		{"invalid spec", []string{"-f", "testdata/invalid-spec.yaml"}, 1,
			`The DaemonSet "fluentd" is invalid: [spec.template.metadata.labels: Invalid value: {"app":"fluent-bit"}: ` + "`selector` does not match template `labels`" + `, spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero]`},
		{"invalid flags for the spec", []string{"-f", "testdata/settled.yaml", "--max-surge", "1"}, 1,
			`The DaemonSet "fluentd" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`},
		{"a fractional percentage", []string{"-f", "testdata/settled.yaml", "--max-unavailable", "12.5%"}, 1,
			`The DaemonSet "fluentd" is invalid: [spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "12.5%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0]`},
		{"a required node affinity", []string{"-f", "testdata/affinity.yaml"}, 1,
			`daemonsetplan: DaemonSet "gpu-plugin" has a required node affinity, which daemonsetplan does not evaluate: kubeapps: DaemonSetNode does not evaluate spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution; build the daemonset.Node from the scheduler's answer`},
		{"an unknown container", []string{"-f", "testdata/settled.yaml", "--set-image", "fluent-bit=x:1"}, 1, `daemonsetplan: --set-image: unable to find container named "fluent-bit"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "", tt.args...)
			if code != tt.code || stdout != "" {
				t.Errorf("run(%q) = %d with stdout %q, want %d and no stdout", tt.args, code, stdout, tt.code)
			}
			if stderr != tt.stderr+"\n" {
				t.Errorf("stderr = %q, want %q", stderr, tt.stderr+"\n")
			}
		})
	}
}

// TestNoNodesNoDaemonSet checks the errors for manifests without Nodes
// and without a DaemonSet: hand-written.yaml's first document alone, and
// its other documents alone.
func TestNoNodesNoDaemonSet(t *testing.T) {
	b, err := os.ReadFile("testdata/hand-written.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ds, nodes, _ := strings.Cut(string(b), "\n---\n")
	for _, tt := range []struct{ name, text, want string }{
		{"ds.yaml", ds, "daemonsetplan: the manifests hold no Nodes: add them (kubectl get nodes -o yaml)\n"},
		{"nodes.yaml", nodes, "daemonsetplan: the manifests hold 0 DaemonSets, want exactly 1\n"},
	} {
		path := filepath.Join(t.TempDir(), tt.name)
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runArgs(t, "", "-f", path)
		if code != 1 || stdout != "" || stderr != tt.want {
			t.Errorf("%s: run = %d, stdout %q, stderr %q; want 1 and %q", tt.name, code, stdout, stderr, tt.want)
		}
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-h")
	for _, want := range []string{"Usage: daemonsetplan -f FILE", "-ready-delay after now", "-max-surge", "kubectl get nodes -o yaml"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h does not say %q", want)
		}
	}
	if code != 0 || stdout != "" {
		t.Errorf("-h: %d, stdout %q; want 0 and the text on stderr", code, stdout)
	}
}
