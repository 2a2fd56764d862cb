package revision

import (
	"math"
	"testing"
)

// weighed holds NaN weights, whose Equal method takes as equal, in every
// kind of place, reached through exported and through unexported fields.
// EqualIgnoreHash calls the method only where the path from the template
// has no unexported field (and the value is addressable, or the method
// takes values, as weight.Equal does).
type weighed struct {
	W   weight
	P   *weight
	S   []weight
	M   map[string]weight
	A   [1]weight
	N   struct{ W weight }
	I   any
	w   weight
	p   *weight
	s   []weight
	m   map[string]weight
	a   [1]weight
	n   struct{ W weight }
	i   any
	Hid hidden
}

// hidden is reached through an exported field, but its own fields are
// unexported.
type hidden struct{ w weight }

func TestEqualIgnoreHashCallsEqualOnlyThroughExportedFields(t *testing.T) {
	nan := func() weight { return weight{math.NaN()} }
	tests := []struct {
		name string
		set  func(*weighed)
		want bool
	}{
		{"exported field", func(x *weighed) { x.W = nan() }, true},
		{"exported pointer", func(x *weighed) { w := nan(); x.P = &w }, true},
		{"exported slice", func(x *weighed) { x.S = []weight{nan()} }, true},
		{"exported map", func(x *weighed) { x.M = map[string]weight{"a": nan()} }, true},
		{"exported array", func(x *weighed) { x.A[0] = nan() }, true},
		{"exported nested struct", func(x *weighed) { x.N.W = nan() }, true},
		{"exported interface", func(x *weighed) { x.I = nan() }, true},
		{"unexported field", func(x *weighed) { x.w = nan() }, false},
		{"unexported pointer", func(x *weighed) { w := nan(); x.p = &w }, false},
		{"unexported slice", func(x *weighed) { x.s = []weight{nan()} }, false},
		{"unexported map", func(x *weighed) { x.m = map[string]weight{"a": nan()} }, false},
		{"unexported array", func(x *weighed) { x.a[0] = nan() }, false},
		{"unexported nested struct", func(x *weighed) { x.n.W = nan() }, false},
		{"unexported interface", func(x *weighed) { x.i = nan() }, false},
		{"unexported field of an exported one", func(x *weighed) { x.Hid.w = nan() }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b weighed
			tt.set(&a)
			tt.set(&b)
			if got := EqualIgnoreHash(&a, &b); got != tt.want {
				t.Errorf("EqualIgnoreHash(a, b) = %v, want %v", got, tt.want)
			}
			// Inside an interface, the same rules hold, through reflection.
			var ia, ib any = a, b
			if got := EqualIgnoreHash(&ia, &ib); got != tt.want {
				t.Errorf("EqualIgnoreHash(any(a), any(b)) = %v, want %v", got, tt.want)
			}
		})
	}
}
