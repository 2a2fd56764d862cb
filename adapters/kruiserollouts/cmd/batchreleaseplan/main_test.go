package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func runArgs(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{name: "CloneSet mid-release: the whole release", args: []string{"-f", "testdata/cloneset-release.yaml"}, golden: "cloneset-release.golden"},
		{name: "CloneSet mid-release: one reconcile", args: []string{"-f", "testdata/cloneset-release.yaml", "-once"}, golden: "cloneset-once.golden"},
		{name: "CloneSet one reconcile, json", args: []string{"-f", "testdata/cloneset-release.yaml", "-once", "-o", "json"}, golden: "cloneset-once.json.golden"},
		{name: "Rollout without its BatchRelease, pods listed", args: []string{"-f", "testdata/rollout-new.yaml"}, golden: "rollout-new.golden"},
		{name: "Deployment through the advanced controller", args: []string{"-f", "testdata/deployment-release.yaml", "-ready-delay", "20s"}, golden: "deployment-release.golden"},
		{name: "StatefulSet: one reconcile at --now", args: []string{"-f", "testdata/statefulset.yaml", "-once", "--now", "2026-11-26T12:00:00+01:00"}, golden: "statefulset-once.golden"},
		{name: "a v1alpha1 Rollout", args: []string{"-f", "testdata/v1alpha1-rollout.yaml"}, golden: "v1alpha1-rollout.golden"},
		{name: "whole release, json", args: []string{"-f", "testdata/rollout-new.yaml", "-o", "json"}, golden: "rollout-new.json.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "", tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("run(%q) = %d with stderr %q, want 0 and no stderr", tt.args, code, stderr)
			}
			golden.Check(t, tt.golden, []byte(stdout))
		})
	}
}

// TestStdin reads the manifests from standard input, as kubectl's pipe
// gives them, and prints what -f FILE prints.
func TestStdin(t *testing.T) {
	_, fromFile, _ := runArgs(t, "", "-f", "testdata/rollout-new.yaml", "-once")
	b, err := readTestdata("rollout-new.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, fromStdin, stderr := runArgs(t, string(b), "-f", "-", "-once")
	if code != 0 || fromStdin != fromFile {
		t.Errorf("-f - = %d (stderr %q) printing\n%s\nwant what -f FILE prints:\n%s", code, stderr, fromStdin, fromFile)
	}
}

// TestWholeReleaseReachesEveryBatch checks the simulated releases
// without the golden files: every batch not done before now is found
// ready with at least its desired pods updated (more when the manifests
// start with more: the advanced Deployment controller does not scale the
// new ReplicaSet down to the partition) and at most failureThreshold of
// them unready, the batches never go back, and each release completes
// with every pod updated.
func TestWholeReleaseReachesEveryBatch(t *testing.T) {
	tests := []struct {
		file    string
		desired []int32 // per batch still to do; -1: done before now
	}{
		{"cloneset-release.yaml", []int32{-1, 5, 10}},
		{"rollout-new.yaml", []int32{1, 2, 4}},
		{"deployment-release.yaml", []int32{1, 3, 5, 10}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := parseFlags([]string{"-f", "testdata/" + tt.file}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			in := loadFile(t, &cfg, tt.file)
			sim, err := simulate(&cfg, in)
			if err != nil {
				t.Fatal(err)
			}
			if sim.trace.Outcome != batchrelease.OutcomeComplete {
				t.Fatalf("outcome %v after %d syncs, want OutcomeComplete", sim.trace.Outcome, sim.trace.Syncs)
			}
			got := make([]int32, len(tt.desired))
			for i := range got {
				got[i] = -1
			}
			last := int32(0)
			for _, s := range sim.trace.Steps {
				if s.Batch < last {
					t.Errorf("sync %d: batch went back from %d to %d", s.Sync, last, s.Batch)
				}
				last = s.Batch
				if s.Phase == batchrelease.Progressing && s.State == batchrelease.Ready && s.HasContext && got[s.Batch] == -1 {
					allowed := batchrelease.AllowedUnavailable(in.release.FailureThreshold, s.Updated)
					if s.Updated < s.Desired || s.UpdatedReady+allowed < s.Desired {
						t.Errorf("sync %d: batch %d ready with %d updated (%d ready, %d may be unready), desired %d", s.Sync, s.Batch, s.Updated, s.UpdatedReady, allowed, s.Desired)
					}
					got[s.Batch] = s.Desired
				}
			}
			for i := range got {
				if tt.desired[i] >= 0 && got[i] != tt.desired[i] {
					t.Errorf("batch %d found ready with %d desired pods, want %d (all: %v)", i, got[i], tt.desired[i], got)
				}
			}
			final := sim.trace.Steps[len(sim.trace.Steps)-1]
			if final.Updated != final.Replicas || final.Old != 0 {
				t.Errorf("the release ends with %d of %d pods updated, %d old", final.Updated, final.Replicas, final.Old)
			}
		})
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
		{"no manifest", nil, 2, "batchreleaseplan: no manifest: give one with -f"},
		{"argument", []string{"-f", "x.yaml", "extra"}, 2, `batchreleaseplan: unexpected argument "extra"`},
		{"output", []string{"-f", "x.yaml", "-o", "yaml"}, 2, `batchreleaseplan: -o "yaml": want text or json`},
		{"now", []string{"-f", "x.yaml", "--now", "noon"}, 2, `batchreleaseplan: --now "noon": want an RFC 3339 time such as 2026-11-20T09:30:00Z`},
		{"interval", []string{"-f", "x.yaml", "-interval", "0s"}, 2, "batchreleaseplan: -interval must be positive, -ready-delay not negative, -max-syncs from 1 to 100000"},
		{"ready delay", []string{"-f", "x.yaml", "-ready-delay", "-1s"}, 2, "batchreleaseplan: -interval must be positive, -ready-delay not negative, -max-syncs from 1 to 100000"},
		{"max syncs", []string{"-f", "x.yaml", "-max-syncs", "0"}, 2, "batchreleaseplan: -interval must be positive, -ready-delay not negative, -max-syncs from 1 to 100000"},
		{"max pods", []string{"-f", "x.yaml", "-max-pods", "0"}, 2, "batchreleaseplan: -max-pods 0: want 1 to 1000000"},
		{"more pods than -max-pods", []string{"-f", "testdata/cloneset-release.yaml", "-max-pods", "9"}, 1,
			`batchreleaseplan: CloneSet "echoserver" has 10 replicas, more than -max-pods 9: raise -max-pods to simulate it, or plan one reconcile with -once`},
		{"missing file", []string{"-f", "testdata/nope.yaml"}, 1, "batchreleaseplan: open testdata/nope.yaml: no such file or directory"},
		{"malformed", []string{"-f", "testdata/malformed.yaml"}, 1,
			"batchreleaseplan: testdata/malformed.yaml: kruiserollouts: document 1: yaml: line 3: did not find expected ',' or ']'"},
		{"unknown kind", []string{"-f", "testdata/service.yaml"}, 1,
			"batchreleaseplan: testdata/service.yaml: kruiserollouts: document 1: want a rollouts.kruise.io/v1beta1 or v1alpha1 Rollout or BatchRelease, an apps.kruise.io/v1alpha1 CloneSet, an apps/v1 Deployment or StatefulSet, an apps.kruise.io/v1beta1 StatefulSet or a v1 Pod (or a List of them), got v1 Service"},
		{"no release", []string{"-f", "testdata/only-cloneset.yaml"}, 1,
			"batchreleaseplan: no Rollout or BatchRelease in the manifests: give kubectl get rollout,batchrelease,<workload> -o yaml"},
		{"two Rollouts", []string{"-f", "testdata/two-rollouts.yaml"}, 1, "batchreleaseplan: 2 Rollouts in the manifests: give one (kubectl get rollout NAME)"},
		{"two BatchReleases", []string{"-f", "testdata/no-workload.yaml", "-f", "testdata/no-workload.yaml"}, 1,
			"batchreleaseplan: 2 BatchReleases in the manifests: give one (kubectl get batchrelease NAME)"},
		{"the webhook rejects the steps", []string{"-f", "testdata/invalid-steps.yaml"}, 1,
			`admission webhook "vrollout.kb.io" denied the request: Spec.Strategy.Canary.Steps.CanaryReplicas: Invalid value: Steps.CanaryReplicas must be a non decreasing sequence`},
		{"workload kind", []string{"-f", "testdata/daemonset.yaml"}, 1,
			`batchreleaseplan: kruiserollouts: invalid Rollout "agent": spec.workloadRef.kind: "apps.kruise.io/v1alpha1/DaemonSet": supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet`},
		{"batch state", []string{"-f", "testdata/bad-state.yaml"}, 1,
			`batchreleaseplan: kruiserollouts: invalid BatchRelease "cart": status.canaryStatus.batchState: "Upgraded": supported values: "Upgrading", "Verifying", "Ready"`},
		{"Rollout and BatchRelease disagree", []string{"-f", "testdata/mismatch.yaml"}, 1,
			`batchreleaseplan: the Rollout "cart" releases CloneSet "cart" but the BatchRelease "web" releases Deployment "web": give the BatchRelease of the Rollout`},
		{"workload missing", []string{"-f", "testdata/no-workload.yaml"}, 1,
			`batchreleaseplan: the apps.kruise.io/v1alpha1 CloneSet "cart" that the BatchRelease "cart" names is not in the manifests: add kubectl get cloneset cart -o yaml`},
		{"unknown rolling style", []string{"-f", "testdata/bad-style.yaml"}, 1,
			`batchreleaseplan: kruiserollouts: invalid BatchRelease "cart": spec.releasePlan.rollingStyle: "Rolling": supported values: "Partition", "Canary", "BlueGreen"`},
		{"no batches, -once", []string{"-f", "testdata/empty-batches.yaml", "-once"}, 1,
			`batchreleaseplan: batchrelease: invalid BatchRelease "cart": spec.releasePlan.batches: must not be empty`},
		{"no batches, the whole release", []string{"-f", "testdata/empty-batches.yaml"}, 1,
			`batchreleaseplan: batchrelease: invalid BatchRelease "cart": spec.releasePlan.batches: must not be empty`},
		{"negative replicas, -once", []string{"-f", "testdata/negative-status.yaml", "-once"}, 1,
			`batchreleaseplan: batchrelease: invalid CloneSet "cart": spec.replicas: -2: must not be negative`},
		{"negative replicas, the whole release", []string{"-f", "testdata/negative-status.yaml"}, 1,
			`batchreleaseplan: cloneset: invalid CloneSet "cart": spec.replicas: -2: must not be negative`},
		{"a Deployment's strategy annotation that is not JSON", []string{"-f", "testdata/deployment-bad-annotation.yaml"}, 1,
			`batchreleaseplan: kruiserollouts: invalid Deployment "web": metadata.annotations["rollouts.kruise.io/deployment-strategy"]: not the JSON kruise-rollout writes: unexpected end of JSON input`},
		{"negative Deployment replicas, the whole release", []string{"-f", "testdata/deployment-negative.yaml"}, 1,
			`batchreleaseplan: batchrelease: invalid Deployment "web": spec.replicas: -3: must not be negative`},
		{"negative Deployment replicas, -once", []string{"-f", "testdata/deployment-negative.yaml", "-once"}, 1,
			`batchreleaseplan: batchrelease: invalid Deployment "web": spec.replicas: -3: must not be negative`},
		{"whole release of a StatefulSet", []string{"-f", "testdata/statefulset.yaml"}, 1,
			"batchreleaseplan: the whole release of a StatefulSet is not simulated (package batchrelease has no StatefulSet simulation): use -once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "", tt.args...)
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
				t.Errorf("stderr = %q,\nwant     %q", stderr, tt.stderr+"\n")
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-h")
	for _, want := range []string{"Existing pods (the whole release only)", "status.updatedReplicas pods at the update revision", "metadata.creationTimestamp,\n  metadata.managedFields[].time", "-once"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h does not say %q:\n%s", want, stderr)
		}
	}
	if code != 0 || stdout != "" {
		t.Errorf("-h: %d, stdout %q; want 0 and the usage on stderr", code, stdout)
	}
}

// TestOnceJSONDecodes checks that -once -o json holds the reconcile as
// batchrelease.Sync encodes it.
func TestOnceJSONDecodes(t *testing.T) {
	_, stdout, _ := runArgs(t, "", "-f", "testdata/cloneset-release.yaml", "-once", "-o", "json")
	var out struct {
		Sync batchrelease.Sync `json:"sync"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if !out.Sync.Ready || out.Sync.Release.Status.CurrentBatch != 0 || out.Sync.Context.PlannedUpdatedReplicas != 2 {
		t.Errorf("decoded %+v, want batch 0 ready with 2 planned", out.Sync)
	}
}
