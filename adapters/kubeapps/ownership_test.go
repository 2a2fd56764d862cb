package kubeapps

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutmath/rolloutmath/ownership"
)

// TestReleasePatchUpstreamCases: controller_ref_manager_test's
// TestGeneratePatchBytesForDelete cases with one owner and no finalizers,
// the shape ReleaseReplicaSet sends.
func TestReleasePatchUpstreamCases(t *testing.T) {
	tests := []struct {
		name             string
		owner, dependent types.UID
		want             string
	}{
		{name: "check the structure of patch bytes", owner: "ss1", dependent: "ss2", want: `{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}`},
		{name: "check if parent uid is escaped", owner: `ss1"hello`, dependent: "ss2", want: `{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1\"hello"}]}}`},
		{name: "check if revision uid uid is escaped", owner: "ss1", dependent: `ss2"hello`, want: `{"metadata":{"uid":"ss2\"hello","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}`},
	}
	for _, tt := range tests {
		d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{UID: tt.owner}}
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{UID: tt.dependent}}
		p, err := ReleasePatch(d, rs)
		if err != nil || string(p.Data) != tt.want || p.Type != types.StrategicMergePatchType {
			t.Errorf("%s: ReleasePatch = %s (%s), %v; want %s", tt.name, p.Data, p.Type, err, tt.want)
		}
	}
}

func TestSelectorKeepsNilAndEmptyApart(t *testing.T) {
	if s := Selector(&metav1.LabelSelector{}); s == nil || s.MatchLabels != nil || s.MatchExpressions != nil {
		t.Errorf("Selector(empty) = %+v, want non-nil with nil fields", s)
	}
	if s := Selector(&metav1.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []metav1.LabelSelectorRequirement{}}); s.MatchLabels == nil || s.MatchExpressions == nil {
		t.Errorf("Selector(empty map and slice) = %+v, want them non-nil", s)
	}
}

func TestClaimPatchesRejectsBadIndexes(t *testing.T) {
	_, err := ClaimPatches(&appsv1.Deployment{}, nil, ownership.Claims{Adopt: []int{0}})
	if err == nil || err.Error() != "kubeapps: claim index 0 out of range for 0 ReplicaSets" {
		t.Errorf("ClaimPatches(bad index) error = %v", err)
	}
}
