package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/examples/internal/golden"
	"github.com/rolloutmath/rolloutmath/revision"
)

// runArgs runs the program with args and stdin, and returns its exit
// status, stdout and stderr.
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
		stdin  string
		golden string
	}{
		{name: "set image on a settled Deployment", golden: "set-image.golden",
			args: []string{"-f", "testdata/nginx-deployment.yaml", "--set-image", "nginx=nginx:1.9.3"}},
		{name: "the same from JSON", golden: "set-image.golden",
			args: []string{"-f", "testdata/nginx-deployment.json", "-set-image", "nginx=nginx:1.9.3"}},
		{name: "the same from standard input, every container", golden: "set-image.golden",
			args: []string{"-f", "-", "--set-image", "*=nginx:1.9.3"}, stdin: readTestdata(t, "testdata/nginx-deployment.yaml")},
		{name: "mid-rollout with its ReplicaSets", golden: "midrollout.golden",
			args: []string{"-f", "testdata/nginx-midrollout.yaml", "-f", "testdata/nginx-replicasets.yaml"}},
		{name: "Recreate from a hand-written manifest", golden: "recreate.golden",
			args: []string{"-f", "testdata/recreate.yaml", "--set-image", "postgres=postgres:17"}},
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

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{name: "invalid maxUnavailable", args: []string{"-f", "testdata/invalid-max-unavailable.yaml"}, wantCode: 1,
			wantStderr: `The Deployment "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%` + "\n"},
		{name: "unknown field", args: []string{"-f", "testdata/unknown-field.yaml"}, wantCode: 1,
			wantStderr: `rolloutplan: testdata/unknown-field.yaml: document 1: strict decoding error: unknown field "spec.replica"` + "\n"},
		{name: "not a Deployment", args: []string{"-f", "testdata/service.yaml"}, wantCode: 1,
			wantStderr: "rolloutplan: testdata/service.yaml: document 1: want an apps/v1 Deployment or ReplicaSet, got v1 Service\n"},
		{name: "no Deployment", args: []string{"-f", "testdata/nginx-replicasets.yaml"}, wantCode: 1,
			wantStderr: "rolloutplan: the manifests hold 0 Deployments, want exactly 1\n"},
		{name: "two Deployments", args: []string{"-f", "testdata/nginx-deployment.yaml", "-f", "testdata/nginx-deployment.json"}, wantCode: 1,
			wantStderr: "rolloutplan: the manifests hold 2 Deployments, want exactly 1\n"},
		{name: "unknown container", args: []string{"-f", "testdata/nginx-deployment.yaml", "--set-image", "web=web:2"}, wantCode: 1,
			wantStderr: "rolloutplan: --set-image: unable to find container named \"web\"\n"},
		{name: "missing file", args: []string{"-f", "testdata/missing.yaml"}, wantCode: 1,
			wantStderr: "rolloutplan: open testdata/missing.yaml: no such file or directory\n"},
		{name: "a ReplicaSet given twice", args: []string{"-f", "testdata/nginx-midrollout.yaml", "-f", "testdata/nginx-replicasets.yaml", "-f", "testdata/nginx-replicasets.yaml"}, wantCode: 1,
			wantStderr: "rolloutplan: ReplicaSet \"nginx-deployment-57f8948cb9\" appears twice in the manifests; a namespace holds one ReplicaSet per name\n"},
		{name: "no -f", args: nil, wantCode: 2, wantStderr: "rolloutplan: no manifest: give one with -f\n"},
		{name: "bad --set-image", args: []string{"-f", "x", "--set-image", "nginx"}, wantCode: 2,
			wantStderr: "rolloutplan: --set-image \"nginx\": want CONTAINER=IMAGE\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "", tt.args...)
			if code != tt.wantCode || stderr != tt.wantStderr || stdout != "" {
				t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, no stdout, stderr %q",
					tt.args, code, stdout, stderr, tt.wantCode, tt.wantStderr)
			}
		})
	}
}

// TestTestdataHashes checks that the ReplicaSet names in the manifests
// and in the golden output of the defaulted manifests carry the
// pod-template-hash (revision.Hash), so the program prints the names a
// cluster would use. The conformance module checks the same manifests
// against upstream's ComputeHash (TestTestdataHashesMatchUpstream).
func TestTestdataHashes(t *testing.T) {
	var objs objects
	for _, f := range []string{"testdata/nginx-deployment.yaml", "testdata/nginx-midrollout.yaml", "testdata/nginx-replicasets.yaml"} {
		if err := readFile(&objs, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, d := range objs.deployments {
		names = append(names, d.Name+"-"+revision.Hash(&d.Spec.Template, d.Status.CollisionCount))
	}
	for _, rs := range objs.replicaSets {
		tmpl := rs.Spec.Template.DeepCopy()
		delete(tmpl.Labels, "pod-template-hash")
		hash := revision.Hash(tmpl, nil)
		if want := "nginx-deployment-" + hash; rs.Name != want || rs.Labels["pod-template-hash"] != hash {
			t.Errorf("ReplicaSet %s (label %s) should be %s", rs.Name, rs.Labels["pod-template-hash"], want)
		}
	}
	out := readTestdata(t, "testdata/set-image.golden")
	for _, name := range names {
		if !strings.Contains(out, name+" ") {
			t.Errorf("set-image.golden does not show ReplicaSet %s", name)
		}
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
