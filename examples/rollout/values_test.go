package main

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func TestIntOrPercentText(t *testing.T) {
	tests := []struct {
		in      string
		want    intOrPercent
		standIn intorpercent.Value // what value() gives
	}{
		{in: "3", want: intOrPercent{Int: 3}, standIn: intorpercent.Int(3)},
		{in: "25%", want: intOrPercent{IsString: true, Str: "25%"}, standIn: intorpercent.Percent(25)},
		{in: "05%", want: intOrPercent{IsString: true, Str: "05%"}, standIn: intorpercent.Percent(5)},
		{in: "2.5%", want: intOrPercent{IsString: true, Str: "2.5%"}, standIn: intorpercent.Int(0)},
		{in: "-3", want: intOrPercent{IsString: true, Str: "-3"}, standIn: intorpercent.Int(0)},
		{in: "", want: intOrPercent{IsString: true, Str: ""}, standIn: intorpercent.Int(0)},
	}
	for _, tt := range tests {
		var got intOrPercent
		if err := got.UnmarshalText([]byte(tt.in)); err != nil {
			t.Errorf("UnmarshalText(%q) = %v, want nil (invalid text is kept for validation)", tt.in, err)
		}
		if got != tt.want {
			t.Errorf("UnmarshalText(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if v := got.value(); v != tt.standIn {
			t.Errorf("UnmarshalText(%q).value() = %v, want %v", tt.in, v, tt.standIn)
		}
		if b, _ := got.MarshalText(); string(b) != tt.in {
			t.Errorf("UnmarshalText(%q).MarshalText() = %q, want the text back", tt.in, b)
		}
	}
}

func TestIntOrPercentJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    intOrPercent
		wantErr string
	}{
		{in: `3`, want: intOrPercent{Int: 3}},
		{in: `-1`, want: intOrPercent{Int: -1}},
		{in: `"25%"`, want: intOrPercent{IsString: true, Str: "25%"}},
		{in: `"3"`, want: intOrPercent{IsString: true, Str: "3"}},
		{in: `"2.5%"`, want: intOrPercent{IsString: true, Str: "2.5%"}},
		{in: `2.5`, wantErr: `intorpercent: parsing "2.5": fractional numbers are not allowed`},
		{in: `{}`, wantErr: `intorpercent: parsing "{}": want a number such as 3 or a string such as "25%"`},
	}
	for _, tt := range tests {
		var got intOrPercent
		err := got.UnmarshalJSON([]byte(tt.in))
		switch {
		case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
			t.Errorf("UnmarshalJSON(%s) = %v, want %s", tt.in, err, tt.wantErr)
		case tt.wantErr == "" && err != nil:
			t.Errorf("UnmarshalJSON(%s) = %v, want nil", tt.in, err)
		case tt.wantErr == "" && got != tt.want:
			t.Errorf("UnmarshalJSON(%s) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestWrittenDefaults(t *testing.T) {
	if got, want := written(nil, intorpercent.Percent(25)), (intorpercent.IntOrString{IsString: true, Str: "25%"}); got != want {
		t.Errorf("written(nil, 25%%) = %+v, want %+v", got, want)
	}
	p := intOrPercent{Int: 0}
	if got, want := written(&p, intorpercent.Percent(25)), (intorpercent.IntOrString{}); got != want {
		t.Errorf("written(&0, 25%%) = %+v, want %+v", got, want)
	}
}
