package deep

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// dumper renders a value exactly as go-spew's Sprintf("%#v", v) does with
// the configuration upstream hashes with (SortKeys, SpewKeys,
// DisableMethods, DisablePointerAddresses, DisableCapacities): Go type
// names in parentheses, struct fields by name in declaration order,
// pointers followed, strings unquoted, map entries sorted by key.
//
// The rendering goes either into buf or, with hashing set, straight into
// the FNV-32a state h, so that hashing never holds the whole text.
//
// The fields mirror go-spew's formatter state, because its output depends
// on them: whether the next value's type is printed, the nesting depth, and
// the pointers already followed (for cycles).
type dumper struct {
	hashing bool
	h       uint32
	buf     []byte

	depth int

	// pointers are go-spew's followed pointers with the depth at which
	// they were followed. go-spew keeps them in a map and, before
	// following a pointer at depth d, deletes those followed at depth d
	// or deeper; so the entries are always in order of depth, and the
	// deletion truncates the stack.
	pointers []followed

	// minCleanup is the smallest depth at which pointers was truncated,
	// recorded to describe a zero value's rendering (see zeroDump).
	minCleanup int

	ignoreNextType bool

	// methods makes the dumper call String and Error methods, as go-spew's
	// default configuration does when it renders map keys to sort them.
	methods bool

	// active holds the maps and slices being rendered, innermost last.
	// go-spew recurses forever on a map or slice that contains itself;
	// the dumper writes "<shown>" instead, as go-spew does for pointer
	// cycles.
	active []uintptr

	// Scratch space for sorting map entries, used as stacks by nested
	// maps, and for formatting numbers.
	pairs []stringPair
	num   [64]byte
}

// followed is a pointer go-spew has followed, and the depth it did so at.
type followed struct {
	addr  uintptr
	depth int
}

// stringPair is a map entry with a string key and value.
type stringPair struct{ key, value string }

// noCleanup is a minCleanup that records no truncation.
const noCleanup = int(^uint(0) >> 1)

// dumpers pools dumpers, so that hashing does not allocate once warm.
var dumpers = sync.Pool{New: func() any { return new(dumper) }}

// getDumper returns a reset dumper from the pool.
func getDumper(hashing bool) *dumper {
	d := dumpers.Get().(*dumper)
	d.hashing = hashing
	d.h = fnvOffset32
	d.minCleanup = noCleanup
	return d
}

// putDumper returns d to the pool, dropping what it refers to.
func putDumper(d *dumper) {
	d.buf = nil
	d.depth = 0
	d.pointers = d.pointers[:0]
	d.active = d.active[:0]
	d.ignoreNextType = false
	d.methods = false
	clear(d.pairs[:cap(d.pairs)])
	d.pairs = d.pairs[:0]
	dumpers.Put(d)
}

// Render returns the rendering of v, the value of a top-level template
// (not a pointer to it), as go-spew renders it for upstream's hashing.
func Render(v reflect.Value) []byte {
	d := getDumper(false)
	d.top(v)
	b := d.buf
	putDumper(d)
	return b
}

// Hash returns the FNV-32a hash of the rendering of v, the value of a
// top-level template, computed as the rendering is produced.
func Hash(v reflect.Value) uint32 {
	d := getDumper(true)
	d.top(v)
	h := d.h
	putDumper(d)
	return h
}

// str writes s.
func (d *dumper) str(s string) {
	if d.hashing {
		d.h = fnvString(d.h, s)
		return
	}
	d.buf = append(d.buf, s...)
}

// bytes writes b.
func (d *dumper) bytes(b []byte) {
	if d.hashing {
		d.h = fnvBytes(d.h, b)
		return
	}
	d.buf = append(d.buf, b...)
}

// byte1 writes c.
func (d *dumper) byte1(c byte) {
	if d.hashing {
		d.h = (d.h ^ uint32(c)) * fnvPrime32
		return
	}
	d.buf = append(d.buf, c)
}

// seg writes the text of s.
func (d *dumper) seg(s *segment) {
	if d.hashing {
		d.h = s.hash(d.h)
		return
	}
	d.buf = append(d.buf, s.text...)
}

// stars writes n asterisks.
func (d *dumper) stars(n int) {
	for range n {
		d.byte1('*')
	}
}

// cleanup forgets the pointers followed at depth or deeper.
func (d *dumper) cleanup(depth int) {
	d.minCleanup = min(d.minCleanup, depth)
	n := len(d.pointers)
	for n > 0 && d.pointers[n-1].depth >= depth {
		n--
	}
	d.pointers = d.pointers[:n]
}

// top renders v as go-spew renders the argument of Sprintf.
func (d *dumper) top(v reflect.Value) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			d.str("(interface {})<nil>")
			return
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		d.format(v, nil, nil)
		return
	}
	d.format(v, infoOf(v.Type()), nil)
}

// unpack looks into a non-nil interface, and makes the type of the value
// in it show. ti describes v, and the returned typeInfo the result.
func (d *dumper) unpack(v reflect.Value, ti *typeInfo) (reflect.Value, *typeInfo) {
	if ti.kind == reflect.Interface {
		d.ignoreNextType = false
		if !v.IsNil() {
			v = v.Elem()
			ti = infoOf(v.Type())
		}
	}
	return v, ti
}

// formatPtr renders pointer v. If field is not nil, v is that struct
// field's value, and formatPtr writes the field's prefix first.
func (d *dumper) formatPtr(v reflect.Value, ti *typeInfo, field *fieldDump) {
	if v.IsNil() && d.ignoreNextType {
		if field != nil {
			d.seg(field.prefix)
		}
		d.str("<nil>")
		return
	}
	d.cleanup(d.depth)
	nilFound, cycleFound, hopped := false, false, false
	indirects := 0
	ve, vti := v, ti
	for ve.Kind() == reflect.Pointer {
		if ve.IsNil() {
			nilFound = true
			break
		}
		indirects++
		addr := ve.Pointer()
		seen := false
		for i := len(d.pointers) - 1; i >= 0; i-- {
			if p := d.pointers[i]; p.addr == addr {
				seen = true
				cycleFound = p.depth < d.depth
				break
			}
		}
		if cycleFound {
			indirects--
			break
		}
		if !seen {
			d.pointers = append(d.pointers, followed{addr, d.depth})
		}
		ve, vti = ve.Elem(), vti.elem
		if ve.Kind() == reflect.Interface {
			if ve.IsNil() {
				nilFound = true
				break
			}
			ve = ve.Elem()
			vti = infoOf(ve.Type())
			hopped = true
		}
	}
	// Without an interface on the way, indirects asterisks followed by
	// the type of ve spell the type of v.
	if !d.ignoreNextType {
		switch {
		case hopped:
			if field != nil {
				d.seg(field.prefix)
			}
			d.byte1('(')
			d.stars(indirects)
			d.str(vti.dump.name)
			d.byte1(')')
		case field != nil:
			d.seg(field.typed)
		default:
			d.seg(ti.dump.typed)
		}
	} else {
		if field != nil {
			d.seg(field.prefix)
		}
		if nilFound || cycleFound {
			indirects += vti.dump.stars
		}
		d.byte1('<')
		d.stars(indirects)
		d.byte1('>')
	}
	switch {
	case nilFound:
		d.str("<nil>")
	case cycleFound:
		d.str("<shown>")
	default:
		d.ignoreNextType = true
		d.format(ve, vti, nil)
	}
}

// format renders v, described by ti. If field is not nil, v is that
// struct field's value (not of interface type), and format writes the
// field's prefix first.
func (d *dumper) format(v reflect.Value, ti *typeInfo, field *fieldDump) {
	if !v.IsValid() {
		if field != nil {
			d.seg(field.prefix)
		}
		d.str("<invalid>")
		return
	}
	kind := ti.kind
	if kind == reflect.Pointer {
		d.formatPtr(v, ti, field)
		return
	}
	d.header(field, ti)
	d.ignoreNextType = false
	if d.methods && kind != reflect.Interface && d.callMethods(v) {
		return
	}
	switch kind {
	case reflect.Bool:
		if v.Bool() {
			d.str("true")
		} else {
			d.str("false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.intText(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		d.uintText(v.Uint())
	case reflect.Float32:
		d.bytes(strconv.AppendFloat(d.num[:0], v.Float(), 'g', -1, 32))
	case reflect.Float64:
		d.bytes(strconv.AppendFloat(d.num[:0], v.Float(), 'g', -1, 64))
	case reflect.Complex64:
		d.complex(v.Complex(), 32)
	case reflect.Complex128:
		d.complex(v.Complex(), 64)
	case reflect.Slice:
		if v.IsNil() {
			d.str("<nil>")
			break
		}
		n := v.Len()
		if n > 0 && !d.begin(v.Pointer()) {
			break
		}
		d.array(v, ti, n)
		if n > 0 {
			d.end()
		}
	case reflect.Array:
		d.array(v, ti, v.Len())
	case reflect.String:
		d.str(v.String())
	case reflect.Interface:
		if v.IsNil() {
			d.str("<nil>")
		}
	case reflect.Map:
		if v.IsNil() {
			d.str("<nil>")
			break
		}
		if !d.begin(v.Pointer()) {
			break
		}
		d.mapEntries(v, ti)
		d.end()
	case reflect.Struct:
		d.structFields(v, ti)
	case reflect.Uintptr:
		d.hexPtr(uintptr(v.Uint()))
	case reflect.UnsafePointer, reflect.Chan, reflect.Func:
		d.hexPtr(v.Pointer())
	}
}

// header writes what comes before a value of the type described by ti:
// the prefix of field f, if f is not nil, and the type in parentheses
// unless the types are hidden.
func (d *dumper) header(f *fieldDump, ti *typeInfo) {
	switch {
	case d.ignoreNextType:
		if f != nil {
			d.seg(f.prefix)
		}
	case f != nil:
		d.seg(f.typed)
	default:
		d.seg(ti.dump.typed)
	}
}

// structFields renders the fields of struct v, described by ti, in
// braces. A field holding its zero value, when its type renders every
// value reflect.Value.IsZero calls zero the same way, renders as one
// cached segment (see zeroDump): most fields of a pod template are nil
// pointers, empty strings and zeros.
func (d *dumper) structFields(v reflect.Value, ti *typeInfo) {
	d.byte1('{')
	d.depth++
	for i := range ti.fields {
		d.field(v, ti, i)
	}
	d.depth--
	d.byte1('}')
}

// field renders field i of struct v, described by ti.
func (d *dumper) field(v reflect.Value, ti *typeInfo, i int) {
	f, fti := &ti.dump.fields[i], ti.fields[i]
	fv := v.Field(i)
	if fti.kind == reflect.Interface {
		d.seg(f.prefix)
		fv, fti = d.unpack(fv, fti)
		d.format(fv, fti, nil)
		return
	}
	if f.zeroable && !d.ignoreNextType && !d.methods && fv.IsZero() {
		d.zero(f, fti)
		return
	}
	d.format(fv, fti, f)
}

// zero renders field f, of the type described by ti, holding its zero
// value, with the type showing.
func (d *dumper) zero(f *fieldDump, ti *typeInfo) {
	d.applyZero(f.zeroDump(ti))
}

// applyZero writes z's text and applies its effects on the state.
func (d *dumper) applyZero(z *zeroDump) {
	d.seg(z.text)
	if z.cleanup != noCleanup {
		d.cleanup(d.depth + z.cleanup)
	}
	d.ignoreNextType = z.ignoreNextType
}

// zeroDump returns the description of field f's zero value, of the type
// described by ti, computing it on first use.
func (f *fieldDump) zeroDump(ti *typeInfo) *zeroDump {
	z := f.zero.Load()
	if z == nil {
		z = zeroOf(f, ti)
		f.zero.Store(z) // a racing builder stores an identical description
	}
	return z
}

// zeroDump describes how a struct field holding its zero value renders,
// when the type shows: the text (the field's prefix included), and the
// effects on the dumper's state. A zero value holds no pointers to
// follow, so its rendering does not depend on the pointers followed, but
// it may still forget some, as a nil pointer does.
type zeroDump struct {
	text           *segment
	ignoreNextType bool // as the rendering leaves it
	cleanup        int  // the depth, relative to the field's, down to which pointers are forgotten, or noCleanup
}

// zeroOf renders field f's zero value, of the type described by ti.
func zeroOf(f *fieldDump, ti *typeInfo) *zeroDump {
	d := getDumper(false)
	d.format(reflect.Zero(f.typ), ti, f)
	z := &zeroDump{text: newSegment(string(d.buf)), ignoreNextType: d.ignoreNextType, cleanup: d.minCleanup}
	putDumper(d)
	return z
}

// begin marks the map or slice at p as being rendered. If it already is,
// begin writes "<shown>" and returns false.
func (d *dumper) begin(p uintptr) bool {
	if slices.Contains(d.active, p) {
		d.str("<shown>")
		return false
	}
	d.active = append(d.active, p)
	return true
}

// end undoes the latest begin that returned true.
func (d *dumper) end() {
	d.active = d.active[:len(d.active)-1]
}

func (d *dumper) array(v reflect.Value, ti *typeInfo, n int) {
	d.byte1('[')
	d.depth++
	eti := ti.elem
	for i := range n {
		if i > 0 {
			d.byte1(' ')
		}
		d.ignoreNextType = true
		ev, evti := d.unpack(v.Index(i), eti)
		d.format(ev, evti, nil)
	}
	d.depth--
	d.byte1(']')
}

// maxScan is the largest map with string keys whose entries mapEntries
// sorts without allocating, by copying them out (see stringKeyEntries).
const maxScan = 16

func (d *dumper) mapEntries(v reflect.Value, ti *typeInfo) {
	d.str("map[")
	d.depth++
	switch {
	case d.methods || ti.mapKey != reflect.String || !v.CanInterface():
		d.mapEntriesSorted(v, ti)
	case ti.stringMap:
		d.stringMapEntries(v.Interface().(map[string]string))
	case ti.elem.kind == reflect.String:
		d.stringPairEntries(v, ti)
	case v.Len() <= maxScan:
		d.stringKeyEntries(v, ti)
	default:
		d.mapEntriesSorted(v, ti)
	}
	d.depth--
	d.byte1(']')
}

// stringMapEntries renders the entries of m, sorted by key. Keys and
// values render as their text whatever the state.
func (d *dumper) stringMapEntries(m map[string]string) {
	base := len(d.pairs)
	for k, e := range m {
		d.pairs = append(d.pairs, stringPair{k, e})
	}
	d.pairEntries(base)
}

// stringPairEntries is stringMapEntries for a map type with a string kind
// of key and of value.
func (d *dumper) stringPairEntries(v reflect.Value, ti *typeInfo) {
	s := ti.scratch.Get().(*mapScratch)
	base := len(d.pairs)
	s.iterA.Reset(v)
	for s.iterA.Next() {
		s.keyA.SetIterKey(&s.iterA)
		s.elemA.SetIterValue(&s.iterA)
		d.pairs = append(d.pairs, stringPair{s.keyA.String(), s.elemA.String()})
	}
	s.release(ti.scratch)
	d.pairEntries(base)
}

// pairEntries renders, sorted by key, the entries in d.pairs from base
// on, and drops them.
func (d *dumper) pairEntries(base int) {
	pairs := d.pairs[base:]
	if len(pairs) <= maxScan {
		// Insertion sort: labels and annotations are few.
		for i := 1; i < len(pairs); i++ {
			for j := i; j > 0 && pairs[j].key < pairs[j-1].key; j-- {
				pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
			}
		}
	} else {
		slices.SortFunc(pairs, func(a, b stringPair) int { return strings.Compare(a.key, b.key) })
	}
	for i, p := range pairs {
		if i > 0 {
			d.byte1(' ')
		}
		d.str(p.key)
		d.byte1(':')
		d.str(p.value)
	}
	clear(pairs)
	d.pairs = d.pairs[:base]
	d.ignoreNextType = false
}

// stringKeyEntries renders, sorted by key, the entries of map v, whose
// keys have a string kind and which has at most maxScan entries: it
// copies the entries out in one pass over the map, into the scratch
// space of v's type, and sorts their positions by key.
func (d *dumper) stringKeyEntries(v reflect.Value, ti *typeInfo) {
	s := ti.scratch.Get().(*mapScratch)
	defer s.release(ti.scratch)
	if s.elems == nil {
		s.makeElems(v.Type().Elem())
	}
	var keys [maxScan]string
	var order [maxScan]int
	n := 0
	s.iterA.Reset(v)
	for n < maxScan && s.iterA.Next() {
		s.keyA.SetIterKey(&s.iterA)
		keys[n], order[n] = s.keyA.String(), n
		s.elems[n].SetIterValue(&s.iterA)
		n++
	}
	// Insertion sort: the maps are small, often of two or three entries.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && keys[order[j]] < keys[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	et := ti.elem
	for i, k := range order[:n] {
		if i > 0 {
			d.byte1(' ')
		}
		d.ignoreNextType = true
		d.str(keys[k])
		d.ignoreNextType = false
		d.byte1(':')
		d.ignoreNextType = true
		ev, evti := d.unpack(s.elems[k], et)
		d.format(ev, evti, nil)
	}
}

// mapEntriesSorted renders the entries of map v with go-spew's own
// sorting. It allocates.
func (d *dumper) mapEntriesSorted(v reflect.Value, ti *typeInfo) {
	keys := v.MapKeys()
	sortKeys(keys)
	for i, k := range keys {
		if i > 0 {
			d.byte1(' ')
		}
		d.ignoreNextType = true
		kv, kti := d.unpack(k, infoOf(k.Type()))
		d.format(kv, kti, nil)
		d.byte1(':')
		d.ignoreNextType = true
		ev, evti := d.unpack(v.MapIndex(k), ti.elem)
		d.format(ev, evti, nil)
	}
}

func (d *dumper) complex(c complex128, bits int) {
	b := append(d.num[:0], '(')
	b = strconv.AppendFloat(b, real(c), 'g', -1, bits)
	if imag(c) >= 0 {
		b = append(b, '+')
	}
	b = strconv.AppendFloat(b, imag(c), 'g', -1, bits)
	b = append(b, "i)"...)
	d.bytes(b)
}

func (d *dumper) hexPtr(p uintptr) {
	if p == 0 {
		d.str("<nil>")
		return
	}
	d.bytes(strconv.AppendUint(append(d.num[:0], "0x"...), uint64(p), 16))
}

// callMethods writes the result of v's Error or String method, looked up
// on *T as go-spew does, and reports whether it did. Values reached
// through unexported fields are skipped (go-spew reaches them with
// package unsafe).
func (d *dumper) callMethods(v reflect.Value) (handled bool) {
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

// sortKeys orders map keys as go-spew does with SortKeys and SpewKeys:
// keys of simple kinds by value, other keys by their rendering with
// go-spew's default configuration. The String and Error methods of keys
// reached through unexported fields are not called (see callMethods).
func sortKeys(keys []reflect.Value) {
	if len(keys) == 0 {
		return
	}
	if simpleKind(keys[0].Kind()) {
		sort.Sort(valueSorter(keys))
		return
	}
	s := keySorter{keys: keys, text: make([]string, len(keys))}
	for i, k := range keys {
		d := getDumper(false)
		d.methods = true
		d.top(k)
		s.text[i] = string(d.buf)
		putDumper(d)
	}
	sort.Sort(s)
}

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

// dumpInfo describes how values of one type render.
type dumpInfo struct {
	name  string   // the type's name, as reflect.Type.String spells it
	typed *segment // the name in parentheses
	stars int      // the number of asterisks in name

	// fields describe the fields of a struct type, in order.
	fields []fieldDump
}

// fieldDump describes how one struct field renders.
type fieldDump struct {
	typ    reflect.Type
	kind   reflect.Kind // of typ
	prefix *segment     // the field's name and a colon, after a space unless it is the first field
	typed  *segment     // prefix followed by the field type's name in parentheses

	// zeroable says that every value of the field's type for which
	// reflect.Value.IsZero reports true renders as the zero value.
	zeroable bool

	// zero describes the zero value's rendering, once computed.
	zero atomic.Pointer[zeroDump]
}

// newDumpInfo returns the description of type t.
func newDumpInfo(t reflect.Type) *dumpInfo {
	name := t.String()
	di := &dumpInfo{name: name, typed: newSegment("(" + name + ")"), stars: strings.Count(name, "*")}
	if t.Kind() != reflect.Struct {
		return di
	}
	di.fields = make([]fieldDump, t.NumField())
	for i := range di.fields {
		sf := t.Field(i)
		prefix := sf.Name + ":"
		if i > 0 {
			prefix = " " + prefix
		}
		f := &di.fields[i]
		f.typ, f.kind = sf.Type, sf.Type.Kind()
		f.prefix = newSegment(prefix)
		f.typed = newSegment(prefix + "(" + sf.Type.String() + ")")
		f.zeroable = zeroable(sf.Type)
	}
	return di
}

// zeroable reports whether every value of type t that reflect.Value.IsZero
// calls zero renders as the zero value. IsZero compares floating-point
// numbers, and comparable structs and arrays, with ==, which calls -0.0
// zero and ignores blank fields, so types holding those do not qualify.
func zeroable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct, reflect.Array:
		return t.Comparable() && plainZero(t)
	}
	return plainZero(t)
}

// plainZero reports whether == against the zero value of t, a comparable
// type, is true only for values that render as the zero value.
func plainZero(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return plainZero(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" || !plainZero(f.Type) {
				return false
			}
		}
	}
	return true
}

// uintText writes the decimal digits of x, as strconv.AppendUint
// spells them.
func (d *dumper) uintText(x uint64) {
	if d.hashing {
		d.h = fnvUint(d.h, x)
		return
	}
	d.buf = strconv.AppendUint(d.buf, x, 10)
}

// intText writes the decimal digits of x, as strconv.AppendInt spells
// them.
func (d *dumper) intText(x int64) {
	if d.hashing {
		d.h = fnvInt(d.h, x)
		return
	}
	d.buf = strconv.AppendInt(d.buf, x, 10)
}
