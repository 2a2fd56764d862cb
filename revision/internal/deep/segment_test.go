package deep

import (
	"hash/fnv"
	"testing"

	"pgregory.net/rapid"
)

// fnvRef is the FNV-32a hash of s by package hash/fnv.
func fnvRef(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

func TestFnvStringMatchesHashFnv(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.String().Draw(t, "prefix")
		s := rapid.String().Draw(t, "s")
		if got, want := fnvString(fnvString(fnvOffset32, prefix), s), fnvRef(prefix+s); got != want {
			t.Fatalf("fnvString(fnvString(offset, %q), %q) = %d, hash/fnv %d", prefix, s, got, want)
		}
	})
}

func TestSegmentHashMatchesHashFnv(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.String().Draw(t, "prefix")
		text := rapid.StringN(0, 40, -1).Draw(t, "text") // tables from minTable bytes on
		seg := newSegment(text)
		h := fnvString(fnvOffset32, prefix)
		// Twice: the first call may build the table, the second reads it.
		for range 2 {
			if got, want := seg.hash(h), fnvRef(prefix+text); got != want {
				t.Fatalf("newSegment(%q).hash after %q = %d, hash/fnv %d", text, prefix, got, want)
			}
		}
	})
}

func TestFnvBytesMatchesHashFnv(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOf(rapid.Byte()).Draw(t, "b")
		if got, want := fnvBytes(fnvOffset32, b), fnvRef(string(b)); got != want {
			t.Fatalf("fnvBytes(offset, %q) = %d, hash/fnv %d", b, got, want)
		}
	})
}
