package proportion

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

// parseCases are the strict reader's table, also the fuzz seeds.
var parseCases = []struct {
	name string
	in   string
	want int32
	err  string // full error text; "" for success
}{
	{name: "zero", in: "0", want: 0},
	{name: "typical", in: "10", want: 10},
	{name: "leading zeros", in: "007", want: 7},
	{name: "MaxInt32", in: "2147483647", want: math.MaxInt32},
	{name: "empty", in: "", err: `proportion: parsing "": invalid syntax`},
	{name: "negative", in: "-1", err: `proportion: parsing "-1": invalid syntax`},
	{name: "plus sign", in: "+1", err: `proportion: parsing "+1": invalid syntax`},
	{name: "word", in: "invalid", err: `proportion: parsing "invalid": invalid syntax`},
	{name: "space", in: " 3", err: `proportion: parsing " 3": invalid syntax`},
	{name: "fraction", in: "3.0", err: `proportion: parsing "3.0": invalid syntax`},
	{name: "underscore", in: "1_0", err: `proportion: parsing "1_0": invalid syntax`},
	{name: "hex", in: "0x10", err: `proportion: parsing "0x10": invalid syntax`},
	{name: "percent", in: "25%", err: `proportion: parsing "25%": invalid syntax`},
	{name: "MaxInt32+1", in: "2147483648", err: `proportion: parsing "2147483648": value out of range (higher than 2147483647)`},
	{name: "MaxUint32", in: "4294967295", err: `proportion: parsing "4294967295": value out of range (higher than 2147483647)`},
	{name: "MaxUint32+1", in: "4294967296", err: `proportion: parsing "4294967296": value out of range (higher than 2147483647)`},
	{name: "huge", in: "99999999999999999999", err: `proportion: parsing "99999999999999999999": value out of range (higher than 2147483647)`},
	// What upstream writes for R 10 with maxSurge MaxInt32
	// (docs/deployment.md#proportional-scaling, replica annotations).
	{name: "wrapped max", in: "-2147483639", err: `proportion: parsing "-2147483639": invalid syntax`},
}

func TestParseReplicas(t *testing.T) {
	for _, tt := range parseCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseReplicas(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ParseReplicas(%q) = %d, %v; want error %q", tt.in, got, err, tt.err)
				}
				if got != 0 {
					t.Errorf("ParseReplicas(%q) = %d with an error, want 0", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseReplicas(%q) = %d, %v; want %d, nil", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseReplicasErrorKinds(t *testing.T) {
	for in, want := range map[string]error{"-1": field.ErrSyntax, "": field.ErrSyntax, "2147483648": field.ErrRange, "99999999999999999999": field.ErrRange} {
		_, err := ParseReplicas(in)
		var pe *field.Error
		if !errors.As(err, &pe) || pe.Value != strconv.Quote(in) || !errors.Is(err, want) {
			t.Errorf("ParseReplicas(%q) error = %#v, want a *field.Error for the input wrapping %v", in, err, want)
		}
	}
}

func TestAnnotationReaders(t *testing.T) {
	for _, tt := range parseCases {
		rs := ReplicaSet{DesiredReplicas: tt.in, MaxReplicas: tt.in}
		want, wantOK := tt.want, tt.err == ""
		if got, ok := DesiredAnnotation(rs); got != want || ok != wantOK {
			t.Errorf("DesiredAnnotation(%q) = %d, %v; want %d, %v", tt.in, got, ok, want, wantOK)
		}
		if got, ok := MaxAnnotation(rs); got != want || ok != wantOK {
			t.Errorf("MaxAnnotation(%q) = %d, %v; want %d, %v", tt.in, got, ok, want, wantOK)
		}
	}
}

// saturatedCases are the lenient (Atoi) reader's table, also fuzz seeds.
var saturatedCases = []struct {
	in     string
	want   int64
	wantOK bool
	reason string
}{
	{in: "3", want: 3, wantOK: true},
	{in: "+3", want: 3, wantOK: true, reason: "Atoi accepts a sign"},
	{in: "-3", want: -3, wantOK: true},
	{in: "003", want: 3, wantOK: true},
	{in: "4294967306", want: 4294967306, wantOK: true, reason: "read whole: upstream's int32 truncation would give 10"},
	{in: "9223372036854775807", want: 9223372036854775807, wantOK: true, reason: "read whole: upstream's truncation would give -1"},
	{in: "9223372036854775808", wantOK: false, reason: "beyond int64"},
	{in: "", wantOK: false},
	{in: "3.0", wantOK: false},
	{in: " 3", wantOK: false},
	{in: "1_0", wantOK: false},
}

func TestParseSaturatedDesired(t *testing.T) {
	for _, tt := range saturatedCases {
		got, ok := parseSaturatedDesired(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseSaturatedDesired(%q) = %d, %v; want %d, %v (%s)", tt.in, got, ok, tt.want, tt.wantOK, tt.reason)
		}
	}
}

func TestFormatReplicas(t *testing.T) {
	for n, want := range map[int32]string{0: "0", 10: "10", math.MaxInt32: "2147483647", -2147483639: "-2147483639"} {
		if got := FormatReplicas(n); got != want {
			t.Errorf("FormatReplicas(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAnnotationsNeedUpdate(t *testing.T) {
	tests := []struct {
		name         string
		desired, max string
		wantD, wantM int32
		want         bool
	}{
		{name: "absent", wantD: 10, wantM: 13, want: true},
		{name: "desired differs", desired: "8", max: "13", wantD: 10, wantM: 13, want: true},
		{name: "max differs", desired: "10", max: "12", wantD: 10, wantM: 13, want: true},
		{name: "equal", desired: "10", max: "13", wantD: 10, wantM: 13, want: false},
		{name: "same number other text", desired: "010", max: "13", wantD: 10, wantM: 13, want: true},
		{name: "saturated max", desired: "10", max: "2147483647", wantD: 10, wantM: math.MaxInt32, want: false},
	}
	for _, tt := range tests {
		rs := ReplicaSet{DesiredReplicas: tt.desired, MaxReplicas: tt.max}
		if got := AnnotationsNeedUpdate(rs, tt.wantD, tt.wantM); got != tt.want {
			t.Errorf("%s: AnnotationsNeedUpdate({%q, %q}, %d, %d) = %v, want %v", tt.name, tt.desired, tt.max, tt.wantD, tt.wantM, got, tt.want)
		}
	}
}

var strictSyntax = regexp.MustCompile(`^[0-9]+$`)

// FuzzParseReplicas checks the strict reader against its definition: it
// succeeds exactly for digit strings up to MaxInt32 (checked with
// math/big), agrees with the allocation-free reader, never panics, and
// FormatReplicas output parses back.
func FuzzParseReplicas(f *testing.F) {
	for _, tt := range parseCases {
		f.Add(tt.in)
	}
	for _, tt := range saturatedCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseReplicas(s)
		valid := false
		var want int32
		if strictSyntax.MatchString(s) {
			v, _ := new(big.Int).SetString(s, 10)
			if v.Cmp(big.NewInt(math.MaxInt32)) <= 0 {
				valid, want = true, int32(v.Int64())
			}
		}
		if valid != (err == nil) || got != want {
			t.Fatalf("ParseReplicas(%q) = %d, %v; want %d, valid=%v", s, got, err, want, valid)
		}
		if err != nil && !errors.Is(err, field.ErrSyntax) && !errors.Is(err, field.ErrRange) {
			t.Fatalf("ParseReplicas(%q) error %v wraps neither field.ErrSyntax nor field.ErrRange", s, err)
		}
		if n, ok := readAnnotation(s); n != got || ok != (err == nil) {
			t.Fatalf("readAnnotation(%q) = %d, %v; ParseReplicas = %d, %v", s, n, ok, got, err)
		}
		if err == nil {
			if back, err := ParseReplicas(FormatReplicas(got)); err != nil || back != got {
				t.Fatalf("ParseReplicas(FormatReplicas(%d)) = %d, %v", got, back, err)
			}
		}
	})
}

// FuzzParseSaturatedDesired checks the lenient reader against
// strconv.Atoi followed by int32 truncation, as upstream's IsSaturated
// reads the annotation on a 64-bit platform.
func FuzzParseSaturatedDesired(f *testing.F) {
	for _, tt := range saturatedCases {
		f.Add(tt.in)
	}
	for _, tt := range parseCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strconv.IntSize != 64 {
			t.Skip("upstream's reading is defined on 64-bit platforms")
		}
		got, ok := parseSaturatedDesired(s)
		v, err := strconv.Atoi(s)
		if ok != (err == nil) || (ok && got != int64(v)) || (!ok && got != 0) {
			t.Fatalf("parseSaturatedDesired(%q) = %d, %v; Atoi = %d, %v", s, got, ok, v, err)
		}
	})
}
