package cloneset

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// demoData is the revision data kruise v1.9.1 records for CloneSet "demo"
// with template labels {app: demo} and one container "main" running
// nginx:1.25 (docs/cloneset.md#revisions, observed with the real kruise
// code).
const demoData = `{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.25","name":"main","resources":{}}]}}}}`

var demoData126 = strings.Replace(demoData, "nginx:1.25", "nginx:1.26", 1)

// The expected hashes below were computed by a throwaway program (not
// committed) that called history.HashControllerRevision from
// k8s.io/kubernetes v1.36.3 on a ControllerRevision with these Data bytes
// and the collision count as probe; the demo values also match the names
// observed by running kruise v1.9.1 (docs/cloneset.md#revisions). The
// same program compared HashRevision with the upstream function on 200,000
// random byte strings and collision counts and found no difference.
func TestHashRevision(t *testing.T) {
	tests := []struct {
		name           string
		data           string
		collisionCount int32
		want           string
		reason         string
	}{
		{name: "demo nginx:1.25", data: demoData, collisionCount: 0, want: "788944f45", reason: "fnv 344500901"},
		{name: "demo nginx:1.25 after one collision", data: demoData, collisionCount: 1, want: "788944f44", reason: "fnv 344500900"},
		{name: "demo nginx:1.25 collision 2", data: demoData, collisionCount: 2, want: "788944f47"},
		{name: "demo nginx:1.25 collision 10", data: demoData, collisionCount: 10, want: "858b7c6b7b", reason: "two probe digits"},
		{name: "demo nginx:1.25 negative collision", data: demoData, collisionCount: -1, want: "5dbf9cc65", reason: "the probe is written with its sign"},
		{name: "demo nginx:1.25 max collision", data: demoData, collisionCount: math.MaxInt32, want: "75bbb85b47"},
		{name: "demo nginx:1.25 min collision", data: demoData, collisionCount: math.MinInt32, want: "6c58cd6487"},
		{name: "demo nginx:1.26", data: demoData126, collisionCount: 0, want: "5b54ff9d4d", reason: "observed with kruise v1.9.1"},
		{name: "demo nginx:1.26 collision 1", data: demoData126, collisionCount: 1, want: "5b54ff9d4f"},
		{name: "empty data", data: "", collisionCount: 0, want: "d8bfb7bc", reason: "only the probe is hashed"},
		{name: "empty object", data: "{}", collisionCount: 0, want: "cccc864bc"},
		{name: "not JSON", data: "x", collisionCount: 0, want: "5944fc7777", reason: "any bytes hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HashRevision([]byte(tt.data), tt.collisionCount); got != tt.want {
				t.Errorf("HashRevision(%q, %d) = %q, want %q (%s)", tt.data, tt.collisionCount, got, tt.want, tt.reason)
			}
		})
	}
}

// referenceHash is the documented algorithm spelled with the standard
// library's FNV-1 and fmt: clearly correct, slow.
func referenceHash(data []byte, collisionCount int32) string {
	h := fnv.New32()
	h.Write(data)
	fmt.Fprintf(h, "%d", collisionCount)
	digits := fmt.Sprint(h.Sum32())
	var b strings.Builder
	for _, r := range digits {
		b.WriteByte(safeAlphabet[int(r)%len(safeAlphabet)])
	}
	return b.String()
}

func TestHashRevisionMatchesReferenceFNV1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := rapid.SliceOf(rapid.Byte()).Draw(t, "data")
		cc := rapid.Int32().Draw(t, "collisionCount")
		if got, want := HashRevision(data, cc), referenceHash(data, cc); got != want {
			t.Fatalf("HashRevision(%q, %d) = %q, reference %q", data, cc, got, want)
		}
	})
}

func TestHashRevisionIsShortAndSafe(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := rapid.SliceOf(rapid.Byte()).Draw(t, "data")
		cc := rapid.Int32().Draw(t, "collisionCount")
		got := HashRevision(data, cc)
		if len(got) < 1 || len(got) > 10 {
			t.Fatalf("HashRevision(%q, %d) = %q, want 1 to 10 characters", data, cc, got)
		}
		for _, r := range got {
			if !strings.ContainsRune("456789bcdf", r) {
				t.Fatalf("HashRevision(%q, %d) = %q holds %q, outside the encoded digits", data, cc, got, r)
			}
		}
	})
}

func TestHashRevisionAllocatesOnlyItsResult(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	data := []byte(demoData)
	if n := testing.AllocsPerRun(100, func() { _ = HashRevision(data, 3) }); n > 1 {
		t.Errorf("HashRevision allocates %v times per call, want at most 1", n)
	}
}

func TestRevisionData(t *testing.T) {
	tests := []struct {
		name     string
		template string
		want     string
		wantErr  string
	}{
		{
			name:     "demo template as kruise's codec writes it",
			template: `{"metadata":{"labels":{"app":"demo"},"creationTimestamp":null},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`,
			want:     demoData,
		},
		{
			name:     "keys sorted, numbers through float64, html escaped",
			template: `{"spec":{"z":1,"a":9007199254740993,"t":30.0,"s":"<a&b>"}}`,
			want:     `{"spec":{"template":{"$patch":"replace","spec":{"a":9007199254740992,"s":"\u003ca\u0026b\u003e","t":30,"z":1}}}}`,
		},
		{
			name:     "a $patch key already present is overwritten",
			template: `{"$patch":"merge"}`,
			want:     `{"spec":{"template":{"$patch":"replace"}}}`,
		},
		{name: "array", template: `[]`, wantErr: "cloneset: spec.template: not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{name: "null", template: `null`, wantErr: "cloneset: spec.template: null: must be a JSON object"},
		{name: "garbage", template: `{`, wantErr: "cloneset: spec.template: not a JSON object: unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RevisionData([]byte(tt.template))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, field.ErrInvalid) {
					t.Fatalf("RevisionData(%s) error = %v, want %q wrapping field.ErrInvalid", tt.template, err, tt.wantErr)
				}
				if got != nil {
					t.Errorf("RevisionData(%s) = %s with an error, want nil", tt.template, got)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("RevisionData(%s) = %s, %v, want %s", tt.template, got, err, tt.want)
			}
		})
	}
}

func TestRevisionName(t *testing.T) {
	tests := []struct {
		name, cloneSet, hash, want, short string
	}{
		{name: "demo", cloneSet: "demo", hash: "788944f45", want: "demo-788944f45", short: "788944f45"},
		{name: "name with dashes", cloneSet: "web-front", hash: "5b54ff9d4d", want: "web-front-5b54ff9d4d", short: "5b54ff9d4d"},
		{name: "223 bytes kept", cloneSet: strings.Repeat("a", 223), hash: "h", want: strings.Repeat("a", 223) + "-h", short: "h"},
		{name: "longer names cut to 223 bytes", cloneSet: strings.Repeat("a", 230), hash: "h", want: strings.Repeat("a", 223) + "-h", short: "h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RevisionName(tt.cloneSet, tt.hash)
			if got != tt.want {
				t.Errorf("RevisionName(%q, %q) = %q, want %q", tt.cloneSet, tt.hash, got, tt.want)
			}
			if s := shortHash(got); s != tt.short {
				t.Errorf("shortHash(%q) = %q, want %q", got, s, tt.short)
			}
		})
	}
}

func crev(name string, number int64, data string) ControllerRevision {
	return ControllerRevision{Name: name, Number: number, Data: []byte(data)}
}

func TestActiveRevisions(t *testing.T) {
	tests := []struct {
		name           string
		revisions      []ControllerRevision
		data           string
		current        string
		collisionCount int32
		want           ActiveRevisionsResult
		reason         string
	}{
		{
			name:   "first revision",
			data:   demoData,
			want:   ActiveRevisionsResult{Update: crev("demo-788944f45", 1, demoData), Action: CreateRevision, Existing: -1, Current: "demo-788944f45"},
			reason: "no status.currentRevision: current is the update revision",
		},
		{
			name:      "unchanged template reuses the newest revision",
			revisions: []ControllerRevision{crev("demo-788944f45", 1, demoData)},
			data:      demoData, current: "demo-788944f45",
			want: ActiveRevisionsResult{Update: crev("demo-788944f45", 1, demoData), Action: ReuseLatest, Existing: 0, Current: "demo-788944f45"},
		},
		{
			name:      "image change creates revision 2",
			revisions: []ControllerRevision{crev("demo-788944f45", 1, demoData)},
			data:      demoData126, current: "demo-788944f45",
			want: ActiveRevisionsResult{Update: crev("demo-5b54ff9d4d", 2, demoData126), Action: CreateRevision, Existing: -1, Current: "demo-788944f45"},
		},
		{
			name:      "rollback renumbers the old revision and keeps its name",
			revisions: []ControllerRevision{crev("demo-5b54ff9d4d", 2, demoData126), crev("demo-788944f45", 1, demoData)},
			data:      demoData, current: "demo-5b54ff9d4d",
			want: ActiveRevisionsResult{Update: crev("demo-788944f45", 3, demoData), Action: Renumber, Existing: 1, Current: "demo-5b54ff9d4d"},
		},
		{
			name:      "name clash with other data bumps the collision count",
			revisions: []ControllerRevision{crev("demo-788944f45", 1, "other")},
			data:      demoData, current: "demo-788944f45",
			want: ActiveRevisionsResult{Update: crev("demo-788944f44", 2, demoData), Action: CreateRevision, Existing: -1, Current: "demo-788944f45", CollisionCount: 1},
		},
		{
			name:      "stored collision count is used from the start",
			revisions: nil,
			data:      demoData, collisionCount: 1,
			want: ActiveRevisionsResult{Update: crev("demo-788944f44", 1, demoData), Action: CreateRevision, Existing: -1, Current: "demo-788944f44", CollisionCount: 1},
		},
		{
			name:      "unknown status.currentRevision falls back to the update revision",
			revisions: []ControllerRevision{crev("demo-788944f45", 1, demoData)},
			data:      demoData, current: "demo-gone",
			want: ActiveRevisionsResult{Update: crev("demo-788944f45", 1, demoData), Action: ReuseLatest, Existing: 0, Current: "demo-788944f45"},
		},
		{
			name:      "next number follows the highest, not the count",
			revisions: []ControllerRevision{crev("demo-a", 7, "a"), crev("demo-b", 3, "b")},
			data:      demoData, current: "demo-a",
			want: ActiveRevisionsResult{Update: crev("demo-788944f45", 8, demoData), Action: CreateRevision, Existing: -1, Current: "demo-a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ActiveRevisions("demo", tt.revisions, []byte(tt.data), tt.current, tt.collisionCount)
			if err != nil {
				t.Fatalf("ActiveRevisions: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ActiveRevisions mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestActiveRevisionsErrors(t *testing.T) {
	tests := []struct {
		name      string
		revisions []ControllerRevision
		cc        int32
		want      string
	}{
		{name: "duplicate name", revisions: []ControllerRevision{crev("a", 1, "x"), crev("a", 2, "y")}, want: `cloneset: revisions[1].name: duplicate name "a"`},
		{name: "empty name", revisions: []ControllerRevision{crev("", 1, "x")}, want: `cloneset: revisions[0].name: must not be empty`},
		{name: "number overflow", revisions: []ControllerRevision{crev("a", math.MaxInt64, "x")}, want: `cloneset: revisions[0].number: 9223372036854775807: the next revision number would overflow`},
		{name: "collision count overflow", revisions: []ControllerRevision{crev("demo-75bbb85b47", 1, "x")}, cc: math.MaxInt32, want: `cloneset: status.collisionCount: would pass 2147483647`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ActiveRevisions("demo", tt.revisions, []byte(demoData), "", tt.cc)
			if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) {
				t.Fatalf("ActiveRevisions error = %v, want %q wrapping field.ErrInvalid", err, tt.want)
			}
			if diff := cmp.Diff(ActiveRevisionsResult{}, got); diff != "" {
				t.Errorf("ActiveRevisions result with an error is not zero:\n%s", diff)
			}
		})
	}
}

// drawRevisions draws a history of distinct names whose data come from a
// small set, so that equal data and name clashes both happen.
func drawRevisions(t *rapid.T) []ControllerRevision {
	n := rapid.IntRange(0, 8).Draw(t, "count")
	names := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"demo-788944f45", "demo-788944f44", "demo-5b54ff9d4d", "demo-a", "demo-b", "demo-c", "x-788944f45", "demo-d", "demo-e"}), n, n, rapid.ID[string]).Draw(t, "names")
	out := make([]ControllerRevision, n)
	for i := range out {
		out[i] = ControllerRevision{
			Name:            names[i],
			Number:          rapid.Int64Range(1, 5).Draw(t, "number"),
			CreatedUnixNano: rapid.Int64Range(0, 3).Draw(t, "created"),
			Data:            []byte(rapid.SampledFrom([]string{demoData, demoData126, "a", "b"}).Draw(t, "data")),
		}
	}
	return out
}

func TestActiveRevisionsIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		revs := drawRevisions(t)
		data := []byte(rapid.SampledFrom([]string{demoData, demoData126, "a", "c"}).Draw(t, "data"))
		current := rapid.SampledFrom([]string{"", "demo-a", "demo-788944f45"}).Draw(t, "currentRevision")
		before := slices.Clone(revs)
		got, err := ActiveRevisions("demo", revs, data, current, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, revs); diff != "" {
			t.Fatalf("ActiveRevisions modified its input:\n%s", diff)
		}
		perm := rapid.Permutation(revs).Draw(t, "permutation")
		got2, err := ActiveRevisions("demo", perm, data, current, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Existing >= 0 {
			got.Existing = slices.IndexFunc(perm, func(r ControllerRevision) bool { return r.Name == revs[got.Existing].Name })
		}
		if diff := cmp.Diff(got, got2); diff != "" {
			t.Fatalf("ActiveRevisions depends on input order (-original +permuted):\n%s", diff)
		}
		// The update revision holds the template, and its name is not
		// taken by a revision with other data.
		if string(got.Update.Data) != string(data) {
			t.Fatalf("update revision data %q, want %q", got.Update.Data, data)
		}
		for _, r := range revs {
			if r.Name == got.Update.Name && string(r.Data) != string(data) {
				t.Fatalf("update revision %q clashes with a revision holding other data", r.Name)
			}
			if got.Action != ReuseLatest && r.Number >= got.Update.Number {
				t.Fatalf("%v gave number %d, not above existing %d", got.Action, got.Update.Number, r.Number)
			}
		}
	})
}

func TestCurrentRevisionAfter(t *testing.T) {
	tests := []struct {
		name                                  string
		specReplicas, statusReplicas, updated int32
		want                                  string
		reason                                string
	}{
		{name: "all 3 pods updated, one still pending", specReplicas: 3, statusReplicas: 3, updated: 3, want: "r2", reason: "readiness not required"},
		{name: "4 updated pods during surge", specReplicas: 3, statusReplicas: 4, updated: 4, want: "r1", reason: "replicas must equal spec"},
		{name: "partition keeps one old pod", specReplicas: 3, statusReplicas: 3, updated: 2, want: "r1"},
		{name: "scaled to zero", specReplicas: 0, statusReplicas: 0, updated: 0, want: "r2"},
	}
	for _, tt := range tests {
		if got := CurrentRevisionAfter("r1", "r2", tt.specReplicas, tt.statusReplicas, tt.updated); got != tt.want {
			t.Errorf("%s: CurrentRevisionAfter(r1, r2, %d, %d, %d) = %q, want %q (%s)", tt.name, tt.specReplicas, tt.statusReplicas, tt.updated, got, tt.want, tt.reason)
		}
	}
}

func FuzzRevisionData(f *testing.F) {
	f.Add([]byte(`{"metadata":{"labels":{"app":"demo"},"creationTimestamp":null},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	f.Add([]byte(`{"spec":{"z":1,"a":9007199254740993,"t":30.0,"s":"<a&b>"}}`))
	f.Add([]byte(`{"$patch":"merge"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, template []byte) {
		data, err := RevisionData(template)
		if err != nil {
			if !errors.Is(err, field.ErrInvalid) || data != nil {
				t.Fatalf("RevisionData(%q) = %q, %v: want nil data and an error wrapping field.ErrInvalid", template, data, err)
			}
			return
		}
		var doc struct {
			Spec struct {
				Template map[string]any `json:"template"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(data, &doc); err != nil || doc.Spec.Template["$patch"] != "replace" {
			t.Fatalf("RevisionData(%q) = %q: not {spec:{template:{$patch:replace,...}}} (%v)", template, data, err)
		}
		// Recording is idempotent on the template it records.
		inner, _ := json.Marshal(doc.Spec.Template)
		again, err := RevisionData(inner)
		if err != nil || string(again) != string(data) {
			t.Fatalf("RevisionData of the recorded template = %q, %v; want %q", again, err, data)
		}
		if ip, err := CalculateInPlaceUpdate(data, data); err != nil || !ip.Possible || len(ip.Images) != 0 || ip.Metadata {
			t.Fatalf("CalculateInPlaceUpdate(data, data) = %+v, %v", ip, err)
		}
	})
}

// demoTemplateJSON is CloneSet demo's template as kruise's codec encodes
// it: the template whose revision data is demoData.
const demoTemplateJSON = `{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`

// TestNewRevisionIsTheThreeCalls checks that NewRevision gives what a
// caller gets by encoding the template and calling RevisionData,
// HashRevision and RevisionName, for typed and raw templates, collision
// counts and a name past the 223-byte prefix.
func TestNewRevisionIsTheThreeCalls(t *testing.T) {
	type spec struct {
		Image string `json:"image"`
		Port  int    `json:"port,omitempty"`
	}
	type template struct {
		Labels map[string]string `json:"labels"`
		Spec   spec              `json:"spec"`
	}
	threeCalls := func(t *testing.T, cloneSet string, tmpl any, number int64, collisionCount int32) ControllerRevision {
		t.Helper()
		raw, err := json.Marshal(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		data, err := RevisionData(raw)
		if err != nil {
			t.Fatal(err)
		}
		return ControllerRevision{Name: RevisionName(cloneSet, HashRevision(data, collisionCount)), Number: number, Data: data}
	}
	typed := template{Labels: map[string]string{"app": "web"}, Spec: spec{Image: "nginx:1.26", Port: 80}}
	long := strings.Repeat("c", 300)
	for _, tt := range []struct {
		name           string
		cloneSet       string
		number         int64
		collisionCount int32
	}{
		{"first", "web", 1, 0},
		{"collided", "web", 7, 3},
		{"negative count", "web", 2, -1},
		{"long name", long, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewRevision(tt.cloneSet, typed, tt.number, tt.collisionCount)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(threeCalls(t, tt.cloneSet, typed, tt.number, tt.collisionCount), got); diff != "" {
				t.Errorf("typed template (-three calls +NewRevision):\n%s", diff)
			}
			raw, err := NewRevision(tt.cloneSet, json.RawMessage(demoTemplateJSON), tt.number, tt.collisionCount)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(threeCalls(t, tt.cloneSet, json.RawMessage(demoTemplateJSON), tt.number, tt.collisionCount), raw); diff != "" {
				t.Errorf("raw template (-three calls +NewRevision):\n%s", diff)
			}
		})
	}
	// The pinned kruise figure: demo's first revision.
	r, err := NewRevision("demo", json.RawMessage(demoTemplateJSON), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "demo-788944f45" || string(r.Data) != string(demoData) {
		t.Errorf("NewRevision(demo) = %q %s, want demo-788944f45 %s", r.Name, r.Data, demoData)
	}
}

// TestNewRevisionIsPlansRevision checks that the revision NewRevision
// builds is the one Plan creates for the same CloneSet.
func TestNewRevisionIsPlansRevision(t *testing.T) {
	cs := &CloneSet[json.RawMessage]{Name: "demo", Replicas: 1, Generation: 1, Template: json.RawMessage(demoTemplateJSON)}
	s, err := Plan(cs, nil, nil, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRevision(cs.Name, cs.Template, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Revs.Update != r.Name {
		t.Errorf("Plan's update revision %q, NewRevision's %q", s.Revs.Update, r.Name)
	}
}

func TestNewRevisionErrors(t *testing.T) {
	for _, tt := range []struct {
		name     string
		template any
		want     string
	}{
		{"not encodable", map[string]any{"c": make(chan int)}, "cloneset: spec.template: encoding: json: unsupported type: chan int"},
		{"null", (*struct{})(nil), "cloneset: spec.template: null: must be a JSON object"},
		{"not an object", 3, "cloneset: spec.template: not a JSON object: json: cannot unmarshal number into Go value of type map[string]interface {}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRevision("demo", tt.template, 1, 0)
			if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) {
				t.Errorf("NewRevision: %v, want %q wrapping field.ErrInvalid", err, tt.want)
			}
			if r.Name != "" || r.Number != 0 || r.Data != nil {
				t.Errorf("NewRevision on error = %+v, want the zero value", r)
			}
		})
	}
}
