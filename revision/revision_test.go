package revision

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

func TestRevision(t *testing.T) {
	tests := []struct {
		name        string
		annotations map[string]string
		want        int64
		wantErr     string
		is          error
	}{
		{name: "nil map", annotations: nil, want: 0},
		{name: "missing", annotations: map[string]string{"a": "1"}, want: 0},
		{name: "plain", annotations: map[string]string{RevisionAnnotation: "5"}, want: 5},
		{name: "plus sign", annotations: map[string]string{RevisionAnnotation: "+5"}, want: 5},
		{name: "negative", annotations: map[string]string{RevisionAnnotation: "-3"}, want: -3},
		{name: "leading zeros", annotations: map[string]string{RevisionAnnotation: "007"}, want: 7},
		{name: "max int64", annotations: map[string]string{RevisionAnnotation: "9223372036854775807"}, want: math.MaxInt64},
		{name: "empty", annotations: map[string]string{RevisionAnnotation: ""},
			wantErr: `revision: parsing "": invalid syntax`, is: field.ErrSyntax},
		{name: "letters", annotations: map[string]string{RevisionAnnotation: "abc"},
			wantErr: `revision: parsing "abc": invalid syntax`, is: field.ErrSyntax},
		{name: "space", annotations: map[string]string{RevisionAnnotation: " 5"},
			wantErr: `revision: parsing " 5": invalid syntax`, is: field.ErrSyntax},
		{name: "fraction", annotations: map[string]string{RevisionAnnotation: "5.0"},
			wantErr: `revision: parsing "5.0": invalid syntax`, is: field.ErrSyntax},
		{name: "hex", annotations: map[string]string{RevisionAnnotation: "0x10"},
			wantErr: `revision: parsing "0x10": invalid syntax`, is: field.ErrSyntax},
		{name: "underscore", annotations: map[string]string{RevisionAnnotation: "1_000"},
			wantErr: `revision: parsing "1_000": invalid syntax`, is: field.ErrSyntax},
		{name: "too big", annotations: map[string]string{RevisionAnnotation: "9223372036854775808"},
			wantErr: `revision: parsing "9223372036854775808": value out of range`, is: field.ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Revision(tt.annotations)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("Revision(%v) = %d, %v, want %d, nil", tt.annotations, got, err, tt.want)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr || got != 0 {
				t.Fatalf("Revision(%v) = %d, %v, want 0, %s", tt.annotations, got, err, tt.wantErr)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("Revision(%v) error %v does not wrap %v", tt.annotations, err, tt.is)
			}
			var pe *field.Error
			if !errors.As(err, &pe) || pe.Value != strconv.Quote(tt.annotations[RevisionAnnotation]) {
				t.Errorf("Revision(%v) error %#v, want a *field.Error with the value", tt.annotations, err)
			}
		})
	}
}

func TestRevisionDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	ann := map[string]string{RevisionAnnotation: "12345"}
	if n := testing.AllocsPerRun(100, func() { _, _ = Revision(ann) }); n != 0 {
		t.Errorf("Revision allocates %v times per call, want 0", n)
	}
}

func FuzzRevision(f *testing.F) {
	for _, s := range []string{"5", "+5", "-3", "", "abc", " 5", "5.0", "0x10", "1_000", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Revision(map[string]string{RevisionAnnotation: s})
		want, wantErr := strconv.ParseInt(s, 10, 64)
		if (err != nil) != (wantErr != nil) || err == nil && got != want {
			t.Fatalf("Revision(%q) = %d, %v; strconv.ParseInt gives %d, %v", s, got, err, want, wantErr)
		}
		if err != nil && got != 0 {
			t.Fatalf("Revision(%q) = %d with an error, want 0", s, got)
		}
		if err == nil {
			text := strconv.FormatInt(got, 10)
			if back, err := Revision(map[string]string{RevisionAnnotation: text}); err != nil || back != got {
				t.Fatalf("Revision(%q) = %d, %v, want %d (round trip of %q)", text, back, err, got, s)
			}
		}
	})
}

func TestMaxAndLastRevision(t *testing.T) {
	tests := []struct {
		name      string
		revisions []string // "-" = no annotation
		max, last int64
		reason    string
	}{
		{name: "none", revisions: nil, max: 0, last: 0},
		{name: "ascending", revisions: []string{"1", "2", "3"}, max: 3, last: 2},
		{name: "descending", revisions: []string{"3", "2", "1"}, max: 3, last: 2},
		{name: "duplicated max", revisions: []string{"3", "3", "1"}, max: 3, last: 3,
			reason: "a revision equal to the highest moves the highest to second place"},
		{name: "single", revisions: []string{"5"}, max: 5, last: 0},
		{name: "missing counts as 0", revisions: []string{"-", "7"}, max: 7, last: 0},
		{name: "unparsable skipped", revisions: []string{"x", "4", "2"}, max: 4, last: 2},
		{name: "negative", revisions: []string{"-5", "-3"}, max: 0, last: 0,
			reason: "both start at 0"},
		{name: "all unparsable", revisions: []string{"", "abc"}, max: 0, last: 0},
		{name: "plus sign", revisions: []string{"+9", "10"}, max: 10, last: 9},
		{name: "strings would sort 9 after 10", revisions: []string{"10", "9"}, max: 10, last: 9,
			reason: "revisions compare as integers (upstream bug 45660)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rss := revs(tt.revisions...)
			if got := MaxRevision(rss); got != tt.max {
				t.Errorf("MaxRevision(%q) = %d, want %d (%s)", tt.revisions, got, tt.max, tt.reason)
			}
			if got := LastRevision(rss); got != tt.last {
				t.Errorf("LastRevision(%q) = %d, want %d (%s)", tt.revisions, got, tt.last, tt.reason)
			}
		})
	}
}

func TestNextRevision(t *testing.T) {
	tests := []struct {
		name      string
		revisions []string
		newRS     int
		want      int64
		reason    string
	}{
		{name: "no ReplicaSets", newRS: -1, want: 1},
		{name: "no new ReplicaSet yet", revisions: []string{"1", "2", "3"}, newRS: -1, want: 4},
		{name: "new is the highest", revisions: []string{"1", "2", "3"}, newRS: 2, want: 3,
			reason: "the new ReplicaSet's own revision is not counted"},
		{name: "rollback to an old one", revisions: []string{"1", "2", "3"}, newRS: 0, want: 4},
		{name: "index out of range", revisions: []string{"5"}, newRS: 7, want: 6},
		{name: "saturates", revisions: []string{"9223372036854775807"}, newRS: -1, want: math.MaxInt64,
			reason: "upstream would wrap to MinInt64"},
		{name: "unparsable skipped", revisions: []string{"x", "-"}, newRS: -1, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NextRevision(revs(tt.revisions...), tt.newRS); got != tt.want {
				t.Errorf("NextRevision(%q, %d) = %d, want %d (%s)", tt.revisions, tt.newRS, got, tt.want, tt.reason)
			}
		})
	}
}

func genRevision() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.Map(rapid.Int64Range(-3, 30), func(n int64) string { return strconv.FormatInt(n, 10) }),
		rapid.SampledFrom([]string{"-", "", "abc", "9223372036854775807"}),
	)
}

func TestRevisionNumbersOnlyGrow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		revisions := rapid.SliceOfN(genRevision(), 0, 6).Draw(t, "revisions")
		rss := revs(revisions...)
		newRS := rapid.IntRange(-1, len(rss)-1).Draw(t, "newRS")
		next := NextRevision(rss, newRS)
		for i := range rss {
			if i == newRS {
				continue
			}
			if v, err := Revision(rss[i].Annotations); err == nil && v >= next && v != math.MaxInt64 {
				t.Fatalf("NextRevision(%q, %d) = %d, not above old revision %d", revisions, newRS, next, v)
			}
		}
		if next < 1 {
			t.Fatalf("NextRevision(%q, %d) = %d, want at least 1", revisions, newRS, next)
		}
		// Annotating any ReplicaSet with the next revision never lowers
		// its revision.
		cur := map[string]string{}
		if newRS >= 0 {
			cur = rss[newRS].Annotations
		}
		ann, _ := NewAnnotations(AnnotationsInput{ReplicaSet: cur, Revision: strconv.FormatInt(next, 10), Exists: newRS >= 0})
		before, errBefore := Revision(cur)
		after, errAfter := Revision(ann)
		if errBefore == nil && (errAfter != nil || after < before) {
			t.Fatalf("NewAnnotations moved revision %d to %d (%v)", before, after, errAfter)
		}
		if errBefore == nil && after != max(before, next) {
			t.Fatalf("NewAnnotations: revision %d with next %d gave %d, want %d", before, next, after, max(before, next))
		}
	})
}
