package intorpercent_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func ExampleInt() {
	v := intorpercent.Int(3)
	fmt.Println(v, v.IsPercent())
	// Output: 3 false
}

func ExamplePercent() {
	v := intorpercent.Percent(25)
	fmt.Println(v, v.IsPercent())
	// Output: 25% true
}

func ExampleParse() {
	for _, s := range []string{"3", "25%", "05%"} {
		v, err := intorpercent.Parse(s)
		fmt.Println(v, err)
	}
	// Output:
	// 3 <nil>
	// 25% <nil>
	// 5% <nil>
}

func ExampleParse_errors() {
	for _, s := range []string{"2.5%", "+5%", " 25%", "99999999999"} {
		_, err := intorpercent.Parse(s)
		fmt.Println(err, errors.Is(err, field.ErrRange))
	}
	// Output:
	// intorpercent: parsing "2.5%": fractional percentages are not allowed false
	// intorpercent: parsing "+5%": a sign is not allowed false
	// intorpercent: parsing " 25%": spaces are not allowed false
	// intorpercent: parsing "99999999999": value out of range (at most 2147483647) true
}

// A parse error is a *field.Error: Value is the input, quoted, and
// Detail the rule broken.
func ExampleParse_fieldError() {
	_, err := intorpercent.Parse("25%%")
	var fe *field.Error
	if errors.As(err, &fe) {
		fmt.Printf("input %s: %s\n", fe.Value, fe.Detail)
		fmt.Println(fe.Error())
	}
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrSyntax))
	// Output:
	// input "25%%": only one trailing '%' is allowed
	// intorpercent: parsing "25%%": only one trailing '%' is allowed
	// true true
}

func ExampleValue_String() {
	fmt.Println(intorpercent.Int(10).String(), intorpercent.Percent(25).String())
	// Output: 10 25%
}

func ExampleValue_IsPercent() {
	fmt.Println(intorpercent.Int(25).IsPercent(), intorpercent.Percent(25).IsPercent())
	// Output: false true
}

func ExampleValue_Number() {
	fmt.Println(intorpercent.Int(3).Number(), intorpercent.Percent(25).Number())
	// Output: 3 25
}

// maxSurge rounds up and maxUnavailable rounds down, so 25% of 10
// replicas allows 3 extra pods and 2 unavailable ones.
func ExampleValue_Scaled() {
	v := intorpercent.Percent(25)
	surge, _ := v.Scaled(10, intorpercent.Up)
	unavailable, _ := v.Scaled(10, intorpercent.Down)
	fmt.Println(surge, unavailable)

	// 25% of 1 replica: surge 1, unavailable 0.
	surge, _ = v.Scaled(1, intorpercent.Up)
	unavailable, _ = v.Scaled(1, intorpercent.Down)
	fmt.Println(surge, unavailable)

	// Scaling to 0 replicas gives 0; a count ignores the total.
	zero, _ := v.Scaled(0, intorpercent.Up)
	three, _ := intorpercent.Int(3).Scaled(0, intorpercent.Up)
	fmt.Println(zero, three)
	// Output:
	// 3 2
	// 1 0
	// 0 3
}

func ExampleValue_Scaled_overflow() {
	n, err := intorpercent.Percent(200).Scaled(2_000_000_000, intorpercent.Up)
	fmt.Println(n, errors.Is(err, intorpercent.ErrOverflow))
	fmt.Println(err)
	// Output:
	// 2147483647 true
	// intorpercent: scaling "200%" of 2000000000: scaled value overflows int32
}

func ExampleScaleError_Error() {
	_, err := intorpercent.Percent(25).Scaled(-4, intorpercent.Down)
	var se *intorpercent.ScaleError
	fmt.Println(errors.As(err, &se), se.Total)
	fmt.Println(err)
	// Output:
	// true -4
	// intorpercent: scaling "25%" of -4: total must not be negative
}

func ExampleScaleError_Unwrap() {
	_, err := intorpercent.Percent(25).Scaled(-4, intorpercent.Down)
	fmt.Println(errors.Is(err, intorpercent.ErrNegativeTotal))
	// Output: true
}

func ExampleRounding_String() {
	fmt.Println(intorpercent.Up, intorpercent.Down)
	// Output: Up Down
}

func ExampleValue_MarshalJSON() {
	b, _ := json.Marshal(map[string]intorpercent.Value{
		"maxSurge":       intorpercent.Int(1),
		"maxUnavailable": intorpercent.Percent(25),
	})
	fmt.Println(string(b))
	// Output: {"maxSurge":1,"maxUnavailable":"25%"}
}

func ExampleValue_UnmarshalJSON() {
	var strategy struct {
		MaxSurge       intorpercent.Value `json:"maxSurge"`
		MaxUnavailable intorpercent.Value `json:"maxUnavailable"`
	}
	err := json.Unmarshal([]byte(`{"maxSurge": 1, "maxUnavailable": "25%"}`), &strategy)
	fmt.Println(strategy.MaxSurge, strategy.MaxUnavailable, err)

	err = json.Unmarshal([]byte(`{"maxSurge": "3"}`), &strategy)
	fmt.Println(err)
	// Output:
	// 1 25% <nil>
	// intorpercent: parsing "3": a quoted value must be a percentage such as "25%"; write a count as a bare number
}

func ExampleValue_MarshalText() {
	b, _ := intorpercent.Percent(25).MarshalText()
	fmt.Println(string(b))
	// Output: 25%
}

// UnmarshalText makes a Value usable with flag.TextVar.
func ExampleValue_UnmarshalText() {
	var v intorpercent.Value
	err := v.UnmarshalText([]byte("30%"))
	fmt.Println(v, err)
	// Output: 30% <nil>
}

func ExampleValidateRollingUpdate() {
	const path = "spec.strategy.rollingUpdate"
	fmt.Println(len(intorpercent.ValidateRollingUpdate(intorpercent.Percent(25), intorpercent.Percent(25), path)))
	fmt.Println(intorpercent.ValidateRollingUpdate(intorpercent.Percent(0), intorpercent.Int(0), path))
	fmt.Println(intorpercent.ValidateRollingUpdate(intorpercent.Percent(120), intorpercent.Int(1), path))
	// Output:
	// 0
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%
}

func ExampleValidateNonNegative() {
	fmt.Println(intorpercent.ValidateNonNegative(intorpercent.Int(-1), "spec.strategy.rollingUpdate.maxSurge"))
	fmt.Println(intorpercent.ValidateNonNegative(intorpercent.Int(2), "spec.strategy.rollingUpdate.maxSurge") == nil)
	// Output:
	// spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0
	// true
}

func ExampleValidateNotMoreThan100Percent() {
	fmt.Println(intorpercent.ValidateNotMoreThan100Percent(intorpercent.Percent(150), "spec.strategy.rollingUpdate.maxUnavailable"))
	fmt.Println(intorpercent.ValidateNotMoreThan100Percent(intorpercent.Int(150), "spec.strategy.rollingUpdate.maxUnavailable") == nil)
	// Output:
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%
	// true
}

func ExampleValidateRollingUpdate_list() {
	errs := intorpercent.ValidateRollingUpdate(intorpercent.Percent(200), intorpercent.Int(-1), "spec.strategy.rollingUpdate")
	fmt.Println(errs.Error())
	// Output: [spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0, spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "200%": must not be greater than 100%]
}

func ExampleValidateRollingUpdate_fieldError() {
	err := intorpercent.ValidateRollingUpdate(intorpercent.Int(-1), intorpercent.Int(1), "spec.strategy.rollingUpdate").ToError()
	var fe *field.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Field, "|", fe.Value, "|", fe.Detail)
	}
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrNegative))
	ok := intorpercent.ValidateRollingUpdate(intorpercent.Percent(25), intorpercent.Percent(25), "spec.strategy.rollingUpdate")
	fmt.Println(ok.ToError() == nil)
	// Output:
	// spec.strategy.rollingUpdate.maxUnavailable | -1 | must be greater than or equal to 0
	// true true
	// true
}

func ExampleIntOrString() {
	// maxUnavailable: "00%" and maxSurge: 0, as a manifest holds them.
	maxUnavailable := intorpercent.FromString("00%")
	maxSurge := intorpercent.FromInt(0)
	fmt.Println(intorpercent.ValidateRollingUpdateIntOrString(maxUnavailable, maxSurge, "spec.strategy.rollingUpdate"))
	v, ok := maxUnavailable.Value()
	fmt.Println(v, ok)
	// Output:
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "00%": may not be 0 when `maxSurge` is 0
	// 0% true
}

func ExampleIntOrString_Value() {
	for _, s := range []intorpercent.IntOrString{
		intorpercent.FromInt(3),
		intorpercent.FromString("25%"),
		intorpercent.FromString("2.5%"),
		intorpercent.FromString("3"),
		intorpercent.FromString("3000000000%"),
	} {
		v, ok := s.Value()
		written := s.String()
		if s.IsString {
			written = strconv.Quote(written) // a string, as YAML or JSON would hold it
		}
		fmt.Printf("%s: %v %v\n", written, v, ok)
	}
	// Output:
	// 3: 3 true
	// "25%": 25% true
	// "2.5%": 0 false
	// "3": 0 false
	// "3000000000%": 0 false
}

func ExampleValidateRollingUpdateIntOrString() {
	const path = "spec.strategy.rollingUpdate"
	pct := intorpercent.FromString
	zero := intorpercent.IntOrString{}
	fmt.Println(len(intorpercent.ValidateRollingUpdateIntOrString(pct("25%"), pct("25%"), path)))
	fmt.Println(intorpercent.ValidateRollingUpdateIntOrString(pct("2.5%"), pct("25%"), path))
	// "abc" reads as 0, like the maxSurge, so both rules fire.
	for _, e := range intorpercent.ValidateRollingUpdateIntOrString(pct("abc"), zero, path) {
		fmt.Println(e)
	}
	// Valid for the API server, but beyond what a Value holds.
	fmt.Println(intorpercent.ValidateRollingUpdateIntOrString(zero, pct("30000000000%"), path))
	// Output:
	// 0
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "2.5%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "abc": may not be 0 when `maxSurge` is 0
	// spec.strategy.rollingUpdate.maxSurge: Invalid value: "30000000000%": must not be greater than 2147483647% (rolloutmath keeps percentages in an int32)
}

// Kruise's CloneSet controller reads maxSurge and maxUnavailable with the
// legacy reader: a string is a percentage with or without its '%', and
// a malformed one is an error the controller turns into 0.
func ExampleScaledLegacy() {
	for _, s := range []string{"25%", "25", "2%5", "33.3%"} {
		in := intorpercent.FromString(s)
		up, err := intorpercent.ScaledLegacy(&in, 10, intorpercent.Up)
		fmt.Printf("%q of 10: %d %v\n", s, up, err)
	}
	// The controller's reading: ignore the error, keep the 0.
	fraction := intorpercent.FromString("33.3%")
	maxUnavailable, _ := intorpercent.ScaledLegacy(&fraction, 5, intorpercent.Up)
	fmt.Println(maxUnavailable)
	// Output:
	// "25%" of 10: 3 <nil>
	// "25" of 10: 3 <nil>
	// "2%5" of 10: 3 <nil>
	// "33.3%" of 10: 0 invalid value for IntOrString: invalid value "33.3%": strconv.Atoi: parsing "33.3": invalid syntax
	// 0
}

// Kruise reads a partition with its fractional reader, rounding up: the
// webhook checks partition, maxUnavailable and maxSurge with it too.
func ExampleScaledFractional() {
	partition := intorpercent.FromString("99.99%")
	up, _ := intorpercent.ScaledFractional(&partition, 999, intorpercent.Up)
	down, _ := intorpercent.ScaledFractional(&partition, 999, intorpercent.Down)
	fmt.Println(up, down)

	// float64 rounding, as kruise's: 64.4*250 is a hair above 16100.
	p := intorpercent.FromString("64.4%")
	n, _ := intorpercent.ScaledFractional(&p, 250, intorpercent.Up)
	fmt.Println(n)
	// Output:
	// 999 998
	// 162
}

func ExampleScaledFractional_errors() {
	for _, s := range []string{"25", "5%%", "NaN%", "1e12%"} {
		in := intorpercent.FromString(s)
		n, err := intorpercent.ScaledFractional(&in, 10, intorpercent.Up)
		fmt.Println(n, err)
	}
	_, err := intorpercent.ScaledFractional(nil, 10, intorpercent.Up)
	fmt.Println(err, errors.Is(err, field.ErrRequired))
	// Output:
	// 0 invalid type: string is not a percentage
	// 0 strconv.ParseFloat: parsing "5%": invalid syntax
	// 0 intorpercent: scaling "NaN%" of 10: percentage is not a finite number
	// 2147483647 intorpercent: scaling "1e12%" of 10: scaled value overflows int32
	// nil value for IntOrString true
}

// Upstream's reader errors are *field.Errors holding only upstream's
// text, in Detail.
func ExampleScaledLegacy_errors() {
	in := intorpercent.FromString("99999999999999999999%")
	_, err := intorpercent.ScaledLegacy(&in, 10, intorpercent.Up)
	var fe *field.Error
	fmt.Println(errors.As(err, &fe), fe.Field == "", fe.Detail)
	fmt.Println(errors.Is(err, field.ErrRange), errors.Is(err, field.ErrSyntax))
	// Output:
	// true true invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range
	// true false
}

func ExampleValidateKruisePartition() {
	const path = "spec.updateStrategy"
	for _, p := range []intorpercent.IntOrString{
		intorpercent.FromString("99.99%"),
		intorpercent.FromString("abc"),
		intorpercent.FromInt(-1),
	} {
		fmt.Println(intorpercent.ValidateKruisePartition(&p, 10, path).ToError())
	}
	// Output:
	// <nil>
	// spec.updateStrategy.partition: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage
	// spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0
}

func ExampleValidateKruiseRollingUpdate() {
	const path = "spec.updateStrategy"
	one := intorpercent.FromInt(1)
	zero := intorpercent.FromInt(0)
	noPercent := intorpercent.FromString("5")
	fraction := intorpercent.FromString("33.3%")

	fmt.Println(intorpercent.ValidateKruiseRollingUpdate("ReCreate", &fraction, nil, 5, path).ToError())
	fmt.Println(intorpercent.ValidateKruiseRollingUpdate("ReCreate", &one, &noPercent, 5, path))
	fmt.Println(intorpercent.ValidateKruiseRollingUpdate("InPlaceOnly", &one, &one, 5, path))
	fmt.Println(intorpercent.ValidateKruiseRollingUpdate("ReCreate", &zero, &zero, 5, path))
	// Output:
	// <nil>
	// spec.updateStrategy.maxSurge: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage
	// spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly
	// spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1
}

func ExampleIntOrString_String() {
	fmt.Println(intorpercent.FromInt(3), intorpercent.FromString("99.99%"))
	// Output:
	// 3 99.99%
}

func ExampleFromInt() {
	b, _ := json.Marshal(intorpercent.FromInt(3))
	fmt.Println(string(b))
	// Output: 3
}

// FromString keeps any text as written; readers decide what it means.
func ExampleFromString() {
	for _, s := range []string{"40%", "40", "33.3%"} {
		written := intorpercent.FromString(s)
		b, _ := json.Marshal(written)
		v, ok := written.Value()
		legacy, _ := intorpercent.ScaledLegacy(&written, 10, intorpercent.Up)
		fractional, _ := intorpercent.ScaledFractional(&written, 10, intorpercent.Up)
		fmt.Printf("%s: strict %v %v, legacy %d, fractional %d\n", b, v, ok, legacy, fractional)
	}
	// Output:
	// "40%": strict 40% true, legacy 4, fractional 4
	// "40": strict 0 false, legacy 4, fractional 0
	// "33.3%": strict 0 false, legacy 0, fractional 4
}

func ExampleIntOrString_MarshalJSON() {
	b, _ := json.Marshal(map[string]intorpercent.IntOrString{
		"partition":      intorpercent.FromString("40%"),
		"maxSurge":       intorpercent.FromInt(1),
		"maxUnavailable": intorpercent.FromString("20"),
	})
	fmt.Println(string(b))
	// Output: {"maxSurge":1,"maxUnavailable":"20","partition":"40%"}
}

// A manifest's values decode as written: "40" stays a string.
func ExampleIntOrString_UnmarshalJSON() {
	var strategy struct {
		Partition      *intorpercent.IntOrString `json:"partition,omitempty"`
		MaxSurge       *intorpercent.IntOrString `json:"maxSurge,omitempty"`
		MaxUnavailable *intorpercent.IntOrString `json:"maxUnavailable,omitempty"`
	}
	err := json.Unmarshal([]byte(`{"partition": "40%", "maxSurge": 1, "maxUnavailable": "40"}`), &strategy)
	fmt.Printf("%#v %#v %#v %v\n", *strategy.Partition, *strategy.MaxSurge, *strategy.MaxUnavailable, err)

	err = json.Unmarshal([]byte(`{"maxSurge": 2.5}`), &strategy)
	fmt.Println(err)
	// Output:
	// intorpercent.IntOrString{IsString:true, Int:0, Str:"40%"} intorpercent.IntOrString{IsString:false, Int:1, Str:""} intorpercent.IntOrString{IsString:true, Int:0, Str:"40"} <nil>
	// intorpercent: parsing "2.5": fractional numbers are not allowed
}

func ExampleIntOrString_MarshalText() {
	b, _ := intorpercent.FromString("33.3%").MarshalText()
	fmt.Println(string(b))
	// Output: 33.3%
}

// UnmarshalText makes an IntOrString usable with flag.TextVar: a number
// is a count, any other text is kept as written.
func ExampleIntOrString_UnmarshalText() {
	for _, text := range []string{"3", "40%", "33.3%"} {
		var s intorpercent.IntOrString
		err := s.UnmarshalText([]byte(text))
		fmt.Printf("%#v %v\n", s, err)
	}
	// Output:
	// intorpercent.IntOrString{IsString:false, Int:3, Str:""} <nil>
	// intorpercent.IntOrString{IsString:true, Int:0, Str:"40%"} <nil>
	// intorpercent.IntOrString{IsString:true, Int:0, Str:"33.3%"} <nil>
}

func ExampleValue_IntOrString() {
	for _, v := range []intorpercent.Value{intorpercent.Int(3), intorpercent.Percent(25)} {
		fmt.Printf("%#v\n", v.IntOrString())
	}
	// Output:
	// intorpercent.IntOrString{IsString:false, Int:3, Str:""}
	// intorpercent.IntOrString{IsString:true, Int:0, Str:"25%"}
}
