package rollout

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// enum is what every exported enum of the package implements.
type enum[E any] interface {
	~uint8
	fmt.Stringer
	encoding.TextMarshaler
}

// checkEnumText checks an enum's text form over every value of its type:
// exactly the values of named (and the zero value, as "", when zeroEmpty)
// marshal; each marshals to its String and reads back as itself, also
// inside JSON; and an unknown name is rejected with an error naming the
// type and quoting the text.
func checkEnumText[E enum[E], P interface {
	*E
	encoding.TextUnmarshaler
}](t *testing.T, typ string, named []E, zeroEmpty bool) {
	t.Helper()
	want := map[E]bool{}
	for _, v := range named {
		want[v] = true
	}
	for i := 0; i <= math.MaxUint8; i++ {
		v := E(i)
		text, err := v.MarshalText()
		if i == 0 && zeroEmpty {
			if err != nil || string(text) != "" {
				t.Errorf("%s(0).MarshalText() = %q, %v, want \"\", nil", typ, text, err)
			}
		} else if !want[v] {
			if err == nil {
				t.Errorf("%s(%d).MarshalText() = %q, nil, want an error", typ, i, text)
			}
			continue
		} else if err != nil || string(text) != v.String() {
			t.Errorf("%s(%d).MarshalText() = %q, %v, want %q, nil", typ, i, text, err, v.String())
		}
		var got E
		if err := P(&got).UnmarshalText(text); err != nil || got != v {
			t.Errorf("UnmarshalText(%q) = %v (%d), %v, want %v", text, got, got, err, v)
		}
		b, err := json.Marshal(map[string]E{"v": v})
		if err != nil {
			t.Fatalf("json.Marshal(%s %v): %v", typ, v, err)
		}
		var back map[string]E
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("json.Unmarshal(%s): %v", b, err)
		} else if diff := cmp.Diff(map[string]E{"v": v}, back); diff != "" {
			t.Errorf("JSON round trip of %s mismatch (-want +got):\n%s", b, diff)
		}
	}
	for _, text := range []string{"bogus", "\x00", typ + "(200)"} {
		var got E
		err := P(&got).UnmarshalText([]byte(text))
		if want := fmt.Sprintf("rollout: unknown %s %q", typ, text); err == nil || err.Error() != want {
			t.Errorf("UnmarshalText(%q) error = %v, want %q", text, err, want)
		}
	}
	if !zeroEmpty {
		var got E
		if err := P(&got).UnmarshalText(nil); err == nil {
			t.Errorf("%s UnmarshalText(\"\") = %v, nil, want an error", typ, got)
		}
	}
}

func TestPathTextRoundTrip(t *testing.T) {
	checkEnumText[Path](t, "Path", []Path{PathDeleting, PathPaused, PathRollback, PathScaling, PathRecreate, PathRollingUpdate, PathSelectingAll}, false)
}

func TestActionKindTextRoundTrip(t *testing.T) {
	checkEnumText[ActionKind](t, "ActionKind", []ActionKind{CreateReplicaSet, ScaleReplicaSet, AnnotateReplicaSet, DeleteReplicaSet, RollBack, SkipRollback, CountCollision}, true)
}

func TestEventKindTextRoundTrip(t *testing.T) {
	checkEnumText[EventKind](t, "EventKind", []EventKind{SetTemplate, SetReplicas, Pause, Resume, Rollback}, true)
}

func TestOutcomeTextRoundTrip(t *testing.T) {
	checkEnumText[Outcome](t, "Outcome", []Outcome{OutcomeComplete, OutcomeTimedOut, OutcomePaused, OutcomeStalled, OutcomeSyncLimit}, true)
}

func TestSurgePolicyTextRoundTrip(t *testing.T) {
	checkEnumText[SurgePolicy](t, "SurgePolicy", []SurgePolicy{SurgeIgnoresTerminating, SurgeCountsTerminating}, false)
}

func TestResizePolicyTextRoundTrip(t *testing.T) {
	checkEnumText[ResizePolicy](t, "ResizePolicy", []ResizePolicy{ResizeUpstream, ResizeRefreshesAnnotations}, false)
}

// TestEnumStringNamesUnknownValues checks the String of a value without a
// name, which a log line may show.
func TestEnumStringNamesUnknownValues(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Path(200).String(), "Path(200)"},
		{ActionKind(0).String(), "ActionKind(0)"},
		{EventKind(9).String(), "EventKind(9)"},
		{Outcome(0).String(), "Outcome(0)"},
		{SurgePolicy(2).String(), "SurgePolicy(2)"},
		{ResizePolicy(2).String(), "ResizePolicy(2)"},
	} {
		if tt.got != tt.want {
			t.Errorf("String() = %q, want %q", tt.got, tt.want)
		}
	}
}
