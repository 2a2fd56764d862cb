package cloneset

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// settledPlanner10 is a CloneSet of 10 pods at rest on nginx:1.25 (its
// status written, its only revision current), its pods and revisions.
func settledPlanner10(tb testing.TB) (*CloneSet[podTemplate], []Pod, []ControllerRevision) {
	r1 := revisionOf(tb, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 10, Template: templateOf("nginx:1.25")}
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

// BenchmarkPlanner: a controller's loop over a CloneSet of 10 pods at
// rest: Planner.Plan on the state the last sync left, without reasons.
func BenchmarkPlanner(b *testing.B) {
	cs, pods, revs := settledPlanner10(b)
	var p Planner[podTemplate]
	b.ReportAllocs()
	for b.Loop() {
		s, err := p.Plan(cs, pods, revs, t0)
		if err != nil {
			b.Fatal(err)
		}
		cs, pods, revs = &s.CloneSet, s.Pods, s.Revisions
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
