package enumtext

import (
	"errors"
	"strconv"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

// color has no name for its zero value, like most engine enums.
type color uint8

func (c color) String() string {
	switch c {
	case 1:
		return "Red"
	case 2:
		return "Blue"
	}
	return "color(" + strconv.Itoa(int(c)) + ")"
}

// mode names its zero value.
type mode uint8

func (m mode) String() string {
	switch m {
	case 0:
		return "Off"
	case 1:
		return "On"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

func TestMarshalWritesNamesAndAnUnnamedZeroAsEmpty(t *testing.T) {
	for _, tc := range []struct {
		v    color
		want string
	}{{0, ""}, {1, "Red"}, {2, "Blue"}} {
		b, err := Marshal(tc.v, "pkg", "color")
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal(%d) = %q, %v; want %q", tc.v, b, err, tc.want)
		}
	}
	_, err := Marshal(color(3), "pkg", "color")
	if err == nil {
		t.Fatal("Marshal(3) of a value without a name: no error")
	}
	if !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("Marshal(3) error %v does not wrap field.ErrUnsupported", err)
	}
}

func TestUnmarshalReadsNames(t *testing.T) {
	var c color = 2
	if err := Unmarshal(&c, "pkg", "color", nil); err != nil || c != 0 {
		t.Errorf(`Unmarshal("") = %d, %v; want 0`, c, err)
	}
	if err := Unmarshal(&c, "pkg", "color", []byte("Blue")); err != nil || c != 2 {
		t.Errorf(`Unmarshal("Blue") = %d, %v; want 2`, c, err)
	}
	var m mode = 1
	if err := Unmarshal(&m, "pkg", "mode", []byte("Off")); err != nil || m != 0 {
		t.Errorf(`Unmarshal("Off") = %d, %v; want 0`, m, err)
	}
	// A named zero is not written as "", so "" is not one of its names.
	if err := Unmarshal(&m, "pkg", "mode", nil); err == nil {
		t.Errorf(`Unmarshal("") of an enum with a named zero = %d, want an error`, m)
	}
	err := Unmarshal(&c, "pkg", "color", []byte("Green"))
	if !errors.Is(err, field.ErrUnsupported) {
		t.Fatalf(`Unmarshal("Green") error = %v, want field.ErrUnsupported`, err)
	}
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Prefix != "pkg" || fe.Field != "color" || fe.Value != `"Green"` {
		t.Errorf(`Unmarshal("Green") error = %#v`, err)
	}
}
