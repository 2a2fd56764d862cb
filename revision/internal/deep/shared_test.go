package deep

import (
	"reflect"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// hashLabel is the label revision.EqualIgnoreHash ignores.
const hashLabel = "pod-template-hash"

// equalIgnoringHash is revision.EqualIgnoreHash for a type without a
// registered comparator.
func equalIgnoringHash[T any](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a == b || Equal(a, b, hashLabel)
}

// quantity is a resource.Quantity-like value: two quantities are Equal
// when they are the same amount, however they are written.
type quantity struct {
	milli int64  // the amount in thousandths
	text  string // how it was written, "1" or "1000m"
}

// Equal reports whether q and o are the same amount.
func (q quantity) Equal(o quantity) bool { return q.milli == o.milli }

// callBudget counts the calls of countedAmount.Equal; past limit, Equal
// answers false, so that a comparison that would run exponentially long
// stops early (and the test fails on its count, not on a timeout).
type callBudget struct{ calls, limit int }

// countedAmount is a quantity-like value whose Equal method counts its
// calls.
type countedAmount struct {
	milli  int64
	text   string
	budget *callBudget
}

// Equal reports whether c and o are the same amount, within the budget.
func (c countedAmount) Equal(o countedAmount) bool {
	c.budget.calls++
	return c.budget.calls <= c.budget.limit && c.milli == o.milli
}

// sharedChain is a value whose two branches point to the same value at
// every level: depth d holds d+1 distinct nodes, but a walk that does not
// remember the pairs it compared visits 2^(d+1)-1.
type sharedChain struct {
	Amount countedAmount
	L, R   *sharedChain
}

func sharedChainOf(depth int, text string, budget *callBudget) *sharedChain {
	n := &sharedChain{Amount: countedAmount{1000, text, budget}}
	for range depth {
		n = &sharedChain{Amount: countedAmount{1000, text, budget}, L: n, R: n}
	}
	return n
}

// TestEqualComparesSharedPairsOnce checks that the cost of
// comparing values that share pointers is polynomial: each node of the two
// chains is spelled differently ("1" against "1000m"), so every pair of
// nodes compared calls Equal once, and a depth-30 chain must make about
// depth+1 calls (plus at most memoAfter before remembering starts), not
// 2^31.
func TestEqualComparesSharedPairsOnce(t *testing.T) {
	const depth = 30
	budget := &callBudget{limit: 1 << 20}
	a, b := sharedChainOf(depth, "1", budget), sharedChainOf(depth, "1000m", budget)
	if !equalIgnoringHash(a, b) {
		t.Errorf("equalIgnoringHash(chain %q, chain %q) = false after %d Equal calls, want true", "1", "1000m", budget.calls)
	}
	if want := memoAfter + 2*(depth+1); budget.calls > want {
		t.Errorf("Equal on depth-%d shared chains called Equal %d times, want at most %d", depth, budget.calls, want)
	}

	// The same once the pairs are remembered from the start: exactly one
	// call per pair of nodes.
	budget.calls = 0
	w := walker{seen: map[visit]struct{}{}}
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	if !w.equal(va, vb, infoOf(va.Type())) {
		t.Errorf("walker with memory: chains differ after %d Equal calls, want equal", budget.calls)
	}
	if budget.calls != depth+1 {
		t.Errorf("walker with memory called Equal %d times on depth-%d chains, want %d", budget.calls, depth, depth+1)
	}
}

// BenchmarkEqualSharedChain measures the comparison of two
// chains whose branches share a pointer at every level (see sharedChain).
func BenchmarkEqualSharedChain(b *testing.B) {
	for _, depth := range []int{10, 20, 30} {
		b.Run("depth "+strconv.Itoa(depth), func(b *testing.B) {
			budget := &callBudget{limit: int(^uint(0) >> 1)}
			x, y := sharedChainOf(depth, "1", budget), sharedChainOf(depth, "1000m", budget)
			b.ReportAllocs()
			for b.Loop() {
				if !equalIgnoringHash(x, y) {
					b.Fatal("shared chains differ")
				}
			}
		})
	}
}

// dagNode is a value whose pointers, slices and maps the generator shares
// between nodes, so that the same pair of references is reached more than
// once, through exported and unexported fields alike.
type dagNode struct {
	Name  string
	Q     *quantity // its Equal method is used: "1" equals "1000m"
	q     *quantity // unexported: compared field by field, "1" differs from "1000m"
	Kids  []*dagNode
	ByKey map[string]*dagNode
	L, R  *dagNode
}

// genDAG draws a pool of nodes, each pointing only to nodes drawn before
// it, sharing quantities, kid slices (also with other lengths over the
// same array) and maps between them.
func genDAG(t *rapid.T) []*dagNode {
	quantities := []*quantity{nil, {1000, "1"}, {1000, "1000m"}, {2000, "2"}}
	n := rapid.IntRange(1, 6).Draw(t, "nodes")
	nodes := make([]*dagNode, 0, n)
	earlier := func(label string) *dagNode {
		i := rapid.IntRange(-1, len(nodes)-1).Draw(t, label)
		if i < 0 {
			return nil
		}
		return nodes[i]
	}
	for range n {
		d := &dagNode{
			Name: rapid.SampledFrom([]string{"", "x"}).Draw(t, "Name"),
			Q:    rapid.SampledFrom(quantities).Draw(t, "Q"),
		}
		// Often the same quantity in both fields, so that one pair of
		// pointers is reached through an exported and an unexported field.
		if d.q = d.Q; rapid.Bool().Draw(t, "qDiffers") {
			d.q = rapid.SampledFrom(quantities).Draw(t, "q")
		}
		switch k := rapid.IntRange(0, 3).Draw(t, "kidsKind"); {
		case k == 1 && len(nodes) > 0:
			// A prefix of another node's kids: the same array, maybe
			// another length.
			from := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "kidsFrom")]
			d.Kids = from.Kids[:rapid.IntRange(0, len(from.Kids)).Draw(t, "kidsLen")]
		case k >= 2:
			for range rapid.IntRange(0, 2).Draw(t, "kids") {
				d.Kids = append(d.Kids, earlier("kid"))
			}
		}
		switch k := rapid.IntRange(0, 2).Draw(t, "byKeyKind"); {
		case k == 1 && len(nodes) > 0:
			d.ByKey = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "byKeyFrom")].ByKey
		case k == 2:
			d.ByKey = map[string]*dagNode{"a": earlier("byKeyA")}
			if rapid.Bool().Draw(t, "byKeyB") {
				d.ByKey["b"] = earlier("byKeyB")
			}
		}
		d.L, d.R = earlier("L"), earlier("R")
		nodes = append(nodes, d)
	}
	return nodes
}

// unshare returns a deep copy of n that shares no memory with n, nor
// within itself: a tree.
func unshare(n *dagNode) *dagNode {
	if n == nil {
		return nil
	}
	c := &dagNode{Name: n.Name, L: unshare(n.L), R: unshare(n.R)}
	if n.Q != nil {
		q := *n.Q
		c.Q = &q
	}
	if n.q != nil {
		q := *n.q
		c.q = &q
	}
	if n.Kids != nil {
		c.Kids = make([]*dagNode, len(n.Kids))
		for i, k := range n.Kids {
			c.Kids[i] = unshare(k)
		}
	}
	if n.ByKey != nil {
		c.ByKey = make(map[string]*dagNode, len(n.ByKey))
		for k, v := range n.ByKey {
			c.ByKey[k] = unshare(v)
		}
	}
	return c
}

// TestEqualOnSharedPointersEqualsOnUnsharedCopies checks that
// remembering the pairs already compared never changes a result: two
// values that share references compare as their unshared deep copies do,
// both through Equal and with a walker that remembers every pair
// from the start.
func TestEqualOnSharedPointersEqualsOnUnsharedCopies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genDAG(t)
		a := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "a")]
		b := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "b")]
		want := equalIgnoringHash(unshare(a), unshare(b))
		if got := equalIgnoringHash(a, b); got != want {
			t.Fatalf("equalIgnoringHash(a, b) = %v, on unshared copies %v", got, want)
		}
		w := walker{seen: map[visit]struct{}{}}
		va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
		if got := w.equal(va, vb, infoOf(va.Type())); got != want {
			t.Fatalf("walker remembering every pair: a equal b = %v, on unshared copies %v", got, want)
		}
	})
}

// TestEqualRemembersPairsByFieldAndLength holds the cases where
// remembering a pair of references by their addresses alone would be
// wrong: the same pair compared again through an unexported field, where
// Equal methods are not used, and two slices over the same arrays with
// other lengths.
func TestEqualRemembersPairsByFieldAndLength(t *testing.T) {
	one, milli := &quantity{1000, "1"}, &quantity{1000, "1000m"}
	x1, x2 := &dagNode{Name: "x"}, &dagNode{Name: "x"}
	arrA, arrB := []*dagNode{x1, {Name: "a"}}, []*dagNode{x2, {Name: "b"}}
	tests := []struct {
		name   string
		a, b   *dagNode
		want   bool
		reason string
	}{{
		name:   "same quantities through Q then q",
		a:      &dagNode{Q: one, q: one},
		b:      &dagNode{Q: milli, q: milli},
		want:   false,
		reason: "Q compares with quantity.Equal (equal), but q is unexported and compares field by field (\"1\" differs from \"1000m\")",
	}, {
		name:   "same arrays, longer the second time",
		a:      &dagNode{L: &dagNode{Kids: arrA[:1]}, R: &dagNode{Kids: arrA[:2]}},
		b:      &dagNode{L: &dagNode{Kids: arrB[:1]}, R: &dagNode{Kids: arrB[:2]}},
		want:   false,
		reason: "the first elements are equal, the second ones differ",
	}, {
		name:   "same arrays, same lengths",
		a:      &dagNode{L: &dagNode{Kids: arrA[:1]}, R: &dagNode{Kids: arrA[:1]}},
		b:      &dagNode{L: &dagNode{Kids: arrB[:1]}, R: &dagNode{Kids: arrB[:1]}},
		want:   true,
		reason: "the pair of slices is compared once and is equal",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := equalIgnoringHash(unshare(tt.a), unshare(tt.b)); got != tt.want {
				t.Fatalf("Equal on unshared copies = %v, want %v (%s)", got, tt.want, tt.reason)
			}
			if got := equalIgnoringHash(tt.a, tt.b); got != tt.want {
				t.Errorf("equalIgnoringHash(a, b) = %v, want %v (%s)", got, tt.want, tt.reason)
			}
			w := walker{seen: map[visit]struct{}{}}
			va, vb := reflect.ValueOf(tt.a).Elem(), reflect.ValueOf(tt.b).Elem()
			if got := w.equal(va, vb, infoOf(va.Type())); got != tt.want {
				t.Errorf("walker remembering every pair: a equal b = %v, want %v (%s)", got, tt.want, tt.reason)
			}
		})
	}
}
