package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
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
		{name: "set image on a settled CloneSet, in place", golden: "set-image.golden",
			args: []string{"-f", "testdata/demo-cloneset.yaml", "--set-image", "nginx=nginx:1.25"}},
		{name: "the same from JSON", golden: "set-image.golden",
			args: []string{"-f", "testdata/demo-cloneset.json", "-set-image", "nginx=nginx:1.25"}},
		{name: "the same from standard input, every container", golden: "set-image.golden",
			args: []string{"-f", "-", "--set-image", "*=nginx:1.25"}, stdin: readTestdata(t, "testdata/demo-cloneset.yaml")},
		{name: "a partition by percentage holds pods back", golden: "partition-percent.golden",
			args: []string{"-f", "testdata/demo-cloneset.yaml", "--set-image", "nginx=nginx:1.25", "--partition", "40%"}},
		{name: "a partition by count", golden: "partition-count.golden",
			args: []string{"-f", "testdata/demo-cloneset.yaml", "--set-image", "nginx=nginx:1.25", "--partition", "4"}},
		{name: "mid-rollout from kubectl get -o yaml lists", golden: "midrollout.golden",
			args: []string{"-f", "testdata/web-cloneset.yaml", "-f", "testdata/web-pods.yaml"}},
		{name: "mid-rollout as JSON", golden: "midrollout.json.golden",
			args: []string{"-f", "testdata/web-cloneset.yaml", "-f", "testdata/web-pods.yaml", "-o", "json"}},
		// today-*.yaml are web-*.yaml as kubectl get -o yaml prints them on
		// 2026-11-20 (uid, resourceVersion, generation, managedFields,
		// conditions), with minReadySeconds 30. Now is the latest timestamp,
		// 11:00:20Z (pod web-4k2lx's Ready condition and the status write's
		// managedFields time); reconcile k runs at now + (k-1)*10s.
		// Kruise's rules (docs/cloneset.md): a pod is available when
		// its Ready condition's lastTransitionTime + minReadySeconds is
		// before now (IsPodAvailable), and maxUnavailable 1 minus the
		// unavailable pods is the update budget. web-4k2lx became ready at
		// +0s, so it is unavailable until +30s inclusive: reconciles 1-4
		// have budget 0 and reconcile 5 (+40s) updates web-j7vzt in
		// place. With -inplace-delay 5s it is ready again at +45s,
		// reconcile 6 records it, and it is available after +75s:
		// reconcile 9 (+80s) updates web-tq9mn (ready at +85s, available
		// after +115s), reconcile 13 (+120s) updates web-8xq2p (ready at
		// +125s, available after +155s), and reconcile 17 (+160s) finds
		// the rollout complete; reconcile 18 changes nothing and ends it:
		// "Complete after 18 reconciles". Starting at the old fixed
		// 2026-01-01T12:00:00Z, every readiness lay in the future and the
		// run ended "SyncLimit after 1000 reconciles".
		{name: "kubectl get -o yaml dated 2026-11, minReadySeconds 30", golden: "today.golden",
			args: []string{"-f", "testdata/today-cloneset.yaml", "-f", "testdata/today-pods.yaml"}},
		// --now an hour later: every pod has long been available, so the
		// budget is 1 from reconcile 1, which updates web-j7vzt (ready
		// again at +5s, available after +35s); reconcile 5 (+40s) updates
		// web-tq9mn (available after +75s), reconcile 9 (+80s) web-8xq2p
		// (available after +115s), reconcile 13 (+120s) finds the rollout
		// complete and reconcile 14 ends it: "Complete after 14
		// reconciles".
		{name: "the same at --now an hour later", golden: "today-now.golden",
			args: []string{"-f", "testdata/today-cloneset.yaml", "-f", "testdata/today-pods.yaml", "--now", "2026-11-20T12:00:20Z"}},
		// CloneSet api, scaled to 5 while its 2 pods are not Ready, with
		// scaleStrategy.maxUnavailable 3: kruise lets 3 - 2 unavailable
		// = 1 pod be created (calculateDiffsWithExpectation's scale-up
		// limit), and the 2 pods become ready -ready-delay (10s) after now,
		// so reconcile 2 creates the last 2. Before, they counted as ready
		// at reconcile 1, which created 3.
		{name: "unready pods limit the scale-up", golden: "scaleup-unready.golden",
			args: []string{"-f", "testdata/scaleup-unready.yaml"}},
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
		{name: "progressDeadlineSeconds, which kruise-api v1.8.0 lacks", args: []string{"-f", "testdata/progress-deadline.yaml"}, wantCode: 1,
			wantStderr: `clonesetplan: testdata/progress-deadline.yaml: document 1: strict decoding error: unknown field "spec.progressDeadlineSeconds"` + "\n"},
		{name: "maxSurge with InPlaceOnly", args: []string{"-f", "testdata/invalid-inplaceonly-surge.yaml"}, wantCode: 1,
			wantStderr: `The CloneSet "demo" is invalid: spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly` + "\n"},
		{name: "not a CloneSet", args: []string{"-f", "testdata/service.yaml"}, wantCode: 1,
			wantStderr: "clonesetplan: testdata/service.yaml: document 1: want an apps.kruise.io/v1alpha1 CloneSet, a v1 Pod or an apps/v1 ControllerRevision (or a List of them), got v1 Service\n"},
		{name: "malformed YAML", args: []string{"-f", "testdata/malformed.yaml"}, wantCode: 1,
			wantStderr: "clonesetplan: testdata/malformed.yaml: document 1: yaml: line 6: did not find expected node content\n"},
		{name: "no CloneSet", args: []string{"-f", "testdata/web-pods.yaml"}, wantCode: 1,
			wantStderr: "clonesetplan: the manifests hold 0 CloneSets, want exactly 1\n"},
		{name: "two CloneSets", args: []string{"-f", "testdata/demo-cloneset.yaml", "-f", "testdata/demo-cloneset.json"}, wantCode: 1,
			wantStderr: "clonesetplan: the manifests hold 2 CloneSets, want exactly 1\n"},
		{name: "a pod's in-place update state is not kruise's JSON", args: []string{"-f", "testdata/web-cloneset.yaml", "-f", "testdata/bad-inplace-state.yaml"}, wantCode: 1,
			wantStderr: "clonesetplan: testdata/bad-inplace-state.yaml: document 1: items[0]: kruiseapps: pod web-4k2lx: annotation apps.kruise.io/inplace-update-state: json: cannot unmarshal object into Go struct field InPlaceUpdateState.revision of type string\n"},
		{name: "unknown container", args: []string{"-f", "testdata/demo-cloneset.yaml", "--set-image", "web=web:2"}, wantCode: 1,
			wantStderr: "clonesetplan: --set-image: unable to find container named \"web\"\n"},
		{name: "a negative partition", args: []string{"-f", "x", "--partition", "-1"}, wantCode: 2,
			wantStderr: "clonesetplan: --partition \"-1\": want a count (3) or a percentage (40%)\n"},
		{name: "more replicas than -max-pods", args: []string{"-f", "testdata/demo-cloneset.yaml", "-max-pods", "9"}, wantCode: 1,
			wantStderr: "clonesetplan: spec.replicas 10 is more than -max-pods 9: raise -max-pods to simulate it\n"},
		{name: "a surge beyond -max-pods", args: []string{"-f", "testdata/surge-cloneset.yaml", "--set-image", "nginx=nginx:1.25", "-max-pods", "4"}, wantCode: 1,
			wantStderr: "clonesetplan: simulating: cloneset: spec.replicas: 4: reconcile 1 would leave 5 pods, more than Config.MaxPods 4\n"},
		{name: "missing file", args: []string{"-f", "testdata/missing.yaml"}, wantCode: 1,
			wantStderr: "clonesetplan: open testdata/missing.yaml: no such file or directory\n"},
		{name: "no -f", args: nil, wantCode: 2, wantStderr: "clonesetplan: no manifest: give one with -f\n"},
		{name: "bad --now", args: []string{"-f", "x", "--now", "2026-11-20"}, wantCode: 2,
			wantStderr: "clonesetplan: --now \"2026-11-20\": want an RFC 3339 time such as 2026-11-20T09:30:00Z\n"},
		{name: "a bad pod is named by its place in the file, not in the sorted pods", wantCode: 1,
			args:       []string{"-f", "testdata/today-cloneset.yaml", "-f", "testdata/today-pods-bad-item.yaml"},
			wantStderr: "clonesetplan: testdata/today-pods-bad-item.yaml: document 1: items[3]: kruiseapps: pod web-4k2lx: annotation apps.kruise.io/inplace-update-state: json: cannot unmarshal object into Go struct field InPlaceUpdateState.revision of type string\n"},
		{name: "a selector that does not match the template's labels", args: []string{"-f", "testdata/selector-mismatch.yaml"}, wantCode: 1,
			wantStderr: "The CloneSet \"demo\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`\n"},
		{name: "a template without containers", args: []string{"-f", "testdata/no-containers.yaml"}, wantCode: 1,
			wantStderr: "The CloneSet \"demo\" is invalid: spec.template.spec.containers: Required value\n"},
		{name: "an unknown kind of the kruise group", args: []string{"-f", "testdata/unknown-kruise-kind.yaml"}, wantCode: 1,
			wantStderr: "clonesetplan: testdata/unknown-kruise-kind.yaml: document 1: want an apps.kruise.io/v1alpha1 CloneSet, a v1 Pod or an apps/v1 ControllerRevision (or a List of them), got apps.kruise.io/v1alpha1 Cloneset\n"},
		{name: "bad --set-image", args: []string{"-f", "x", "--set-image", "nginx"}, wantCode: 2,
			wantStderr: "clonesetplan: --set-image \"nginx\": want CONTAINER=IMAGE\n"},
		{name: "bad --partition", args: []string{"-f", "x", "--partition", "2.5%"}, wantCode: 2,
			wantStderr: "clonesetplan: --partition \"2.5%\": want a count (3) or a percentage (40%)\n"},
		{name: "bad -o", args: []string{"-f", "x", "-o", "yaml"}, wantCode: 2,
			wantStderr: "clonesetplan: -o \"yaml\": want table or json\n"},
		{name: "extra argument", args: []string{"-f", "x", "y"}, wantCode: 2,
			wantStderr: "clonesetplan: unexpected argument \"y\"\n"},
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

// TestTestdataRevisionsAreKruises checks that the ControllerRevisions in
// the mid-rollout manifest hold the data kruiseapps.RevisionData gives for the
// template they record and carry the names cloneset.HashRevision gives
// those bytes, and that the CloneSet's template is the update revision's:
// the program then reuses them rather than creating revisions of its own.
func TestTestdataRevisionsAreKruises(t *testing.T) {
	var objs objects
	if err := readFile(&objs, "testdata/web-cloneset.yaml", nil); err != nil {
		t.Fatal(err)
	}
	if len(objs.cloneSets) != 1 || len(objs.revisions) != 2 {
		t.Fatalf("web-cloneset.yaml holds %d CloneSets and %d revisions, want 1 and 2", len(objs.cloneSets), len(objs.revisions))
	}
	for _, r := range objs.revisions {
		if want := cloneset.RevisionName("web", cloneset.HashRevision(r.Data.Raw, 0)); r.Name != want {
			t.Errorf("revision %s should be named %s", r.Name, want)
		}
		tmpl, err := kruiseapps.TemplateOf(r.Data.Raw)
		if err != nil {
			t.Fatal(err)
		}
		cs := objs.cloneSets[0].DeepCopy()
		cs.Spec.Template = *tmpl
		data, err := kruiseapps.RevisionData(cs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, r.Data.Raw) {
			t.Errorf("revision %s holds\n%s\nwant RevisionData of its template\n%s", r.Name, r.Data.Raw, data)
		}
	}
	data, err := kruiseapps.RevisionData(objs.cloneSets[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := cloneset.RevisionName("web", cloneset.HashRevision(data, 0)); got != objs.cloneSets[0].Status.UpdateRevision {
		t.Errorf("the CloneSet's template hashes to %s, its status says %s", got, objs.cloneSets[0].Status.UpdateRevision)
	}
}

// TestRunJSONIsValid checks that -o json prints one JSON object whose
// steps match the table's.
func TestRunJSONIsValid(t *testing.T) {
	args := []string{"-f", "testdata/demo-cloneset.yaml", "--set-image", "nginx=nginx:1.25"}
	_, table, _ := runArgs(t, "", args...)
	code, stdout, stderr := runArgs(t, "", append(args, "-o", "json")...)
	if code != 0 || stderr != "" {
		t.Fatalf("run(%q) = %d with stderr %q", args, code, stderr)
	}
	var out struct {
		Heading string
		Steps   []struct {
			Sync   int
			Reason string
		}
		Outcome string
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("-o json printed invalid JSON: %v\n%s", err, stdout)
	}
	if !strings.HasPrefix(table, out.Heading+"\n") || out.Outcome != "Complete" {
		t.Errorf("-o json heading %q, outcome %q; want the table's heading and Complete", out.Heading, out.Outcome)
	}
	for _, s := range out.Steps {
		if !strings.Contains(table, s.Reason) {
			t.Errorf("reconcile %d's reason %q is not in the table", s.Sync, s.Reason)
		}
	}
	if len(out.Steps) == 0 {
		t.Errorf("-o json printed no steps")
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

// TestChangesObjectsDecodeStrictly checks that the objects kruiseapps.Changes
// writes for the mid-rollout manifests are API objects the strict
// decoder reads back unchanged: no field the API types lack, nothing lost.
func TestChangesObjectsDecodeStrictly(t *testing.T) {
	var objs objects
	for _, f := range []string{"testdata/web-cloneset.yaml", "testdata/web-pods.yaml"} {
		if err := readFile(&objs, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	obj := objs.cloneSets[0]
	obj.Spec.Template.Spec.Containers[0].Image = "registry.example.com/web:1.2"
	obj.Spec.Replicas = ptr(int32(6))
	cs, err := kruiseapps.CloneSet(obj)
	if err != nil {
		t.Fatal(err)
	}
	owned := kruiseapps.Owned(obj, objs.pods)
	pods, err := kruiseapps.Pods(owned)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cloneset.Plan(&cs, pods, kruiseapps.Revisions(objs.revisions), fallbackNow)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := kruiseapps.Changes(obj, owned, objs.revisions, &s, fallbackNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) == 0 {
		t.Fatalf("no changes for a CloneSet scaled from 4 to 6 with a new image (plan: %s)", s.Reason)
	}
	for i, c := range changes {
		var obj interface {
			GetObjectKind() schema.ObjectKind
		}
		switch {
		case c.Pod != nil:
			c.Pod.APIVersion, c.Pod.Kind = "v1", "Pod"
			obj = c.Pod
		case c.Revision != nil:
			c.Revision.APIVersion, c.Revision.Kind = "apps/v1", "ControllerRevision"
			obj = c.Revision
		default:
			c.CloneSet.APIVersion, c.CloneSet.Kind = "apps.kruise.io/v1alpha1", "CloneSet"
			obj = c.CloneSet
		}
		text, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		var back objects
		if err := back.decode("change", bytes.NewReader(text)); err != nil {
			t.Errorf("change %d (%v) does not decode strictly: %v\n%s", i, c.Verb, err, text)
			continue
		}
		var again []byte
		switch {
		case len(back.pods) == 1:
			again, _ = json.Marshal(back.pods[0])
		case len(back.revisions) == 1:
			again, _ = json.Marshal(back.revisions[0])
		case len(back.cloneSets) == 1:
			again, _ = json.Marshal(back.cloneSets[0])
		}
		if !bytes.Equal(again, text) {
			t.Errorf("change %d (%v) reads back as\n%s\nwant\n%s", i, c.Verb, again, text)
		}
	}
}

func ptr[T any](v T) *T { return &v }
