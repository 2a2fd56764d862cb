package revision

import (
	"reflect"
	"time"
	"unsafe"
)

// EqualIgnoreHash reports whether the templates *a and *b are semantically
// equal once the HashLabel label is ignored. T is the caller's template
// type (corev1.PodTemplateSpec, a [Template], or any other type); the
// comparison is by reflection and follows upstream's semantic equality:
//
//   - A nil map or slice equals an empty one (so labels that are empty
//     once the hash label is ignored equal nil labels).
//   - A nil pointer differs from a pointer to a zero value; two nil
//     pointers are equal. Slice and array order matters; map order does not.
//   - A value whose type has its own method Equal(T) bool or Equal(*T)
//     bool, with a value or pointer receiver, is compared with it, so a
//     Quantity-like "1" equals "1000m" and two time.Time or metav1.Time
//     values at the same instant are equal. Values that are identical
//     field by field are equal without calling the method. The method is
//     not used on values reached through unexported struct fields, where
//     reflection cannot call methods, nor, for a pointer receiver or
//     pointer parameter, on values that are not addressable (the dynamic
//     value of an interface). An Equal method that panics means unequal.
//   - Unexported struct fields are compared, field by field, like exported
//     ones (upstream panics on them).
//   - Floats compare with ==, so NaN differs from itself; functions are
//     equal only when both are nil; channels and unsafe pointers compare
//     by identity. A template holding a NaN or a non-nil func therefore
//     does not equal a copy of itself (though it equals itself: a == b
//     is true at once), and never matches the ReplicaSet made from it;
//     [EqualsItself] finds such values, and rollout.Plan rejects a
//     deployment whose template holds one. Remove them from the template,
//     or compare them with an Equal method of their type.
//   - Cyclic and shared values terminate in polynomial time. A pair of
//     pointers, maps or slices met again while comparing them (a cycle)
//     is taken as equal. Once a comparison has entered 128 pairs, or 16
//     nested ones, it remembers every pair it enters, and a pair met again
//     later is taken as equal too, as upstream's semantic DeepEqual does:
//     had it differed, the comparison would already have returned false.
//     A pair is told apart by its addresses, its type, a slice's length,
//     and whether it was reached through an unexported field. So values
//     that reach the same pointers along many paths (a chain whose two
//     branches point to the same value at every level) cost time in
//     proportion to the number of distinct pairs, not of paths. Not
//     seen: sharing through interface values that hold non-pointer values
//     (upstream does not see it either).
//
// The labels map is located once per type T: it is the field a.Labels,
// either direct or promoted from embedded structs (the embedded ObjectMeta
// of corev1.PodTemplateSpec), or else a.ObjectMeta.Labels; it must be a
// map from a string type to a string type, reached without passing through
// a pointer. Only that map's HashLabel entry is ignored. When T has no such
// map (T is not a struct, say), the templates are compared as they are,
// and T's own Equal method, if any, is used.
//
// A nil template equals only another nil template. EqualIgnoreHash never
// modifies or copies the templates, never panics, and does not allocate,
// except when it calls an Equal method on values that are not identical
// (reflection allocates for the call), and for maps whose entries
// reflection must copy out: maps of more than 32 entries, other than
// map[string]string (labels, annotations and selectors never allocate),
// and maps reached through unexported fields, and for the set of pairs it
// remembers (see above) once a comparison enters more than 128 pairs of
// references or 16 nested ones. The first comparison of a template type
// also builds that type's cached description.
// Upstream: deploymentutil.EqualIgnoreHash.
func EqualIgnoreHash[T any](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a == b {
		return true
	}
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	ti := infoOf(va.Type())
	var w walker
	if ti.labels != nil {
		return w.equalExcept(va, vb, ti, ti.labels)
	}
	return w.equal(va, vb, ti)
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

// privateTag is the visit tag bit of references reached through an
// unexported field (either of them).
func privateTag(a, b reflect.Value) uint {
	if a.CanInterface() && b.CanInterface() {
		return 0
	}
	return 1
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

// equalExcept compares structs a and b field by field, comparing the
// labels map at path (relative to a) without its HashLabel entry.
func (w *walker) equalExcept(a, b reflect.Value, ti *typeInfo, path []int) bool {
	for i, fi := range ti.fields {
		fa, fb := a.Field(i), b.Field(i)
		var ok bool
		switch {
		case i != path[0]:
			ok = w.equal(fa, fb, fi)
		case len(path) > 1:
			ok = w.equalExcept(fa, fb, fi, path[1:])
		default:
			ok = w.compareMap(fa, fb, fi, true)
		}
		if !ok {
			return false
		}
	}
	return true
}

// equal compares a and b, which have the type described by ti.
func (w *walker) equal(a, b reflect.Value, ti *typeInfo) bool {
	if !w.strict {
		if ti.isTime && a.CanAddr() && b.CanAddr() && a.CanInterface() && b.CanInterface() {
			return a.Addr().Interface().(*time.Time).Equal(*b.Addr().Interface().(*time.Time))
		}
		if ti.equal.call != noEqual {
			if equalResult, called := callEqual(ti, a, b); called {
				return equalResult
			}
		}
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
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		ea, eb := a.Elem(), b.Elem()
		t := ea.Type()
		return t == eb.Type() && w.equal(ea, eb, infoOf(t))
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		pa, pb := a.Pointer(), b.Pointer()
		if pa == pb {
			return true
		}
		if w.enter(pa, pb, ti, privateTag(a, b)) {
			return true
		}
		ok := w.equal(a.Elem(), b.Elem(), ti.elem)
		w.leave()
		return ok
	case reflect.Array:
		for i := range a.Len() {
			if !w.equal(a.Index(i), b.Index(i), ti.elem) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if w.strict && a.IsNil() != b.IsNil() {
			return false
		}
		n := a.Len()
		if n != b.Len() {
			return false
		}
		if n == 0 {
			return true
		}
		pa, pb := a.Pointer(), b.Pointer()
		if pa == pb {
			return true
		}
		et := ti.elem
		plain := w.strict || et.equal.call == noEqual
		if et.kind == reflect.String && plain {
			// Compare the strings in place, as equal would.
			da, db := a.UnsafePointer(), b.UnsafePointer()
			for i := range n {
				off := uintptr(i) * unsafe.Sizeof("")
				if *(*string)(unsafe.Add(da, off)) != *(*string)(unsafe.Add(db, off)) {
					return false
				}
			}
			return true
		}
		if w.enter(pa, pb, ti, uint(n)<<1|privateTag(a, b)) {
			return true
		}
		ok := true
		if et.kind == reflect.Struct && !et.isTime && plain {
			// Slice elements are addressable: what equal would do.
			for i := 0; i < n && ok; i++ {
				ok = w.equalFields(a.Index(i), b.Index(i), et)
			}
		} else {
			for i := 0; i < n && ok; i++ {
				ok = w.equal(a.Index(i), b.Index(i), et)
			}
		}
		w.leave()
		return ok
	case reflect.Map:
		return w.compareMap(a, b, ti, false)
	case reflect.Struct:
		if a.CanAddr() && b.CanAddr() {
			return w.equalFields(a, b, ti)
		}
		for i, fi := range ti.fields {
			if !w.equal(a.Field(i), b.Field(i), fi) {
				return false
			}
		}
		return true
	}
	return false // reflect.Invalid: not reachable from a typed value
}

// equalFields compares structs a and b, which are addressable and have
// the type described by ti, field by field.
//
// It reads fields of the kinds listed in rawKind straight from memory at
// their offsets, rather than through reflect.Value.Field, which costs
// more than the comparison itself (it looks up whether the field is
// exported): numbers and strings compare with ==, as equal compares
// them, and nil or identical pointers, maps, slices and interfaces are
// settled without looking further, with equal's rules. Fields of nested
// structs are read the same way (see leafPlan). Anything else goes
// through equal. No field read from memory has an Equal method that
// applies, so whether reflection could call one (the field being
// exported) does not matter.
//
// The order in which fields are compared does not change the result: the
// comparisons of two fields share no state but the stack of their common
// ancestors.
func (w *walker) equalFields(a, b reflect.Value, ti *typeInfo) bool {
	p := &ti.leaves
	if w.strict {
		p = &ti.strictLeaves
	}
	ba, bb := unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr())
	if !p.equalScalars(ba, bb) {
		return false
	}
	for i := range p.refs {
		f := &p.refs[i]
		switch equalRef(f, ba, bb, w.strict) {
		case refsEqual:
			continue
		case refsDiffer:
			return false
		}
		if f.kind == reflect.Pointer {
			// Two different non-nil pointers: what equal would do next.
			xa, xb := *(*uintptr)(unsafe.Add(ba, f.offset)), *(*uintptr)(unsafe.Add(bb, f.offset))
			fa, fb := fieldOf(a, f), fieldOf(b, f)
			if w.enter(xa, xb, f.ti, privateTag(fa, fb)) {
				continue
			}
			ok := w.equal(fa.Elem(), fb.Elem(), f.ti.elem)
			w.leave()
			if !ok {
				return false
			}
			continue
		}
		if !w.equal(fieldOf(a, f), fieldOf(b, f), f.ti) {
			return false
		}
	}
	for i := range p.rest {
		f := &p.rest[i]
		if !w.equal(fieldOf(a, f), fieldOf(b, f), f.ti) {
			return false
		}
	}
	return true
}

// fieldOf returns the leaf f of struct v.
func fieldOf(v reflect.Value, f *rawField) reflect.Value {
	if len(f.index) == 1 {
		return v.Field(f.index[0])
	}
	return v.FieldByIndex(f.index)
}

// equalScalars compares the string and number leaves of the structs at
// ba and bb.
func (p *leafPlan) equalScalars(ba, bb unsafe.Pointer) bool {
	for _, o := range p.strs {
		if *(*string)(unsafe.Add(ba, o)) != *(*string)(unsafe.Add(bb, o)) {
			return false
		}
	}
	for _, o := range p.words {
		if *(*uint64)(unsafe.Add(ba, o)) != *(*uint64)(unsafe.Add(bb, o)) {
			return false
		}
	}
	for _, o := range p.halves {
		if *(*uint32)(unsafe.Add(ba, o)) != *(*uint32)(unsafe.Add(bb, o)) {
			return false
		}
	}
	for _, o := range p.quarters {
		if *(*uint16)(unsafe.Add(ba, o)) != *(*uint16)(unsafe.Add(bb, o)) {
			return false
		}
	}
	for _, o := range p.bytes {
		if *(*uint8)(unsafe.Add(ba, o)) != *(*uint8)(unsafe.Add(bb, o)) {
			return false
		}
	}
	for _, o := range p.floats32 {
		if *(*float32)(unsafe.Add(ba, o)) != *(*float32)(unsafe.Add(bb, o)) {
			return false
		}
	}
	for _, o := range p.floats64 {
		if *(*float64)(unsafe.Add(ba, o)) != *(*float64)(unsafe.Add(bb, o)) {
			return false
		}
	}
	return true
}

// A refResult is what equalRef can tell from memory.
type refResult uint8

const (
	refsEqual refResult = iota
	refsDiffer
	refsUnknown // compare through reflection
)

// equalRef compares the pointer, map, slice or interface leaf f of the
// structs at ba and bb from memory, as far as equal's rules allow: nil,
// empty or identical references.
func equalRef(f *rawField, ba, bb unsafe.Pointer, strict bool) refResult {
	pa, pb := unsafe.Add(ba, f.offset), unsafe.Add(bb, f.offset)
	switch f.kind {
	case reflect.Pointer, reflect.Map:
		xa, xb := *(*unsafe.Pointer)(pa), *(*unsafe.Pointer)(pb)
		if xa == xb {
			return refsEqual // both nil, or the same
		}
		if f.kind == reflect.Pointer && (xa == nil || xb == nil) {
			return refsDiffer
		}
	case reflect.Slice:
		sa, sb := (*sliceHeader)(pa), (*sliceHeader)(pb)
		if sa.len != sb.len {
			return refsDiffer
		}
		if sa.len == 0 {
			if strict && (sa.data == nil) != (sb.data == nil) {
				return refsDiffer
			}
			return refsEqual
		}
		if sa.data == sb.data {
			return refsEqual
		}
	case reflect.Interface:
		ta, tb := *(*unsafe.Pointer)(pa), *(*unsafe.Pointer)(pb)
		if ta == nil || tb == nil {
			if ta != tb {
				return refsDiffer
			}
			return refsEqual
		}
	}
	return refsUnknown
}

// identicalLeaves reports whether the structs at ba and bb, described by
// p (strict leaves), are identical, as far as memory shows: known is
// false when some leaf needs reflection.
func (p *leafPlan) identicalLeaves(ba, bb unsafe.Pointer) (identical, known bool) {
	if !p.equalScalars(ba, bb) {
		return false, true
	}
	known = len(p.rest) == 0
	for i := range p.refs {
		switch equalRef(&p.refs[i], ba, bb, true) {
		case refsDiffer:
			return false, true
		case refsUnknown:
			known = false
		}
	}
	return true, known
}

// sliceHeader is the memory layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// callEqual compares a and b with their type's own Equal method m. It
// first checks whether they are identical, which needs no call. called is
// false when the method cannot be called through reflection on these
// values; the caller then compares them field by field.
func callEqual(ti *typeInfo, a, b reflect.Value) (equal, called bool) {
	m := ti.equal
	if m.call == pointerEqual && !a.CanAddr() || m.argPointer && !b.CanAddr() {
		return false, false
	}
	if !a.CanInterface() || !b.CanInterface() {
		return false, false // reached through an unexported field
	}
	if ti.kind == reflect.Struct && a.CanAddr() && b.CanAddr() {
		// Most often the leaves alone show whether a and b are identical.
		ba, bb := unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr())
		switch identical, known := ti.strictLeaves.identicalLeaves(ba, bb); {
		case !identical:
			return invokeEqual(m, a, b), true
		case known:
			return true, true
		}
	}
	identical := walker{strict: true}
	if identical.equal(a, b, ti) {
		return true, true
	}
	return invokeEqual(m, a, b), true
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

// compareMap compares maps a and b of the type described by ti. With
// labels set, the maps have string keys and values and their HashLabel
// entries are ignored.
func (w *walker) compareMap(a, b reflect.Value, ti *typeInfo, labels bool) bool {
	if w.strict && a.IsNil() != b.IsNil() {
		return false
	}
	if !labels && a.Len() != b.Len() {
		return false
	}
	if a.Len() == 0 && b.Len() == 0 {
		return true
	}
	pa, pb := a.Pointer(), b.Pointer()
	if pa == pb {
		return true
	}
	if a.Type() == stringMapType && a.CanInterface() && b.CanInterface() {
		return equalStringMaps(a.Interface().(map[string]string), b.Interface().(map[string]string), labels)
	}
	if w.enter(pa, pb, ti, privateTag(a, b)) {
		return true
	}
	var ok bool
	if !a.CanInterface() || !b.CanInterface() || a.Len() > smallMap || b.Len() > smallMap {
		ok = w.compareMapByIndex(a, b, ti, labels)
	} else {
		s := ti.scratch.Get().(*mapScratch)
		if !labels && ti.mapKey == reflect.String && a.Len() <= smallPairs {
			ok = w.compareSmallMaps(a, b, ti, s)
		} else {
			ok = w.compareMapScan(a, b, ti, labels, s)
		}
		s.release(ti.scratch)
	}
	w.leave()
	return ok
}

// compareMapScan is compareMap for maps of at most smallMap entries
// that can be read through reflection: it looks up each key of a by
// scanning b, with the scratch space s.
func (w *walker) compareMapScan(a, b reflect.Value, ti *typeInfo, labels bool, s *mapScratch) bool {
	// Every entry of a must be in b with an equal value; then the maps
	// are equal if they have as many entries (not counting the hash label).
	na := 0
	s.iterA.Reset(a)
	for s.iterA.Next() {
		s.keyA.SetIterKey(&s.iterA)
		if labels && s.keyA.String() == HashLabel {
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
		if !w.equal(s.elemA, s.elemB, ti.elem) {
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
		if s.keyB.String() != HashLabel {
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
func (w *walker) compareSmallMaps(a, b reflect.Value, ti *typeInfo, s *mapScratch) bool {
	if !s.elems[0][0].IsValid() {
		et := a.Type().Elem()
		for i := range s.elems {
			for j := range s.elems[i] {
				s.elems[i][j] = reflect.New(et).Elem()
			}
		}
	}
	n := a.Len()
	var ka, kb [smallPairs]string
	if !copyEntries(&s.iterA, a, s.keyA, ka[:n], s.elems[0][:n]) ||
		!copyEntries(&s.iterB, b, s.keyB, kb[:n], s.elems[1][:n]) {
		return false
	}
	for i, k := range ka[:n] {
		j := 0
		for j < n && kb[j] != k {
			j++
		}
		if j == n || !w.equal(s.elems[0][i], s.elems[1][j], ti.elem) {
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
func (w *walker) compareMapByIndex(a, b reflect.Value, ti *typeInfo, labels bool) bool {
	na := 0
	it := a.MapRange()
	for it.Next() {
		k := it.Key()
		if labels && k.String() == HashLabel {
			continue
		}
		na++
		eb := b.MapIndex(k)
		if !eb.IsValid() || !w.equal(it.Value(), eb, ti.elem) {
			return false
		}
	}
	if !labels {
		return true
	}
	nb := 0
	for it = b.MapRange(); it.Next(); {
		if it.Key().String() != HashLabel {
			nb++
		}
	}
	return na == nb
}

var stringMapType = reflect.TypeFor[map[string]string]()

// equalStringMaps compares two string maps; with labels set, their
// HashLabel entries are ignored.
func equalStringMaps(a, b map[string]string, labels bool) bool {
	n := 0
	for k, va := range a {
		if labels && k == HashLabel {
			continue
		}
		vb, ok := b[k]
		if !ok || va != vb {
			return false
		}
		n++
	}
	if labels {
		if _, ok := b[HashLabel]; ok {
			return n == len(b)-1
		}
	}
	return n == len(b)
}
