package report

import (
	"bytes"
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

func TestSetBounds(t *testing.T) {
	tests := []struct {
		name                string
		recreate            bool
		replicas            int32
		surge, unavailable  int32
		wantCeil, wantFloor int64
		reason              string
	}{
		{name: "rolling update", replicas: 10, surge: 3, unavailable: 2, wantCeil: 13, wantFloor: 8},
		{name: "Recreate", recreate: true, replicas: 10, wantCeil: 10, wantFloor: 0, reason: "no surge, no pods kept available"},
		{name: "beyond int32", replicas: math.MaxInt32, surge: math.MaxInt32, unavailable: 1, wantCeil: 2 * math.MaxInt32, wantFloor: math.MaxInt32 - 1,
			reason: "the ceiling is 64-bit, so it shows the sum the library saturates"},
	}
	for _, tt := range tests {
		s := Step{Replicas: tt.replicas}
		s.SetBounds(tt.recreate, tt.surge, tt.unavailable)
		if s.Ceiling != tt.wantCeil || s.Floor != tt.wantFloor || s.MaxSurge != tt.surge || s.MaxUnavailable != tt.unavailable {
			t.Errorf("%s: SetBounds(%v, %d, %d) on R %d = %+v, want ceiling %d, floor %d (%s)",
				tt.name, tt.recreate, tt.surge, tt.unavailable, tt.replicas, s, tt.wantCeil, tt.wantFloor, tt.reason)
		}
	}
}

func TestStepCounts(t *testing.T) {
	s := Step{Terminating: 2, ReplicaSets: []ReplicaSet{
		{Name: "a", Current: math.MaxInt32, Available: math.MaxInt32},
		{Name: "b", Current: 5, Available: 3},
	}}
	if got, want := s.Pods(), int64(math.MaxInt32)+7; got != want {
		t.Errorf("Pods() = %d, want %d (64-bit sum, terminating included)", got, want)
	}
	if got, want := s.AvailablePods(), int64(math.MaxInt32)+3; got != want {
		t.Errorf("AvailablePods() = %d, want %d", got, want)
	}
	if rs, ok := s.Row("b"); !ok || rs.Current != 5 {
		t.Errorf("Row(b) = %+v, %v; want b with 5 current", rs, ok)
	}
	if _, ok := s.Row("c"); ok {
		t.Errorf("Row(c) found a ReplicaSet that is not there")
	}
	tr := Trace{Steps: []Step{{ReplicaSets: []ReplicaSet{{Name: "a"}}}, {ReplicaSets: []ReplicaSet{{Name: "b"}, {Name: "a"}}}}}
	if got := tr.Names(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("Names() = %q, want [a b] in order of first appearance", got)
	}
}

func TestWriteKeepsArrowsReadable(t *testing.T) {
	var buf bytes.Buffer
	tr := Trace{Deployment: "web", FromImage: "web:1", ToImage: "web:2",
		Steps: []Step{{Reasons: []string{"image web:1 -> web:2"}, Actions: []rollout.Action{}}}}
	if err := Write(&buf, &tr); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"image web:1 -> web:2"`)) || bytes.Contains(buf.Bytes(), []byte(`"capacity"`)) {
		t.Errorf("Write = %s; want -> unescaped and no capacity key when Capacity is nil", buf.Bytes())
	}
}
