package deep

import (
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

func TestNumberTextMatchesStrconv(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, x int64) {
		d := getDumper(false)
		defer putDumper(d)
		d.intText(x)
		if want := strconv.FormatInt(x, 10); string(d.buf) != want {
			t.Fatalf("intText(%d) wrote %q, want %q", x, d.buf, want)
		}
		d.buf = d.buf[:0]
		d.uintText(uint64(x))
		if want := strconv.FormatUint(uint64(x), 10); string(d.buf) != want {
			t.Fatalf("uintText(%d) wrote %q, want %q", uint64(x), d.buf, want)
		}
		if got, want := fnvInt(fnvOffset32, x), fnvString(fnvOffset32, strconv.FormatInt(x, 10)); got != want {
			t.Fatalf("fnvInt(offset, %d) = %d, FNV-32a of its digits %d", x, got, want)
		}
		if got, want := fnvUint(fnvOffset32, uint64(x)), fnvString(fnvOffset32, strconv.FormatUint(uint64(x), 10)); got != want {
			t.Fatalf("fnvUint(offset, %d) = %d, FNV-32a of its digits %d", uint64(x), got, want)
		}
	}
	for _, x := range []int64{0, 1, 9, 10, 99, 100, 999, 1000, 1001, -1, -10, math.MaxInt64, math.MinInt64} {
		check(t, x)
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, rapid.Int64().Draw(t, "x"))
		check(t, rapid.Int64Range(-2000, 2000).Draw(t, "small"))
	})
}
