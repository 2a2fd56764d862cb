package deep

import (
	"reflect"
	"time"
	"unsafe"
)

// Equal reports whether the values *a and *b are semantically equal, by
// the rules revision.EqualIgnoreHash documents, once the entry with key
// label of the labels map (see LabelsPath) is ignored; the type's own
// Equal method is then not used at the top. When T has no labels map, the
// values are compared as they are. Neither a nor b may be nil. The
// comparison is compiled once per type T (see eqOp) and runs over memory.
func Equal[T any](a, b *T, label string) bool {
	ti := infoOf(reflect.TypeFor[T]())
	ops := ti.eq
	if ti.labels != nil {
		ops = ti.eqLabels
	}
	w := walker{label: label}
	return w.run(ops, unsafe.Pointer(a), unsafe.Pointer(b), false)
}

// smallMap is the largest map compareMap compares without allocating, by
// scanning one map for each key of the other.
const smallMap = 32

// timeType is compared with time.Time.Equal directly rather than through
// reflection, which would allocate.
var timeType = reflect.TypeFor[time.Time]()

// visit is one pair of references being compared, for cycle detection
// and, once a comparison has entered many references, to remember the
// pairs already compared.
type visit struct {
	a, b uintptr
	t    *typeInfo
	// tag is a slice's length times two (0 for pointers and maps), plus 1
	// when the references were reached through an unexported field, where
	// Equal methods are not called: the same pair can compare differently
	// reached the other way, and a slice pair with the same starts but
	// other lengths holds other elements.
	tag uint
}

// memoAfter is how many pairs of references a comparison enters keeping
// only the stack of those being compared (enough for cycles) before it
// remembers every pair it enters. A realistic pod template enters about
// 20 pairs, and remembering them would cost more than the comparison
// itself; values that share pointers (a DAG, or a chain whose two
// branches point to the same value at each level) reach the same pairs
// again and again, exponentially many times in their depth, and
// remembering them bounds the work by the number of distinct pairs.
const memoAfter = 128

// walker compares two values of the same type. Its zero value is ready
// for semantic comparison.
type walker struct {
	// strict turns off the semantic rules: no Equal methods, and nil
	// differs from empty. It checks that two values are identical.
	strict bool

	// label is the key of the labels map's entry that is ignored.
	label string

	// The pointers, maps and slices being compared, from the root down,
	// while seen is nil.
	path [16]visit
	n    int

	// entered counts the pairs entered while seen is nil; it is memoAfter
	// once seen is in use.
	entered int

	// seen, once not nil, holds every pair entered so far, whether its
	// comparison is over or still running: a pair met again is equal,
	// because if it were not, the whole comparison would already have
	// stopped with false (every false is returned to the top).
	seen map[visit]struct{}
}

// enter records that the pair (a, b, t, tag) is being compared, and
// reports whether it needs no comparison: it is being compared higher up
// (a cycle) or, once seen is in use, it was compared before. The stack is
// replaced by seen when it is full or after memoAfter pairs.
func (w *walker) enter(a, b uintptr, t *typeInfo, tag uint) (done bool) {
	v := visit{a, b, t, tag}
	if w.entered < memoAfter {
		for i := range w.n {
			if w.path[i] == v {
				return true
			}
		}
		if w.n < len(w.path) {
			w.path[w.n] = v
			w.n++
			w.entered++
			return false
		}
	}
	return w.remember(v)
}

// remember is enter once the stack is full or memoAfter pairs were
// entered: it moves the stack into seen, if not done yet, then looks v up
// in seen and adds it.
func (w *walker) remember(v visit) (done bool) {
	if w.seen == nil {
		w.entered = memoAfter
		w.seen = make(map[visit]struct{}, 2*memoAfter)
		for _, p := range w.path[:w.n] {
			w.seen[p] = struct{}{}
		}
	}
	if _, ok := w.seen[v]; ok {
		return true
	}
	w.seen[v] = struct{}{}
	return false
}

// leave ends the comparison of the latest pair for which enter returned
// false. Once seen is in use, pairs stay remembered.
func (w *walker) leave() {
	if w.seen == nil {
		w.n--
	}
}

// equal compares a and b, which have the type described by ti, in w's
// mode. Values that reflection marks as reached through an unexported
// field are compared as such.
func (w *walker) equal(a, b reflect.Value, ti *typeInfo) bool {
	return w.equalValue(a, b, ti, !a.CanInterface() || !b.CanInterface())
}

// equalValue compares a and b, which have the type described by ti, with
// reflection where it must: interfaces and funcs, and values that are not
// in addressable memory (the dynamic value of an interface, and its
// fields and elements). Values in addressable memory go to run. private
// says whether the values were reached through an unexported field.
func (w *walker) equalValue(a, b reflect.Value, ti *typeInfo, private bool) bool {
	compiled := ti.kind != reflect.Interface && ti.kind != reflect.Func && ti.kind != reflect.Chan // see opValue
	if compiled && a.CanAddr() && b.CanAddr() {
		return w.run(w.plan(ti), unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr()), private)
	}
	// Not addressable (or a kind run leaves to reflection): a method with a
	// pointer receiver or parameter cannot be called, and a time.Time goes
	// through its Equal method like any other value.
	if m := ti.equal; !w.strict && !private && m.call != noEqual &&
		(m.call != pointerEqual || a.CanAddr()) && (!m.argPointer || b.CanAddr()) {
		identical := walker{strict: true}
		if identical.equalValue(a, b, ti, false) {
			return true
		}
		return invokeEqual(m, a, b)
	}
	switch ti.kind {
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		ea, eb := a.Elem(), b.Elem()
		t := ea.Type()
		return t == eb.Type() && w.equalValue(ea, eb, infoOf(t), private)
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	}
	switch ti.kind {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		xa, xb := a.UnsafePointer(), b.UnsafePointer()
		return xa == xb || w.equalPointees(xa, xb, ti, private)
	case reflect.Slice:
		return w.equalSlices(a.UnsafePointer(), b.UnsafePointer(), a.Len(), b.Len(), ti, private)
	case reflect.Array:
		for i := range a.Len() {
			if !w.equalValue(a.Index(i), b.Index(i), ti.elem, private) {
				return false
			}
		}
		return true
	case reflect.Map:
		return w.compareMap(a, b, ti, private, false)
	case reflect.Struct:
		for i, fi := range ti.fields {
			if !w.equalValue(a.Field(i), b.Field(i), fi, private || ti.unexported[i]) {
				return false
			}
		}
		return true
	}
	return false // reflect.Invalid: not reachable from a typed value
}

// sliceHeader is the memory layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// invokeEqual calls a's Equal method m with b, taking their addresses as
// m needs, and reports false if it panics.
func invokeEqual(m equalMethod, a, b reflect.Value) (equal bool) {
	defer func() {
		if recover() != nil {
			equal = false
		}
	}()
	recv, arg := a, b
	if m.call == pointerEqual {
		recv = a.Addr()
	}
	if m.argPointer {
		arg = b.Addr()
	}
	return recv.Method(m.index).Call([]reflect.Value{arg})[0].Bool()
}

// compareMap compares maps a and b of the type described by ti, reached
// through an unexported field if private is set. With labels set, the
// maps have keys and values of string kinds and their entries with key
// w.label
// are ignored. Entries are copied out of the maps into addressable
// scratch space, where their values are compared with run.
func (w *walker) compareMap(a, b reflect.Value, ti *typeInfo, private, labels bool) bool {
	if w.strict && a.IsNil() != b.IsNil() {
		return false
	}
	na, nb := a.Len(), b.Len()
	if !labels && na != nb {
		return false
	}
	if na == 0 && nb == 0 {
		return true
	}
	pa, pb := a.Pointer(), b.Pointer()
	if pa == pb {
		return true
	}
	canIter := a.CanInterface() && b.CanInterface() // copying entries out needs this
	if ti.stringMap && canIter {
		return equalStringMaps(a.Interface().(map[string]string), b.Interface().(map[string]string), labels, w.label)
	}
	if w.enter(pa, pb, ti, privateTag(private)) {
		return true
	}
	var ok bool
	if !canIter || na > smallMap || nb > smallMap {
		ok = w.compareMapByIndex(a, b, ti, private, labels)
	} else {
		s := ti.scratch.Get().(*mapScratch)
		if !labels && ti.mapKey == reflect.String && na <= smallPairs {
			ok = w.compareSmallMaps(a, b, ti, private, s)
		} else {
			ok = w.compareMapScan(a, b, ti, private, labels, s)
		}
		s.release(ti.scratch)
	}
	w.leave()
	return ok
}

// compareMapScan is compareMap for maps of at most smallMap entries
// that can be read through reflection: it looks up each key of a by
// scanning b, with the scratch space s.
func (w *walker) compareMapScan(a, b reflect.Value, ti *typeInfo, private, labels bool, s *mapScratch) bool {
	// Every entry of a must be in b with an equal value; then the maps
	// are equal if they have as many entries (not counting the hash label).
	na := 0
	s.iterA.Reset(a)
	for s.iterA.Next() {
		s.keyA.SetIterKey(&s.iterA)
		if labels && s.keyA.String() == w.label {
			continue
		}
		na++
		s.elemA.SetIterValue(&s.iterA)
		found := false
		s.iterB.Reset(b)
		for s.iterB.Next() {
			s.keyB.SetIterKey(&s.iterB)
			if s.keyA.Equal(s.keyB) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
		s.elemB.SetIterValue(&s.iterB)
		if !w.run(w.plan(ti.elem), s.addrA, s.addrB, private) {
			return false
		}
	}
	if !labels {
		return true
	}
	nb := 0
	s.iterB.Reset(b)
	for s.iterB.Next() {
		s.keyB.SetIterKey(&s.iterB)
		if s.keyB.String() != w.label {
			nb++
		}
	}
	return na == nb
}

// smallPairs is the largest map with string keys compareSmallMaps
// compares.
const smallPairs = 8

// compareSmallMaps is compareMap for maps a and b of as many entries, at
// most smallPairs, with keys of a string kind, not labels: it copies out
// the entries of each map in one pass, and pairs them up by key.
func (w *walker) compareSmallMaps(a, b reflect.Value, ti *typeInfo, private bool, s *mapScratch) bool {
	if s.elems == nil {
		s.makeElems(a.Type().Elem())
	}
	n := a.Len()
	var ka, kb [smallPairs]string
	if !copyEntries(&s.iterA, a, s.keyA, ka[:n], s.elems[:n]) ||
		!copyEntries(&s.iterB, b, s.keyB, kb[:n], s.elems[smallPairs:smallPairs+n]) {
		return false
	}
	eops := w.plan(ti.elem)
	size := ti.elem.size
	for i, k := range ka[:n] {
		j := 0
		for j < n && kb[j] != k {
			j++
		}
		if j == n {
			return false
		}
		ea := unsafe.Add(s.elemsAt, uintptr(i)*size)
		eb := unsafe.Add(s.elemsAt, uintptr(smallPairs+j)*size)
		if !w.run(eops, ea, eb, private) {
			return false
		}
	}
	return true
}

// copyEntries copies the entries of map m, which has len(keys) entries
// with keys of a string kind, into keys and elems, using it and the
// settable key, and reports whether it found that many.
func copyEntries(it *reflect.MapIter, m, key reflect.Value, keys []string, elems []reflect.Value) bool {
	i := 0
	it.Reset(m)
	for i < len(keys) && it.Next() {
		key.SetIterKey(it)
		keys[i] = key.String()
		elems[i].SetIterValue(it)
		i++
	}
	return i == len(keys)
}

// compareMapByIndex is compareMap for large maps and maps reached through
// unexported fields: it looks each key of a up in b, which allocates a
// copy of every value.
func (w *walker) compareMapByIndex(a, b reflect.Value, ti *typeInfo, private, labels bool) bool {
	na := 0
	it := a.MapRange()
	for it.Next() {
		k := it.Key()
		if labels && k.String() == w.label {
			continue
		}
		na++
		eb := b.MapIndex(k)
		if !eb.IsValid() || !w.equalValue(it.Value(), eb, ti.elem, private) {
			return false
		}
	}
	if !labels {
		return true
	}
	nb := 0
	for it = b.MapRange(); it.Next(); {
		if it.Key().String() != w.label {
			nb++
		}
	}
	return na == nb
}

var stringMapType = reflect.TypeFor[map[string]string]()

// equalStringMaps compares two string maps; with labels set, their
// entries with key label are ignored.
func equalStringMaps(a, b map[string]string, labels bool, label string) bool {
	n := 0
	for k, va := range a {
		if labels && k == label {
			continue
		}
		vb, ok := b[k]
		if !ok || va != vb {
			return false
		}
		n++
	}
	if labels {
		if _, ok := b[label]; ok {
			return n == len(b)-1
		}
	}
	return n == len(b)
}
