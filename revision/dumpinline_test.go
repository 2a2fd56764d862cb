package revision

import (
	"reflect"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
	"pgregory.net/rapid"
)

// flatNode holds structs inline, two levels deep, with what changes a
// rendering's state inside them: pointers that may be shared or lead back
// to the node (followed pointers and their cleanup at inner depths), an
// array of nil pointers (whose zero value hides the types of the fields
// after it, in the middle of an inner struct), a float (whose zero value
// is not rendered from a cached segment), an unexported inner struct, and
// a wide inner struct.
type flatNode struct {
	Name string
	In   struct {
		P    *flatNode
		Nils [1]*int
		Q    *int
		S    string
	}
	Deep struct {
		Mid struct {
			P *flatNode
			N int32
			F float64
		}
		R *int
		// Nils may leave the types hidden for hidden's fields.
		Nils []*int
	}
	hidden struct {
		Keys map[methodKey]int
		B    bool
	}
	Wide  wideStruct
	After *int
	// Tail ends the node inside an inner struct, after a field that may
	// leave the types hidden for what follows the node.
	Tail struct{ Nils []*int }
}

// wideStruct has more fields than a uint64 has bits, with the fields of
// flatNode: a renderer that tracks zero fields in a mask must cope.
type wideStruct struct {
	A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P     *int
	A1, B1, C1, D1, E1, F1, G1, H1, I1, J1, K1, L1     string
	M1, N1, O1, P1, A2, B2, C2, D2, E2, F2, G2, H2     int64
	I2, J2, K2, L2, M2, N2, O2, P2, A3, B3, C3, D3, E3 bool
	Inner                                              struct{ X, Y *int }
}

// genFlatNode draws a flatNode whose fields are each set or left zero,
// with pointers into a small shared pool (so that some are shared) and
// back to the root (a cycle).
func genFlatNode() *rapid.Generator[*flatNode] {
	return rapid.Custom(func(t *rapid.T) *flatNode {
		one, two := 1, 2
		root := &flatNode{}
		ints := []*int{nil, &one, &two}
		nodes := []*flatNode{nil, root, {Name: "leaf"}, {Name: "hiding", Tail: struct{ Nils []*int }{[]*int{nil}}}}
		set := func(name string) bool { return rapid.Bool().Draw(t, name) }
		pickInt := func(name string) *int { return rapid.SampledFrom(ints).Draw(t, name) }
		pickNode := func(name string) *flatNode { return rapid.SampledFrom(nodes).Draw(t, name) }
		if set("Name") {
			root.Name = "root"
		}
		root.In.P = pickNode("In.P")
		if set("In.Nils") {
			root.In.Nils[0] = &one
		}
		root.In.Q = pickInt("In.Q")
		if set("In.S") {
			root.In.S = "s"
		}
		root.Deep.Mid.P = pickNode("Deep.Mid.P")
		root.Deep.Mid.N = rapid.Int32Range(0, 2).Draw(t, "Deep.Mid.N")
		if set("Deep.Mid.F") {
			root.Deep.Mid.F = 0.5
		}
		root.Deep.R = pickInt("Deep.R")
		if set("Deep.Nils") {
			root.Deep.Nils = []*int{&two, nil}
		}
		if set("hidden.Keys") {
			root.hidden.Keys = map[methodKey]int{{1}: 1, {2}: 2}
		}
		root.hidden.B = set("hidden.B")
		root.Wide.C = pickInt("Wide.C")
		if set("Wide.K1") {
			root.Wide.K1 = "k"
		}
		root.Wide.D3 = set("Wide.D3")
		root.Wide.Inner.Y = pickInt("Wide.Inner.Y")
		root.After = pickInt("After")
		if set("Tail.Nils") {
			root.Tail.Nils = []*int{&one, nil}
		}
		return root
	})
}

func TestDumpMatchesReferenceOnInlineStructs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := genFlatNode().Draw(t, "node")
		for _, rv := range []reflect.Value{reflect.ValueOf(n).Elem(), reflect.ValueOf(*n), reflect.ValueOf(n)} {
			want := refDump(rv)
			if got := deep.Render(rv); string(got) != string(want) {
				t.Fatalf("deep.Render(%v) =\n%s\nreference\n%s", rv.Type(), got, want)
			}
			if got, want := deep.Hash(rv), fnvBytes(fnvOffset32, want); got != want {
				t.Fatalf("deep.Hash(%v) = %d, FNV-32a of the reference rendering %d", rv.Type(), got, want)
			}
		}
	})
}
