package capacity

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// maxQuantityLen bounds the text ParseCPU and ParseMemory read, so that a
// pathological input cannot make them work long.
const maxQuantityLen = 64

// suffixes maps each supported suffix to its multiplier, as
// apimachinery's resource.Quantity reads it: decimal SI (n, u, m, k, M,
// G, T, P, E) and binary (Ki = 1024, ... Ei = 1024^6).
var suffixes = func() map[string]*big.Rat {
	m := map[string]*big.Rat{"": big.NewRat(1, 1)}
	for i, s := range []string{"k", "M", "G", "T", "P", "E"} {
		m[s] = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(3*(i+1))), nil))
		m[s[:1]+"i"] = new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(10*(i+1))))
	}
	m["Ki"] = m["ki"]
	delete(m, "ki")
	m["m"] = big.NewRat(1, 1000)
	m["u"] = big.NewRat(1, 1000000)
	m["n"] = big.NewRat(1, 1000000000)
	return m
}()

// ParseCPU reads a CPU quantity as a manifest writes it ("250m", "1",
// "0.5", "2k") and returns it in millicores, rounded up as resource.Quantity's
// MilliValue rounds ("0.1m" is 1). It reads a subset of the API's
// quantity syntax: a non-negative decimal number with an optional suffix
// (n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei). A sign, an
// exponent ("1e3"), any other suffix, a number without a digit (".",
// which apimachinery reads as 0), more than 64 characters, and a result
// beyond int64 are errors that quote the input. rolloutplan's
// FuzzQuantityParsersAgree checks the subset against apimachinery.
// Upstream: resource.ParseQuantity and Quantity.MilliValue.
func ParseCPU(s string) (int64, error) {
	return parse(s, 1000, "millicores")
}

// ParseMemory reads a memory quantity ("128Mi", "1G", "512") and returns
// it in bytes, rounded up as resource.Quantity's Value rounds ("100m" is
// 1). It reads the subset ParseCPU describes, with the same errors.
// Upstream: resource.ParseQuantity and Quantity.Value.
func ParseMemory(s string) (int64, error) {
	return parse(s, 1, "bytes")
}

// parse reads s and returns ceil(s * scale), in unit for errors.
func parse(s string, scale int64, unit string) (int64, error) {
	fail := func(format string, args ...any) (int64, error) {
		return 0, fmt.Errorf("capacity: parsing %q: %s", s, fmt.Sprintf(format, args...))
	}
	switch {
	case s == "":
		return fail("empty quantity")
	case len(s) > maxQuantityLen:
		return fail("longer than %d characters", maxQuantityLen)
	case s[0] == '-':
		return fail("negative quantities are not allowed")
	case s[0] == '+':
		return fail("a sign is not supported; leave out the +")
	}
	end := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if end < 0 {
		end = len(s)
	}
	num, suffix := s[:end], s[end:]
	if strings.Trim(num, ".") == "" || strings.Count(num, ".") > 1 {
		return fail("want a number with an optional suffix, such as 100m, 1, 128Mi or 1G")
	}
	mult, ok := suffixes[suffix]
	if !ok {
		if rest := strings.TrimLeft(suffix[1:], "+-"); (suffix[0] == 'e' || suffix[0] == 'E') && rest != "" &&
			strings.Trim(rest, "0123456789") == "" {
			return fail("exponents are not supported; write the number out, with a suffix if you like (1e3 is 1k)")
		}
		return fail("unknown suffix %q: want n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei", suffix)
	}
	v, ok := new(big.Rat).SetString(num)
	if !ok {
		return fail("want a number with an optional suffix, such as 100m, 1, 128Mi or 1G")
	}
	v.Mul(v, mult)
	v.Mul(v, big.NewRat(scale, 1))
	// ceil(v) for v >= 0: the quotient, plus one when there is a remainder.
	q, rem := new(big.Int).QuoRem(v.Num(), v.Denom(), new(big.Int))
	if rem.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return fail("more than %d %s", int64(maxInt64), unit)
	}
	return q.Int64(), nil
}

// FormatCPU writes millicores as the API writes a CPU quantity: whole
// cores as a plain number ("2"), anything else in millicores ("1500m").
func FormatCPU(milli int64) string {
	if milli%1000 == 0 {
		return strconv.FormatInt(milli/1000, 10)
	}
	return strconv.FormatInt(milli, 10) + "m"
}

// FormatMemory writes bytes exactly, in the shorter of two forms: with
// the largest binary suffix that divides them ("384Mi"), or with the
// largest decimal one ("1G", "2E", "1024k"); binary on a tie, and a plain
// number when neither divides them ("1500"). 0 is "0".
func FormatMemory(b int64) string {
	if b == 0 {
		return "0"
	}
	binary := strconv.FormatInt(b, 10)
	for i, s := range []string{"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"} {
		if unit := int64(1) << (10 * (6 - i)); b%unit == 0 {
			binary = strconv.FormatInt(b/unit, 10) + s
			break
		}
	}
	decimal := strconv.FormatInt(b, 10)
	unit := int64(1000000000000000000)
	for _, s := range []string{"E", "P", "T", "G", "M", "k"} {
		if b%unit == 0 {
			decimal = strconv.FormatInt(b/unit, 10) + s
			break
		}
		unit /= 1000
	}
	if len(decimal) < len(binary) {
		return decimal
	}
	return binary
}
