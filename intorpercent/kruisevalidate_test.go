package intorpercent

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

const us = "spec.updateStrategy"

// bothBelowOne is the webhook's detail for rule V7
// (docs/cloneset.md#validation).
const bothBelowOne = "maxUnavailable and maxSurge should not both be less than 1"

var kruisePartitionCases = []struct {
	name      string
	partition *IntOrString
	replicas  int32
	want      []string
	reason    string
}{
	{name: "kruise test: count 2", partition: cnt(2), replicas: 5},
	{name: "nil as kruise's check reads it", partition: nil, replicas: 5, reason: "defaulting sets 0 first; without it, String() of nil is <nil>",
		want: []string{us + `.partition: Invalid value: "<nil>": failed GetScaledValueFromIntOrPercent for partition: nil value for IntOrString`}},
	{name: "above replicas", partition: cnt(12), replicas: 10, reason: "rule V3: partition > R is allowed"},
	{name: "above a hundred percent", partition: pct("150%"), replicas: 5, reason: "rule V3: above 100% is allowed"},
	{name: "fraction", partition: pct("99.99%"), replicas: 999},
	{name: "V2 not a percentage", partition: pct("abc"), replicas: 5, reason: "rule V2",
		want: []string{us + `.partition: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage`}},
	{name: "V2 quoted number", partition: pct("99"), replicas: 9,
		want: []string{us + `.partition: Invalid value: "99": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage`}},
	{name: "V2 ParseFloat error", partition: pct("5%%"), replicas: 9,
		want: []string{us + `.partition: Invalid value: "5%%": failed GetScaledValueFromIntOrPercent for partition: strconv.ParseFloat: parsing "5%": invalid syntax`}},
	{name: "V3 negative count", partition: cnt(-1), replicas: 5, reason: "rule V3, kruise test invalid-partition",
		want: []string{us + `.partition: Invalid value: -1: must be greater than or equal to 0`}},
	{name: "V3 negative percent", partition: pct("-10%"), replicas: 10, reason: "the scaled value is printed",
		want: []string{us + `.partition: Invalid value: -1: must be greater than or equal to 0`}},
	{name: "V3 small negative percent rounds up to 0", partition: pct("-0.5%"), replicas: 10},
	{name: "V3 beyond int32 printed whole", partition: pct("-1e12%"), replicas: 10, reason: "kruise's int is 64 bits",
		want: []string{us + `.partition: Invalid value: -100000000000: must be greater than or equal to 0`}},
	{name: "beyond int32 is valid", partition: pct("1e12%"), replicas: 10, reason: "kruise holds 1e11 and clamps it to R later"},
	{name: "negative replicas", partition: pct("100%"), replicas: -4, reason: "the webhook scales against the negative replicas it reports elsewhere",
		want: []string{us + `.partition: Invalid value: -4: must be greater than or equal to 0`}},
	{name: "NaN depends on the CPU", partition: pct("NaN%"), replicas: 10, reason: "amd64 MinInt64, arm64 0",
		want: []string{us + `.partition: Invalid value: "NaN%": ` + cpuRule}},
	{name: "infinity depends on the CPU", partition: pct("Inf%"), replicas: 10,
		want: []string{us + `.partition: Invalid value: "Inf%": ` + cpuRule}},
	{name: "beyond int64 depends on the CPU", partition: pct("1e300%"), replicas: 10,
		want: []string{us + `.partition: Invalid value: "1e300%": ` + cpuRule}},
}

func TestValidateKruisePartition(t *testing.T) {
	for _, tt := range kruisePartitionCases {
		t.Run(tt.name, func(t *testing.T) {
			got := errorTexts(ValidateKruisePartition(tt.partition, tt.replicas, us))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("ValidateKruisePartition(%v, %d) =\n  %s\nwant\n  %s\n(%s)", tt.partition, tt.replicas,
					strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "), tt.reason)
			}
			if ref := referenceKruiseStrategy("ReCreate", tt.partition, cnt(1), nil, tt.replicas); strings.Join(ref, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("the table disagrees with the reference:\n  %s", strings.Join(ref, "\n  "))
			}
		})
	}
}

var kruiseRollingUpdateCases = []struct {
	name                     string
	updateType               string
	maxUnavailable, maxSurge *IntOrString
	replicas                 int32
	want                     []string
	reason                   string
}{
	// kruise's validation_test.go, valid cases.
	{name: "kruise test: unavailable 1", updateType: "InPlaceIfPossible", maxUnavailable: cnt(1), replicas: 5},
	{name: "kruise test: unavailable 1 surge 1", updateType: "InPlaceIfPossible", maxUnavailable: cnt(1), maxSurge: cnt(1), replicas: 5},
	{name: "kruise test: unavailable 0 surge 1", updateType: "InPlaceIfPossible", maxUnavailable: cnt(0), maxSurge: cnt(1), replicas: 5},
	{name: "kruise test: unavailable 120%", updateType: "InPlaceIfPossible", maxUnavailable: pct("120%"), replicas: 5, reason: "no upper bound"},
	{name: "kruise test: in place only without surge", updateType: "InPlaceOnly", maxUnavailable: cnt(1), replicas: 5},
	{name: "kruise test: recreate with surge 5", updateType: "ReCreate", maxUnavailable: cnt(2), maxSurge: cnt(5), replicas: 5},
	{name: "kruise test: surge 5 without unavailable", updateType: "ReCreate", maxSurge: cnt(5), replicas: 5},
	{name: "zero replicas skip V7", updateType: "ReCreate", maxUnavailable: cnt(0), maxSurge: cnt(0), replicas: 0},
	{name: "fraction rounds up to 1", updateType: "ReCreate", maxUnavailable: pct("0.5%"), replicas: 10,
		reason: "ceil(0.05) = 1; the controller's legacy reader later makes it 0 (docs/cloneset.md#s3-percent-parser-mismatch)"},
	{name: "negative percent with surge passes", updateType: "ReCreate", maxUnavailable: pct("-10%"), maxSurge: cnt(1), replicas: 10,
		reason: "a negative percentage passes admission (docs/cloneset.md#s15-negative-percents)"},
	{name: "in place only with surge 0%", updateType: "InPlaceOnly", maxUnavailable: cnt(1), maxSurge: pct("0%"), replicas: 5},
	// kruise's validation_test.go, invalid cases, with the texts.
	{name: "V4 kruise test invalid-cloneset-maxUnavailable-create", updateType: "ReCreate", maxUnavailable: pct("5"), maxSurge: cnt(2), replicas: 5,
		want: []string{us + `.maxUnavailable: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`}},
	{name: "V5 kruise test invalid-cloneset-maxSurge-create", updateType: "ReCreate", maxUnavailable: cnt(2), maxSurge: pct("5"), replicas: 5,
		want: []string{us + `.maxSurge: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage`}},
	{name: "V6 in place only with surge", updateType: "InPlaceOnly", maxUnavailable: cnt(1), maxSurge: cnt(1), replicas: 1, reason: "rule V6",
		want: []string{us + `.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly`}},
	{name: "V6 with a percent", updateType: "InPlaceOnly", maxUnavailable: cnt(1), maxSurge: pct("1%"), replicas: 5, reason: "ceil(0.05) = 1",
		want: []string{us + `.maxSurge: Invalid value: "1%": can not use maxSurge with strategy type InPlaceOnly`}},
	{name: "V7 kruise test invalid-maxUnavailable", updateType: "InPlaceIfPossible", maxUnavailable: cnt(0), replicas: 1, reason: "rule V7",
		want: []string{us + `.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: ` + bothBelowOne}},
	{name: "V7 kruise test invalid-maxSurge", updateType: "InPlaceIfPossible", maxUnavailable: cnt(0), maxSurge: cnt(0), replicas: 5,
		want: []string{us + `.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: ` + bothBelowOne}},
	{name: "V7 zero percent", updateType: "ReCreate", maxUnavailable: pct("0%"), maxSurge: cnt(0), replicas: 3, reason: "rule V7",
		want: []string{us + `.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: ` + bothBelowOne}},
	{name: "V7 nil prints null", updateType: "ReCreate", replicas: 3, reason: "field.Error prints a nil pointer as null",
		want: []string{us + `.maxUnavailable: Invalid value: "null": ` + bothBelowOne}},
	{name: "V4 and V7", updateType: "ReCreate", maxUnavailable: pct("abc"), replicas: 3, reason: "an unreadable value counts as 0",
		want: []string{us + `.maxUnavailable: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`,
			us + `.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"abc"}: ` + bothBelowOne}},
	{name: "V4 V5 V7 in order", updateType: "InPlaceOnly", maxUnavailable: pct("1.5"), maxSurge: pct("x%"), replicas: 3,
		want: []string{us + `.maxUnavailable: Invalid value: "1.5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`,
			us + `.maxSurge: Invalid value: "x%": failed GetScaledValueFromIntOrPercent for maxSurge: strconv.ParseFloat: parsing "x": invalid syntax`,
			us + `.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"1.5"}: ` + bothBelowOne}},
	{name: "fraction rounds to 1 of small replicas", updateType: "ReCreate", maxUnavailable: pct("0.01%"), replicas: 1},
	{name: "Go quoting", updateType: "ReCreate", maxUnavailable: pct("é\t<b>"), maxSurge: cnt(1), replicas: 3, reason: "%q, not JSON",
		want: []string{us + `.maxUnavailable: Invalid value: "é\t<b>": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage`}},
	{name: "surge NaN depends on the CPU", updateType: "InPlaceOnly", maxUnavailable: cnt(1), maxSurge: pct("NaN%"), replicas: 3,
		want: []string{us + `.maxSurge: Invalid value: "NaN%": ` + cpuRule}},
	{name: "unavailable infinity depends on the CPU", updateType: "ReCreate", maxUnavailable: pct("Inf%"), maxSurge: cnt(0), replicas: 3,
		want: []string{us + `.maxUnavailable: Invalid value: "Inf%": ` + cpuRule,
			us + `.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"Inf%"}: ` + bothBelowOne}},
	{name: "surge beyond int32 is valid", updateType: "ReCreate", maxUnavailable: cnt(0), maxSurge: pct("1e12%"), replicas: 3},
	{name: "surge beyond int32 in place only", updateType: "InPlaceOnly", maxUnavailable: cnt(1), maxSurge: pct("1e12%"), replicas: 3,
		want: []string{us + `.maxSurge: Invalid value: "1e12%": can not use maxSurge with strategy type InPlaceOnly`}},
	{name: "unknown type is not this function's rule", updateType: "OnDelete", maxUnavailable: cnt(1), maxSurge: cnt(1), replicas: 3,
		reason: "the type's own rule (V1) lives with the CloneSet"},
}

func TestValidateKruiseRollingUpdate(t *testing.T) {
	for _, tt := range kruiseRollingUpdateCases {
		t.Run(tt.name, func(t *testing.T) {
			got := errorTexts(ValidateKruiseRollingUpdate(tt.updateType, tt.maxUnavailable, tt.maxSurge, tt.replicas, us))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("ValidateKruiseRollingUpdate(%q, %v, %v, %d) =\n  %s\nwant\n  %s\n(%s)", tt.updateType, tt.maxUnavailable, tt.maxSurge, tt.replicas,
					strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "), tt.reason)
			}
			if ref := referenceKruiseStrategy(tt.updateType, cnt(0), tt.maxUnavailable, tt.maxSurge, tt.replicas); strings.Join(ref, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("the table disagrees with the reference:\n  %s", strings.Join(ref, "\n  "))
			}
		})
	}
}

func TestValidateKruiseDoesNotAllocateWhenValid(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	partition, unavailable, surge := pct("99.99%"), pct("20%"), cnt(1)
	if n := testing.AllocsPerRun(100, func() {
		ValidateKruisePartition(partition, 999, us)
		ValidateKruiseRollingUpdate("ReCreate", unavailable, surge, 999, us)
	}); n != 0 {
		t.Errorf("validating valid kruise values allocates %v times, want 0", n)
	}
}

// intstrMirror has the fields of apimachinery's intstr.IntOrString, so
// that fmt's %#v shows how the webhook prints one.
type intstrMirror struct {
	Type   intstrType
	IntVal int32
	StrVal string
}

type intstrType int64

// referenceKruiseStrategy transcribes the part of kruise's
// validateUpdateStrategy that reads partition, maxUnavailable and
// maxSurge, with fmt rendering the values as field.Error does, kruise's
// float reader written out in float64, and our documented rule where the
// int conversion depends on the CPU.
func referenceKruiseStrategy(updateType string, partition, maxUnavailable, maxSurge *IntOrString, replicas int32) []string {
	// read returns kruise's int64 value, its error text, and whether the
	// value depends on the CPU.
	read := func(s *IntOrString) (int64, string, bool) {
		if !s.IsString {
			return int64(s.Int), "", false
		}
		if !strings.HasSuffix(s.Str, "%") {
			return 0, "invalid type: string is not a percentage", false
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(s.Str, "%"), 64)
		if err != nil {
			return 0, err.Error(), false
		}
		f := math.Ceil(v * float64(replicas) / 100)
		if math.IsNaN(f) || f >= math.Exp2(63) || f < -math.Exp2(63) {
			return 0, "", true
		}
		return int64(f), "", false
	}
	str := func(s *IntOrString) string {
		if s.IsString {
			return fmt.Sprintf("%q", s.Str)
		}
		return fmt.Sprintf("%q", strconv.Itoa(int(s.Int)))
	}
	var out []string
	check := func(name string, s *IntOrString) int64 {
		n, msg, cpu := read(s)
		switch {
		case cpu:
			out = append(out, fmt.Sprintf("%s.%s: Invalid value: %s: %s", us, name, str(s), cpuRule))
		case msg != "":
			out = append(out, fmt.Sprintf("%s.%s: Invalid value: %s: failed GetScaledValueFromIntOrPercent for %s: %s", us, name, str(s), name, msg))
		}
		return n
	}
	if partition == nil {
		out = append(out, fmt.Sprintf("%s.partition: Invalid value: %q: failed GetScaledValueFromIntOrPercent for partition: nil value for IntOrString", us, "<nil>"))
	} else if p := check("partition", partition); p < 0 {
		out = append(out, fmt.Sprintf("%s.partition: Invalid value: %v: must be greater than or equal to 0", us, p))
	}
	var u, s int64
	if maxUnavailable != nil {
		u = check("maxUnavailable", maxUnavailable)
	}
	if maxSurge != nil {
		s = check("maxSurge", maxSurge)
		if updateType == "InPlaceOnly" && s > 0 {
			out = append(out, fmt.Sprintf("%s.maxSurge: Invalid value: %s: can not use maxSurge with strategy type InPlaceOnly", us, str(maxSurge)))
		}
	}
	if replicas > 0 && u < 1 && s < 1 {
		shown := `"null"`
		if maxUnavailable != nil {
			m := intstrMirror{IntVal: maxUnavailable.Int, StrVal: maxUnavailable.Str}
			if maxUnavailable.IsString {
				m.Type = 1
			}
			shown = strings.Replace(fmt.Sprintf("%#v", m), "intorpercent.intstrMirror", "intstr.IntOrString", 1)
		}
		out = append(out, fmt.Sprintf("%s.maxUnavailable: Invalid value: %s: %s", us, shown, bothBelowOne))
	}
	return out
}

// drawKruiseField draws nil or a value a user may write in a kruise
// percent field.
func drawKruiseField(t *rapid.T, label string) *IntOrString {
	if rapid.IntRange(0, 5).Draw(t, label+"Nil") == 0 {
		return nil
	}
	var s IntOrString
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		s = IntOrString{Int: rapid.Int32Range(-3, 5).Draw(t, label+"Count")}
	case 1:
		s = IntOrString{Int: rapid.Int32().Draw(t, label+"Count")}
	default:
		s = drawFractionalInput(t)
	}
	return &s
}

func TestValidateKruiseMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		updateType := rapid.SampledFrom([]string{"ReCreate", "InPlaceIfPossible", "InPlaceOnly", "OnDelete", ""}).Draw(t, "updateType")
		partition := drawKruiseField(t, "partition")
		maxUnavailable := drawKruiseField(t, "maxUnavailable")
		maxSurge := drawKruiseField(t, "maxSurge")
		replicas := rapid.OneOf(rapid.Int32Range(-2, 20), rapid.Int32()).Draw(t, "replicas")
		got := errorTexts(append(ValidateKruisePartition(partition, replicas, us),
			ValidateKruiseRollingUpdate(updateType, maxUnavailable, maxSurge, replicas, us)...))
		want := referenceKruiseStrategy(updateType, partition, maxUnavailable, maxSurge, replicas)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got\n  %s\nreference\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	})
}

func TestValidateKruiseDoesNotModifyInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, u, s := drawKruiseField(t, "partition"), drawKruiseField(t, "maxUnavailable"), drawKruiseField(t, "maxSurge")
		snapshot := func(x *IntOrString) string { return fmt.Sprintf("%#v", x) + goSyntax(x) }
		before := snapshot(p) + snapshot(u) + snapshot(s)
		ValidateKruisePartition(p, 7, us)
		ValidateKruiseRollingUpdate("InPlaceOnly", u, s, 7, us)
		if after := snapshot(p) + snapshot(u) + snapshot(s); after != before {
			t.Fatalf("inputs changed:\n%s\n%s", before, after)
		}
	})
}

func FuzzValidateKruise(f *testing.F) {
	for _, tt := range kruisePartitionCases {
		if tt.partition != nil {
			f.Add("ReCreate", tt.partition.IsString, tt.partition.Int, tt.partition.Str, "20%", tt.replicas)
		}
	}
	for _, tt := range kruiseRollingUpdateCases {
		if tt.maxSurge != nil {
			f.Add(tt.updateType, tt.maxSurge.IsString, tt.maxSurge.Int, tt.maxSurge.Str, "0%", tt.replicas)
		}
		if tt.maxUnavailable != nil {
			f.Add(tt.updateType, tt.maxUnavailable.IsString, tt.maxUnavailable.Int, tt.maxUnavailable.Str, tt.maxUnavailable.Str, tt.replicas)
		}
	}
	f.Fuzz(func(t *testing.T, updateType string, isString bool, n int32, s, other string, replicas int32) {
		v := &IntOrString{IsString: isString, Int: n, Str: s}
		o := pct(other)
		for _, triple := range [][3]*IntOrString{{v, o, nil}, {o, v, v}, {nil, nil, v}} {
			got := errorTexts(append(ValidateKruisePartition(triple[0], replicas, us),
				ValidateKruiseRollingUpdate(updateType, triple[1], triple[2], replicas, us)...))
			want := referenceKruiseStrategy(updateType, triple[0], triple[1], triple[2], replicas)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%#v: got\n  %s\nreference\n  %s", triple, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		}
	})
}
