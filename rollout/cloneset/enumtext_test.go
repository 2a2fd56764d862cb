package cloneset

import (
	"encoding"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/enumtext"
)

// enum is an enum as package enumtext sees it.
type enum = enumtext.Enum

// unnamed reports whether s is String's text for a value without a name,
// "ActionKind(99)".
func unnamed(s, typ string) bool {
	return strings.HasPrefix(s, typ+"(") && strings.HasSuffix(s, ")")
}

// textEnum is an enum as the round-trip tests see it.
type textEnum[E enum] interface {
	*E
	encoding.TextUnmarshaler
}

// checkEnumRoundTrip checks that every named value of E writes its name
// and reads back to itself (through MarshalText and through JSON), that
// an unnamed zero writes "" and reads back, that a value past the last
// name does not write, and that an unknown name is an error naming typ
// and the text. It returns the names.
func checkEnumRoundTrip[E enum, P textEnum[E]](t *testing.T, typ string) []string {
	t.Helper()
	var names []string
	for n := 0; n <= 255; n++ {
		v := E(n)
		s := v.String()
		b, err := json.Marshal(v)
		if unnamed(s, typ) {
			if n == 0 {
				if err != nil || string(b) != `""` {
					t.Errorf("json.Marshal(%s(0)) = %s, %v; want \"\"", typ, b, err)
				}
				var back E = 1
				if err := P(&back).UnmarshalText(nil); err != nil || back != 0 {
					t.Errorf("%s.UnmarshalText(\"\") = %v, %v; want 0", typ, back, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("json.Marshal(%s) = %s, want an error", s, b)
			}
			break
		}
		names = append(names, s)
		if err != nil || string(b) != `"`+s+`"` {
			t.Errorf("json.Marshal(%s) = %s, %v; want %q", s, b, err, s)
		}
		var back E
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("json.Unmarshal(%s) = %v, %v; want %v", b, back, err, v)
		}
		back = 0
		if err := P(&back).UnmarshalText([]byte(s)); err != nil || back != v {
			t.Errorf("%s.UnmarshalText(%q) = %v, %v; want %v", typ, s, back, err, v)
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s has no named values", typ)
	}
	var v E
	err := P(&v).UnmarshalText([]byte("NoSuchName"))
	if err == nil || !strings.Contains(err.Error(), typ) || !strings.Contains(err.Error(), `"NoSuchName"`) {
		t.Errorf("%s.UnmarshalText(\"NoSuchName\") = %v, want an error naming %s and the text", typ, err, typ)
	}
	return names
}

func TestEnumTextRoundTrip(t *testing.T) {
	tests := []struct {
		typ   string
		check func(*testing.T, string) []string
		want  int // named values
	}{
		{"ActionKind", checkEnumRoundTrip[ActionKind], 12},
		{"BudgetPolicy", checkEnumRoundTrip[BudgetPolicy], 2},
		{"DiffsFor", checkEnumRoundTrip[DiffsFor], 2},
		{"EventKind", checkEnumRoundTrip[EventKind], 6},
		{"NoKeyOrder", checkEnumRoundTrip[NoKeyOrder], 2},
		{"Outcome", checkEnumRoundTrip[Outcome], 6},
		{"PodClass", checkEnumRoundTrip[PodClass], 5},
		{"ReadyLimitPolicy", checkEnumRoundTrip[ReadyLimitPolicy], 2},
		{"ScaleBranch", checkEnumRoundTrip[ScaleBranch], 7},
		{"ScatterGrouping", checkEnumRoundTrip[ScatterGrouping], 2},
		{"UpdateBranch", checkEnumRoundTrip[UpdateBranch], 6},
		{"UpdateRevisionAction", checkEnumRoundTrip[UpdateRevisionAction], 3},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			names := tt.check(t, tt.typ)
			if len(names) != tt.want {
				t.Errorf("%s has names %q, want %d", tt.typ, names, tt.want)
			}
		})
	}
}

func TestEnumUnmarshalTextError(t *testing.T) {
	var k ActionKind
	err := k.UnmarshalText([]byte("TrackInPlaceUpdate"))
	const want = `cloneset: ActionKind: "TrackInPlaceUpdate": unknown name`
	if err == nil || err.Error() != want {
		t.Errorf("ActionKind.UnmarshalText(\"TrackInPlaceUpdate\") = %v, want %s", err, want)
	}
}
