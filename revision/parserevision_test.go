package revision

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestParseRevisionAgreesWithParseInt: with its fast path for short
// revisions, parseRevision still reads exactly what strconv.ParseInt
// reads, and fails where it fails.
func TestParseRevisionAgreesWithParseInt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[0-9]{0,20}`),
			rapid.StringMatching(`[-+ _0-9a]{0,20}`),
			rapid.String(),
		).Draw(t, "s")
		want, err := strconv.ParseInt(s, 10, 64)
		got, gotErr := parseRevision(s)
		if (gotErr == nil) != (err == nil) || (err == nil && got != want) {
			t.Fatalf("parseRevision(%q) = %d, %v; ParseInt %d, %v", s, got, gotErr, want, err)
		}
	})
}
