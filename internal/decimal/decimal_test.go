package decimal

import (
	"fmt"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestDigitsAgreesWithParseInt: whatever Digits reads, strconv.ParseInt
// reads to the same number; a plain run of up to max digits is never
// declined.
func TestDigitsAgreesWithParseInt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[0-9]{0,20}`),
			rapid.StringMatching(`[-+ _0-9a]{0,20}`),
			rapid.String(),
		).Draw(t, "s")
		max := rapid.IntRange(0, 20).Draw(t, "max")
		n, ok := Digits(s, max)
		want, err := strconv.ParseInt(s, 10, 64)
		if ok && (err != nil || n != want) {
			t.Fatalf("Digits(%q, %d) = %d, but ParseInt gives %d, %v", s, max, n, want, err)
		}
		plain := len(s) >= 1 && len(s) <= max && max <= 18 && err == nil && s[0] != '+' && s[0] != '-'
		if !ok && plain {
			t.Fatalf("Digits(%q, %d) declined a plain decimal ParseInt reads as %d", s, max, want)
		}
	})
}

func ExampleDigits() {
	fmt.Println(Digits("42", 9))
	fmt.Println(Digits("+42", 9))
	fmt.Println(Digits("1234567890", 9))
	// Output:
	// 42 true
	// 0 false
	// 0 false
}
