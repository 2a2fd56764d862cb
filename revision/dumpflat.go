package revision

import (
	"reflect"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Flat plans.
//
// A struct renders its fields in braces, and a field holding a struct
// (not a pointer to one) renders that struct's fields in braces in turn.
// Rendering such an inner struct on its own costs a test of its fields
// for zero that its outer struct has already made, a lookup of its shape
// and a separate hash step for its opening text. A struct's flat plan
// lays out the fields of the structs it holds inline, as far as 64 of
// them fit, as pieces of one sequence: the header and opening brace of an
// inner struct, its fields, its closing brace. The fields are tested for
// zero in one pass over the outer struct's memory (each field has a bit
// of the mask), and the struct's shapes are compiled over the whole
// sequence, so that the constant text on both sides of an inner struct's
// braces joins that of its neighbours.

// pieceKind says what a flatPiece is.
type pieceKind uint8

const (
	pieceField pieceKind = iota // a field of the outer struct or of an inner one
	pieceOpen                   // a field holding an inner struct: its header and opening brace
	pieceClose                  // an inner struct's closing brace
)

// A flatPiece is one piece of a flat plan.
type flatPiece struct {
	kind pieceKind

	// st describes the struct holding the field of a pieceField or
	// pieceOpen, index is the field's index in it, and soff is the
	// offset of that struct from the outer struct's start.
	st    *typeInfo
	index int
	soff  uintptr

	// depth is how many inner structs hold the field: 0 for the outer
	// struct's own fields.
	depth int

	// ro says that an enclosing struct was reached through an unexported
	// field (see dumper.ro); the field's own name is not counted.
	ro bool

	// bit is the field's bit in the plan's mask, or 0 when the field
	// cannot be tested for zero in memory.
	bit uint64
}

// A flatPlan is how a struct type renders from memory.
type flatPlan struct {
	pieces []flatPiece
	checks zeroChecks

	// shapes caches the shapes compiled for masks seen (see shape), and
	// first is the first of them, one load away from the plan.
	shapes atomic.Pointer[[]*structShape]
	first  atomic.Pointer[structShape]
}

// maxLeaves is how many fields a flat plan holds at most: one bit of a
// mask each.
const maxLeaves = 64

// planOf returns the flat plan of the struct type described by ti,
// building it on first use.
func planOf(ti *typeInfo) *flatPlan {
	di := ti.dump
	if fp := di.flat.Load(); fp != nil {
		return fp
	}
	fp := buildFlat(ti)
	if !di.flat.CompareAndSwap(nil, fp) {
		return di.flat.Load() // a racing builder's plan, as good, with its shapes
	}
	return fp
}

// buildFlat builds the flat plan of the struct type described by ti. An
// inner struct is laid out inline when all its fields, and those of the
// structs it holds inline, fit in maxLeaves with the rest; otherwise it
// stays one field, rendered by its own plan.
func buildFlat(ti *typeInfo) *flatPlan {
	fp := &flatPlan{}
	if len(ti.fields) > maxLeaves {
		return fp // no checks: rendered field by field
	}
	leaves, bits := len(ti.fields), 0
	align := uintptr(ti.t.Align())
	var add func(st *typeInfo, soff uintptr, depth int, ro, expandAll bool)
	add = func(st *typeInfo, soff uintptr, depth int, ro, expandAll bool) {
		for i, fti := range st.fields {
			f := &st.dump.fields[i]
			if inlineStruct(fti) {
				n := countLeaves(fti)
				if expandAll || leaves-1+n <= maxLeaves {
					if !expandAll {
						leaves += n - 1
					}
					fp.pieces = append(fp.pieces, flatPiece{kind: pieceOpen, st: st, index: i, soff: soff, depth: depth, ro: ro})
					add(fti, soff+f.off, depth+1, ro || st.unexported[i], true)
					fp.pieces = append(fp.pieces, flatPiece{kind: pieceClose, depth: depth})
					continue
				}
			}
			pc := flatPiece{kind: pieceField, st: st, index: i, soff: soff, depth: depth, ro: ro}
			if f.zeroAt != nil {
				pc.bit = 1 << bits
				checks := make([]zeroCheck, len(f.zeroAt))
				for k, c := range f.zeroAt {
					c.off += soff
					checks[k] = c
				}
				fp.checks.add(bits, checks, align)
				bits++
			}
			fp.pieces = append(fp.pieces, pc)
		}
	}
	add(ti, 0, 0, false, false)
	return fp
}

// inlineStruct reports whether a field of the type described by ti holds
// an inner struct a flat plan can lay out: a struct with fields.
func inlineStruct(ti *typeInfo) bool {
	return ti.kind == reflect.Struct && len(ti.fields) > 0
}

// countLeaves returns how many fields a flat plan lays out for the
// struct type described by ti with every inner struct inline.
func countLeaves(ti *typeInfo) int {
	n := 0
	for _, fti := range ti.fields {
		if inlineStruct(fti) {
			n += countLeaves(fti)
		} else {
			n++
		}
	}
	return n
}

// A structShape is how a struct type renders when the fields of its flat
// plan that can be tested in memory hold zero values exactly where mask
// has bits: a list of ops (see shapeOp).
type structShape struct {
	mask uint64
	ops  []shapeOp

	// leads holds the constant text of each op, possibly empty: ops are
	// kept small, as hashing reads only their tables.
	leads []string
}

// maxShapes is how many shapes a struct type caches. Templates of one
// controller share few patterns of zero fields; beyond that many, the
// fields render one by one.
const maxShapes = 16

// shape returns the cached shape of the plan for mask, building and
// caching it if there is room; nil if there is not.
func (fp *flatPlan) shape(mask uint64) *structShape {
	shapes := fp.shapes.Load()
	if shapes != nil {
		for _, sh := range *shapes {
			if sh.mask == mask {
				return sh
			}
		}
		if len(*shapes) >= maxShapes {
			return nil
		}
	}
	sh := &structShape{mask: mask}
	sh.ops, sh.leads = fp.compile(mask)
	var grown []*structShape
	if shapes != nil {
		grown = append(grown, *shapes...)
	}
	grown = append(grown, sh)
	if fp.shapes.CompareAndSwap(shapes, &grown) && shapes == nil {
		fp.first.Store(sh)
	} // else a racing builder's shapes are as good
	return sh
}

// A shapeOp is one step of a compiled structShape: constant text, lead,
// which may end with the header of a field known not to be zero, and then
// that field's value, read from memory.
//
// Constant text that is always adjacent is one segment, hashed in one
// step: the opening brace, the zero fields before a field, the headers
// and braces of inner structs, and the field's name and type; the zero
// fields at the end and the closing braces. The text assumes that the
// types show when the op starts (shown), as they do when a struct starts;
// when a field before has left them hidden, the op's pieces render one by
// one (see dumper.opPieces). A run of zero fields ends after one whose
// zero value leaves the types hidden.
type shapeOp struct {
	// tab is the table of the op's constant text (see structShape.leads),
	// built with the shape: hashing the text is one multiply-add. mul is
	// the table's multiplier, kept here so that hashing reads one line of
	// the table, not two.
	tab *segTable
	mul uint32

	// cleanup is the depth, relative to the outer struct's fields', down
	// to which the zero fields in the text forget the pointers followed,
	// if cleans is set.
	cleanup int32

	// first to end-1 are the plan's pieces the op renders; its field is
	// piece end-1, at depth.
	first, end, depth int32

	kind shapeOpKind

	// scalar is the reflect.Kind of a dumpScalar field.
	scalar uint8

	// shown says that the text is right only when the types show at the
	// start of the op: it holds a zero field, an inner struct's header
	// or a field's type.
	shown bool

	// open and close say that the text starts with the outer struct's
	// opening brace, or ends with its closing one.
	open, close bool

	// hides is ignoreNextType after a dumpText op whose text is shown;
	// closing braces alone leave it as it is.
	hides bool

	// ro marks the field of a dumpField op as held by a struct reached
	// through an unexported field.
	ro bool

	cleans bool

	off uintptr   // of the field from the outer struct, for dumpString, dumpScalar, dumpValue and dumpHidden
	ti  *typeInfo // of the field, for dumpValue and dumpHidden
}

// emptyTable is the table of the empty text, shared.
var emptyTable = newTable("")

// shapeOpKind says what a shapeOp renders after its lead.
type shapeOpKind uint8

const (
	dumpText   shapeOpKind = iota // nothing: lead is constant text only
	dumpString                    // a string field
	dumpScalar                    // a boolean or integer field
	dumpValue                     // a field memBody renders after its header
	dumpHidden                    // the same, for a field reached through an unexported field (see dumper.ro)
	dumpField                     // any other field, through memField
)

// compile compiles the plan's shape for mask into ops and their texts.
func (fp *flatPlan) compile(mask uint64) ([]shapeOp, []string) {
	var ops []shapeOp
	var leads []string
	var text strings.Builder
	text.WriteByte('{')
	op := shapeOp{open: true}
	cleanup := noCleanup
	flush := func(kind shapeOpKind, end int) {
		op.kind, op.end = kind, int32(end)
		if cleanup != noCleanup {
			op.cleans, op.cleanup = true, int32(cleanup)
		}
		lead := text.String()
		op.tab = emptyTable
		if lead != "" {
			op.tab = newTable(lead)
		}
		op.mul = op.tab.mul
		ops, leads = append(ops, op), append(leads, lead)
		text.Reset()
		op, cleanup = shapeOp{first: int32(end)}, noCleanup
	}
	for k := range fp.pieces {
		pc := &fp.pieces[k]
		switch pc.kind {
		case pieceOpen:
			f := &pc.st.dump.fields[pc.index]
			text.WriteString(f.typed.text)
			text.WriteByte('{')
			op.shown = true
			continue
		case pieceClose:
			text.WriteByte('}')
			continue
		}
		f, fti := &pc.st.dump.fields[pc.index], pc.st.fields[pc.index]
		if mask&pc.bit != 0 {
			z := f.zeroDump(fti)
			text.WriteString(z.text.text)
			op.shown = true
			if z.cleanup != noCleanup {
				cleanup = min(cleanup, pc.depth+z.cleanup)
			}
			if z.ignoreNextType {
				op.hides = true
				flush(dumpText, k+1)
			}
			continue
		}
		op.depth = int32(pc.depth)
		off := pc.soff + f.off
		hidden := pc.ro || pc.st.unexported[pc.index]
		switch {
		case pc.bit != 0 && f.kind == reflect.String:
			text.WriteString(f.typed.text)
			op.shown, op.off = true, off
			flush(dumpString, k+1)
		case pc.bit != 0 && directKind(f.kind):
			text.WriteString(f.typed.text)
			op.shown, op.scalar, op.off = true, uint8(f.kind), off
			flush(dumpScalar, k+1)
		case pc.bit != 0 && headedKind(fti):
			text.WriteString(f.typed.text)
			op.shown, op.ti, op.off = true, fti, off
			if hidden {
				flush(dumpHidden, k+1)
			} else {
				flush(dumpValue, k+1)
			}
		default:
			op.ro = pc.ro
			flush(dumpField, k+1)
		}
	}
	text.WriteByte('}')
	op.close = true
	flush(dumpText, len(fp.pieces))
	return ops, leads
}

// memStruct renders the fields of the struct at p, described by ti, in
// braces, as structFields does. The types show when it is called, as
// format leaves them before a struct's fields.
func (d *dumper) memStruct(p unsafe.Pointer, ti *typeInfo) {
	d.depth++
	base := d.depth
	// planOf and shape, with their common cases inline.
	fp := ti.dump.flat.Load()
	if fp == nil {
		fp = planOf(ti)
	}
	var sh *structShape
	if fp.checks.testable != 0 {
		mask := zeroMask(p, &fp.checks)
		if sh = fp.first.Load(); sh == nil || sh.mask != mask {
			sh = fp.shape(mask)
		}
	}
	if sh == nil {
		d.byte1('{')
		for i := range ti.fields {
			d.memField(p, ti, i)
		}
		d.depth--
		d.byte1('}')
		return
	}
	ops := sh.ops
	for k := range ops {
		op := &ops[k]
		if d.ignoreNextType && op.shown {
			d.opPieces(p, fp, op, base)
			continue
		}
		if op.cleans {
			d.cleanup(base + int(op.cleanup))
		}
		if d.hashing {
			h := d.h*op.mul + op.tab.add[d.h&0xff]
			switch {
			case op.kind == dumpString:
				// Inline, without a call: the commonest op.
				d.h = fnvString(h, *(*string)(unsafe.Add(p, op.off)))
				d.ignoreNextType = false
				continue
			case op.kind == dumpScalar && op.scalar == uint8(reflect.Int32):
				// The next commonest: ports, probe settings.
				d.h = fnvInt(h, int64(*(*int32)(unsafe.Add(p, op.off))))
				d.ignoreNextType = false
				continue
			}
			d.h = h
		} else {
			d.buf = append(d.buf, sh.leads[k]...)
		}
		switch op.kind {
		case dumpString:
			d.ignoreNextType = false
			d.str(*(*string)(unsafe.Add(p, op.off)))
		case dumpText:
			if op.shown {
				d.ignoreNextType = op.hides
			}
		case dumpValue:
			d.ignoreNextType = false
			d.depth = base + int(op.depth)
			d.memBody(unsafe.Add(p, op.off), op.ti)
		case dumpScalar:
			d.ignoreNextType = false
			d.scalar(unsafe.Add(p, op.off), reflect.Kind(op.scalar))
		default:
			d.depth = base + int(op.depth)
			d.opField(p, fp, op)
		}
	}
	d.depth = base - 1
}

// opField renders the field of op, of kind dumpField or dumpHidden,
// after its lead.
func (d *dumper) opField(p unsafe.Pointer, fp *flatPlan, op *shapeOp) {
	ro := d.ro
	if op.kind == dumpHidden {
		d.ignoreNextType = false
		d.ro = true
		d.memBody(unsafe.Add(p, op.off), op.ti)
		d.ro = ro
		return
	}
	if op.shown {
		d.ignoreNextType = false
	}
	pc := &fp.pieces[op.end-1]
	d.ro = ro || op.ro
	d.memField(unsafe.Add(p, pc.soff), pc.st, pc.index)
	d.ro = ro
}

// opPieces renders the pieces of op one by one, for when the types are
// hidden at its start, with the outer braces its lead holds. base is the
// depth of the outer struct's fields.
func (d *dumper) opPieces(p unsafe.Pointer, fp *flatPlan, op *shapeOp, base int) {
	if op.open {
		d.byte1('{')
	}
	for k := op.first; k < op.end; k++ {
		pc := &fp.pieces[k]
		switch pc.kind {
		case pieceOpen:
			// What memFormat writes before a struct's fields.
			f := &pc.st.dump.fields[pc.index]
			if d.ignoreNextType {
				d.seg(f.prefix)
			} else {
				d.seg(f.typed)
			}
			d.ignoreNextType = false
			d.byte1('{')
		case pieceClose:
			d.byte1('}')
		default:
			d.depth = base + pc.depth
			ro := d.ro
			d.ro = ro || pc.ro
			d.memField(unsafe.Add(p, pc.soff), pc.st, pc.index)
			d.ro = ro
		}
	}
	if op.close {
		d.byte1('}')
	}
}
