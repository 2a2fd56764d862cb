package revision

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewAnnotations(t *testing.T) {
	deployment := map[string]string{
		"a":                       "1",
		RevisionAnnotation:        "3",
		RevisionHistoryAnnotation: "1",
		LastAppliedAnnotation:     "{}",
		RollbackToAnnotation:      "2",
		DesiredReplicasAnnotation: "4",
		MaxReplicasAnnotation:     "5",
	}
	tests := []struct {
		name        string
		in          AnnotationsInput
		want        map[string]string
		wantChanged bool
		reason      string
	}{
		{
			name:        "new ReplicaSet",
			in:          AnnotationsInput{Deployment: deployment, Revision: "4", Replicas: 10, MaxReplicas: 13},
			want:        map[string]string{"a": "1", RevisionAnnotation: "4", DesiredReplicasAnnotation: "10", MaxReplicasAnnotation: "13"},
			wantChanged: true,
			reason:      "only copied annotations come from the Deployment; a new ReplicaSet gets the replica annotations",
		},
		{
			name: "rollback: old revision moves to the history",
			in: AnnotationsInput{Revision: "5", Exists: true,
				ReplicaSet: map[string]string{RevisionAnnotation: "2", RevisionHistoryAnnotation: "1"}},
			want:        map[string]string{RevisionAnnotation: "5", RevisionHistoryAnnotation: "1,2"},
			wantChanged: true,
		},
		{
			name: "first history entry",
			in:   AnnotationsInput{Revision: "5", Exists: true, ReplicaSet: map[string]string{RevisionAnnotation: "2"}},
			want: map[string]string{RevisionAnnotation: "5", RevisionHistoryAnnotation: "2"}, wantChanged: true,
		},
		{
			name:        "never lowers a revision",
			in:          AnnotationsInput{Revision: "5", Exists: true, ReplicaSet: map[string]string{RevisionAnnotation: "7"}},
			want:        map[string]string{RevisionAnnotation: "7"},
			wantChanged: false,
		},
		{
			name:        "same revision",
			in:          AnnotationsInput{Revision: "7", Exists: true, ReplicaSet: map[string]string{RevisionAnnotation: "7"}},
			want:        map[string]string{RevisionAnnotation: "7"},
			wantChanged: false,
		},
		{
			name: "history capped: oldest dropped",
			in: AnnotationsInput{Revision: "14", Exists: true, HistoryLimit: 8,
				ReplicaSet: map[string]string{RevisionAnnotation: "13", RevisionHistoryAnnotation: "10,11,12"}},
			want:        map[string]string{RevisionAnnotation: "14", RevisionHistoryAnnotation: "11,12,13"},
			wantChanged: true,
			reason:      `"10,11,12,13" is 11 bytes; dropping "10," leaves 8`,
		},
		{
			name: "history cannot fit: left as it was",
			in: AnnotationsInput{Revision: "12345", Exists: true, HistoryLimit: 3,
				ReplicaSet: map[string]string{RevisionAnnotation: "1234", RevisionHistoryAnnotation: "1"}},
			want:        map[string]string{RevisionAnnotation: "12345", RevisionHistoryAnnotation: "1"},
			wantChanged: true,
			reason:      "the old revision alone is longer than the limit",
		},
		{
			name: "empty first history entry: replaced",
			in: AnnotationsInput{Revision: "9", Exists: true,
				ReplicaSet: map[string]string{RevisionAnnotation: "8", RevisionHistoryAnnotation: ",5,6"}},
			want:        map[string]string{RevisionAnnotation: "9", RevisionHistoryAnnotation: "8"},
			wantChanged: true,
			reason:      "upstream only checks the first entry for emptiness",
		},
		{
			name:        "present but empty revision: empty history",
			in:          AnnotationsInput{Revision: "3", Exists: true, ReplicaSet: map[string]string{RevisionAnnotation: ""}},
			want:        map[string]string{RevisionAnnotation: "3", RevisionHistoryAnnotation: ""},
			wantChanged: true,
			reason:      "an empty revision parses as 0, and it was present, so it enters the history",
		},
		{
			name: "unparsable revision: stop, unchanged",
			in: AnnotationsInput{Deployment: map[string]string{"a": "1"}, Revision: "5", Exists: true,
				ReplicaSet: map[string]string{RevisionAnnotation: "abc"}},
			want:        map[string]string{RevisionAnnotation: "abc", "a": "1"},
			wantChanged: false,
			reason:      "upstream has already copied a, but reports no change, so the ReplicaSet is not written",
		},
		{
			name: "unparsable new revision: stop",
			in:   AnnotationsInput{Deployment: map[string]string{"a": "1"}, Revision: "x", Replicas: 3, MaxReplicas: 4},
			want: map[string]string{"a": "1"}, wantChanged: false,
			reason: "no revision and, for a new ReplicaSet, no replica annotations either",
		},
		{
			name: "copying never deletes",
			in: AnnotationsInput{Deployment: map[string]string{"a": "1"}, Revision: "2", Exists: true,
				ReplicaSet: map[string]string{"b": "2", RevisionAnnotation: "2"}},
			want:        map[string]string{"a": "1", "b": "2", RevisionAnnotation: "2"},
			wantChanged: true,
		},
		{
			name: "copy overwrites a different value",
			in: AnnotationsInput{Deployment: map[string]string{"a": "new"}, Revision: "2", Exists: true,
				ReplicaSet: map[string]string{"a": "old", RevisionAnnotation: "2"}},
			want:        map[string]string{"a": "new", RevisionAnnotation: "2"},
			wantChanged: true,
		},
		{
			name: "nothing to do",
			in: AnnotationsInput{Deployment: map[string]string{"a": "1"}, Revision: "2", Exists: true,
				ReplicaSet: map[string]string{"a": "1", RevisionAnnotation: "2"}},
			want:        map[string]string{"a": "1", RevisionAnnotation: "2"},
			wantChanged: false,
		},
		{
			name: "existing ReplicaSet: replica annotations untouched",
			in: AnnotationsInput{Revision: "2", Exists: true, Replicas: 5, MaxReplicas: 6,
				ReplicaSet: map[string]string{RevisionAnnotation: "2", DesiredReplicasAnnotation: "1"}},
			want:        map[string]string{RevisionAnnotation: "2", DesiredReplicasAnnotation: "1"},
			wantChanged: false,
		},
		{
			name: "new ReplicaSet whose replica annotations are already right",
			in: AnnotationsInput{Revision: "1", Replicas: 5, MaxReplicas: 6,
				ReplicaSet: map[string]string{RevisionAnnotation: "1", DesiredReplicasAnnotation: "5", MaxReplicasAnnotation: "6"}},
			want:        map[string]string{RevisionAnnotation: "1", DesiredReplicasAnnotation: "5", MaxReplicasAnnotation: "6"},
			wantChanged: false,
		},
		{
			name:        "nil everything",
			in:          AnnotationsInput{Revision: "1"},
			want:        map[string]string{RevisionAnnotation: "1", DesiredReplicasAnnotation: "0", MaxReplicasAnnotation: "0"},
			wantChanged: true,
		},
		{
			name:        "negative replicas are written as they are",
			in:          AnnotationsInput{Revision: "1", Replicas: -1, MaxReplicas: -2147483639},
			want:        map[string]string{RevisionAnnotation: "1", DesiredReplicasAnnotation: "-1", MaxReplicasAnnotation: "-2147483639"},
			wantChanged: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dep0, rs0 := maps.Clone(tt.in.Deployment), maps.Clone(tt.in.ReplicaSet)
			got, changed := NewAnnotations(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("NewAnnotations(%+v) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if changed != tt.wantChanged {
				t.Errorf("NewAnnotations(%+v) changed = %v, want %v (%s)", tt.in, changed, tt.wantChanged, tt.reason)
			}
			if !maps.Equal(dep0, tt.in.Deployment) || !maps.Equal(rs0, tt.in.ReplicaSet) {
				t.Errorf("NewAnnotations(%+v) modified its input maps", tt.in)
			}
		})
	}
}

// TestNewAnnotationsHistoryGrowth replays upstream's TestAnnotationUtils:
// revisions 11 to 20 on one ReplicaSet with a 5-byte history limit.
func TestNewAnnotationsHistoryGrowth(t *testing.T) {
	ann := map[string]string{RevisionAnnotation: "1"}
	for i := 10; i < 20; i++ {
		next := fmt.Sprint(i + 1)
		ann, _ = NewAnnotations(AnnotationsInput{ReplicaSet: ann, Revision: next, Exists: true, HistoryLimit: 5})
		if ann[RevisionAnnotation] != next {
			t.Fatalf("revision %s: got revision %q", next, ann[RevisionAnnotation])
		}
		if want := fmt.Sprintf("%d,%d", i-1, i); i >= 12 && ann[RevisionHistoryAnnotation] != want {
			t.Fatalf("revision %s: history %q, want %q", next, ann[RevisionHistoryAnnotation], want)
		}
	}
}

// TestNewAnnotationsDefaultHistoryLimit checks that a zero HistoryLimit is
// the controller's 2000 bytes, and that the history never exceeds it.
func TestNewAnnotationsDefaultHistoryLimit(t *testing.T) {
	ann := map[string]string{RevisionAnnotation: "1000"}
	for r := 1001; r < 1600; r++ {
		ann, _ = NewAnnotations(AnnotationsInput{ReplicaSet: ann, Revision: fmt.Sprint(r), Exists: true})
		if h := ann[RevisionHistoryAnnotation]; len(h) > MaxHistoryChars {
			t.Fatalf("revision %d: history is %d bytes, more than %d", r, len(h), MaxHistoryChars)
		}
	}
	h := ann[RevisionHistoryAnnotation]
	// 400 four-digit entries and 399 commas make 1999 bytes.
	if got, want := strings.Count(h, ",")+1, 400; got != want || !strings.HasSuffix(h, ",1598") {
		t.Errorf("history has %d entries ending %q, want %d ending in 1598", got, h[len(h)-10:], want)
	}
}

func TestCopied(t *testing.T) {
	for _, key := range []string{LastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation} {
		if Copied(key) {
			t.Errorf("Copied(%q) = true, want false", key)
		}
	}
	for _, key := range []string{"", "a", "deployment.kubernetes.io/other", HashLabel, "kubectl.kubernetes.io/restartedAt"} {
		if !Copied(key) {
			t.Errorf("Copied(%q) = false, want true", key)
		}
	}
}

func TestRollbackAnnotations(t *testing.T) {
	deployment := map[string]string{RevisionAnnotation: "5", LastAppliedAnnotation: "{}", "a": "1", "b": "2"}
	replicaSet := map[string]string{RevisionAnnotation: "2", DesiredReplicasAnnotation: "3", "a": "9", "c": "3"}
	dep0, rs0 := maps.Clone(deployment), maps.Clone(replicaSet)
	got := RollbackAnnotations(deployment, replicaSet)
	want := map[string]string{RevisionAnnotation: "5", LastAppliedAnnotation: "{}", "a": "9", "c": "3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RollbackAnnotations mismatch (-want +got):\n%s", diff)
	}
	if !maps.Equal(dep0, deployment) || !maps.Equal(rs0, replicaSet) {
		t.Errorf("RollbackAnnotations modified its inputs")
	}
	if got := RollbackAnnotations(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("RollbackAnnotations(nil, nil) = %#v, want an empty non-nil map", got)
	}
}
