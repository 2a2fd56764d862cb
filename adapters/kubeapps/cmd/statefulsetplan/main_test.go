package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
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

const v15 = "web=registry.example.com/web:1.5"

func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		golden string
		stderr string
	}{
		// today.yaml is mid-rollout at 10:14:31Z (the latest timestamp:
		// web-3's creation, the kubelet's status write and the
		// controller's): web-3 is Pending, so sync 1 stops there with
		// nothing to write; web-3 is ready -ready-delay (10s) after now,
		// and from sync 2 the controller replaces web-2, web-1, web-0,
		// one per sync, each recreated at the next sync and ready the
		// sync after.
		{name: "mid-rollout from kubectl get -o yaml", golden: "today.golden", args: []string{"-f", "testdata/today.yaml"}},
		{name: "the same from standard input", golden: "today.golden", args: []string{"-f", "-"}, stdin: readTestdata(t, "testdata/today.yaml")},
		{name: "mid-rollout as JSON", golden: "today.json.golden", args: []string{"-f", "testdata/today.yaml", "-o", "json"}},
		{name: "one sync mid-rollout: stopped at the pending pod", golden: "today-once.golden", args: []string{"-f", "testdata/today.yaml", "-once"}},
		{name: "set image with a partition on a settled set", golden: "settled-partition.golden",
			args: []string{"-f", "testdata/settled.yaml", "--set-image", v15, "--partition", "3"}},
		{name: "one sync of set image", golden: "settled-once.golden",
			args: []string{"-f", "testdata/settled.yaml", "--set-image", v15, "-once"}},
		{name: "one sync of set image as JSON", golden: "settled-once.json.golden",
			args: []string{"-f", "testdata/settled.yaml", "--set-image", v15, "-once", "-o", "json"}},
		{name: "scale-down, with another set's pod", golden: "scaledown.golden", args: []string{"-f", "testdata/scaledown.yaml"},
			stderr: "statefulsetplan: ignoring pod \"cache-0\": controlled by StatefulSet \"cache\", not StatefulSet \"web\"\n"},
		{name: "hand-written, Parallel, ordinals from 1", golden: "hand-written.golden", args: []string{"-f", "testdata/hand-written.yaml"}},
		{name: "the gate on with maxUnavailable 2, Parallel", golden: "settled-gate.golden",
			args:  []string{"-f", "-", "--set-image", v15, "-gate"},
			stdin: strings.Replace(strings.Replace(readTestdata(t, "testdata/settled.yaml"), "partition: 0", "partition: 0\n      maxUnavailable: 2", 1), "podManagementPolicy: OrderedReady", "podManagementPolicy: Parallel", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.stdin, tt.args...)
			if code != 0 || stderr != tt.stderr {
				t.Fatalf("run(%q) = %d with stderr %q, want 0 and stderr %q", tt.args, code, stderr, tt.stderr)
			}
			golden.Check(t, tt.golden, []byte(stdout))
		})
	}
}

// handWritten returns testdata/hand-written.yaml with old replaced by
// new, for the error cases.
func handWritten(t *testing.T, old, new string) string {
	t.Helper()
	s := readTestdata(t, "testdata/hand-written.yaml")
	if !strings.Contains(s, old) {
		t.Fatalf("hand-written.yaml holds no %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStderr string
	}{
		{name: "malformed YAML", args: []string{"-f", "-"}, stdin: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: [db\n", wantCode: 1,
			wantStderr: "statefulsetplan: standard input: document 1: yaml: line 4: did not find expected ',' or ']'\n"},
		{name: "not a StatefulSet", args: []string{"-f", "-"}, stdin: "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n", wantCode: 1,
			wantStderr: "statefulsetplan: standard input: document 1: want an apps/v1 StatefulSet, a v1 Pod or an apps/v1 ControllerRevision (or a List of them), got v1 Service\n"},
		{name: "a kind apps/v1 lacks", args: []string{"-f", "-"}, stdin: handWritten(t, "kind: StatefulSet", "kind: Statefulset"), wantCode: 1,
			wantStderr: "statefulsetplan: standard input: document 1: want an apps/v1 StatefulSet, a v1 Pod or an apps/v1 ControllerRevision (or a List of them), got apps/v1 Statefulset\n"},
		{name: "an unknown field", args: []string{"-f", "-"}, stdin: handWritten(t, "  replicas: 3", "  replicas: 3\n  partition: 1"), wantCode: 1,
			wantStderr: "statefulsetplan: standard input: document 1: strict decoding error: unknown field \"spec.partition\"\n"},
		{name: "two StatefulSets", args: []string{"-f", "testdata/settled.yaml", "-f", "testdata/hand-written.yaml"}, wantCode: 1,
			wantStderr: "statefulsetplan: the manifests hold 2 StatefulSets, want exactly 1\n"},
		{name: "no StatefulSet", args: []string{"-f", "-"}, stdin: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n", wantCode: 1,
			wantStderr: "statefulsetplan: the manifests hold 0 StatefulSets, want exactly 1\n"},
		{name: "a negative partition", args: []string{"-f", "-"}, stdin: handWritten(t, "  replicas: 3", "  replicas: 3\n  updateStrategy:\n    rollingUpdate:\n      partition: -1"), wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0\n"},
		{name: "a policy the API server does not know", args: []string{"-f", "-"}, stdin: handWritten(t, "Parallel", "Ordered"), wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: spec.podManagementPolicy: Invalid value: \"Ordered\": must be 'OrderedReady' or 'Parallel'\n"},
		{name: "a selector that does not match the template's labels", args: []string{"-f", "-"}, stdin: handWritten(t, "      app: db\n  template", "      app: database\n  template"), wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"db\"}: `selector` does not match template `labels`\n"},
		{name: "two errors at once", args: []string{"-f", "-"}, stdin: handWritten(t, "  replicas: 3", "  replicas: -3\n  minReadySeconds: -1"), wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: [spec.replicas: Invalid value: -3: must be greater than or equal to 0, spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0]\n"},
		// Upstream reports a missing selector twice: as required, and as
		// not matching the template (a nil selector selects nothing).
		{name: "no selector", args: []string{"-f", "-"}, stdin: handWritten(t, "  selector:\n    matchLabels:\n      app: db\n", ""), wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"db\"}: `selector` does not match template `labels`]\n"},
		{name: "a restartPolicy other than Always", args: []string{"-f", "-"}, stdin: handWritten(t, "      containers:", "      restartPolicy: OnFailure\n      containers:"), wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"\n"},
		{name: "no containers", args: []string{"-f", "-"}, stdin: strings.Split(readTestdata(t, "testdata/hand-written.yaml"), "      containers:")[0] + "      containers: []\n", wantCode: 1,
			wantStderr: "The StatefulSet \"db\" is invalid: spec.template.spec.containers: Required value\n"},
		{name: "unknown container", args: []string{"-f", "testdata/settled.yaml", "--set-image", "nginx=nginx:1.27"}, wantCode: 1,
			wantStderr: "statefulsetplan: --set-image: unable to find container named \"nginx\"\n"},
		{name: "more replicas than -max-pods", args: []string{"-f", "testdata/settled.yaml", "-max-pods", "4"}, wantCode: 1,
			wantStderr: "statefulsetplan: spec.replicas 5 is more than -max-pods 4: raise -max-pods to simulate it\n"},
		{name: "missing file", args: []string{"-f", "testdata/missing.yaml"}, wantCode: 1,
			wantStderr: "statefulsetplan: open testdata/missing.yaml: no such file or directory\n"},
		{name: "no -f", args: nil, wantCode: 2, wantStderr: "statefulsetplan: no manifest: give one with -f\n"},
		{name: "bad --now", args: []string{"-f", "x", "--now", "2026-11-26"}, wantCode: 2,
			wantStderr: "statefulsetplan: --now \"2026-11-26\": want an RFC 3339 time such as 2026-11-20T09:30:00Z\n"},
		{name: "bad --set-image", args: []string{"-f", "x", "--set-image", "web"}, wantCode: 2,
			wantStderr: "statefulsetplan: --set-image \"web\": want CONTAINER=IMAGE\n"},
		{name: "a negative --partition", args: []string{"-f", "x", "--partition", "-1"}, wantCode: 2,
			wantStderr: "statefulsetplan: --partition \"-1\": want a whole number from 0\n"},
		{name: "a percentage --partition", args: []string{"-f", "x", "--partition", "40%"}, wantCode: 2,
			wantStderr: "statefulsetplan: --partition \"40%\": want a whole number from 0\n"},
		{name: "bad -o", args: []string{"-f", "x", "-o", "yaml"}, wantCode: 2,
			wantStderr: "statefulsetplan: -o \"yaml\": want table or json\n"},
		{name: "a zero -interval", args: []string{"-f", "x", "-interval", "0s"}, wantCode: 2,
			wantStderr: "statefulsetplan: -interval, -max-syncs and -max-pods must be positive, -ready-delay and -terminating not negative\n"},
		{name: "extra argument", args: []string{"-f", "x", "y"}, wantCode: 2,
			wantStderr: "statefulsetplan: unexpected argument \"y\"\n"},
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

// TestHelpSaysHowPodsAreModelled checks that -h says how the existing
// pods are taken, as the program's doc promises.
func TestHelpSaysHowPodsAreModelled(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-h")
	if code != 0 || stdout != "" {
		t.Fatalf("-h = %d with stdout %q, want 0 and none", code, stdout)
	}
	for _, want := range []string{"stays ready from its Ready", "becomes Running and Ready -ready-delay after now", "-once", "MaxUnavailableStatefulSet"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h does not say %q:\n%s", want, stderr)
		}
	}
}

// TestTestdataRevisionsAreTheControllers checks that the
// ControllerRevisions of today.yaml hold the bytes the controller
// records for the template they hold and carry the names those bytes
// hash to, that the set's template is the update revision's and that
// every pod's revision label names one of them: the program then reuses
// them rather than creating revisions of its own.
func TestTestdataRevisionsAreTheControllers(t *testing.T) {
	var objs objects
	if err := readFile(&objs, "testdata/today.yaml", nil); err != nil {
		t.Fatal(err)
	}
	if len(objs.sets) != 1 || len(objs.revisions) != 2 || len(objs.pods) != 5 {
		t.Fatalf("today.yaml holds %d sets, %d revisions, %d pods; want 1, 2, 5", len(objs.sets), len(objs.revisions), len(objs.pods))
	}
	set := objs.sets[0]
	names := map[string]bool{}
	for _, r := range objs.revisions {
		names[r.Name] = true
		if want := statefulset.RevisionName("web", statefulset.HashRevision(r.Data.Raw, 0)); r.Name != want {
			t.Errorf("revision %s should be named %s", r.Name, want)
		}
		var patch struct {
			Spec struct {
				Template corev1.PodTemplateSpec `json:"template"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(r.Data.Raw, &patch); err != nil {
			t.Fatal(err)
		}
		s := set.DeepCopy()
		s.Spec.Template = patch.Spec.Template
		data, err := kubeapps.StatefulSetRevisionData(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, r.Data.Raw) {
			t.Errorf("revision %s holds\n%s\nwant the controller's bytes for its template\n%s", r.Name, r.Data.Raw, data)
		}
	}
	data, err := kubeapps.StatefulSetRevisionData(set)
	if err != nil {
		t.Fatal(err)
	}
	if got := statefulset.RevisionName("web", statefulset.HashRevision(data, 0)); got != set.Status.UpdateRevision {
		t.Errorf("the set's template hashes to %s, its status says %s", got, set.Status.UpdateRevision)
	}
	for _, p := range objs.pods {
		if rev := p.Labels[statefulset.RevisionLabel]; !names[rev] {
			t.Errorf("pod %s is at revision %q, which the manifests lack", p.Name, rev)
		}
	}
}

// TestTodayRunFollowsTheRules checks the mid-rollout run without the
// golden file: the controller waits for web-3, then replaces web-2,
// web-1 and web-0 in that order, one deletion per sync with the gate
// off, never creating a pod while a lower one is not ready, and ends
// complete with the current revision moved to the update revision.
func TestTodayRunFollowsTheRules(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-f", "testdata/today.yaml", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Steps   []statefulset.Step  `json:"steps"`
		Outcome statefulset.Outcome `json:"outcome"`
		Syncs   int                 `json:"syncs"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, s := range out.Steps {
		var dels int
		for _, a := range s.Actions {
			if a.Kind == statefulset.DeletePod {
				dels++
				deleted = append(deleted, a.Pod)
			}
		}
		if dels > 1 {
			t.Errorf("sync %d deleted %d pods, want at most 1 with the gate off", s.Sync, dels)
		}
		if s.Sync == 1 {
			t.Errorf("sync 1 wrote %v; web-3 is Pending, want nothing written", s.Actions)
		}
	}
	if got, want := strings.Join(deleted, ","), "web-2,web-1,web-0"; got != want {
		t.Errorf("deleted %s, want %s", got, want)
	}
	last := out.Steps[len(out.Steps)-1].Status
	if out.Outcome != statefulset.OutcomeComplete || last.CurrentRevision != last.UpdateRevision || last.UpdatedReplicas != 5 {
		t.Errorf("outcome %v, last status %+v; want Complete, 5 updated, current = update", out.Outcome, last)
	}
}

// TestOnceMatchesPlan checks -once -o json against statefulset.PlanWith
// on the same objects, converted here without the program's code.
func TestOnceMatchesPlan(t *testing.T) {
	code, stdout, stderr := runArgs(t, "", "-f", "testdata/scaledown.yaml", "-once", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Actions []statefulset.Action `json:"actions"`
		Status  statefulset.Status   `json:"status"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	var objs objects
	if err := readFile(&objs, "testdata/scaledown.yaml", nil); err != nil {
		t.Fatal(err)
	}
	set := kubeapps.StatefulSet(objs.sets[0])
	sync, err := statefulset.Plan(&set, kubeapps.StatefulSetPods(objs.pods), kubeapps.StatefulSetRevisions(objs.revisions), objs.sets[0].ManagedFields[1].Time.Time)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Actions) != len(sync.Actions) {
		t.Fatalf("-once wrote %d actions, Plan %d", len(out.Actions), len(sync.Actions))
	}
	for i := range sync.Actions {
		if out.Actions[i] != sync.Actions[i] {
			t.Errorf("action %d: -once %+v, Plan %+v", i, out.Actions[i], sync.Actions[i])
		}
	}
	sync.Status.CollisionCount, out.Status.CollisionCount = nil, nil
	if out.Status != sync.Status {
		t.Errorf("status: -once %+v, Plan %+v", out.Status, sync.Status)
	}
	if len(sync.Actions) == 0 || sync.Actions[0].Kind != statefulset.DeletePod || sync.Actions[0].Pod != "web-4" {
		t.Errorf("Plan's first write is %+v, want the deletion of web-4", sync.Actions)
	}
}
