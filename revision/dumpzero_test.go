package revision

import (
	"reflect"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
	"pgregory.net/rapid"
)

// addressable returns a copy of v in addressable memory, as every
// template Hash is given is.
func addressable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// zeroRuns has runs of zero fields broken in every way that matters to a
// renderer that writes zero fields as cached text: a zero field after
// which the types stop showing (an array of nil pointers), fields of
// kinds handled apart (an interface, a func, a float), a zero-size
// field, and structs nested in structs.
type zeroRuns struct {
	A     *int
	B     string
	Nils  [2]*int
	C     int32
	D     map[string]string
	If    any
	E     []string
	Fn    func()
	F     float64
	G     struct{}
	Inner struct {
		X, Y *int
		Z    [2]*int
		W    string
	}
	H  uint8
	I  *zeroRuns
	J  [3]string
	K  []*int
	L  bool
	M  map[string]int
	Ch chan int
}

func zeroRunValues() map[string]zeroRuns {
	one := 1
	return map[string]zeroRuns{
		"zero":          {},
		"first set":     {A: &one},
		"middle set":    {C: 3, If: 1},
		"nils half set": {Nils: [2]*int{nil, &one}, J: [3]string{"", "j"}},
		"inner set": {Inner: struct {
			X, Y *int
			Z    [2]*int
			W    string
		}{Y: &one, W: "w"}},
		"empty not nil":  {D: map[string]string{}, E: []string{}, K: []*int{nil}, M: map[string]int{}},
		"nested":         {I: &zeroRuns{B: "b", I: &zeroRuns{}}, L: true},
		"float and func": {F: 0.5, Fn: func() {}, Ch: make(chan int)},
		"last set":       {Ch: make(chan int), M: map[string]int{"a": 1}},
		"byte set":       {H: 1},
	}
}

func TestDumpAddressableMatchesReference(t *testing.T) {
	values := map[string]any{}
	for name, v := range dumpQuirkValues() {
		values[name] = v
	}
	for name, v := range zeroRunValues() {
		values["zero runs: "+name] = v
	}
	for name, v := range values {
		rv := addressable(reflect.ValueOf(v))
		want := refDump(rv)
		if got := deep.Render(rv); string(got) != string(want) {
			t.Errorf("deep.Render(%s) addressable =\n%s\nreference\n%s", name, got, want)
		}
		if got, want := deep.Hash(rv), fnvBytes(fnvOffset32, want); got != want {
			t.Errorf("deep.Hash(%s) addressable = %d, FNV-32a of the reference rendering %d", name, got, want)
		}
	}
}

func TestDumpAddressableMatchesReferenceOnGeneratedTemplates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "template")
		rv := reflect.ValueOf(&a).Elem()
		want := refDump(rv)
		if got := deep.Render(rv); string(got) != string(want) {
			t.Fatalf("deep.Render(&template) =\n%s\nreference\n%s", got, want)
		}
		if got, want := Hash(&a, nil), hashSum(fnvBytes(fnvOffset32, want), nil); got != want {
			t.Fatalf("Hash(&template) = %q, from the reference rendering %q", got, want)
		}
	})
}

// genZeroRuns draws a zeroRuns whose fields each hold a zero or a
// non-zero value, so that the struct shows many patterns of zero
// fields.
func genZeroRuns() *rapid.Generator[zeroRuns] {
	one, ch := 1, make(chan int)
	return rapid.Custom(func(t *rapid.T) zeroRuns {
		set := func(name string) bool { return rapid.Bool().Draw(t, name) }
		var z zeroRuns
		if set("A") {
			z.A = &one
		}
		if set("B") {
			z.B = "b"
		}
		if set("Nils") {
			z.Nils[1] = &one
		}
		if set("C") {
			z.C = -1
		}
		if set("D") {
			z.D = map[string]string{}
		}
		if set("If") {
			z.If = 0
		}
		if set("E") {
			z.E = []string{"e"}
		}
		if set("F") {
			z.F = 1
		}
		if set("Inner") {
			z.Inner.Y = &one
		}
		if set("H") {
			z.H = 1
		}
		if set("I") {
			z.I = &zeroRuns{L: true}
		}
		if set("J") {
			z.J[2] = "j"
		}
		if set("K") {
			z.K = []*int{}
		}
		if set("L") {
			z.L = true
		}
		if set("Ch") {
			z.Ch = ch
		}
		return z
	})
}

func TestDumpMatchesReferenceOnZeroPatterns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		z := genZeroRuns().Draw(t, "z")
		rv := reflect.ValueOf(&z).Elem()
		want := refDump(rv)
		if got := deep.Render(rv); string(got) != string(want) {
			t.Fatalf("deep.Render(&z) =\n%s\nreference\n%s", got, want)
		}
		if got, want := deep.Hash(rv), fnvBytes(fnvOffset32, want); got != want {
			t.Fatalf("deep.Hash(&z) = %d, FNV-32a of the reference rendering %d", got, want)
		}
	})
}
