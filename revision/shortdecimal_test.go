package revision

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestShortDecimalAgreesWithParseInt: the fast path of parseRevision
// reads exactly what strconv.ParseInt reads, and declines the rest.
func TestShortDecimalAgreesWithParseInt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[0-9]{0,20}`),
			rapid.StringMatching(`[-+ _0-9a]{0,20}`),
			rapid.String(),
		).Draw(t, "s")
		n, ok := shortDecimal(s)
		want, err := strconv.ParseInt(s, 10, 64)
		if ok && (err != nil || n != want) {
			t.Fatalf("shortDecimal(%q) = %d, but ParseInt gives %d, %v", s, n, want, err)
		}
		if !ok && len(s) >= 1 && len(s) <= 18 && err == nil && s[0] != '+' && s[0] != '-' {
			t.Fatalf("shortDecimal(%q) declined a plain decimal ParseInt reads as %d", s, want)
		}
		got, gotErr := parseRevision(s)
		if (gotErr == nil) != (err == nil) || (err == nil && got != want) {
			t.Fatalf("parseRevision(%q) = %d, %v; ParseInt %d, %v", s, got, gotErr, want, err)
		}
	})
}
