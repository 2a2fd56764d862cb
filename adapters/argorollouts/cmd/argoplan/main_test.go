package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// runArgs runs the program with args and stdin, and returns its exit
// status, stdout and stderr.
func runArgs(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The testdata are `kubectl get rollout,rs -o yaml` Lists dated
// 2026-11-26, with the server's fields (managedFields, resourceVersion,
// uid, creationTimestamp, conditions, status). canary-paused.yaml is
// Rollout shop/web updated from ghcr.io/shop/web:1.4.2 to 1.5.0 at
// 10:12:05Z, at step 1 (an indefinite pause) since 10:12:41Z with 2
// canary and 8 stable pods; canary-promoted.yaml is the same after
// `kubectl argo rollouts promote` at 10:31:16Z (step 2, setWeight 40).
// bluegreen-paused.yaml is Rollout shop/checkout (4 replicas,
// previewReplicaCount 2, no auto-promotion) waiting for a promotion
// since 09:05:44Z with 2 preview pods.
func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		golden string
	}{
		// Paused at an indefinite pause: nothing happens until a promote;
		// the reconcile at now writes nothing.
		{name: "canary paused at step 1", golden: "canary-paused.golden",
			args: []string{"-f", "testdata/canary-paused.yaml"}},
		{name: "the same, one reconcile", golden: "canary-paused-once.golden",
			args: []string{"-f", "testdata/canary-paused.yaml", "-once"}},
		// Promoted before reconcile 1: step 2 (setWeight 40) moves the
		// split to 4/6, the 1m pauses run in virtual time, and the
		// rollout completes.
		{name: "canary promoted by -promote", golden: "canary-promote.golden",
			args: []string{"-f", "testdata/canary-paused.yaml", "-promote", "1"}},
		{name: "canary promoted, from standard input", golden: "canary-promote.golden",
			args: []string{"-f", "-", "-promote", "1"}, stdin: readTestdata(t, "testdata/canary-paused.yaml")},
		// After the promote: the reconcile at now scales the stable 8 -> 6.
		{name: "canary after the promote, one reconcile", golden: "canary-promoted-once.golden",
			args: []string{"-f", "testdata/canary-promoted.yaml", "-once"}},
		{name: "the same as JSON", golden: "canary-promoted-once.json.golden",
			args: []string{"-f", "testdata/canary-promoted.yaml", "-once", "-o", "json"}},
		// --now an hour later: not-ready pods and pause durations count
		// from there; the manifests' state is the same.
		{name: "canary after the promote at --now", golden: "canary-promoted-now.golden",
			args: []string{"-f", "testdata/canary-promoted.yaml", "--now", "2026-11-26T11:30:00Z", "-ready-delay", "30s"}},
		// Blue-green: promoted before reconcile 2; the preview grows to 4,
		// the active Service switches, the old ReplicaSet keeps its pods
		// for scaleDownDelaySeconds (30 s) and is scaled to 0.
		// Aborted before reconcile 3, while the canary grows to 4 pods:
		// the stable returns to 10 and the canary to 0.
		{name: "canary aborted", golden: "canary-abort.golden",
			args: []string{"-f", "testdata/canary-promoted.yaml", "-abort", "3"}},
		{name: "blue-green promoted", golden: "bluegreen-promote.golden",
			args: []string{"-f", "testdata/bluegreen-paused.yaml", "-promote", "2"}},
		// The same List as kubectl get -o json prints it.
		{name: "blue-green promoted, from JSON", golden: "bluegreen-promote.golden",
			args: []string{"-f", "testdata/bluegreen-paused.json", "-promote", "2"}},
		{name: "blue-green paused, one reconcile", golden: "bluegreen-once.golden",
			args: []string{"-f", "testdata/bluegreen-paused.yaml", "-once"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.stdin, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("run(%q) = %d with stderr %q, want 0 and no stderr", tt.args, code, stderr)
			}
			golden.Check(t, tt.golden, []byte(stdout))
		})
	}
}

// TestTestdataHashesAreArgos checks that the testdata are what Argo
// would have written: each ReplicaSet's pod-template hash is Argo's hash
// of the template it was created from (the Rollout's for the current
// one), and status.currentStepHash is Argo's hash of the steps; with
// made-up hashes the controller would create a new ReplicaSet.
func TestTestdataHashesAreArgos(t *testing.T) {
	for _, name := range []string{"testdata/canary-paused.yaml", "testdata/canary-promoted.yaml", "testdata/bluegreen-paused.yaml"} {
		objs, err := argorollouts.Read(strings.NewReader(readTestdata(t, name)))
		if err != nil {
			t.Fatal(err)
		}
		ro, err := argorollouts.Rollout(&objs.Rollouts[0])
		if err != nil {
			t.Fatal(err)
		}
		want, err := argo.PodTemplateHash(&ro.Template, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ro.Status.CurrentPodHash != want {
			t.Errorf("%s: status.currentPodHash %q, want Argo's hash of spec.template %q", name, ro.Status.CurrentPodHash, want)
		}
		if ro.Strategy.Canary != nil && ro.Status.CurrentStepHash != argo.StepsHash(&ro) {
			t.Errorf("%s: status.currentStepHash %q, want %q", name, ro.Status.CurrentStepHash, argo.StepsHash(&ro))
		}
		for _, rs := range objs.ReplicaSets {
			// The ReplicaSet's template as the Rollout held it: its image
			// in the Rollout's template.
			tmpl := ro.Template.DeepCopy()
			tmpl.Spec.Containers[0].Image = rs.Spec.Template.Spec.Containers[0].Image
			h, err := argo.PodTemplateHash(tmpl, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := rs.Labels[argo.PodTemplateHashLabel]; got != h || rs.Name != ro.Name+"-"+h {
				t.Errorf("%s: ReplicaSet %s has hash %q, want %q", name, rs.Name, got, h)
			}
		}
	}
}

func TestRunRejectsInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad YAML", []string{"-f", "testdata/malformed.yaml"}, 1,
			"argoplan: testdata/malformed.yaml: argorollouts: document 1: yaml: line 7: did not find expected ',' or ']'\n"},
		{"unknown kind", []string{"-f", "testdata/service.yaml"}, 1,
			`argoplan: testdata/service.yaml: argorollouts: document 1: kind "Service" (v1): want an argoproj.io/v1alpha1 Rollout, an apps/v1 ReplicaSet or a List of them` + "\n"},
		{"two Rollouts", []string{"-f", "testdata/canary-paused.yaml", "-f", "testdata/api-rollout.yaml"}, 1,
			`argoplan: the manifests hold 2 Rollouts ("web", "api"), want exactly 1: plan one Rollout at a time` + "\n"},
		{"no Rollout", []string{"-f", "testdata/api-replicaset.yaml"}, 1,
			"argoplan: the manifests hold no Rollout, want exactly 1\n"},
		{"a ReplicaSet of another Rollout", []string{"-f", "testdata/canary-paused.yaml", "-f", "testdata/api-replicaset.yaml"}, 1,
			`argoplan: ReplicaSet "api-7d9f6b5c48" is controlled by Rollout "api", not by Rollout "web": give only its own ReplicaSets` + "\n"},
		{"invalid spec", []string{"-f", "testdata/invalid-rollout.yaml"}, 1,
			`The Rollout "search" is invalid: spec.strategy.maxSurge: Invalid value: 0: MaxSurge and MaxUnavailable both can not be zero` + "\n"},
		{"more replicas than -max-pods", []string{"-f", "testdata/canary-paused.yaml", "-max-pods", "5"}, 1,
			`argoplan: Rollout "web" has 10 replicas and its ReplicaSets 10 pods: more than -max-pods 5 (3 * -max-pods in all): raise -max-pods to plan it` + "\n"},
		{"missing file", []string{"-f", "testdata/nope.yaml"}, 1,
			"argoplan: testdata/nope.yaml: open testdata/nope.yaml: no such file or directory\n"},
		{"no -f", nil, 2, "argoplan: no manifest: give one with -f\n"},
		{"unknown output", []string{"-f", "x", "-o", "yaml"}, 2, "argoplan: -o \"yaml\": want text or json\n"},
		{"promote with -once", []string{"-f", "x", "-once", "-promote", "2"}, 2,
			"argoplan: -promote and -abort script the whole rollout; they cannot be used with -once\n"},
		{"abort before a word", []string{"-f", "x", "-abort", "3,now"}, 2,
			"argoplan: -abort \"3,now\": want reconcile numbers from 1, comma-separated\n"},
		{"promote before reconcile 0", []string{"-f", "x", "-promote", "0"}, 2,
			"argoplan: -promote \"0\": want reconcile numbers from 1, comma-separated\n"},
		{"bad now", []string{"-f", "x", "--now", "soon"}, 2,
			"argoplan: --now \"soon\": want an RFC 3339 time such as 2026-11-20T09:30:00Z\n"},
		{"stray argument", []string{"-f", "x", "web"}, 2, "argoplan: unexpected argument \"web\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "", tt.args...)
			if code != tt.code || stderr != tt.stderr || stdout != "" {
				t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, no stdout, stderr %q", tt.args, code, stdout, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// TestOrphanAndNamespace covers the ownership errors the testdata do not:
// a ReplicaSet without a controller, one of an earlier Rollout of the
// same name (another uid), and one in another namespace.
func TestOrphanAndNamespace(t *testing.T) {
	rs := readTestdata(t, "testdata/api-replicaset.yaml")
	ro := readTestdata(t, "testdata/api-rollout.yaml")
	orphan := strings.Replace(rs, "    controller: true\n", "", 1)
	other := strings.Replace(rs, "  namespace: shop\n", "  namespace: staging\n", 1)
	recreated := strings.Replace(rs, "    uid: 9e2d7c41-0b6a-4f38-a5c9-3d1e8f2b7a64\n", "    uid: 11111111-0b6a-4f38-a5c9-3d1e8f2b7a64\n", 1)
	for _, tt := range []struct{ stdin, stderr string }{
		{ro + "---\n" + orphan, `argoplan: ReplicaSet "api-7d9f6b5c48" has no controller: it is not Rollout "api"'s (Argo adopts orphans whose labels match the selector; argoplan does not)` + "\n"},
		{ro + "---\n" + recreated, `argoplan: ReplicaSet "api-7d9f6b5c48" is controlled by another Rollout "api" (uid 11111111-0b6a-4f38-a5c9-3d1e8f2b7a64, not 9e2d7c41-0b6a-4f38-a5c9-3d1e8f2b7a64)` + "\n"},
		{ro + "---\n" + other, `argoplan: ReplicaSet "api-7d9f6b5c48" is in namespace "staging", not in Rollout "api"'s namespace "shop": give the ReplicaSets of one Rollout` + "\n"},
	} {
		code, stdout, stderr := runArgs(t, tt.stdin, "-f", "-")
		if code != 1 || stdout != "" || stderr != tt.stderr {
			t.Errorf("run = %d, stdout %q, stderr %q; want 1 and stderr %q", code, stdout, stderr, tt.stderr)
		}
	}
}

// TestNowIsTheManifestsLatestTimestamp checks the header: now is the
// status write's managedFields time and the pause condition's startTime,
// 10:12:41Z, later than every other timestamp in canary-paused.yaml.
func TestNowIsTheManifestsLatestTimestamp(t *testing.T) {
	_, stdout, _ := runArgs(t, "", "-f", "testdata/canary-paused.yaml", "-o", "json")
	var out struct {
		Now     string `json:"now"`
		NowFrom string `json:"nowFrom"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Now != "2026-11-26T10:12:41Z" || out.NowFrom != "the latest timestamp in the manifests" {
		t.Errorf("now = %s (%s), want 2026-11-26T10:12:41Z (the latest timestamp in the manifests)", out.Now, out.NowFrom)
	}
}

// TestNowCountsThePauseStartTime: a pause condition's startTime later
// than every other timestamp is now.
func TestNowCountsThePauseStartTime(t *testing.T) {
	manifest := strings.Replace(readTestdata(t, "testdata/canary-paused.yaml"), "startTime: \"2026-11-26T10:12:41Z\"", "startTime: \"2026-11-26T10:15:00Z\"", 1)
	code, stdout, stderr := runArgs(t, manifest, "-f", "-", "-once")
	if code != 0 || !strings.Contains(stdout, "\nNow: 2026-11-26T10:15:00Z (the latest timestamp in the manifests)") {
		t.Errorf("run = %d, stderr %q; want now at the pause's startTime in:\n%s", code, stderr, stdout)
	}
}

func TestHelpNamesTheTimeFieldsAndThePods(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-h")
	for _, want := range []string{"metadata.managedFields[].time", "status.pauseConditions[].startTime", "pods stay ready", "become ready -ready-delay after now", "-once", "-promote"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h does not mention %q", want)
		}
	}
	if code != 0 || stdout != "" {
		t.Errorf("run(-h) = %d, stdout %q", code, stdout)
	}
}

// TestReadmeExcerpt keeps the module README's argoplan output true: its
// text block is how the blue-green run begins.
func TestReadmeExcerpt(t *testing.T) {
	readme := readTestdata(t, "../../README.md")
	_, sec, ok := strings.Cut(readme, "\n## argoplan\n")
	if !ok {
		t.Fatal("README.md has no argoplan section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	// The output block is the bare one that opens with the heading.
	_, block, ok := strings.Cut(sec, "\n```\nRollout ")
	block, _, ok2 := strings.Cut("Rollout "+block, "```\n")
	if !ok || !ok2 {
		t.Fatal("the argoplan section has no output block")
	}
	_, stdout, _ := runArgs(t, "", "-f", "testdata/bluegreen-paused.yaml", "-promote", "2")
	if !strings.HasPrefix(stdout, block) {
		t.Errorf("the README's output block is not how argoplan -f testdata/bluegreen-paused.yaml -promote 2 begins:\n%s", block)
	}
}

// TestGenerationAt: only a promote that clears spec.paused raises the
// generation, from the reconcile it comes before.
func TestGenerationAt(t *testing.T) {
	ro := argo.Rollout[argorollouts.Template]{Generation: 4}
	if g := generationAt(&ro, []int{2}, 3); g != 4 {
		t.Errorf("not paused: generation %d at reconcile 3, want 4", g)
	}
	ro.Paused = true
	for k, want := range map[int]int64{1: 4, 2: 5, 9: 5} {
		if g := generationAt(&ro, []int{7, 2}, k); g != want {
			t.Errorf("paused, promoted before 2 and 7: generation %d at reconcile %d, want %d", g, k, want)
		}
	}
}
