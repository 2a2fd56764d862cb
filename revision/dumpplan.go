package revision

import (
	"reflect"
	"strconv"
	"unsafe"
)

// Rendering from memory.
//
// A template handed to Hash sits in memory, and so does everything it
// reaches through pointers and slices. The dumper renders such values by
// address (memFormat and the functions below) rather than through
// reflect.Value: a struct's fields are found at the offsets reflection
// reports, and read as the types they hold (a named string as a string,
// a named integer as its kind's integer), pointers as machine words and
// slices as a sliceHeader, the exceptions eqplan.go also makes. A
// map[string]string is ranged over directly; the entries of other maps
// are read through a reflect.Value made for the map's address (see
// mapEntries). Interfaces, floating-point and complex numbers, arrays,
// funcs, channels and pointers to pointers or interfaces are rendered by
// the reflective path (format), on a reflect.Value made for their
// address; values inside them that sit in memory come back here.
//
// The reflective path tells values reached through unexported fields by
// reflect.Value.CanInterface, and does not call the String and Error
// methods of the keys of maps among them when it sorts the keys (see
// sortKeys). A value made for an address cannot carry that mark, so the
// dumper carries it instead, in ro, while it renders what an unexported
// field holds. Nothing else in a rendering depends on the mark.
//
// Rendering from memory is never used with methods set: String and Error
// methods need reflect.Value.

// valueAt returns the addressable reflect.Value of the value at p, of
// the type described by ti.
func valueAt(p unsafe.Pointer, ti *typeInfo) reflect.Value {
	return reflect.NewAt(ti.t, p).Elem()
}

// memFormat renders the value at p, of the type described by ti, as
// format renders it. If f is not nil, the value is that struct field's
// (not of interface type), and memFormat writes the field's prefix first.
func (d *dumper) memFormat(p unsafe.Pointer, ti *typeInfo, f *fieldDump) {
	if ti.kind == reflect.Pointer {
		d.memPtr(p, ti, f)
		return
	}
	if !headedKind(ti) {
		d.format(valueAt(p, ti), ti, f)
		return
	}
	d.header(f, ti)
	d.ignoreNextType = false
	d.memBody(p, ti)
}

// memBody renders the value at p, of a type described by ti that
// headedKind accepts, after format's header, with the types showing.
func (d *dumper) memBody(p unsafe.Pointer, ti *typeInfo) {
	switch ti.kind {
	case reflect.Struct:
		d.memStruct(p, ti)
	case reflect.Pointer:
		d.memPtrBody(p, ti)
	case reflect.Slice:
		s := (*sliceHeader)(p)
		if s.data == nil {
			d.str("<nil>")
			return
		}
		if s.len == 0 {
			d.str("[]")
			return
		}
		if !d.begin(uintptr(s.data)) {
			return
		}
		d.memArray(s.data, ti, s.len)
		d.end()
	case reflect.Map:
		if !ti.stringMap {
			// What format does with a map.
			v := valueAt(p, ti)
			if v.IsNil() {
				d.str("<nil>")
				return
			}
			if !d.begin(v.Pointer()) {
				return
			}
			d.mapEntries(v, ti)
			d.end()
			return
		}
		m := *(*map[string]string)(p)
		if m == nil {
			d.str("<nil>")
			return
		}
		if !d.begin(uintptr(reflect.ValueOf(m).UnsafePointer())) {
			return
		}
		d.str("map[")
		d.depth++
		d.stringMapEntries(m)
		d.depth--
		d.byte1(']')
		d.end()
	default:
		d.scalar(p, ti.kind)
	}
}

// memPtrBody renders the pointer at p, of a type described by ti that
// headedKind accepts, after its header, with the types showing, as
// formatPtr does.
func (d *dumper) memPtrBody(p unsafe.Pointer, ti *typeInfo) {
	d.cleanup(d.depth)
	q := *(*unsafe.Pointer)(p)
	if q == nil {
		d.str("<nil>")
		return
	}
	addr := uintptr(q)
	seen := false
	for i := len(d.pointers) - 1; i >= 0; i-- {
		if pt := d.pointers[i]; pt.addr == addr {
			if pt.depth < d.depth {
				d.str("<shown>")
				return
			}
			seen = true
			break
		}
	}
	if !seen {
		d.pointers = append(d.pointers, followed{addr, d.depth})
	}
	if ti.elem.kind == reflect.Struct {
		// What memFormat does with the types hidden and no field.
		d.ignoreNextType = false
		d.memStruct(q, ti.elem)
		return
	}
	d.ignoreNextType = true
	d.memFormat(q, ti.elem, nil)
}

// memPtr renders the pointer at p, of the type described by ti, as
// formatPtr renders it. Only a pointer to a value that is neither a
// pointer nor an interface, and that is not nil and leads to no cycle, is
// rendered here: the others go to formatPtr, which repeats the cleanup
// and the search of the followed pointers with the same outcome.
func (d *dumper) memPtr(p unsafe.Pointer, ti *typeInfo, f *fieldDump) {
	et := ti.elem
	q := *(*unsafe.Pointer)(p)
	if q == nil || et.kind == reflect.Pointer || et.kind == reflect.Interface {
		d.formatPtr(valueAt(p, ti), ti, f)
		return
	}
	d.cleanup(d.depth)
	addr := uintptr(q)
	seen := false
	for i := len(d.pointers) - 1; i >= 0; i-- {
		if pt := d.pointers[i]; pt.addr == addr {
			if pt.depth < d.depth {
				d.formatPtr(valueAt(p, ti), ti, f)
				return
			}
			seen = true
			break
		}
	}
	if !seen {
		d.pointers = append(d.pointers, followed{addr, d.depth})
	}
	hidden := d.ignoreNextType
	d.header(f, ti)
	if hidden {
		d.str("<*>")
	}
	d.ignoreNextType = true
	d.memFormat(q, et, nil)
}

// memArray renders the n elements of the slice type described by ti that
// start at data, as array does.
func (d *dumper) memArray(data unsafe.Pointer, ti *typeInfo, n int) {
	d.byte1('[')
	d.depth++
	et := ti.elem
	for i := range n {
		if i > 0 {
			d.byte1(' ')
		}
		d.ignoreNextType = true
		ep := unsafe.Add(data, uintptr(i)*et.size)
		switch et.kind {
		case reflect.Struct:
			// What memFormat does with the types hidden and no field.
			d.ignoreNextType = false
			d.memStruct(ep, et)
		case reflect.Interface:
			ev, evti := d.unpack(valueAt(ep, et), et)
			d.format(ev, evti, nil)
		default:
			d.memFormat(ep, et, nil)
		}
	}
	d.depth--
	d.byte1(']')
}

// headedKind reports whether memBody renders values of the type described
// by ti after the header format writes.
func headedKind(ti *typeInfo) bool {
	switch ti.kind {
	case reflect.Struct, reflect.Slice, reflect.Map:
		return true
	case reflect.Pointer:
		return ti.elem.kind != reflect.Pointer && ti.elem.kind != reflect.Interface
	}
	return directKind(ti.kind)
}

// memField renders field i of the struct at p, described by ti, as field
// does.
func (d *dumper) memField(p unsafe.Pointer, ti *typeInfo, i int) {
	f, fti := &ti.dump.fields[i], ti.fields[i]
	fp := unsafe.Add(p, f.off)
	if ti.unexported[i] && !d.ro {
		d.ro = true
		defer func() { d.ro = false }()
	}
	if fti.kind == reflect.Interface {
		d.seg(f.prefix)
		fv, fti := d.unpack(valueAt(fp, fti), fti)
		d.format(fv, fti, nil)
		return
	}
	if f.zeroable && !d.ignoreNextType {
		var zero bool
		if f.zeroAt != nil {
			zero = zeroAt(p, f.zeroAt)
		} else {
			zero = valueAt(fp, fti).IsZero()
		}
		if zero {
			d.zero(f, fti)
			return
		}
	}
	d.memFormat(fp, fti, f)
}

// zeroAt reports whether every check holds in the struct at base.
func zeroAt(base unsafe.Pointer, checks []zeroCheck) bool {
	for _, c := range checks {
		p := unsafe.Add(base, c.off)
		switch c.kind {
		case zeroString:
			if len(*(*string)(p)) != 0 {
				return false
			}
		case zeroSlice:
			if (*sliceHeader)(p).data != nil {
				return false
			}
		default:
			if !zeroBytesAt(p, c.n) {
				return false
			}
		}
	}
	return true
}

// scalar writes the string, boolean or integer of kind k at p.
func (d *dumper) scalar(p unsafe.Pointer, k reflect.Kind) {
	switch k {
	case reflect.String:
		d.str(*(*string)(p))
	case reflect.Bool:
		if *(*bool)(p) {
			d.str("true")
		} else {
			d.str("false")
		}
	case reflect.Int:
		d.intText(int64(*(*int)(p)))
	case reflect.Int8:
		d.intText(int64(*(*int8)(p)))
	case reflect.Int16:
		d.intText(int64(*(*int16)(p)))
	case reflect.Int32:
		d.intText(int64(*(*int32)(p)))
	case reflect.Int64:
		d.intText(*(*int64)(p))
	case reflect.Uint:
		d.uintText(uint64(*(*uint)(p)))
	case reflect.Uint8:
		d.uintText(uint64(*(*uint8)(p)))
	case reflect.Uint16:
		d.uintText(uint64(*(*uint16)(p)))
	case reflect.Uint32:
		d.uintText(uint64(*(*uint32)(p)))
	case reflect.Uint64:
		d.uintText(*(*uint64)(p))
	}
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

// fnvInt continues the FNV-32a state h with the decimal digits of x, as
// strconv.AppendInt spells them, without going through strconv.
func fnvInt(h uint32, x int64) uint32 {
	if x < 0 {
		h = (h ^ '-') * fnvPrime32
		// -x wraps for math.MinInt64, whose magnitude uint64 still holds.
		return fnvUint(h, uint64(-x))
	}
	return fnvUint(h, uint64(x))
}

// fnvUint continues the FNV-32a state h with the decimal digits of x, as
// strconv.AppendUint spells them. The digits are spelled two at a time.
func fnvUint(h uint32, x uint64) uint32 {
	if x < 10 {
		return (h ^ uint32('0'+x)) * fnvPrime32
	}
	var b [20]byte
	i := len(b)
	for x >= 100 {
		p := &digitPairs[x%100]
		x /= 100
		i -= 2
		b[i], b[i+1] = p[0], p[1]
	}
	if x >= 10 {
		p := &digitPairs[x]
		i -= 2
		b[i], b[i+1] = p[0], p[1]
	} else {
		i--
		b[i] = byte('0' + x)
	}
	return fnvBytes(h, b[i:])
}

// digitPairs spells 00 to 99.
var digitPairs = func() (t [100][2]byte) {
	for i := range t {
		t[i] = [2]byte{byte('0' + i/10), byte('0' + i%10)}
	}
	return t
}()
