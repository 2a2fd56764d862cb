package revision

// This file keeps the refDumper as it was before it streamed into the hash,
// as a reference that the streaming refDumper must agree with byte for byte.

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
	"pgregory.net/rapid"
)

// refDumper renders a value exactly as go-spew's Sprintf("%#v", v) does with
// the configuration upstream hashes with (SortKeys, SpewKeys,
// DisableMethods, DisablePointerAddresses, DisableCapacities): Go type
// names in parentheses, struct fields by name in declaration order,
// pointers followed, strings unquoted, map entries sorted by key.
//
// The fields mirror go-spew's formatter state, because its output depends
// on them: whether the next value's type is printed, the nesting depth, and
// the pointers already followed (for cycles).
type refDumper struct {
	buf            []byte
	depth          int
	pointers       map[uintptr]int
	ignoreNextType bool

	// methods makes the refDumper call String and Error methods, as go-spew's
	// default configuration does when it renders map keys to sort them.
	methods bool

	// active holds the maps and slices being rendered. go-spew recurses
	// forever on a map or slice that contains itself; the refDumper writes
	// "<shown>" instead, as go-spew does for pointer cycles.
	active map[uintptr]bool
}

// dump renders v, the value of a top-level template (not a pointer to it).
func refDump(v reflect.Value) []byte {
	d := refDumper{pointers: map[uintptr]int{}}
	d.top(v)
	return d.buf
}

// top renders v as go-spew renders the argument of Sprintf.
func (d *refDumper) top(v reflect.Value) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			d.buf = append(d.buf, "(interface {})<nil>"...)
			return
		}
		v = v.Elem()
	}
	d.format(v)
}

// unpack looks into a non-nil interface, and makes the type of the value
// in it show.
func (d *refDumper) unpack(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface {
		d.ignoreNextType = false
		if !v.IsNil() {
			v = v.Elem()
		}
	}
	return v
}

func (d *refDumper) formatPtr(v reflect.Value) {
	if v.IsNil() && d.ignoreNextType {
		d.buf = append(d.buf, "<nil>"...)
		return
	}
	for k, depth := range d.pointers {
		if depth >= d.depth {
			delete(d.pointers, k)
		}
	}
	nilFound, cycleFound := false, false
	indirects := 0
	ve := v
	for ve.Kind() == reflect.Pointer {
		if ve.IsNil() {
			nilFound = true
			break
		}
		indirects++
		addr := ve.Pointer()
		if pd, ok := d.pointers[addr]; ok && pd < d.depth {
			cycleFound = true
			indirects--
			break
		}
		d.pointers[addr] = d.depth
		ve = ve.Elem()
		if ve.Kind() == reflect.Interface {
			if ve.IsNil() {
				nilFound = true
				break
			}
			ve = ve.Elem()
		}
	}
	if !d.ignoreNextType {
		d.buf = append(d.buf, '(')
		d.buf = append(d.buf, strings.Repeat("*", indirects)...)
		d.buf = append(d.buf, ve.Type().String()...)
		d.buf = append(d.buf, ')')
	} else {
		if nilFound || cycleFound {
			indirects += strings.Count(ve.Type().String(), "*")
		}
		d.buf = append(d.buf, '<')
		d.buf = append(d.buf, strings.Repeat("*", indirects)...)
		d.buf = append(d.buf, '>')
	}
	switch {
	case nilFound:
		d.buf = append(d.buf, "<nil>"...)
	case cycleFound:
		d.buf = append(d.buf, "<shown>"...)
	default:
		d.ignoreNextType = true
		d.format(ve)
	}
}

func (d *refDumper) format(v reflect.Value) {
	kind := v.Kind()
	if kind == reflect.Invalid {
		d.buf = append(d.buf, "<invalid>"...)
		return
	}
	if kind == reflect.Pointer {
		d.formatPtr(v)
		return
	}
	if !d.ignoreNextType {
		d.buf = append(d.buf, '(')
		d.buf = append(d.buf, v.Type().String()...)
		d.buf = append(d.buf, ')')
	}
	d.ignoreNextType = false
	if d.methods && kind != reflect.Interface && d.callMethods(v) {
		return
	}
	switch kind {
	case reflect.Bool:
		d.buf = strconv.AppendBool(d.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.buf = strconv.AppendInt(d.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		d.buf = strconv.AppendUint(d.buf, v.Uint(), 10)
	case reflect.Float32:
		d.buf = strconv.AppendFloat(d.buf, v.Float(), 'g', -1, 32)
	case reflect.Float64:
		d.buf = strconv.AppendFloat(d.buf, v.Float(), 'g', -1, 64)
	case reflect.Complex64:
		d.complex(v.Complex(), 32)
	case reflect.Complex128:
		d.complex(v.Complex(), 64)
	case reflect.Slice:
		if v.IsNil() {
			d.buf = append(d.buf, "<nil>"...)
			break
		}
		if v.Len() > 0 && !d.begin(v.Pointer()) {
			break
		}
		d.array(v)
		if v.Len() > 0 {
			delete(d.active, v.Pointer())
		}
	case reflect.Array:
		d.array(v)
	case reflect.String:
		d.buf = append(d.buf, v.String()...)
	case reflect.Interface:
		if v.IsNil() {
			d.buf = append(d.buf, "<nil>"...)
		}
	case reflect.Map:
		if v.IsNil() {
			d.buf = append(d.buf, "<nil>"...)
			break
		}
		if !d.begin(v.Pointer()) {
			break
		}
		d.mapEntries(v)
		delete(d.active, v.Pointer())
	case reflect.Struct:
		d.buf = append(d.buf, '{')
		d.depth++
		t := v.Type()
		for i := range v.NumField() {
			if i > 0 {
				d.buf = append(d.buf, ' ')
			}
			d.buf = append(d.buf, t.Field(i).Name...)
			d.buf = append(d.buf, ':')
			d.format(d.unpack(v.Field(i)))
		}
		d.depth--
		d.buf = append(d.buf, '}')
	case reflect.Uintptr:
		d.hexPtr(uintptr(v.Uint()))
	case reflect.UnsafePointer, reflect.Chan, reflect.Func:
		d.hexPtr(v.Pointer())
	}
}

// begin marks the map or slice at p as being rendered. If it already is,
// begin writes "<shown>" and returns false.
func (d *refDumper) begin(p uintptr) bool {
	if d.active[p] {
		d.buf = append(d.buf, "<shown>"...)
		return false
	}
	if d.active == nil {
		d.active = map[uintptr]bool{}
	}
	d.active[p] = true
	return true
}

func (d *refDumper) array(v reflect.Value) {
	d.buf = append(d.buf, '[')
	d.depth++
	for i := range v.Len() {
		if i > 0 {
			d.buf = append(d.buf, ' ')
		}
		d.ignoreNextType = true
		d.format(d.unpack(v.Index(i)))
	}
	d.depth--
	d.buf = append(d.buf, ']')
}

func (d *refDumper) mapEntries(v reflect.Value) {
	d.buf = append(d.buf, "map["...)
	d.depth++
	keys := v.MapKeys()
	refSortKeys(keys)
	for i, k := range keys {
		if i > 0 {
			d.buf = append(d.buf, ' ')
		}
		d.ignoreNextType = true
		d.format(d.unpack(k))
		d.buf = append(d.buf, ':')
		d.ignoreNextType = true
		d.format(d.unpack(v.MapIndex(k)))
	}
	d.depth--
	d.buf = append(d.buf, ']')
}

func (d *refDumper) complex(c complex128, bits int) {
	d.buf = append(d.buf, '(')
	d.buf = strconv.AppendFloat(d.buf, real(c), 'g', -1, bits)
	if imag(c) >= 0 {
		d.buf = append(d.buf, '+')
	}
	d.buf = strconv.AppendFloat(d.buf, imag(c), 'g', -1, bits)
	d.buf = append(d.buf, "i)"...)
}

func (d *refDumper) hexPtr(p uintptr) {
	if p == 0 {
		d.buf = append(d.buf, "<nil>"...)
		return
	}
	d.buf = append(d.buf, "0x"...)
	d.buf = strconv.AppendUint(d.buf, uint64(p), 16)
}

// callMethods writes the result of v's Error or String method, looked up
// on *T as go-spew does, and reports whether it did. Values reached
// through unexported fields are skipped (go-spew reaches them with
// package unsafe).
func (d *refDumper) callMethods(v reflect.Value) (handled bool) {
	if !v.CanInterface() {
		return false
	}
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	var text func() string
	switch x := v.Addr().Interface().(type) {
	case error:
		text = x.Error
	case fmt.Stringer:
		text = x.String
	default:
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			d.buf = append(d.buf, "(PANIC="...)
			d.buf = fmt.Append(d.buf, r)
			d.buf = append(d.buf, ')')
		}
	}()
	d.buf = append(d.buf, text()...)
	return true
}

// refSortKeys orders map keys as go-spew does with SortKeys and SpewKeys:
// keys of simple kinds by value, other keys by their rendering with
// go-spew's default configuration.
func refSortKeys(keys []reflect.Value) {
	if len(keys) == 0 {
		return
	}
	if simpleKind(keys[0].Kind()) {
		sort.Sort(valueSorter(keys))
		return
	}
	s := keySorter{keys: keys, text: make([]string, len(keys))}
	for i, k := range keys {
		d := refDumper{pointers: map[uintptr]int{}, methods: true}
		d.top(k)
		s.text[i] = string(d.buf)
	}
	sort.Sort(s)
}

// The key orders below are copies of the renderer's, kept here so that
// the reference does not depend on the code it checks.

// simpleKind reports whether go-spew sorts keys of kind k by value.
func simpleKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String, reflect.Uintptr, reflect.Array:
		return true
	}
	return false
}

type valueSorter []reflect.Value

func (s valueSorter) Len() int           { return len(s) }
func (s valueSorter) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }
func (s valueSorter) Less(i, j int) bool { return valueLess(s[i], s[j]) }

// valueLess is go-spew's order on map keys of simple kinds. Arrays compare
// element by element; anything else falls back to comparing
// reflect.Value.String, which for non-strings is a constant "<T Value>".
func valueLess(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return !a.Bool() && b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() < b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() < b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() < b.Float()
	case reflect.String:
		return a.String() < b.String()
	case reflect.Array:
		for i := range a.Len() {
			ea, eb := a.Index(i), b.Index(i)
			if ea.Equal(eb) {
				continue
			}
			return valueLess(ea, eb)
		}
	}
	return a.String() < b.String()
}

type keySorter struct {
	keys []reflect.Value
	text []string
}

func (s keySorter) Len() int { return len(s.keys) }
func (s keySorter) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.text[i], s.text[j] = s.text[j], s.text[i]
}
func (s keySorter) Less(i, j int) bool { return s.text[i] < s.text[j] }

// Types whose renderings exercise go-spew's quirks.
type (
	dumpNode struct {
		Name string
		Next *dumpNode
		Kids []dumpNode
		ByID map[string]*dumpNode
	}
	dumpName    string
	dumpStringy int
	dumpQuirks  struct {
		Nils   []*int
		After  int32
		Arr    struct{ A [2]*int }
		Then   string
		Neg    struct{ X float64 }
		NegF   float64
		Iface  any
		PI     *any
		PP     **int
		Shared *int
		Inner  struct{ Shared *int }
		m      map[string]quantity
		s      map[string]string
		T      struct{ When instant }
		Named  map[dumpName]dumpName
		Q      map[dumpName]quantity
		Big    map[string]quantity
		Ints   map[int]string
		Arrs   map[[2]int]string
		Anys   map[any]int
		Ptrs   map[*int]string
		Str    map[dumpStringy]int
		Vals   map[string]any
		C      chan int
		F      func()
		Cx     complex128
		Fl     float32
		U      uintptr
		Blank  struct{ _, B int }
	}
)

func (s dumpStringy) String() string { return "stringy-" + strconv.Itoa(int(s)) }

func dumpQuirkValues() map[string]any {
	x, y := 7, 8
	px := &x
	var ix any = px
	big := map[string]quantity{}
	for i := range 40 {
		big["k"+strconv.Itoa(i)] = quantity{int64(i), strconv.Itoa(i)}
	}
	q := dumpQuirks{
		Nils:   []*int{nil, &y, nil},
		After:  3,
		Then:   "then",
		Neg:    struct{ X float64 }{math.Copysign(0, -1)},
		NegF:   math.Copysign(0, -1),
		Iface:  []any{nil, 1, "s", &x, map[string]int{"b": 2, "a": 1}},
		PI:     &ix,
		PP:     &px,
		Shared: &x,
		Inner:  struct{ Shared *int }{&x},
		m:      map[string]quantity{"cpu": {1000, "1"}, "memory": {5, "5m"}},
		s:      map[string]string{"z": "1", "a": "2"},
		T:      struct{ When instant }{instant{5, 60}},
		Named:  map[dumpName]dumpName{"b": "x", "a": "y", "c": ""},
		Q:      map[dumpName]quantity{"memory": {1, "1m"}, "cpu": {2, "2m"}},
		Big:    big,
		Ints:   map[int]string{3: "c", -1: "a", 2: "b"},
		Arrs:   map[[2]int]string{{1, 2}: "a", {1, 1}: "b", {0, 9}: "c"},
		Anys:   map[any]int{"b": 1, 2: 2, "a": 3, nil: 4},
		Ptrs:   map[*int]string{&x: "x", &y: "y"},
		Str:    map[dumpStringy]int{3: 1, 10: 2, 1: 3},
		Vals:   map[string]any{"a": 1, "b": nil, "c": &x, "d": &x, "e": []*int{nil}},
		Cx:     complex(1.5, -2),
		Fl:     0.1,
	}
	var zeroQ dumpQuirks
	zeroQ.Arr.A[1] = nil
	n := &dumpNode{Name: "root"}
	n.Next = n
	n.Kids = []dumpNode{{Name: "kid", Next: n}, {Name: "other"}}
	n.ByID = map[string]*dumpNode{"self": n, "kid": &n.Kids[0]}
	self := []any{nil, 2}
	self[0] = self
	selfMap := map[string]any{}
	selfMap["me"] = selfMap
	var nilIface any
	return map[string]any{
		"quirks":      q,
		"zero quirks": zeroQ,
		"cycle":       *n,
		"self slice":  self,
		"self map":    selfMap,
		"nil iface":   &nilIface,
		"realistic":   realisticTemplate(),
		"empty":       podTemplate{},
		"ptr to ptr":  &px,
		"int":         42,
		"template":    Template[map[string]any]{Labels: map[string]string{"a": "b"}, Spec: map[string]any{"q": q}},
	}
}

func TestDumpMatchesReference(t *testing.T) {
	for name, v := range dumpQuirkValues() {
		rv := reflect.ValueOf(v)
		want := refDump(rv)
		if got := deep.Render(rv); string(got) != string(want) {
			t.Errorf("deep.Render(%s) =\n%s\nreference\n%s", name, got, want)
		}
		if got, want := deep.Hash(rv), fnvBytes(fnvOffset32, want); got != want {
			t.Errorf("deep.Hash(%s) = %d, FNV-32a of the reference rendering %d", name, got, want)
		}
	}
}

func TestDumpMatchesReferenceOnGeneratedTemplates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "template")
		rv := reflect.ValueOf(a)
		want := refDump(rv)
		if got := deep.Render(rv); string(got) != string(want) {
			t.Fatalf("deep.Render(template) =\n%s\nreference\n%s", got, want)
		}
		if got, want := deep.Hash(rv), fnvBytes(fnvOffset32, want); got != want {
			t.Fatalf("deep.Hash(template) = %d, FNV-32a of the reference rendering %d", got, want)
		}
	})
}

// firstUse is hashed by no other test, so that TestHashConcurrentFirstUse
// builds its description and tables from several goroutines at once.
type firstUse struct {
	Name    string
	Quirks  dumpQuirks
	Ptrs    []*dumpQuirks
	Labels  map[string]string
	Nothing struct{ A, B *int }
}

func TestHashConcurrentFirstUse(t *testing.T) {
	v := firstUse{Name: "first", Quirks: dumpQuirkValues()["quirks"].(dumpQuirks), Ptrs: []*dumpQuirks{nil, {}}, Labels: map[string]string{"a": "b"}}
	want := hashSum(fnvBytes(fnvOffset32, refDump(reflect.ValueOf(v))), nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := Hash(&v, nil); got != want {
				t.Errorf("goroutine %d: Hash = %q, want %q", g, got, want)
			}
		}()
	}
	wg.Wait()
}
