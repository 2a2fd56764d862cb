package cloneset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// wrapTemplate returns revision data around a template written by hand.
func wrapTemplate(template string) string {
	return `{"spec":{"template":{"$patch":"replace",` + strings.TrimPrefix(template, "{") + `}}`
}

// The expected answers below are kruise v1.9.1's: the "observed" rows
// (seen by running kruise on real revisions) and the cases of kruise's
// TestCalculateInPlaceUpdateSpec (pkg/util/inplaceupdate). While writing
// CalculateInPlaceUpdate, a throwaway program (not committed) also compared
// it with kruise's decision loop run over github.com/appscode/jsonpatch
// v1.0.1's CreatePatch (the library kruise calls) on 100,000 random pairs
// of templates (image, label, annotation, env, container, name, finalizer
// and order changes, with and without "resources":{} in the containers):
// Possible, Images and Metadata agreed on every pair.
func TestCalculateInPlaceUpdate(t *testing.T) {
	base := `{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.25","name":"main","resources":{}}]}}`
	tests := []struct {
		name     string
		from, to string
		want     InPlaceUpdate
		reason   string
	}{
		{
			name: "observed: image", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, "1.25", "1.26", 1)),
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26"}},
		},
		{
			name: "observed: added template label", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"app":"demo"`, `"app":"demo","tier":"web"`, 1)),
			want: InPlaceUpdate{Possible: true, Images: map[string]string{}, Metadata: true}, reason: "metadata is patched onto the pod",
		},
		{
			name: "observed: added annotation and image", from: wrapTemplate(base),
			to:   wrapTemplate(strings.Replace(strings.Replace(base, "1.25", "1.26", 1), `"creationTimestamp":null`, `"annotations":{"a/b":"c"},"creationTimestamp":null`, 1)),
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26"}, Metadata: true},
		},
		{
			name: "observed: env", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"name":"main"`, `"name":"main","env":[{"name":"A","value":"1"}]`, 1)),
			want: InPlaceUpdate{Blockers: []string{"add /spec/containers/0/env"}}, reason: "only images may change in the pod spec",
		},
		{
			name: "observed: added container", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"resources":{}}]`, `"resources":{}},{"image":"busybox","name":"side","resources":{}}]`, 1)),
			want: InPlaceUpdate{Blockers: []string{"add /spec/containers/1"}},
		},
		{
			name: "resources change (vertical scaling gate off)", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"resources":{}`, `"resources":{"limits":{"cpu":"1"}}`, 1)),
			want: InPlaceUpdate{Blockers: []string{"add /spec/containers/0/resources/limits"}},
		},
		{
			name: "identical data", from: wrapTemplate(base), to: wrapTemplate(base),
			want: InPlaceUpdate{Possible: true, Images: map[string]string{}},
		},
		{
			name: "image removed", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"image":"nginx:1.25",`, ``, 1)),
			want: InPlaceUpdate{Blockers: []string{"remove /spec/containers/0/image"}},
		},
		{
			name: "image from null", from: wrapTemplate(strings.Replace(base, `"nginx:1.25"`, `null`, 1)), to: wrapTemplate(base),
			want: InPlaceUpdate{Blockers: []string{"add /spec/containers/0/image"}}, reason: "a null turning into a value is an add",
		},
		{
			name: "renamed container", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"name":"main"`, `"name":"app"`, 1)),
			want: InPlaceUpdate{Blockers: []string{"replace /spec/containers/0/name"}},
		},
		{
			name: "blockers sorted", from: wrapTemplate(base),
			to:   wrapTemplate(strings.Replace(strings.Replace(base, `"name":"main"`, `"name":"app","tty":true`, 1), `"containers"`, `"hostNetwork":true,"containers"`, 1)),
			want: InPlaceUpdate{Blockers: []string{"replace /spec/containers/0/name", "add /spec/containers/0/tty", "add /spec/hostNetwork"}},
		},
		{
			name: "label key with a slash", from: wrapTemplate(base), to: wrapTemplate(strings.Replace(base, `"app":"demo"`, `"app":"demo","app.kubernetes.io/name":"x"`, 1)),
			want: InPlaceUpdate{Possible: true, Images: map[string]string{}, Metadata: true},
		},
		{
			name: "change outside the template", from: `{"spec":{"template":{}},"x":1}`, to: `{"spec":{"template":{}},"x":2}`,
			want: InPlaceUpdate{Blockers: []string{"replace /x"}}, reason: "only metadata and images may differ",
		},
		// kruise TestCalculateInPlaceUpdateSpec cases.
		{
			name: "kruise: image foo1 to foo2",
			from: `{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`,
			to:   `{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}`,
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"c1": "foo2"}},
		},
		{
			name: "kruise: equal top-level metadata",
			from: `{"metadata":{"labels":{"k":"v"}},"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`,
			to:   `{"metadata":{"labels":{"k":"v"}},"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}`,
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"c1": "foo2"}},
		},
		{
			name: "kruise: image and added label",
			from: `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v"}},"spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`,
			to:   `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v","k1":"v1"}},"spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}`,
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"c1": "foo2"}, Metadata: true},
		},
		{
			name: "kruise: label read by an env var",
			from: `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v"}},"spec":{"containers":[{"name":"c1","image":"foo1","env":[{"name":"TEST_ENV","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels['k']"}}}]}]}}}}`,
			to:   `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v2","k1":"v1"}},"spec":{"containers":[{"name":"c1","image":"foo2","env":[{"name":"TEST_ENV","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels['k']"}}}]}]}}}}`,
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"c1": "foo2"}, Metadata: true},
		},
		{
			name: "kruise: labels and finalizers",
			from: `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v","k2":"v2"},"finalizers":["fz1","fz2"]},"spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`,
			to:   `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k":"v","k1":"v1"},"finalizers":["fz2"]},"spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}`,
			want: InPlaceUpdate{Possible: true, Images: map[string]string{"c1": "foo2"}, Metadata: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CalculateInPlaceUpdate([]byte(tt.from), []byte(tt.to))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CalculateInPlaceUpdate mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestCalculateInPlaceUpdateErrors(t *testing.T) {
	good := `{"spec":{"template":{"spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`
	tests := []struct {
		name, from, to, want string
	}{
		{
			name: "kruise: malformed new revision (kruise recreates)", from: good,
			to:   `{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2","env":["name":"k", "value":"v"]}]}}}}`,
			want: `cloneset: to: revision data "{\"spec\":{\"template\":{\"$patch\":\"replace\",\"spec\":{\"containers\":[{\"...": must be a JSON object`,
		},
		{name: "array", from: `[]`, to: good, want: `cloneset: from: revision data "[]": must be a JSON object`},
		{name: "null", from: good, to: `null`, want: `cloneset: to: revision data "null": must be a JSON object`},
		{name: "empty", from: ``, to: good, want: `cloneset: from: revision data "": must be a JSON object`},
		{
			name: "image becomes a number (kruise panics)", from: good, to: strings.Replace(good, `"foo1"`, `7`, 1),
			want: `cloneset: to: spec.template.spec.containers[0].image is 7: must be a string`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CalculateInPlaceUpdate([]byte(tt.from), []byte(tt.to))
			if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) {
				t.Fatalf("CalculateInPlaceUpdate error = %v, want %q", err, tt.want)
			}
			if diff := cmp.Diff(InPlaceUpdate{}, got); diff != "" {
				t.Errorf("result with an error is not zero:\n%s", diff)
			}
		})
	}
}

// drawTemplate draws a pod template with 1 to 4 uniquely named containers.
func drawTemplate(t *rapid.T) map[string]any {
	n := rapid.IntRange(1, 4).Draw(t, "containers")
	var cs []any
	for i := range n {
		c := map[string]any{"name": fmt.Sprintf("c%d", i), "image": rapid.SampledFrom([]string{"a:1", "b:2", "c:3"}).Draw(t, "image"), "resources": map[string]any{}}
		if rapid.Bool().Draw(t, "env") {
			c["env"] = []any{map[string]any{"name": "E", "value": "1"}}
		}
		cs = append(cs, c)
	}
	return map[string]any{
		"metadata": map[string]any{"creationTimestamp": nil, "labels": map[string]any{"app": "demo"}},
		"spec":     map[string]any{"containers": cs, "restartPolicy": "Always"},
	}
}

func mustData(t *rapid.T, template map[string]any) []byte {
	b, err := json.Marshal(template)
	if err != nil {
		t.Fatal(err)
	}
	data, err := RevisionData(b)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestInPlaceUpdateImagesAndMetadataOnlyArePossible: changing any images
// and any labels or annotations is possible, Images names exactly the
// containers whose image changed, and nothing else is reported.
func TestInPlaceUpdateImagesAndMetadataOnlyArePossible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tpl := drawTemplate(t)
		from := mustData(t, tpl)
		want := map[string]string{}
		for _, c := range tpl["spec"].(map[string]any)["containers"].([]any) {
			c := c.(map[string]any)
			if img := rapid.SampledFrom([]string{"", "x:9", "y:8"}).Draw(t, "newImage"); img != "" && img != c["image"] {
				c["image"] = img
				want[c["name"].(string)] = img
			}
		}
		meta := rapid.Bool().Draw(t, "changeMetadata")
		if meta {
			tpl["metadata"].(map[string]any)["annotations"] = map[string]any{"k": "v"}
		}
		got, err := CalculateInPlaceUpdate(from, mustData(t, tpl))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(InPlaceUpdate{Possible: true, Images: want, Metadata: meta}, got); diff != "" {
			t.Fatalf("image/metadata change (-want +got):\n%s", diff)
		}
	})
}

// TestInPlaceUpdateAnyOtherSpecChangeForcesRecreate: a change to the pod
// spec other than an image is never possible, whatever else changes too,
// and comes with at least one blocker under /spec/.
func TestInPlaceUpdateAnyOtherSpecChangeForcesRecreate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tpl := drawTemplate(t)
		from := mustData(t, tpl)
		spec := tpl["spec"].(map[string]any)
		cs := spec["containers"].([]any)
		switch rapid.IntRange(0, 4).Draw(t, "change") {
		case 0:
			spec["restartPolicy"] = "Never"
		case 1:
			spec["containers"] = append(cs, map[string]any{"name": "extra", "image": "e"})
		case 2:
			cs[len(cs)-1].(map[string]any)["env"] = []any{map[string]any{"name": "E", "value": "2"}}
		case 3:
			cs[0].(map[string]any)["name"] = "renamed"
		case 4:
			delete(cs[0].(map[string]any), "resources")
		}
		if rapid.Bool().Draw(t, "alsoImage") {
			cs[0].(map[string]any)["image"] = "z:0"
		}
		got, err := CalculateInPlaceUpdate(from, mustData(t, tpl))
		if err != nil {
			t.Fatal(err)
		}
		if got.Possible || len(got.Blockers) == 0 || got.Images != nil || got.Metadata {
			t.Fatalf("spec change gave %+v, want not possible with blockers only", got)
		}
		for _, b := range got.Blockers {
			if !strings.Contains(b, " /spec/") {
				t.Fatalf("blocker %q is not under /spec/", b)
			}
		}
	})
}

func TestCalculateInPlaceUpdateDoesNotModifyInputs(t *testing.T) {
	from := []byte(wrapTemplate(`{"spec":{"containers":[{"name":"c","image":"a"}]}}`))
	to := []byte(wrapTemplate(`{"spec":{"containers":[{"name":"c","image":"b"}]}}`))
	f, g := bytes.Clone(from), bytes.Clone(to)
	if _, err := CalculateInPlaceUpdate(from, to); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f, from) || !bytes.Equal(g, to) {
		t.Errorf("CalculateInPlaceUpdate modified its inputs")
	}
}

func FuzzCalculateInPlaceUpdate(f *testing.F) {
	f.Add([]byte(demoData), []byte(demoData126))
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`), []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"c1","image":7}]}}}}`))
	f.Add([]byte(`{}`), []byte(`{"a":null}`))
	f.Add([]byte(`[]`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, from, to []byte) {
		got, err := CalculateInPlaceUpdate(from, to)
		if err != nil {
			if !errors.Is(err, field.ErrInvalid) {
				t.Fatalf("error %v does not wrap field.ErrInvalid", err)
			}
			return
		}
		if got.Possible != (len(got.Blockers) == 0) {
			t.Fatalf("Possible %v with blockers %v", got.Possible, got.Blockers)
		}
		if got.Possible != (got.Images != nil) {
			t.Fatalf("Possible %v with Images %v", got.Possible, got.Images)
		}
		self, err := CalculateInPlaceUpdate(from, from)
		if err != nil || !self.Possible || len(self.Images) != 0 || self.Metadata {
			t.Fatalf("CalculateInPlaceUpdate(x, x) = %+v, %v, want possible with no change", self, err)
		}
	})
}

func TestInPlaceUpdateString(t *testing.T) {
	tests := []struct {
		in   InPlaceUpdate
		want string
	}{
		{InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26", "a": "b"}, Metadata: true}, "in place: images a=b main=nginx:1.26, metadata"},
		{InPlaceUpdate{Possible: true, Images: map[string]string{}}, "in place: no change"},
		{InPlaceUpdate{Blockers: []string{"add /spec/containers/0/env", "add /spec/x"}}, "recreate: add /spec/containers/0/env, add /spec/x"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}
