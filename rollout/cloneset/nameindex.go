package cloneset

import "hash/maphash"

// nameIndex finds pods by name: an open-addressing table of the pods'
// indexes, each slot holding the upper 32 bits of the name's hash and
// the index plus one (0 is an empty slot), so that a probe compares a
// name only when the hashes agree. Built once per Plan over every pod, it
// costs a third of a map[string]int of the same pods (no keys stored, 8
// bytes a slot, no pointers for the garbage collector to scan), and its
// memory serves the next build.
type nameIndex struct {
	pods  []Pod
	slots []uint64
	mask  uint64
	seed  maphash.Seed
}

// reset empties x for the pods, with at least twice as many slots as
// pods.
func (x *nameIndex) reset(pods []Pod) {
	if x.slots == nil {
		x.seed = maphash.MakeSeed()
	}
	size := 8
	for size < 2*len(pods) {
		size *= 2
	}
	if cap(x.slots) >= size {
		x.slots = x.slots[:size]
		clear(x.slots)
	} else {
		x.slots = make([]uint64, size)
	}
	x.pods, x.mask = pods, uint64(size-1)
}

// add records pod i under its name; it returns the index of an earlier
// pod of the same name (then i is not recorded) and true, or -1 and
// false.
func (x *nameIndex) add(i int) (int, bool) {
	name := x.pods[i].Name
	h := maphash.String(x.seed, name)
	tag := h >> 32 << 32
	for pos := h & x.mask; ; pos = (pos + 1) & x.mask {
		s := x.slots[pos]
		if s == 0 {
			x.slots[pos] = tag | uint64(i+1)
			return -1, false
		}
		if s&^0xffffffff == tag {
			if j := int(uint32(s)) - 1; x.pods[j].Name == name {
				return j, true
			}
		}
	}
}

// lookup returns the index of the pod named name, or -1 and false.
func (x *nameIndex) lookup(name string) (int, bool) {
	if len(x.slots) == 0 {
		return -1, false
	}
	h := maphash.String(x.seed, name)
	tag := h >> 32 << 32
	for pos := h & x.mask; ; pos = (pos + 1) & x.mask {
		s := x.slots[pos]
		if s == 0 {
			return -1, false
		}
		if s&^0xffffffff == tag {
			if j := int(uint32(s)) - 1; x.pods[j].Name == name {
				return j, true
			}
		}
	}
}

// index returns the index of the pod named name, which must be indexed.
func (x *nameIndex) index(name string) int {
	i, _ := x.lookup(name)
	return i
}
