package deep

import "sync/atomic"

// FNV-32a constants. Upstream: hash/fnv.
const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
)

// fnvString continues the FNV-32a state h with the bytes of s, four at
// a time while it can, to spend fewer instructions on the loop.
func fnvString(h uint32, s string) uint32 {
	for len(s) >= 4 {
		h = (h ^ uint32(s[0])) * fnvPrime32
		h = (h ^ uint32(s[1])) * fnvPrime32
		h = (h ^ uint32(s[2])) * fnvPrime32
		h = (h ^ uint32(s[3])) * fnvPrime32
		s = s[4:]
	}
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime32
	}
	return h
}

// fnvBytes is fnvString for a byte slice.
func fnvBytes(h uint32, b []byte) uint32 {
	for len(b) >= 4 {
		h = (h ^ uint32(b[0])) * fnvPrime32
		h = (h ^ uint32(b[1])) * fnvPrime32
		h = (h ^ uint32(b[2])) * fnvPrime32
		h = (h ^ uint32(b[3])) * fnvPrime32
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint32(c)
		h *= fnvPrime32
	}
	return h
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

// minTable is the shortest segment hashed through a table rather than
// byte by byte.
const minTable = 12

// segment is a constant piece of text that renderings repeat, such as a
// type name in parentheses or a struct field's name followed by its zero
// value.
//
// FNV-32a is slow, one multiplication per byte, each depending on the
// last, but a constant piece of text can be hashed in one step. Each FNV
// step h -> (h ^ c) * prime changes h by an amount that depends only on
// the low 8 bits of h, and the low 8 bits of the next state depend only
// on the low 8 bits of h. So for a fixed text s of n bytes,
//
//	fnv(h, s) = h*prime^n + table[h & 0xff]   (mod 2^32)
//
// where table[l] = fnv(l, s) - l*prime^n. The table is built on the
// segment's first use.
type segment struct {
	text  string
	mul   uint32 // fnvPrime32^len(text)
	table atomic.Pointer[segTable]
}

// segTable is what hashing a segment of at least minTable bytes reads.
type segTable struct {
	mul uint32 // the segment's
	add [256]uint32
}

// step continues the FNV-32a state h with the text of the segment of t.
func (t *segTable) step(h uint32) uint32 {
	return h*t.mul + t.add[h&0xff]
}

// newSegment returns the segment of text s.
func newSegment(s string) *segment {
	mul := uint32(1)
	for range len(s) {
		mul *= fnvPrime32
	}
	return &segment{text: s, mul: mul}
}

// hash continues the FNV-32a state h with the segment's text. It is
// small enough to be inlined where it is called: the table, once built,
// is one load and one multiply-add away.
func (s *segment) hash(h uint32) uint32 {
	if t := s.table.Load(); t != nil {
		return t.step(h)
	}
	return s.slowHash(h)
}

// slowHash is hash for a segment too short for a table, or whose table
// is not built yet: it builds the table of a long enough segment.
func (s *segment) slowHash(h uint32) uint32 {
	if len(s.text) < minTable {
		return fnvString(h, s.text)
	}
	t := newTable(s.text)
	s.table.Store(t) // a racing builder stores an identical table
	return t.step(h)
}

// newTable returns the table that hashes text s in one step, of any
// length: for the empty text, step returns h unchanged.
func newTable(s string) *segTable {
	t := &segTable{mul: 1}
	for range len(s) {
		t.mul *= fnvPrime32
	}
	for l := range uint32(256) {
		t.add[l] = fnvString(l, s) - l*t.mul
	}
	return t
}
