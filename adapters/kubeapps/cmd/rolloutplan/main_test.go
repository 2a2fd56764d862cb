package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/golden"
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
		{name: "set image as JSON", golden: "set-image.json.golden",
			args: []string{"-f", "testdata/nginx-deployment.yaml", "--set-image", "nginx=nginx:1.9.3", "-o", "json"}},
		{name: "mid-rollout as JSON", golden: "midrollout.json.golden",
			args: []string{"-f", "testdata/nginx-midrollout.yaml", "-f", "testdata/nginx-replicasets.yaml", "-o", "json"}},
		{name: "no ReplicaSets and no update: revision numbers assume none exist", golden: "from-nothing.golden",
			args: []string{"-f", "testdata/recreate.yaml"}},
		{name: "several containers: only the changed image is shown; requests with init and sidecar containers", golden: "sidecar.golden",
			args: []string{"-f", "testdata/web-sidecar.yaml", "--set-image", "web=web:2"}},
		{name: "several containers as JSON", golden: "sidecar.json.golden",
			args: []string{"-f", "testdata/web-sidecar.yaml", "--set-image", "web=web:2", "-o", "json"}},
		{name: "two of several containers change", golden: "sidecar-both.golden",
			args: []string{"-f", "testdata/web-sidecar.yaml", "--set-image", "web=web:2", "--set-image", "proxy=envoy:1.31", "-max-syncs", "1"}},
		{name: "Deployment and ReplicaSets as kubectl get -o yaml prints them today: now is their latest timestamp", golden: "kubectl-midrollout.golden",
			args: []string{"-f", "testdata/kubectl-midrollout.yaml"}},
		{name: "old pods count at their own requests", golden: "more-cpu.golden",
			args: []string{"-f", "testdata/more-cpu.yaml", "-f", "testdata/more-cpu-replicaset.yaml"}},
		{name: "saturated ceiling: the sync lines say so", golden: "saturated.golden",
			args: []string{"-f", "testdata/huge.yaml", "--set-image", "app=app:2", "-max-syncs", "3"}},
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

// TestRunNow checks where the state before sync 1 is dated: a manifest
// as kubectl get -o yaml prints it today starts at its latest timestamp
// (a managedFields time), --now overrides it, and either way the rollout
// is the one midrollout.golden shows for the same objects.
func TestRunNow(t *testing.T) {
	want := readTestdata(t, "testdata/midrollout.golden")
	_, wantRest, _ := strings.Cut(strings.SplitN(want, "\n", 2)[1], "\n")
	for _, tt := range []struct {
		args   []string
		header string
	}{
		{args: []string{"-f", "testdata/kubectl-midrollout.yaml"},
			header: "now 2026-11-20T09:59:41Z (the latest timestamp in the manifests): the state before sync 1; sync k runs k * -interval later"},
		{args: []string{"-f", "testdata/kubectl-midrollout.yaml", "--now", "2026-11-21T08:00:00+01:00"},
			header: "now 2026-11-21T07:00:00Z (--now): the state before sync 1; sync k runs k * -interval later"},
	} {
		code, stdout, stderr := runArgs(t, "", tt.args...)
		if code != 0 || stderr != "" {
			t.Fatalf("run(%q) = %d with stderr %q, want 0 and no stderr", tt.args, code, stderr)
		}
		lines := strings.SplitN(stdout, "\n", 3)
		if len(lines) < 3 || lines[1] != tt.header || lines[2] != wantRest {
			t.Errorf("run(%q) printed\n%s\nwant its second line %q and the rest as midrollout.golden's", tt.args, stdout, tt.header)
		}
	}
	code, _, stderr := runArgs(t, "", "-f", "testdata/kubectl-midrollout.yaml", "--now", "2026-11-20")
	if want := "rolloutplan: --now \"2026-11-20\": want an RFC 3339 time such as 2026-11-20T09:30:00Z\n"; code != 2 || stderr != want {
		t.Errorf("bad --now: run = %d with stderr %q, want 2 and %q", code, stderr, want)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStderr string
	}{
		{name: "StatefulSet with a field a StatefulSet lacks: the kind is reported first", args: []string{"-f", "testdata/statefulset.yaml"}, wantCode: 1,
			wantStderr: "rolloutplan: testdata/statefulset.yaml: document 1: want an apps/v1 Deployment or ReplicaSet, got apps/v1 StatefulSet (for a StatefulSet use statefulsetplan)\n"},
		{name: "StatefulSet in a List", args: []string{"-f", "-"}, wantCode: 1,
			stdin:      "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: StatefulSet\n  spec: {strategy: {}}\n",
			wantStderr: "rolloutplan: standard input: document 1: items[0]: want an apps/v1 Deployment or ReplicaSet, got apps/v1 StatefulSet (for a StatefulSet use statefulsetplan)\n"},
		{name: "a DaemonSet", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: DaemonSet\nspec: {updateStrategy: {}}\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got apps/v1 DaemonSet (for a DaemonSet use daemonsetplan)\n"},
		{name: "a StatefulSet of an older apiVersion", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1beta2\nkind: StatefulSet\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got apps/v1beta2 StatefulSet\n"},
		{name: "an older apiVersion", args: []string{"-f", "-"}, stdin: "apiVersion: extensions/v1beta1\nkind: Deployment\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got extensions/v1beta1 Deployment\n"},
		{name: "plain text", args: []string{"-f", "-"}, stdin: "hello world\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got a string instead of an object\n"},
		{name: "a YAML list", args: []string{"-f", "-"}, stdin: "- a\n- b\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got a list instead of an object\n"},
		{name: "an object without apiVersion and kind", args: []string{"-f", "-"}, stdin: `{"a": 1}`, wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got an object without apiVersion and kind\n"},
		{name: "kind without apiVersion", args: []string{"-f", "-"}, stdin: "kind: Deployment\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got kind \"Deployment\" without an apiVersion\n"},
		{name: "apiVersion without kind", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: want an apps/v1 Deployment or ReplicaSet, got apiVersion \"apps/v1\" without a kind\n"},
		{name: "malformed YAML", args: []string{"-f", "-"}, stdin: "a: b: c\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: not YAML or JSON: yaml: mapping values are not allowed in this context\n"},
		{name: "binary", args: []string{"-f", "-"}, stdin: "\x00\x01\x02binary", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: not YAML or JSON: yaml: control characters are not allowed\n"},
		{name: "a string where a number goes", args: []string{"-f", "-"}, stdin: `{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "ten"}}`, wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: spec.replicas: want an integer from -2147483648 to 2147483647, got a string\n"},
		{name: "a fraction where an integer goes", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: Deployment\nspec: {replicas: 1.5}\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: spec.replicas: want an integer from -2147483648 to 2147483647, got 1.5\n"},
		{name: "beyond int32", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: Deployment\nspec: {replicas: 99999999999}\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: spec.replicas: want an integer from -2147483648 to 2147483647, got 99999999999\n"},
		{name: "a list for maxSurge", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: Deployment\nspec: {strategy: {rollingUpdate: {maxSurge: [1]}}}\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: spec.strategy.rollingUpdate.maxSurge: want an integer or a percentage such as \"25%\", got a list\n"},
		{name: "a list where an object goes", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: Deployment\nspec: [1, 2]\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: spec: want an object, got a list\n"},
		{name: "a number where true or false goes", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: Deployment\nspec: {paused: 3}\n", wantCode: 1,
			wantStderr: "rolloutplan: standard input: document 1: spec.paused: want true or false, got a number\n"},
		{name: "negative request", args: []string{"-f", "testdata/negative-request.yaml"}, wantCode: 1,
			wantStderr: "rolloutplan: capacity: spec.template.spec.containers[0].resources.requests.cpu: Invalid value: \"-1\": must be greater than or equal to 0\n"},
		{name: "unknown output format", args: []string{"-f", "x", "-o", "yaml"}, wantCode: 2,
			wantStderr: "rolloutplan: invalid value \"yaml\" for flag -o: want table or json\n"},
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
			code, stdout, stderr := runArgs(t, tt.stdin, tt.args...)
			if code != tt.wantCode || stderr != tt.wantStderr || stdout != "" {
				t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, no stdout, stderr %q",
					tt.args, code, stdout, stderr, tt.wantCode, tt.wantStderr)
			}
		})
	}
}

// TestJSONSchema checks that -o json prints examples/rollout's schema
// (examples/internal/report): the same key paths as examples/rollout's
// own JSON output for a manifest with requests, and nothing else.
func TestJSONSchema(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-f", "testdata/web-sidecar.yaml", "--set-image", "web=web:2", "-o", "json")
	if code != 0 {
		t.Fatalf("run(-o json) = %d, stderr %q", code, stderr)
	}
	got := keyPaths(t, []byte(stdout))
	want := keyPaths(t, []byte(readTestdata(t, "../../../../examples/rollout/testdata/requests.json.golden")))
	if !slices.Equal(got, want) {
		t.Errorf("-o json key paths differ from examples/rollout -o json:\n rolloutplan %q\n rollout     %q", got, want)
	}
	var tr struct {
		FromImage, ToImage string
		Capacity           *struct{ PodRequests struct{ CPU, Memory string } }
	}
	if err := json.Unmarshal([]byte(stdout), &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Capacity == nil || tr.Capacity.PodRequests.CPU != "500m" || tr.FromImage != "web:1" || tr.ToImage != "web:2" {
		t.Errorf("-o json: capacity %+v, images %q -> %q; want 500m per pod and web:1 -> web:2", tr.Capacity, tr.FromImage, tr.ToImage)
	}
}

// keyPaths returns the sorted set of key paths in the JSON document b,
// such as "steps[].replicaSets[].name", array indices dropped.
func keyPaths(t *testing.T, b []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				set[prefix+k] = true
				walk(prefix+k+".", x)
			}
		case []any:
			for _, x := range v {
				walk(strings.TrimSuffix(prefix, ".")+"[].", x)
			}
		}
	}
	walk("", v)
	return slices.Sorted(maps.Keys(set))
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
