// Package decimal reads the short unsigned decimal numbers that
// annotations hold (revisions, replica counts) without strconv's general
// path, which they take on every sync.
package decimal

// Digits reads s when it is 1 to max ASCII digits (max at most 18, so
// that the value fits an int64 and strconv reads the same number), and
// reports false for anything else, which the caller leaves to strconv.
func Digits(s string, max int) (n int64, ok bool) {
	if len(s) == 0 || len(s) > max || max > 18 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	return n, true
}
