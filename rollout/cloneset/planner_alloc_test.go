package cloneset

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// settledPlanner10 is a CloneSet of 10 pods at rest on nginx:1.25 (its
// status written, its only revision current), its pods and revisions,
// with the template as a T: podTemplate, or json.RawMessage holding
// podTemplate's encoding.
func settledPlanner10[T any](tb testing.TB) (*CloneSet[T], []Pod, []ControllerRevision) {
	r1 := revisionOf(tb, templateOf("nginx:1.25"), 1)
	b, err := json.Marshal(templateOf("nginx:1.25"))
	if err != nil {
		tb.Fatal(err)
	}
	cs := &CloneSet[T]{Name: "demo", Replicas: 10}
	if err := json.Unmarshal(b, &cs.Template); err != nil {
		tb.Fatal(err)
	}
	cs.Status.CurrentRevision = r1.Name
	pods := make([]Pod, 10)
	for i := range pods {
		pods[i] = Pod{Name: "demo-" + string(rune('a'+i)), Revision: r1.Name, Phase: PodRunning, Ready: true, Lifecycle: Normal,
			ReadySince: t0.Add(-10 * time.Minute), CreationTime: t0.Add(-10 * time.Minute), NodeName: "node-1"}
	}
	s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
	if err != nil {
		tb.Fatal(err)
	}
	return &s.CloneSet, s.Pods, s.Revisions
}

// plannerLoop returns one turn of a controller's loop over the state
// settledPlanner10 gives: Planner.Plan on the state the last sync left,
// without reasons. It fails unless the sync is the rollout complete with
// nothing to write.
func plannerLoop[T any](tb testing.TB) func() {
	cs, pods, revs := settledPlanner10[T](tb)
	var p Planner[T]
	return func() {
		s, err := p.Plan(cs, pods, revs, t0)
		if err != nil || len(s.Actions) != 0 || s.Status.Status.UpdatedAvailableReplicas != 10 || len(s.Pods) != 10 {
			tb.Fatalf("Planner.Plan of the settled CloneSet: %v, %d actions, status %+v", err, len(s.Actions), s.Status.Status)
		}
		cs, pods, revs = &s.CloneSet, s.Pods, s.Revisions
	}
}

// BenchmarkPlanner: a controller's loop over a CloneSet of 10 pods at
// rest. raw: the template a json.RawMessage, which encodes without
// allocating; struct: a struct with a labels map, which encoding/json
// allocates to encode (it sorts the keys).
func BenchmarkPlanner(b *testing.B) {
	for _, tt := range []struct {
		name string
		loop func(testing.TB) func()
	}{{"raw", plannerLoop[json.RawMessage]}, {"struct", plannerLoop[podTemplate]}} {
		b.Run(tt.name, func(b *testing.B) {
			turn := tt.loop(b)
			b.ReportAllocs()
			for b.Loop() {
				turn()
			}
		})
	}
}

// TestPlannerSteadyStateAllocations: a Planner in a controller's loop
// over a CloneSet of 10 pods at rest allocates nothing per sync once its
// memory has grown, with a template that encodes without allocating
// (json.RawMessage); encoding/json's encoding of a map is the only
// allocation with a struct template.
func TestPlannerSteadyStateAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	turn := plannerLoop[json.RawMessage](t)
	turn()
	turn()
	if n := testing.AllocsPerRun(100, turn); n != 0 {
		t.Errorf("Planner.Plan in a loop over 10 pods at rest (json.RawMessage template) allocates %v times per sync, want 0", n)
	}
	// The same loop, its template an equal struct: only the encoding
	// allocates.
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	tmpl := templateOf("nginx:1.25")
	encode := testing.AllocsPerRun(100, func() {
		enc.Reset()
		if err := e.Encode(&tmpl); err != nil {
			t.Fatal(err)
		}
	})
	turnStruct := plannerLoop[podTemplate](t)
	turnStruct()
	turnStruct()
	if n := testing.AllocsPerRun(100, turnStruct); n != encode {
		t.Errorf("Planner.Plan in a loop over 10 pods at rest (struct template) allocates %v times per sync, want %v (encoding/json's, encoding the template)", n, encode)
	}
}

// ptrMarshaled encodes differently through a pointer: encoding/json
// calls a pointer-receiver MarshalJSON on addressable values only.
type ptrMarshaled struct{ X int }

func (p *ptrMarshaled) MarshalJSON() ([]byte, error) { return []byte(`{"pointer":true}`), nil }

type valueMarshaled struct{ X int }

func (v valueMarshaled) MarshalJSON() ([]byte, error) { return []byte(`{"value":true}`), nil }

// TestPlannerEncodesTheTemplateAsMarshal: the Planner encodes the
// template through a pointer only where encoding/json gives the same
// bytes, so the update revision is the one json.Marshal's encoding
// names, for a template with a pointer-receiver MarshalJSON too; a
// second Plan with the same template (the cached data) names it again.
func TestPlannerEncodesTheTemplateAsMarshal(t *testing.T) {
	type withPtr struct {
		A ptrMarshaled `json:"a"`
	}
	type withValue struct {
		A valueMarshaled `json:"a"`
		B map[string]int `json:"b"`
		C []*ptrMarshaled
	}
	type withAny struct {
		A any `json:"a"`
	}
	for _, tt := range []struct {
		typ  reflect.Type
		want bool
	}{
		{reflect.TypeFor[withPtr](), false},
		{reflect.TypeFor[withValue](), true},
		{reflect.TypeFor[withAny](), true},
		{reflect.TypeFor[[2]withPtr](), false},
		{reflect.TypeFor[ptrMarshaled](), false},
		{reflect.TypeFor[podTemplate](), true},
		{reflect.TypeFor[json.RawMessage](), true},
	} {
		if got := encodesSameByPointer(tt.typ); got != tt.want {
			t.Errorf("encodesSameByPointer(%v) = %v, want %v", tt.typ, got, tt.want)
		}
	}
	cs := &CloneSet[withPtr]{Name: "demo", Replicas: 1, Template: withPtr{A: ptrMarshaled{X: 1}}}
	b, err := json.Marshal(cs.Template)
	if err != nil {
		t.Fatal(err)
	}
	data, err := RevisionData(b)
	if err != nil {
		t.Fatal(err)
	}
	want := RevisionName("demo", HashRevision(data, 0))
	var p Planner[withPtr]
	for i := range 2 {
		s, err := p.Plan(cs, nil, nil, t0)
		if err != nil {
			t.Fatal(err)
		}
		if s.Revs.Update != want || string(s.Revisions[0].Data) != string(data) {
			t.Errorf("Plan #%d of a template %s: update revision %s with data %s; want %s with %s", i+1, b, s.Revs.Update, s.Revisions[0].Data, want, data)
		}
	}
}
