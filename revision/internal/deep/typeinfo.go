package deep

import (
	"reflect"
	"sync"
	"unsafe"
)

// typeInfo holds the reflection facts this package needs about one type.
// They are computed once per type and cached, because looking them up
// through package reflect allocates and is slow. The typeInfo of a
// composite type points to those of its element and field types, so that
// a comparison walks the plan without further lookups.
type typeInfo struct {
	t    reflect.Type
	kind reflect.Kind
	size uintptr

	// equal says how to call the type's own Equal method, if it has one.
	equal equalMethod

	// isTime marks time.Time, compared with its Equal method directly.
	isTime bool

	// elem is the element type of a pointer, slice, array or map.
	elem *typeInfo

	// fields are the field types of a struct, in order, and unexported
	// marks those whose names are not exported.
	fields     []*typeInfo
	unexported []bool

	// eq is how Equal compares two values of the type, compiled
	// (see eqOp): with the type's own Equal method if it has one. eqPlain
	// ignores that method (a struct's fields are compared one by one),
	// eqStrict ignores all Equal methods and tells nil from empty, to
	// check that two values are identical. eqLabels, for a template type
	// with labels, is eqPlain with the labels compared without their
	// entry walker.label.
	eq, eqPlain, eqStrict, eqLabels []eqOp

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
	addrA, addrB             unsafe.Pointer // of elemA and elemB
	iterA, iterB             reflect.MapIter

	// elems hold the values of two small maps with string keys (see
	// compareSmallMaps), smallPairs of each, or of one map being rendered
	// (see dumper.stringKeyEntries), created on first use: they are the
	// elements of one array, which starts at elemsAt.
	elems   []reflect.Value
	elemsAt unsafe.Pointer
}

// makeElems creates s.elems, for values of type et: 2*smallPairs of
// them for compareSmallMaps, and at least maxScan for stringKeyEntries.
func (s *mapScratch) makeElems(et reflect.Type) {
	n := max(2*smallPairs, maxScan)
	arr := reflect.New(reflect.ArrayOf(n, et)).Elem()
	s.elems = make([]reflect.Value, n)
	for i := range s.elems {
		s.elems[i] = arr.Index(i)
	}
	s.elemsAt = arr.Addr().UnsafePointer()
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

// typeInfos caches *typeInfo by reflect.Type. It only holds facts
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
		t:      t,
		size:   t.Size(),
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
			s := &mapScratch{
				keyA:  reflect.New(kt).Elem(),
				elemA: reflect.New(et).Elem(),
				keyB:  reflect.New(kt).Elem(),
				elemB: reflect.New(et).Elem(),
			}
			s.addrA, s.addrB = s.elemA.Addr().UnsafePointer(), s.elemB.Addr().UnsafePointer()
			return s
		}}
	case reflect.Struct:
		ti.fields = make([]*typeInfo, t.NumField())
		ti.unexported = make([]bool, t.NumField())
		for i := range ti.fields {
			sf := t.Field(i)
			ti.fields[i] = buildInfo(sf.Type, building)
			ti.unexported[i] = !sf.IsExported()
		}
	}
	ti.buildPlans(t, building)
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

// LabelsPath returns the field index path from a template type t to its
// labels map (see labelsPath), cached, or nil when t has none. The
// result must not be modified.
func LabelsPath(t reflect.Type) []int {
	return infoOf(t).labels
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
