package revision

import (
	"reflect"
	"sync"
)

// typeInfo holds the reflection facts this package needs about one type.
// They are computed once per type and cached, because looking them up
// through package reflect allocates and is slow. The typeInfo of a
// composite type points to those of its element and field types, so that
// a comparison walks the plan without further lookups.
type typeInfo struct {
	kind reflect.Kind

	// equal says how to call the type's own Equal method, if it has one.
	equal equalMethod

	// isTime marks time.Time, compared with its Equal method directly.
	isTime bool

	// elem is the element type of a pointer, slice, array or map.
	elem *typeInfo

	// fields are the field types of a struct, in order.
	fields []*typeInfo

	// leaves are the fields of a struct that equalFields compares, with
	// nested struct fields replaced by their own leaves when the nested
	// type has no Equal method (strictLeaves: even when it has one, as
	// strict comparison ignores Equal methods).
	leaves, strictLeaves leafPlan

	// labels is the field index path from a template type to its labels
	// map (see labelsPath), or nil when the type has none.
	labels []int

	// scratch, for map types, pools the settable values compareMap copies
	// entries into.
	scratch *sync.Pool

	// mapKey is the kind of a map type's keys, and stringMap marks
	// map[string]string.
	mapKey    reflect.Kind
	stringMap bool

	// dump describes how the type renders, for Hash.
	dump *dumpInfo
}

// rawField is a field of a struct, or of structs nested in it: where it
// is, and the kind equalFields reads it as from memory, or
// reflect.Invalid if it must go through reflection.
type rawField struct {
	offset uintptr // from the start of the outermost struct
	kind   reflect.Kind
	index  []int     // the field index path, for reflect.Value.FieldByIndex
	ti     *typeInfo // the field's type
}

// leafPlan is how equalFields compares two structs: the leaves of each
// kind, grouped so that each loop compares one kind. Strings and numbers
// are compared from memory at their offsets; references (pointers, maps,
// slices, interfaces) from memory when they are nil, empty or identical,
// else through reflection; the rest through reflection.
type leafPlan struct {
	strs                           []uintptr
	words, halves, quarters, bytes []uintptr // integers of 8, 4, 2 and 1 bytes
	floats32, floats64             []uintptr
	refs, rest                     []rawField
}

// addLeaves adds to p the leaves of struct type t at offset base and index
// path prefix; see typeInfo.leaves.
func (p *leafPlan) addLeaves(t reflect.Type, base uintptr, prefix []int, strict bool, building map[reflect.Type]*typeInfo) {
	for i := range t.NumField() {
		sf := t.Field(i)
		fi := buildInfo(sf.Type, building)
		index := append(prefix[:len(prefix):len(prefix)], i)
		if fi.kind == reflect.Struct && !fi.isTime && (strict || fi.equal.call == noEqual) {
			p.addLeaves(sf.Type, base+sf.Offset, index, strict, building)
			continue
		}
		kind := rawKind(sf.Type, fi)
		if strict && kind == reflect.Invalid && !fi.isTime {
			kind = rawKind(sf.Type, &typeInfo{}) // strict ignores Equal methods
		}
		off := base + sf.Offset
		switch kind {
		case reflect.String:
			p.strs = append(p.strs, off)
		case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
			p.words = append(p.words, off)
		case reflect.Int32, reflect.Uint32:
			p.halves = append(p.halves, off)
		case reflect.Int16, reflect.Uint16:
			p.quarters = append(p.quarters, off)
		case reflect.Bool, reflect.Int8, reflect.Uint8:
			p.bytes = append(p.bytes, off)
		case reflect.Float32:
			p.floats32 = append(p.floats32, off)
		case reflect.Float64:
			p.floats64 = append(p.floats64, off)
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			p.refs = append(p.refs, rawField{offset: off, kind: kind, index: index, ti: fi})
		default:
			p.rest = append(p.rest, rawField{offset: off, kind: kind, index: index, ti: fi})
		}
	}
}

// rawKind returns the kind equalFields reads a field of type t, described
// by ti, as: the kind of t for numbers (other than complex), strings,
// pointers, maps, slices and interfaces whose types have no Equal method
// of their own; reflect.Invalid for the rest. Integers of the same size
// read alike.
func rawKind(t reflect.Type, ti *typeInfo) reflect.Kind {
	if ti.equal.call != noEqual || ti.isTime {
		return reflect.Invalid
	}
	switch k := t.Kind(); k {
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		if t.Size() != 8 {
			return reflect.Invalid
		}
		return k
	case reflect.String, reflect.Bool,
		reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64,
		reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return k
	}
	return reflect.Invalid
}

// equalCall says how a type's own Equal method is reached.
type equalCall uint8

const (
	noEqual      equalCall = iota
	valueEqual             // Equal is in T's method set: call it on the value
	pointerEqual           // Equal is only in *T's method set: call it on the address
)

// equalMethod is a type's Equal method: func (T or *T) Equal(T or *T) bool.
type equalMethod struct {
	call       equalCall
	index      int  // index in the method set of T (valueEqual) or *T (pointerEqual)
	argPointer bool // the parameter is *T rather than T
}

// mapScratch is settable storage for one key and one value of each map
// being compared, plus the iterators, so that comparing maps does not
// allocate once the pool is warm.
type mapScratch struct {
	keyA, elemA, keyB, elemB reflect.Value
	iterA, iterB             reflect.MapIter

	// elems hold the values of two small maps with string keys (see
	// compareSmallMaps), created on first use.
	elems [2][smallPairs]reflect.Value
}

// release returns s to pool. The iterators let go of their maps, but the
// copies of the last entries compared stay until the next use, or until
// a garbage collection empties the pool: clearing them cost more than
// anything else about the pool.
func (s *mapScratch) release(pool *sync.Pool) {
	s.iterA.Reset(reflect.Value{})
	s.iterB.Reset(reflect.Value{})
	pool.Put(s)
}

// typeInfos caches *typeInfo by reflect.Type. It only ever holds facts
// derived from the types themselves, so it never changes a result.
// Complete typeInfos are published to it under infoMu.
var (
	typeInfos sync.Map
	infoMu    sync.Mutex
)

// infoOf returns the cached facts about t, computing them, and those of
// every type t contains, on first use.
func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	infoMu.Lock()
	defer infoMu.Unlock()
	building := map[reflect.Type]*typeInfo{}
	ti := buildInfo(t, building)
	for bt, bi := range building {
		typeInfos.Store(bt, bi)
	}
	return ti
}

// buildInfo computes the typeInfo of t, recording the new ones in
// building so that recursive types end.
func buildInfo(t reflect.Type, building map[reflect.Type]*typeInfo) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	if ti, ok := building[t]; ok {
		return ti
	}
	ti := &typeInfo{
		kind:   t.Kind(),
		equal:  findEqual(t),
		isTime: t == timeType,
		labels: labelsPath(t),
		dump:   newDumpInfo(t),
	}
	building[t] = ti
	switch ti.kind {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		ti.elem = buildInfo(t.Elem(), building)
	case reflect.Map:
		ti.elem = buildInfo(t.Elem(), building)
		kt, et := t.Key(), t.Elem()
		ti.mapKey = kt.Kind()
		ti.stringMap = t == stringMapType
		ti.scratch = &sync.Pool{New: func() any {
			return &mapScratch{
				keyA:  reflect.New(kt).Elem(),
				elemA: reflect.New(et).Elem(),
				keyB:  reflect.New(kt).Elem(),
				elemB: reflect.New(et).Elem(),
			}
		}}
	case reflect.Struct:
		ti.fields = make([]*typeInfo, t.NumField())
		for i := range ti.fields {
			ti.fields[i] = buildInfo(t.Field(i).Type, building)
		}
		ti.leaves.addLeaves(t, 0, nil, false, building)
		ti.strictLeaves.addLeaves(t, 0, nil, true, building)
	}
	return ti
}

// findEqual looks for a method Equal(T) bool or Equal(*T) bool on T or
// *T. Pointer and interface types are not searched: equality looks
// through pointers and interfaces to the values they hold.
func findEqual(t reflect.Type) equalMethod {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return equalMethod{}
	}
	pt := reflect.PointerTo(t)
	for _, c := range []struct {
		recv reflect.Type
		call equalCall
	}{{t, valueEqual}, {pt, pointerEqual}} {
		m, ok := c.recv.MethodByName("Equal")
		if !ok {
			continue
		}
		mt := m.Type // includes the receiver as In(0)
		if mt.NumIn() != 2 || mt.NumOut() != 1 || mt.Out(0).Kind() != reflect.Bool {
			continue
		}
		switch mt.In(1) {
		case t:
			return equalMethod{call: c.call, index: m.Index}
		case pt:
			return equalMethod{call: c.call, index: m.Index, argPointer: true}
		}
	}
	return equalMethod{}
}

// labelsPath locates the labels map of a template type t, as a field
// index path for reflect.Value.FieldByIndex. It is the field t.Labels (a
// direct field, or one promoted from embedded structs such as the
// ObjectMeta embedded in corev1.PodTemplateSpec) or else t.ObjectMeta.Labels
// for a named ObjectMeta struct field. The map must have string keys and
// string values (any named string types), and the path must not pass
// through a pointer. It returns nil when t is not a struct or has no such
// map.
func labelsPath(t reflect.Type) []int {
	if t.Kind() != reflect.Struct {
		return nil
	}
	if f, ok := t.FieldByName("Labels"); ok && isLabelsMap(f.Type) && structsOnly(t, f.Index) {
		return f.Index
	}
	om, ok := t.FieldByName("ObjectMeta")
	if !ok || om.Type.Kind() != reflect.Struct || !structsOnly(t, om.Index) {
		return nil
	}
	f, ok := om.Type.FieldByName("Labels")
	if !ok || !isLabelsMap(f.Type) || !structsOnly(om.Type, f.Index) {
		return nil
	}
	return append(append([]int(nil), om.Index...), f.Index...)
}

// isLabelsMap reports whether t is a map from a string kind to a string
// kind.
func isLabelsMap(t reflect.Type) bool {
	return t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.String
}

// structsOnly reports whether following index from t passes through struct
// values only (no pointers), so that the field always exists.
func structsOnly(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		t = t.Field(i).Type
		if t.Kind() != reflect.Struct {
			return false
		}
	}
	return true
}
