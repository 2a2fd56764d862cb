package revision

import (
	"hash/fnv"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestControllerRevisionHashIsFNV1OfDataThenCollisionCount: the hash is
// hash/fnv's 32-bit FNV-1 over data and then over the collision count's
// decimal text, its decimal digits mapped onto the safe alphabet, as
// history.HashControllerRevision computes it; the append form appends
// exactly that text.
func TestControllerRevisionHashIsFNV1OfDataThenCollisionCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := rapid.SliceOf(rapid.Byte()).Draw(t, "data")
		cc := rapid.Int32().Draw(t, "collisionCount")
		h := fnv.New32()
		h.Write(data)
		h.Write([]byte(strconv.FormatInt(int64(cc), 10)))
		want := []byte(strconv.FormatUint(uint64(h.Sum32()), 10))
		for i, c := range want {
			want[i] = safeAlphabet[int(c)%len(safeAlphabet)]
		}
		if got := ControllerRevisionHash(data, cc); got != string(want) {
			t.Fatalf("ControllerRevisionHash(%q, %d) = %q, want %q", data, cc, got, want)
		}
		prefix := rapid.StringN(0, 8, -1).Draw(t, "prefix")
		if got := string(AppendControllerRevisionHash([]byte(prefix), data, cc)); got != prefix+string(want) {
			t.Fatalf("AppendControllerRevisionHash(%q, ...) = %q, want %q", prefix, got, prefix+string(want))
		}
	})
}

func TestControllerRevisionHashDoesNotAllocateWhenAppending(t *testing.T) {
	data := []byte(`{"spec":{"template":{"$patch":"replace"}}}`)
	buf := make([]byte, 0, 16)
	if n := testing.AllocsPerRun(100, func() { buf = AppendControllerRevisionHash(buf[:0], data, 3) }); n != 0 {
		t.Errorf("AppendControllerRevisionHash allocates %v times per call into a slice with room, want 0", n)
	}
}
