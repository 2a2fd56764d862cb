package proportion

import (
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestReadAnnotationAgreesWithParseUint: the short-digit fast path of
// the annotation reader gives ParseUint's answer on every string.
func TestReadAnnotationAgreesWithParseUint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[0-9]{0,12}`),
			rapid.StringMatching(`[-+ _0-9x]{0,12}`),
			rapid.String(),
		).Draw(t, "s")
		n, ok := readAnnotation(s)
		u, err := strconv.ParseUint(s, 10, 32)
		wantOK := err == nil && u <= math.MaxInt32
		if ok != wantOK || (ok && int64(n) != int64(u)) {
			t.Fatalf("readAnnotation(%q) = %d, %v; ParseUint gives %d, %v", s, n, ok, u, err)
		}
	})
}
