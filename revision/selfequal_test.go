package revision

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// weight is a value whose own Equal method takes two NaNs as equal.
type weight struct{ v float64 }

// Equal reports whether w and o are the same weight, NaN equal to NaN.
func (w weight) Equal(o weight) bool { return w.v == o.v || math.IsNaN(w.v) && math.IsNaN(o.v) }

// strictWeight is a value whose own Equal method compares with ==, so
// that NaN differs from NaN.
type strictWeight struct{ v float64 }

// Equal reports whether w and o are the same weight.
func (w strictWeight) Equal(o strictWeight) bool { return w.v == o.v }

// selfNode holds every kind of value that can fail to equal its copy, and
// the same kinds where EqualIgnoreHash does not look (behind an Equal
// method).
type selfNode struct {
	F    float64
	C    complex64
	Fn   func()
	Any  any
	W    *weight // compared with weight.Equal: NaN equals NaN
	w    weight  // unexported: field by field, NaN differs
	wp   *weight // unexported, often the same pointer as W
	S    strictWeight
	Q    quantity
	ByF  map[float64]string
	ByS  map[string]weight // small map: addressable copies, so weight.Equal is used
	Kids []*selfNode
	Next *selfNode
}

// copySelfNode returns a deep copy of n that shares no pointer, slice or
// map with it (map keys, funcs kept).
func copySelfNode(n *selfNode) *selfNode {
	if n == nil {
		return nil
	}
	c := *n
	if n.W != nil {
		w := *n.W
		c.W = &w
	}
	if n.wp != nil {
		w := *n.wp
		c.wp = &w
	}
	if a, ok := n.Any.(*selfNode); ok {
		c.Any = copySelfNode(a)
	}
	if n.ByF != nil {
		c.ByF = make(map[float64]string, len(n.ByF))
		for k, v := range n.ByF {
			c.ByF[k] = v
		}
	}
	if n.ByS != nil {
		c.ByS = make(map[string]weight, len(n.ByS))
		for k, v := range n.ByS {
			c.ByS[k] = v
		}
	}
	if n.Kids != nil {
		c.Kids = make([]*selfNode, len(n.Kids))
		for i, k := range n.Kids {
			c.Kids[i] = copySelfNode(k)
		}
	}
	c.Next = copySelfNode(n.Next)
	return &c
}

// genSelfNode draws a tree of selfNodes of the given depth, some sharing a
// pointer, with at most one NaN or non-nil func, at a drawn site, so that
// the property sees each site alone.
func genSelfNode(depth int) *rapid.Generator[*selfNode] {
	return rapid.Custom(func(t *rapid.T) *selfNode {
		bad := rapid.IntRange(-1, 40).Draw(t, "badSite")
		site := -1
		float := func() float64 {
			site++
			if site == bad {
				return math.NaN()
			}
			return float64(rapid.IntRange(0, 1).Draw(t, "float"))
		}
		var build func(depth int) *selfNode
		build = func(depth int) *selfNode {
			if rapid.IntRange(0, 3).Draw(t, "nil") == 0 {
				return nil
			}
			n := &selfNode{
				F: float(),
				C: complex(float32(float()), float32(float())),
				w: weight{float()},
				Q: quantity{1000, rapid.SampledFrom([]string{"1", "1000m"}).Draw(t, "Q")},
			}
			if site++; site == bad {
				n.Fn = func() {}
			}
			switch rapid.IntRange(0, 3).Draw(t, "Any") {
			case 1:
				n.Any = float()
			case 2:
				n.Any = "x"
			case 3:
				if depth > 0 {
					n.Any = build(depth - 1)
				}
			}
			if rapid.Bool().Draw(t, "W") {
				n.W = &weight{float()}
			}
			if n.wp = n.W; rapid.Bool().Draw(t, "wpDiffers") {
				n.wp = &weight{float()}
			}
			n.S = strictWeight{float()}
			if rapid.Bool().Draw(t, "ByF") {
				n.ByF = map[float64]string{}
				for range rapid.IntRange(0, 2).Draw(t, "ByFLen") {
					n.ByF[float()] = "v"
				}
			}
			if rapid.Bool().Draw(t, "ByS") {
				n.ByS = map[string]weight{"a": {float()}}
			}
			if depth > 0 {
				for range rapid.IntRange(0, 2).Draw(t, "Kids") {
					n.Kids = append(n.Kids, build(depth-1))
				}
				n.Next = build(depth - 1)
				if n.Next != nil && rapid.Bool().Draw(t, "shareNext") {
					n.Kids = append(n.Kids, n.Next) // the same pointer twice
				}
			}
			return n
		}
		return build(depth)
	})
}

// TestEqualsItselfIsEqualIgnoreHashWithADeepCopy checks EqualsItself
// against its definition: EqualIgnoreHash of the value and a deep copy.
func TestEqualsItselfIsEqualIgnoreHashWithADeepCopy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := genSelfNode(2).Draw(t, "n")
		if n == nil {
			n = &selfNode{}
		}
		want := EqualIgnoreHash(n, copySelfNode(n))
		ok, path := EqualsItself(n)
		if ok != want {
			t.Fatalf("EqualsItself = %v (%s), but EqualIgnoreHash with a deep copy = %v", ok, path, want)
		}
		if ok != (path == "") {
			t.Fatalf("EqualsItself = %v with path %q", ok, path)
		}
	})
}

func TestEqualsItself(t *testing.T) {
	nan := math.NaN()
	cyclic := &selfNode{F: nan}
	cyclic.Next = cyclic
	shared := &selfNode{}
	for range 40 {
		shared = &selfNode{Kids: []*selfNode{shared, shared}}
	}
	tests := []struct {
		name     string
		equal    func() (bool, string)
		wantOK   bool
		wantPath string
		reason   string
	}{{
		name:     "NaN in a template's spec",
		equal:    func() (bool, string) { return EqualsItself(&Template[float64]{Spec: nan}) },
		wantPath: "template.Spec (NaN)",
	}, {
		name: "hash label only",
		equal: func() (bool, string) {
			return EqualsItself(&Template[float64]{Labels: map[string]string{HashLabel: "x"}, Spec: 1})
		},
		wantOK: true,
	}, {
		name:     "non-nil func",
		equal:    func() (bool, string) { return EqualsItself(&selfNode{Fn: func() {}}) },
		wantPath: "template.Fn (non-nil func)",
	}, {
		name:     "NaN in a map key",
		equal:    func() (bool, string) { return EqualsItself(&selfNode{ByF: map[float64]string{nan: "v"}}) },
		wantPath: "template.ByF[NaN] (NaN in map key)",
	}, {
		name:     "NaN in an interface in a slice",
		equal:    func() (bool, string) { return EqualsItself(&selfNode{Kids: []*selfNode{{}, {Any: nan}}}) },
		wantPath: "template.Kids[1].Any.(float64) (NaN)",
	}, {
		name: "NaN behind an Equal method that accepts it",
		equal: func() (bool, string) {
			return EqualsItself(&selfNode{W: &weight{nan}, ByS: map[string]weight{"a": {nan}}})
		},
		wantOK: true,
		reason: "weight.Equal takes NaN as equal to NaN",
	}, {
		name:     "NaN in an unexported field with an Equal method",
		equal:    func() (bool, string) { return EqualsItself(&selfNode{w: weight{nan}}) },
		wantPath: "template.w.v (NaN)",
		reason:   "methods are not called through unexported fields",
	}, {
		name:     "Equal method of the template itself",
		equal:    func() (bool, string) { return EqualsItself(&weight{nan}) },
		wantOK:   true,
		reason:   "weight.Equal takes NaN as equal to NaN",
		wantPath: "",
	}, {
		name:     "a cycle with a NaN",
		equal:    func() (bool, string) { return EqualsItself(cyclic) },
		wantPath: "template.F (NaN)",
	}, {
		name:   "40 levels of shared pointers",
		equal:  func() (bool, string) { return EqualsItself(shared) },
		wantOK: true,
		reason: "each pointer is visited once: 2^40 paths would never finish",
	}, {
		name:   "nil",
		equal:  func() (bool, string) { return EqualsItself[selfNode](nil) },
		wantOK: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, path := tt.equal()
			if ok != tt.wantOK || path != tt.wantPath {
				t.Errorf("EqualsItself = (%v, %q), want (%v, %q) %s", ok, path, tt.wantOK, tt.wantPath, tt.reason)
			}
		})
	}
}
