package main

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rolloutmath/rolloutmath/internal/capacity"
)

// FuzzQuantityParsersAgree checks examples/rollout's stdlib-only quantity
// parser (capacity.ParseCPU and ParseMemory) against apimachinery's
// resource.ParseQuantity, which this program uses: whatever the small
// parser accepts, apimachinery reads to the same millicores and bytes;
// and whatever apimachinery accepts within the subset (a digit, no sign,
// no exponent, at most 64 characters, within int64), the small parser
// accepts too. apimachinery reads a lone "." as 0; the small parser wants
// a digit.
func FuzzQuantityParsersAgree(f *testing.F) {
	for _, s := range []string{"100m", "1", "0.5", "128Mi", "1G", "1.5Gi", ".25", "2.", "500u", "3n", "0.1m", "7Ei", "8Ei",
		"1e3", "-1", "+1", "1Gb", "1E", "9223372036854775807", "9223372036854775.807", "0.000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, qerr := resource.ParseQuantity(s)
		milli, cerr := capacity.ParseCPU(s)
		bytes, merr := capacity.ParseMemory(s)
		if merr == nil {
			if qerr != nil {
				t.Fatalf("ParseMemory(%q) = %d but resource.ParseQuantity fails: %v", s, bytes, qerr)
			}
			if q.Cmp(*maxMemory) <= 0 && q.Value() != bytes {
				t.Fatalf("ParseMemory(%q) = %d, Quantity.Value = %d", s, bytes, q.Value())
			}
		}
		if cerr == nil && q.Cmp(*maxMilliCPU) <= 0 && q.MilliValue() != milli {
			t.Fatalf("ParseCPU(%q) = %d, Quantity.MilliValue = %d", s, milli, q.MilliValue())
		}
		inSubset := qerr == nil && q.Sign() >= 0 && len(s) <= 64 && strings.ContainsAny(s, "0123456789") && !strings.ContainsAny(s, "+-") &&
			!strings.ContainsAny(strings.TrimRight(s, "E"), "eE") && q.Cmp(*maxMemory) <= 0
		if inSubset && merr != nil {
			t.Fatalf("resource.ParseQuantity(%q) = %v but ParseMemory fails: %v", s, q.String(), merr)
		}
	})
}
