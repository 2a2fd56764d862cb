package deep

import (
	"reflect"
	"time"
	"unsafe"
)

// An eqOp is one step of a compiled comparison: it compares the part of
// two values found at offset off from their starts. A type's comparison
// is a list of them (see typeInfo.eq), run by walker.run over the
// addresses of two values, without building a reflect.Value for values
// that sit in memory. A struct's list holds the leaves of its nested
// structs inline, at their offsets from the outer struct.
//
// Memory is read only as the type it holds, or as a type with the same
// underlying type (a named string as a string, a map whose underlying type
// is map[string]string as one), with these exceptions: integers,
// booleans and unsafe pointers are compared byte by byte, pointers and
// maps are compared as machine words (for nil and identity), and a slice
// is read as a sliceHeader. Everything else
// (interfaces, funcs, channels, map entries) goes through reflection.
type eqOp struct {
	kind opKind

	// private marks a part reached through an unexported field: Equal
	// methods are not called on it, as reflection cannot call them.
	private bool

	off uintptr // from the start of the value being compared

	// n is the byte count of opBytes, the string count of opStrings, and
	// the length of opArray.
	n uintptr

	// ti describes the part's type, for the kinds that need more than
	// memory.
	ti *typeInfo

	// sub are the ops of an opRefs run, with offsets from the same start.
	sub []eqOp
}

// opKind says how an eqOp compares.
type opKind uint8

const (
	opBytes      opKind = iota // n bytes holding integers, booleans or unsafe pointers
	opStrings                  // n strings in a row
	opFloat32                  // compared with ==, so NaN differs from itself
	opFloat64                  //
	opComplex64                //
	opComplex128               //
	opPointer                  // nil, identical, or the values pointed to
	opSlice                    // lengths, then the elements
	opArray                    // n elements
	opStringMap                // a map whose underlying type is map[string]string
	opMap                      // any other map, through reflection
	opLabels                   // the template's labels map, without its entry walker.label
	opLabelsMap                // the same, when its type is not map[string]string underneath
	opMethod                   // a value whose type has an Equal method, or a time.Time
	opValue                    // interfaces, funcs and channels, through reflection

	// opRefs is a run of n bytes holding pointers, slices and maps next to
	// each other, compared by the ops in sub unless the bytes are the
	// same: nil or identical references are equal. Most pointers of a pod
	// template are nil, such as the thirty volume sources of a Volume.
	opRefs
)

// privateTag is the visit tag bit of references reached through an
// unexported field.
func privateTag(private bool) uint {
	if private {
		return 1
	}
	return 0
}

// plan returns the comparison of the type described by ti that w uses:
// strict or semantic.
func (w *walker) plan(ti *typeInfo) []eqOp {
	if w.strict {
		return ti.eqStrict
	}
	return ti.eq
}

// run compares the values at a and b with the compiled comparison ops.
// private says whether the values were reached through an unexported
// field. The values are addressable: they are the templates, or reached
// from them through pointers, slices, arrays, struct fields, or copies of
// map entries.
func (w *walker) run(ops []eqOp, a, b unsafe.Pointer, private bool) bool {
	for i := range ops {
		op := &ops[i]
		pa, pb := unsafe.Add(a, op.off), unsafe.Add(b, op.off)
		switch op.kind {
		case opBytes:
			if !equalBytes(pa, pb, op.n) {
				return false
			}
		case opRefs:
			if !equalBytes(pa, pb, op.n) && !w.run(op.sub, a, b, private) {
				return false
			}
		case opStrings:
			for j := range op.n {
				o := j * unsafe.Sizeof("")
				if *(*string)(unsafe.Add(pa, o)) != *(*string)(unsafe.Add(pb, o)) {
					return false
				}
			}
		case opFloat32:
			if *(*float32)(pa) != *(*float32)(pb) {
				return false
			}
		case opFloat64:
			if *(*float64)(pa) != *(*float64)(pb) {
				return false
			}
		case opComplex64:
			if *(*complex64)(pa) != *(*complex64)(pb) {
				return false
			}
		case opComplex128:
			if *(*complex128)(pa) != *(*complex128)(pb) {
				return false
			}
		case opPointer:
			xa, xb := *(*unsafe.Pointer)(pa), *(*unsafe.Pointer)(pb)
			if xa == xb {
				continue // both nil, or the same
			}
			if xa == nil || xb == nil {
				return false
			}
			if !w.equalPointees(xa, xb, op.ti, private || op.private) {
				return false
			}
		case opSlice:
			sa, sb := (*sliceHeader)(pa), (*sliceHeader)(pb)
			if !w.equalSlices(sa.data, sb.data, sa.len, sb.len, op.ti, private || op.private) {
				return false
			}
		case opArray:
			et := op.ti.elem
			eops := w.plan(et)
			for j := range op.n {
				o := j * et.size
				if !w.run(eops, unsafe.Add(pa, o), unsafe.Add(pb, o), private || op.private) {
					return false
				}
			}
		case opStringMap, opLabels:
			ma, mb := *(*map[string]string)(pa), *(*map[string]string)(pb)
			labels := op.kind == opLabels
			if w.strict && (ma == nil) != (mb == nil) || !labels && len(ma) != len(mb) {
				return false
			}
			if !equalStringMaps(ma, mb, labels, w.label) {
				return false
			}
		case opMap, opLabelsMap:
			va := reflect.NewAt(op.ti.t, pa).Elem()
			vb := reflect.NewAt(op.ti.t, pb).Elem()
			if !w.compareMap(va, vb, op.ti, private || op.private, op.kind == opLabelsMap) {
				return false
			}
		case opMethod:
			if !w.equalMethod(pa, pb, op.ti, private || op.private) {
				return false
			}
		case opValue:
			va := reflect.NewAt(op.ti.t, pa).Elem()
			vb := reflect.NewAt(op.ti.t, pb).Elem()
			if !w.equalValue(va, vb, op.ti, private || op.private) {
				return false
			}
		}
	}
	return true
}

// equalBytes reports whether the n bytes at a and b are the same.
func equalBytes(a, b unsafe.Pointer, n uintptr) bool {
	switch n {
	case 1:
		return *(*uint8)(a) == *(*uint8)(b)
	case 2:
		return *(*uint16)(a) == *(*uint16)(b)
	case 4:
		return *(*uint32)(a) == *(*uint32)(b)
	case 8:
		return *(*uint64)(a) == *(*uint64)(b)
	}
	return unsafe.String((*byte)(a), n) == unsafe.String((*byte)(b), n)
}

// equalPointees compares the values that two different, non-nil pointers
// of the type described by ti point to.
func (w *walker) equalPointees(xa, xb unsafe.Pointer, ti *typeInfo, private bool) bool {
	if w.enter(uintptr(xa), uintptr(xb), ti, privateTag(private)) {
		return true
	}
	ok := w.run(w.plan(ti.elem), xa, xb, private)
	w.leave()
	return ok
}

// equalSlices compares two slices of the type described by ti, given by
// their data pointers and lengths. A nil slice has a nil data pointer.
func (w *walker) equalSlices(da, db unsafe.Pointer, na, nb int, ti *typeInfo, private bool) bool {
	if w.strict && (da == nil) != (db == nil) {
		return false
	}
	if na != nb {
		return false
	}
	if na == 0 || da == db {
		return true
	}
	et := ti.elem
	if et.kind == reflect.String && (w.strict || et.equal.call == noEqual) {
		// Strings hold no references: compare them without entering.
		for i := range uintptr(na) {
			o := i * unsafe.Sizeof("")
			if *(*string)(unsafe.Add(da, o)) != *(*string)(unsafe.Add(db, o)) {
				return false
			}
		}
		return true
	}
	if w.enter(uintptr(da), uintptr(db), ti, uint(na)<<1|privateTag(private)) {
		return true
	}
	eops := w.plan(et)
	ok := true
	for i := uintptr(0); i < uintptr(na) && ok; i++ {
		o := i * et.size
		ok = w.run(eops, unsafe.Add(da, o), unsafe.Add(db, o), private)
	}
	w.leave()
	return ok
}

// equalMethod compares two addressable values of a type described by ti
// that has its own Equal method, or is time.Time, in semantic mode. On
// values reached through an unexported field, the method is not called:
// they are compared field by field.
func (w *walker) equalMethod(a, b unsafe.Pointer, ti *typeInfo, private bool) bool {
	if private {
		return w.run(ti.eqPlain, a, b, true)
	}
	if ti.isTime {
		return (*time.Time)(a).Equal(*(*time.Time)(b))
	}
	// Values identical field by field are equal without calling the
	// method. Most often memory alone shows whether they are; otherwise
	// the check needs a walker of its own: what it finds unequal may still
	// be equal by the method, so its pairs must not be remembered as
	// compared by this walker.
	same, known := identicalShallow(ti.eqStrict, a, b)
	if !same {
		return invokeEqual(ti.equal, reflect.NewAt(ti.t, a).Elem(), reflect.NewAt(ti.t, b).Elem())
	}
	if known {
		return true
	}
	identical := walker{strict: true}
	if identical.run(ti.eqStrict, a, b, false) {
		return true
	}
	return invokeEqual(ti.equal, reflect.NewAt(ti.t, a).Elem(), reflect.NewAt(ti.t, b).Elem())
}

// identicalShallow runs the strict ops on the values at a and b as far as
// memory shows, without following references: same is false when they
// differ; otherwise known is false when some reference (two different
// non-nil pointers, say) or interface would need a walker to tell.
func identicalShallow(ops []eqOp, a, b unsafe.Pointer) (same, known bool) {
	known = true
	for i := range ops {
		op := &ops[i]
		pa, pb := unsafe.Add(a, op.off), unsafe.Add(b, op.off)
		switch op.kind {
		case opBytes:
			if !equalBytes(pa, pb, op.n) {
				return false, true
			}
		case opStrings:
			for j := range op.n {
				o := j * unsafe.Sizeof("")
				if *(*string)(unsafe.Add(pa, o)) != *(*string)(unsafe.Add(pb, o)) {
					return false, true
				}
			}
		case opFloat32:
			if *(*float32)(pa) != *(*float32)(pb) {
				return false, true
			}
		case opFloat64:
			if *(*float64)(pa) != *(*float64)(pb) {
				return false, true
			}
		case opPointer, opStringMap, opMap:
			xa, xb := *(*unsafe.Pointer)(pa), *(*unsafe.Pointer)(pb)
			if xa != xb {
				if xa == nil || xb == nil {
					return false, true
				}
				known = false
			}
		case opSlice:
			sa, sb := (*sliceHeader)(pa), (*sliceHeader)(pb)
			if sa.len != sb.len || (sa.data == nil) != (sb.data == nil) {
				return false, true
			}
			if sa.len != 0 && sa.data != sb.data {
				known = false
			}
		case opRefs:
			if !equalBytes(pa, pb, op.n) {
				s, k := identicalShallow(op.sub, a, b)
				if !s {
					return false, true
				}
				known = known && k
			}
		default:
			known = false
		}
	}
	return true, known
}

// buildPlans compiles the comparisons of the type t described by ti; the
// typeInfos of the types t contains exist (possibly still being built) in
// building.
func (ti *typeInfo) buildPlans(t reflect.Type, building map[reflect.Type]*typeInfo) {
	var plain, strict planBuilder
	if ti.kind == reflect.Struct {
		plain.addFields(t, 0, false, false, nil, building)
		strict.addFields(t, 0, false, true, nil, building)
		if ti.labels != nil {
			var l planBuilder
			l.addFields(t, 0, false, false, ti.labels, building)
			ti.eqLabels = l.ops
		}
	} else {
		plain.addKind(t, ti, 0, false, true, building)
		strict.ops = plain.ops
	}
	ti.eqPlain, ti.eqStrict = groupRefs(plain.ops), groupRefs(strict.ops)
	ti.eqLabels = groupRefs(ti.eqLabels)
	ti.eq = ti.eqPlain
	if ti.isTime || ti.equal.call != noEqual {
		ti.eq = []eqOp{{kind: opMethod, ti: ti}}
	}
}

// planBuilder collects the ops of one comparison.
type planBuilder struct {
	ops []eqOp
}

// addFields adds the fields of struct type t, found at offset base.
// Nested structs are inlined, except (unless strict) those compared with
// their own Equal method or as time.Time. labels, when not nil, is the
// field index path to the labels map: the structs on it are inlined
// whatever their methods, and the map is compared without its entry
// walker.label.
func (p *planBuilder) addFields(t reflect.Type, base uintptr, private, strict bool, labels []int, building map[reflect.Type]*typeInfo) {
	for i := range t.NumField() {
		sf := t.Field(i)
		fi := buildInfo(sf.Type, building)
		off, priv := base+sf.Offset, private || !sf.IsExported()
		switch {
		case labels != nil && i == labels[0] && len(labels) > 1:
			p.addFields(sf.Type, off, priv, strict, labels[1:], building)
		case labels != nil && i == labels[0]:
			if isStringMap(sf.Type) {
				p.ops = append(p.ops, eqOp{kind: opLabels, off: off, private: priv, ti: fi})
			} else {
				p.ops = append(p.ops, eqOp{kind: opLabelsMap, off: off, private: priv, ti: fi})
			}
		case fi.kind == reflect.Struct && (strict || fi.equal.call == noEqual && !fi.isTime):
			p.addFields(sf.Type, off, priv, strict, nil, building)
		case !strict && (fi.equal.call != noEqual || fi.isTime):
			p.ops = append(p.ops, eqOp{kind: opMethod, off: off, private: priv, ti: fi})
		default:
			p.addKind(sf.Type, fi, off, priv, strict, building)
		}
	}
}

// addKind adds the comparison of a value of type t, described by ti, at
// offset off, by its kind alone: its own Equal method, if any, is not
// used. Struct kinds are not added here but by addFields.
func (p *planBuilder) addKind(t reflect.Type, ti *typeInfo, off uintptr, private, strict bool, building map[reflect.Type]*typeInfo) {
	op := eqOp{off: off, private: private, ti: ti}
	switch ti.kind {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.UnsafePointer:
		p.addBytes(off, t.Size())
		return
	case reflect.String:
		if n := len(p.ops); n > 0 {
			if last := &p.ops[n-1]; last.kind == opStrings && last.off+last.n*unsafe.Sizeof("") == off {
				last.n++
				return
			}
		}
		op.kind, op.n = opStrings, 1
	case reflect.Float32:
		op.kind = opFloat32
	case reflect.Float64:
		op.kind = opFloat64
	case reflect.Complex64:
		op.kind = opComplex64
	case reflect.Complex128:
		op.kind = opComplex128
	case reflect.Pointer:
		op.kind = opPointer
	case reflect.Slice:
		op.kind = opSlice
	case reflect.Array:
		if t.Len() == 0 {
			return
		}
		if bitwise(t.Elem()) {
			p.addBytes(off, t.Size())
			return
		}
		op.kind, op.n = opArray, uintptr(t.Len())
	case reflect.Map:
		op.kind = opMap
		if isStringMap(t) {
			op.kind = opStringMap
		}
	case reflect.Struct:
		p.addFields(t, off, private, strict, nil, building)
		return
	default: // interfaces, funcs and channels
		op.kind = opValue
	}
	p.ops = append(p.ops, op)
}

// addBytes adds n bytes at off compared as they are, merged with the
// bytes just before them if there is no gap.
func (p *planBuilder) addBytes(off, n uintptr) {
	if n == 0 {
		return
	}
	if k := len(p.ops); k > 0 {
		if last := &p.ops[k-1]; last.kind == opBytes && last.off+last.n == off {
			last.n += n
			return
		}
	}
	p.ops = append(p.ops, eqOp{kind: opBytes, off: off, n: n})
}

// bitwise reports whether values of type t are equal exactly when their
// bytes are, and t has no Equal method: integers, booleans, and arrays of
// them.
func bitwise(t reflect.Type) bool {
	if findEqual(t).call != noEqual {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	case reflect.Array:
		return bitwise(t.Elem())
	}
	return false
}

// isStringMap reports whether t's underlying type is map[string]string.
func isStringMap(t reflect.Type) bool {
	return t.Kind() == reflect.Map && t.Key() == stringType && t.Elem() == stringType
}

var stringType = reflect.TypeFor[string]()

// groupRefs replaces runs of two or more adjacent pointer, slice and map
// ops with opRefs ops.
func groupRefs(ops []eqOp) []eqOp {
	isRef := func(op *eqOp) bool {
		switch op.kind {
		case opPointer, opSlice, opMap, opStringMap:
			return true
		}
		return false
	}
	var out []eqOp
	for i := 0; i < len(ops); {
		j := i + 1
		if isRef(&ops[i]) {
			for j < len(ops) && isRef(&ops[j]) && ops[j].off == ops[j-1].off+ops[j-1].ti.size {
				j++
			}
		}
		if j-i < 2 {
			out = append(out, ops[i])
			i++
			continue
		}
		out = append(out, refsOp(ops[i:j:j]))
		i = j
	}
	return out
}

// maxRefs is the most references an opRefs runs one by one: longer runs
// are split into nested runs, so that one reference that differs costs a
// few checks of bytes rather than a step for each of its neighbours.
const maxRefs = 8

// refsOp returns the opRefs op of the adjacent references ops.
func refsOp(ops []eqOp) eqOp {
	first, last := &ops[0], &ops[len(ops)-1]
	op := eqOp{kind: opRefs, off: first.off, n: last.off + last.ti.size - first.off, sub: ops}
	if len(ops) > maxRefs {
		op.sub = nil
		for i := 0; i < len(ops); i += maxRefs {
			chunk := ops[i:min(i+maxRefs, len(ops)):min(i+maxRefs, len(ops))]
			if len(chunk) == 1 {
				op.sub = append(op.sub, chunk[0])
			} else {
				op.sub = append(op.sub, refsOp(chunk))
			}
		}
	}
	return op
}
