package capacity

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var quantityCases = []struct {
	in           string
	milli, bytes int64
	reason       string
}{
	{in: "100m", milli: 100, bytes: 1, reason: "0.1 byte rounds up to 1, as Quantity.Value does"},
	{in: "1", milli: 1000, bytes: 1},
	{in: "0.5", milli: 500, bytes: 1},
	{in: "1.5", milli: 1500, bytes: 2},
	{in: ".25", milli: 250, bytes: 1},
	{in: "2.", milli: 2000, bytes: 2},
	{in: "128Mi", milli: 128 << 20 * 1000, bytes: 128 << 20},
	{in: "1G", milli: 1e12, bytes: 1e9},
	{in: "1.5Gi", milli: 1536 << 20 * 1000, bytes: 1536 << 20},
	{in: "64k", milli: 64000000, bytes: 64000},
	{in: "1Ki", milli: 1024000, bytes: 1024},
	{in: "0.1m", milli: 1, bytes: 1, reason: "MilliValue rounds up"},
	{in: "500u", milli: 1, bytes: 1},
	{in: "3n", milli: 1, bytes: 1},
	{in: "0", milli: 0, bytes: 0},
	{in: "0Mi", milli: 0, bytes: 0},
	{in: "8Ei", milli: 0, bytes: 0, reason: "set below: 8Ei is 2^63 bytes, one past int64"},
	{in: "7Ei", milli: 0, bytes: 7 << 60},
	{in: "9223372036854775807", bytes: math.MaxInt64},
}

func TestParseQuantity(t *testing.T) {
	for _, tt := range quantityCases {
		if tt.in == "8Ei" || tt.in == "7Ei" || tt.in == "9223372036854775807" {
			continue // beyond int64 in millicores; see TestParseQuantityErrors
		}
		if got, err := ParseCPU(tt.in); got != tt.milli || err != nil {
			t.Errorf("ParseCPU(%q) = %d, %v; want %d (%s)", tt.in, got, err, tt.milli, tt.reason)
		}
		if got, err := ParseMemory(tt.in); got != tt.bytes || err != nil {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d (%s)", tt.in, got, err, tt.bytes, tt.reason)
		}
	}
	for _, in := range []string{"7Ei", "9223372036854775807"} {
		want := int64(7 << 60)
		if in != "7Ei" {
			want = math.MaxInt64
		}
		if got, err := ParseMemory(in); got != want || err != nil {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

func TestParseQuantityErrors(t *testing.T) {
	tests := []struct {
		in, want string
		memory   bool
	}{
		{in: "", want: `capacity: parsing "": empty quantity`},
		{in: "-1", want: `capacity: parsing "-1": negative quantities are not allowed`},
		{in: "+1", want: `capacity: parsing "+1": a sign is not supported; leave out the +`},
		{in: "1e3", want: `capacity: parsing "1e3": exponents are not supported; write the number out, with a suffix if you like (1e3 is 1k)`},
		{in: "1E-3", want: `capacity: parsing "1E-3": exponents are not supported; write the number out, with a suffix if you like (1e3 is 1k)`},
		{in: "1Gb", want: `capacity: parsing "1Gb": unknown suffix "Gb": want n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei`},
		{in: "1 Gi", want: `capacity: parsing "1 Gi": unknown suffix " Gi": want n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei`},
		{in: "1K", want: `capacity: parsing "1K": unknown suffix "K": want n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei`},
		{in: "Mi", want: `capacity: parsing "Mi": want a number with an optional suffix, such as 100m, 1, 128Mi or 1G`},
		{in: ".", want: `capacity: parsing ".": want a number with an optional suffix, such as 100m, 1, 128Mi or 1G`},
		{in: "1.2.3", want: `capacity: parsing "1.2.3": want a number with an optional suffix, such as 100m, 1, 128Mi or 1G`},
		{in: "9223372036854775807", want: `capacity: parsing "9223372036854775807": more than 9223372036854775807 millicores`},
		{in: "8Ei", memory: true, want: `capacity: parsing "8Ei": more than 9223372036854775807 bytes`},
		{in: strings.Repeat("1", 65), want: `capacity: parsing "` + strings.Repeat("1", 65) + `": longer than 64 characters`},
	}
	for _, tt := range tests {
		parse, name := ParseCPU, "ParseCPU"
		if tt.memory {
			parse, name = ParseMemory, "ParseMemory"
		}
		got, err := parse(tt.in)
		if err == nil || err.Error() != tt.want || got != 0 {
			t.Errorf("%s(%q) = %d, %v; want 0, %s", name, tt.in, got, err, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	cpus := map[int64]string{0: "0", 1: "1m", 250: "250m", 1000: "1", 1500: "1500m", 64000: "64"}
	for in, want := range cpus {
		if got := FormatCPU(in); got != want {
			t.Errorf("FormatCPU(%d) = %q, want %q", in, got, want)
		}
	}
	mems := map[int64]string{0: "0", 1: "1", 1000: "1k", 1024: "1Ki", 1500: "1500", 384 << 20: "384Mi", 1e9: "1G",
		3 << 30: "3Gi", 1024000: "1024k", 384 << 20 * 1000: "375Gi", 1 << 60: "1Ei", math.MaxInt64: "9223372036854775807", 2e18: "2E"}
	for in, want := range mems {
		if got := FormatMemory(in); got != want {
			t.Errorf("FormatMemory(%d) = %q, want %q", in, got, want)
		}
	}
}

// TestFormatParseRoundTrip checks that FormatCPU and FormatMemory write
// what ParseCPU and ParseMemory read back exactly.
func TestFormatParseRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		milli := rapid.Int64Range(0, math.MaxInt64).Draw(t, "milli")
		if got, err := ParseCPU(FormatCPU(milli)); got != milli || err != nil {
			t.Fatalf("ParseCPU(FormatCPU(%d) = %q) = %d, %v", milli, FormatCPU(milli), got, err)
		}
		shift := rapid.IntRange(0, 62).Draw(t, "shift")
		bytes := rapid.Int64Range(0, math.MaxInt64>>shift).Draw(t, "bytes") << shift
		if got, err := ParseMemory(FormatMemory(bytes)); got != bytes || err != nil {
			t.Fatalf("ParseMemory(FormatMemory(%d) = %q) = %d, %v", bytes, FormatMemory(bytes), got, err)
		}
	})
}

// FuzzParseQuantity checks that no input panics, that an accepted input
// is a number with a known suffix and gives a non-negative result, and
// that an input is rejected exactly when both parsers reject it (apart
// from the range, which differs by a factor of 1000).
func FuzzParseQuantity(f *testing.F) {
	for _, tt := range quantityCases {
		f.Add(tt.in)
	}
	for _, s := range []string{"", "-1", "1e3", "1Gb", ".", "1.2.3", "+5", "1E", "1Ei", "0.0000000001n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		milli, errCPU := ParseCPU(s)
		bytes, errMem := ParseMemory(s)
		if errMem != nil && errCPU == nil {
			t.Fatalf("ParseMemory(%q) = %v but ParseCPU accepts it", s, errMem)
		}
		if errMem == nil {
			if bytes < 0 || (errCPU == nil && milli < 0) {
				t.Fatalf("ParseCPU/ParseMemory(%q) = %d, %d: negative", s, milli, bytes)
			}
			if errCPU == nil && ceilDiv1000(milli) != bytes {
				t.Fatalf("ParseCPU(%q) = %d millicores but ParseMemory = %d: want ceil(milli/1000)", s, milli, bytes)
			}
			if strings.ContainsAny(s, "+-eE ") && !strings.HasSuffix(s, "E") && !strings.HasSuffix(s, "Ei") {
				t.Fatalf("ParseMemory(%q) = %d: accepted a sign, an exponent or a space", s, bytes)
			}
		}
	})
}

func ceilDiv1000(m int64) int64 {
	q := m / 1000
	if m%1000 != 0 {
		q++
	}
	return q
}
