package deep

import (
	"math"
	"reflect"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// rawKinds has a field of every kind equalFields reads from memory, and
// no Equal methods, so that comparing values in place (addressable, read
// from memory) and inside interfaces (not addressable, read through
// reflection) must agree.
type rawKinds struct {
	B   bool
	I8  int8
	U16 uint16
	I32 int32
	I   int
	U64 uint64
	Up  uintptr
	F32 float32
	F64 float64
	S   string
	P   *int
	M   map[string]int
	Sl  []string
	If  any
	C   complex128
	Ch  chan int
	Un  unsafe.Pointer
	Fn  func()
	Arr [2]int8
	N   struct{ X, Y string }
	u   uint32
}

func genRawKinds() *rapid.Generator[rawKinds] {
	one, two := 1, 1
	ch := make(chan int)
	floats := []float64{0, math.Copysign(0, -1), 1, math.NaN()}
	return rapid.Custom(func(t *rapid.T) rawKinds {
		var r rawKinds
		r.B = rapid.Bool().Draw(t, "B")
		r.I8 = rapid.Int8Range(0, 1).Draw(t, "I8")
		r.U16 = rapid.Uint16Range(0, 1).Draw(t, "U16")
		r.I32 = rapid.Int32Range(-1, 1).Draw(t, "I32")
		r.I = rapid.IntRange(-1, 0).Draw(t, "I")
		r.U64 = rapid.Uint64Range(0, 1).Draw(t, "U64")
		r.Up = uintptr(rapid.IntRange(0, 1).Draw(t, "Up"))
		r.F32 = float32(rapid.SampledFrom(floats).Draw(t, "F32"))
		r.F64 = rapid.SampledFrom(floats).Draw(t, "F64")
		r.S = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "S")
		r.P = rapid.SampledFrom([]*int{nil, &one, &two}).Draw(t, "P")
		r.M = rapid.SampledFrom([]map[string]int{nil, {}, {"a": 1}}).Draw(t, "M")
		r.Sl = rapid.SampledFrom([][]string{nil, {}, {"a"}}).Draw(t, "Sl")
		r.If = rapid.SampledFrom([]any{nil, 1, int64(1), "a", &one}).Draw(t, "If")
		r.C = complex(rapid.SampledFrom(floats).Draw(t, "C"), 0)
		r.Ch = rapid.SampledFrom([]chan int{nil, ch}).Draw(t, "Ch")
		r.Un = unsafe.Pointer(rapid.SampledFrom([]*int{nil, &one}).Draw(t, "Un"))
		r.Arr[1] = rapid.Int8Range(0, 1).Draw(t, "Arr")
		r.N.Y = rapid.SampledFrom([]string{"", "y"}).Draw(t, "N")
		r.u = rapid.Uint32Range(0, 1).Draw(t, "u")
		return r
	})
}

func TestEqualFieldsMatchesReflection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genRawKinds().Draw(t, "a")
		// b is a with at most one exported field drawn again.
		b := a
		if k := rapid.IntRange(-1, 19).Draw(t, "field"); k >= 0 {
			c := genRawKinds().Draw(t, "c")
			reflect.ValueOf(&b).Elem().Field(k).Set(reflect.ValueOf(c).Field(k))
		}
		var ia, ib any = a, b
		inPlace, inInterface := equalIgnoringHash(&a, &b), equalIgnoringHash(&ia, &ib)
		if inPlace != inInterface {
			t.Fatalf("equalIgnoringHash(&a, &b) = %v, but in interfaces %v", inPlace, inInterface)
		}
		var s, si walker
		s.strict, si.strict = true, true
		strictInPlace := s.equal(ptrValue(&a), ptrValue(&b), infoOf(ptrValue(&a).Type()))
		strictInInterface := si.equal(ptrValue(&ia).Elem(), ptrValue(&ib).Elem(), infoOf(ptrValue(&a).Type()))
		if strictInPlace != strictInInterface {
			t.Fatalf("identical(a, b) = %v, but in interfaces %v", strictInPlace, strictInInterface)
		}
	})
}

// ptrValue returns the addressable value *p.
func ptrValue[T any](p *T) reflect.Value { return reflect.ValueOf(p).Elem() }
