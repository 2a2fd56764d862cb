package revision

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
)

// methodKey is a map key of a kind go-spew sorts by its rendering, whose
// String method orders keys the other way round from its fields, so that
// a rendering that calls String where it must not, or fails to where it
// must, puts the entries in another order.
type methodKey struct{ N int }

func (k methodKey) String() string { return string(rune('z' - k.N)) }

// hiddenParts reaches maps, pointers, slices and interfaces through
// unexported fields, directly and inside exported fields of structs held
// by unexported fields, where the renderer must keep what reflection marks
// as reached through an unexported field: it does not call the String
// methods of those keys.
type hiddenParts struct {
	Keys   map[methodKey]int
	keys   map[methodKey]int
	inner  struct{ Keys map[methodKey]int }
	ptr    *struct{ Keys map[methodKey]int }
	list   []struct{ Keys map[methodKey]int }
	iface  any
	labels map[string]string
	Shown  struct {
		keys map[methodKey]int
		Ptr  *hiddenParts
	}
	arr [2]struct{ Keys map[methodKey]int }
	// nested and deep are comparable structs held inline.
	nested struct {
		deep struct{ P *keyed }
		P    *keyed
	}
}

// keyed holds a map with methodKey keys.
type keyed struct{ Keys map[methodKey]int }

func TestDumpKeepsUnexportedMarks(t *testing.T) {
	keys := map[methodKey]int{{1}: 1, {2}: 2, {3}: 3}
	v := hiddenParts{
		Keys:   keys,
		keys:   keys,
		inner:  struct{ Keys map[methodKey]int }{keys},
		ptr:    &struct{ Keys map[methodKey]int }{keys},
		list:   []struct{ Keys map[methodKey]int }{{keys}, {nil}},
		iface:  &struct{ Keys map[methodKey]int }{keys},
		labels: map[string]string{"b": "2", "a": "1"},
		arr:    [2]struct{ Keys map[methodKey]int }{{keys}, {}},
	}
	v.Shown.keys = keys
	v.nested.deep.P, v.nested.P = &keyed{keys}, &keyed{keys}
	v.Shown.Ptr = &hiddenParts{Keys: keys, keys: keys}
	for _, tc := range []struct {
		name string
		v    reflect.Value
	}{
		{"not addressable", reflect.ValueOf(v)},
		{"addressable", addressable(reflect.ValueOf(v))},
		{"through a slice", reflect.ValueOf([]hiddenParts{v, {}})},
		{"through an interface", reflect.ValueOf([]any{v, &v})},
	} {
		want := refDump(tc.v)
		if got := deep.Render(tc.v); string(got) != string(want) {
			t.Errorf("deep.Render(%s) =\n%s\nreference\n%s", tc.name, got, want)
		}
		if got, want := deep.Hash(tc.v), fnvBytes(fnvOffset32, want); got != want {
			t.Errorf("deep.Hash(%s) = %d, FNV-32a of the reference rendering %d", tc.name, got, want)
		}
	}
}

// sortsInPlace is the largest map with string keys whose entries the
// renderer sorts without allocating.
const sortsInPlace = 16

func TestDumpSortsStringMapsOfEverySize(t *testing.T) {
	for _, n := range []int{0, 1, 2, sortsInPlace, sortsInPlace + 1, 40} {
		m := map[string]string{}
		for i := range n {
			m["k"+strconv.Itoa((i*7)%n)] = strconv.Itoa(i)
		}
		v := struct {
			Labels map[string]string
			Named  map[dumpName]dumpName
		}{Labels: m, Named: map[dumpName]dumpName{}}
		for k, e := range m {
			v.Named[dumpName(k)] = dumpName(e)
		}
		for _, rv := range []reflect.Value{reflect.ValueOf(v), addressable(reflect.ValueOf(v))} {
			want := refDump(rv)
			if got := deep.Render(rv); string(got) != string(want) {
				t.Errorf("dump of %d labels =\n%s\nreference\n%s", n, got, want)
			}
			if got, want := deep.Hash(rv), fnvBytes(fnvOffset32, want); got != want {
				t.Errorf("hashDump of %d labels = %d, FNV-32a of the reference rendering %d", n, got, want)
			}
		}
	}
}

func TestHashAllocatesOnlyItsResult(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	realistic := realisticTemplate()
	one := 1
	flat := flatNode{Name: "n", After: &one}
	flat.In.S = "s"
	flat.In.P = &flatNode{Name: "leaf"}
	flat.Deep.Nils = []*int{nil, &one}
	flat.hidden.B = true
	private := hiddenParts{labels: map[string]string{"b": "2", "a": "1"}}
	tests := []struct {
		name   string
		hash   func() string
		allocs float64
		reason string
	}{
		{"realistic template", func() string { return Hash(&realistic, nil) }, 1, "the result"},
		{"realistic template, collision count", func() string { return Hash(&realistic, new(int32)) }, 1, "the result"},
		{"string map behind an unexported field", func() string { return Hash(&private, nil) }, 7,
			"reflection copies out the keys and values of a map reached through an unexported field: the result, the key slice, 2 keys, the sort's interface, 2 values"},
		{"inner structs, pointers and slices", func() string { return Hash(&flat, nil) }, 1, "the result"},
	}
	for _, tt := range tests {
		tt.hash() // first use builds the type's cached description
		if n := testing.AllocsPerRun(100, func() { _ = tt.hash() }); n != tt.allocs {
			t.Errorf("Hash(%s) allocates %v times per call, want %v (%s)", tt.name, n, tt.allocs, tt.reason)
		}
	}
}
