package ownership

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var production = &Selector{MatchLabels: map[string]string{"type": "production"}}

func ref(kind, name, uid string) []OwnerReference {
	return []OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: true, BlockOwnerDeletion: true}}
}

func obj(name, typ string, owner []OwnerReference) Object {
	return Object{Namespace: "default", Name: name, UID: "uid-" + name, Labels: map[string]string{"type": typ}, OwnerReferences: owner}
}

// TestClaimAllUpstreamCases holds controller_ref_manager_test's TestClaimPods
// cases, played with ReplicaSets (the same ClaimObject decides both).
func TestClaimAllUpstreamCases(t *testing.T) {
	mine := ref("Deployment", "d", "123")
	other := ref("Deployment", "d2", "AAAAA")
	deleting := func(o Object) Object { o.Deleting = true; return o }
	tests := []struct {
		name                  string
		c                     Controller
		objs                  []Object
		owned, adopt, release []int
	}{
		{name: "Claim pods with correct label", c: Controller{Namespace: "default", Selector: production},
			objs: []Object{obj("pod1", "production", nil), obj("pod2", "test", nil)}, owned: []int{0}, adopt: []int{0}},
		{name: "Controller marked for deletion can not claim pods", c: Controller{Namespace: "default", UID: "123", Selector: production, Deleting: true},
			objs: []Object{obj("pod1", "production", nil), obj("pod2", "production", nil)}},
		{name: "Controller marked for deletion can not claim new pods", c: Controller{Namespace: "default", UID: "123", Selector: production, Deleting: true},
			objs: []Object{obj("pod1", "production", mine), obj("pod2", "production", nil)}, owned: []int{0}},
		{name: "Controller can not claim pods owned by another controller", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{obj("pod1", "production", mine), obj("pod2", "production", other)}, owned: []int{0}},
		{name: "Controller releases claimed pods when selector doesn't match", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{obj("pod1", "production", mine), obj("pod2", "test", mine)}, owned: []int{0}, release: []int{1}},
		{name: "Controller does not claim orphaned pods marked for deletion", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{deleting(obj("pod1", "production", mine)), deleting(obj("pod2", "production", nil))}, owned: []int{0}},
		{name: "Controller claims or release pods according to selector", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{obj("pod1", "production", mine), obj("pod2", "test", mine), obj("pod3", "production", nil)}, owned: []int{0, 2}, adopt: []int{2}, release: []int{1}},
		{name: "Controller does not claim pods of different namespace", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{obj("pod1", "production", nil), func() Object { o := obj("pod2", "production", nil); o.Namespace = "fakens"; return o }()}, owned: []int{0}, adopt: []int{0}},
		{name: "Cluster scoped controller claims pods of specified namespace", c: Controller{UID: "123", Selector: production},
			objs: []Object{obj("pod1", "production", nil), func() Object { o := obj("pod2", "production", nil); o.Namespace = "fakens"; return o }()}, owned: []int{0, 1}, adopt: []int{0, 1}},
		// deployment_controller_test's TestGetReplicaSetsForDeploymentAdoptRelease:
		// an orphan matching the selector is adopted, an owned one whose
		// labels changed is released.
		{name: "deployment adopts a matching orphan and releases a relabelled ReplicaSet", c: Controller{Namespace: "default", Name: "foo", UID: "123", Selector: production},
			objs: []Object{obj("rs1", "production", nil), obj("rs2", "other", mine)}, owned: []int{0}, adopt: []int{0}, release: []int{1}},
		{name: "a reference with the controller's UID counts whatever its kind and name", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{obj("rs1", "production", ref("StatefulSet", "x", "123"))}, owned: []int{0}},
		{name: "a nil selector releases everything the controller owns", c: Controller{Namespace: "default", UID: "123"},
			objs: []Object{obj("rs1", "production", mine), obj("rs2", "production", nil)}, release: []int{0}},
		{name: "a non-controller owner reference leaves the object an orphan", c: Controller{Namespace: "default", UID: "123", Selector: production},
			objs: []Object{obj("rs1", "production", []OwnerReference{{Kind: "Deployment", UID: "AAAAA"}})}, owned: []int{0}, adopt: []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ClaimAll(&tt.c, tt.objs, nil)
			if err != nil {
				t.Fatalf("ClaimAll: %v", err)
			}
			want := [3][]int{tt.owned, tt.adopt, tt.release}
			if diff := cmp.Diff(want, [3][]int{got.Owned, got.Adopt, got.Release}); diff != "" {
				t.Errorf("ClaimAll owned/adopt/release mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClaimObjectRecheckRefusesAdoptionOnly(t *testing.T) {
	c := Controller{Namespace: "default", Name: "d", UID: "123", Selector: production}
	objs := []Object{obj("keep", "production", ref("Deployment", "d", "123")), obj("adopt", "production", nil), obj("release", "test", ref("Deployment", "d", "123"))}
	for _, r := range []*Recheck{{Gone: true}, {UID: "456"}, {UID: "123", Deleting: true}} {
		got, err := ClaimAll(&c, objs, r)
		if !errors.Is(err, ErrAdoptionRefused) {
			t.Errorf("ClaimAll with recheck %+v: error %v, want ErrAdoptionRefused", *r, err)
		}
		want := Claims{Claims: got.Claims, Owned: []int{0}, Release: []int{2}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ClaimAll with recheck %+v mismatch (-want +got):\n%s", *r, diff)
		}
		if got.Claims[1].Decision != Ignore {
			t.Errorf("ClaimAll with recheck %+v: orphan decision %v, want Ignore", *r, got.Claims[1].Decision)
		}
	}
	// A recheck that finds the controller unchanged allows the adoption.
	got, err := ClaimAll(&c, objs, &Recheck{UID: "123"})
	if err != nil || !cmp.Equal(got.Adopt, []int{1}) {
		t.Errorf("ClaimAll with an unchanged recheck = %v, %v; want adopt [1]", got.Adopt, err)
	}
}

func TestClaimErrors(t *testing.T) {
	bad := &Controller{Namespace: "ns", Name: "d", Selector: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}}}
	if _, err := ClaimAll(bad, nil, nil); err == nil || err.Error() != `deployment ns/d has invalid label selector: "Gt" is not a valid label selector operator` || !errors.Is(err, ErrInvalidSelector) {
		t.Errorf("ClaimAll(invalid selector) error = %v", err)
	}
	if _, err := ClaimAll(nil, nil, nil); err == nil {
		t.Error("ClaimAll(nil controller) returned no error")
	}
	if _, err := ClaimObject(&Controller{}, nil, nil); err == nil {
		t.Error("ClaimObject(nil object) returned no error")
	}
	if _, err := ClaimObject(bad, &Object{}, nil); !errors.Is(err, ErrInvalidSelector) {
		t.Errorf("ClaimObject(invalid selector) error = %v", err)
	}
}
