package rollout

import (
	"errors"
	"testing"

	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// withAnn returns r with the given annotations (key, value pairs).
func withAnn(r ReplicaSet[tmpl], kv ...string) ReplicaSet[tmpl] {
	r.Annotations = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		r.Annotations[kv[i]] = kv[i+1]
	}
	return r
}

// TestPlanRejectsDuplicateNames is issue 12 case 6: two ReplicaSets with
// one name made Plan scale one ReplicaSet down twice and Simulate report
// more available pods than replicas. Both now refuse the input.
func TestPlanRejectsDuplicateNames(t *testing.T) {
	d := dep(10, nil, nil)
	nw := withAnn(rs("web-new", 1, 5, 5), revision.RevisionAnnotation, "2", revision.DesiredReplicasAnnotation, "10", revision.MaxReplicasAnnotation, "13")
	nw.Template = d.Template
	old := withAnn(rs("web-old", 10, 8, 8), revision.RevisionAnnotation, "1", revision.DesiredReplicasAnnotation, "10", revision.MaxReplicasAnnotation, "13")
	oldAgain := old
	oldAgain.CreationTime = old.CreationTime.Add(1)
	newNamedOld := nw
	newNamedOld.Name = "web-old"
	for _, tt := range []struct {
		name    string
		rss     []ReplicaSet[tmpl]
		wantErr string
		reason  string
	}{
		{
			name:    "the same old ReplicaSet listed twice",
			rss:     []ReplicaSet[tmpl]{old, nw, old},
			wantErr: `rollout: rss[2].Name: "web-old" duplicates rss[0].Name`,
			reason:  "the issue's case: two contradictory scale-downs of one ReplicaSet",
		},
		{
			name:    "two old ReplicaSets with one name and different creation times",
			rss:     []ReplicaSet[tmpl]{oldAgain, old, nw},
			wantErr: `rollout: rss[1].Name: "web-old" duplicates rss[0].Name`,
			reason:  "the name alone identifies a ReplicaSet in a namespace",
		},
		{
			name:    "the new ReplicaSet named like an old one",
			rss:     []ReplicaSet[tmpl]{old, newNamedOld},
			wantErr: `rollout: rss[1].Name: "web-old" duplicates rss[0].Name`,
			reason:  "templates differ, names do not",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Plan(d, tt.rss, t0)
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("Plan(%s) error = %v, want %q (%s)", tt.name, err, tt.wantErr, tt.reason)
			}
			if !errors.Is(err, ErrInvalid) || !errors.Is(err, proportion.ErrDuplicate) {
				t.Errorf("Plan(%s) error %v does not wrap ErrInvalid and proportion.ErrDuplicate", tt.name, err)
			}
			tr, err := Simulate(d, tt.rss, Config[tmpl]{Start: t0})
			if err == nil || err.Error() != tt.wantErr || !errors.Is(err, proportion.ErrDuplicate) {
				t.Fatalf("Simulate(%s) error = %v, want %q wrapping proportion.ErrDuplicate", tt.name, err, tt.wantErr)
			}
			if len(tr.Steps) != 0 || tr.Outcome != 0 {
				t.Errorf("Simulate(%s) ran %d steps, outcome %v; want none", tt.name, len(tr.Steps), tr.Outcome)
			}
		})
	}
}
