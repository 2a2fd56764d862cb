package ownership

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The fixtures of deployment_controller_test: Deployments foo and bar
// selecting foo=bar, ReplicaSets named after them.
func routeFixture() []Controller {
	sel := &Selector{MatchLabels: map[string]string{"foo": "bar"}}
	return []Controller{
		{Namespace: "default", Name: "foo", UID: "uid-foo", Selector: sel},
		{Namespace: "default", Name: "bar", UID: "uid-bar", Selector: sel},
	}
}

func rsOf(d *Controller, name, rv string) Object {
	o := Object{Namespace: "default", Name: name, UID: "uid-" + name, ResourceVersion: rv, Labels: map[string]string{"foo": "bar"}}
	if d != nil {
		o.OwnerReferences = ref(KindDeployment, d.Name, d.UID)
	}
	return o
}

func TestRoutingUpstreamCases(t *testing.T) {
	ds := routeFixture()
	foo, bar := &ds[0], &ds[1]
	relabelled := rsOf(nil, "rs", "2")
	relabelled.Labels = map[string]string{"foo": "bar", "new": "label"}
	thirdSelector := append(routeFixture(), Controller{Namespace: "default", Name: "baz", UID: "uid-baz", Selector: &Selector{MatchLabels: map[string]string{"baz": "qux"}}})
	otherNS := append(routeFixture(), Controller{Namespace: "other", Name: "foo", UID: "uid-foo2", Selector: foo.Selector})
	deleting := rsOf(foo, "foo-1", "1")
	deleting.Deleting = true
	kindRS := rsOf(nil, "x", "1")
	kindRS.OwnerReferences = ref(KindReplicaSet, "foo", "uid-foo")
	tests := []struct {
		name   string
		woken  func() ([]int, error)
		want   []int
		reason string
	}{
		{name: "TestAddReplicaSet foo", woken: func() ([]int, error) { return ReplicaSetAdded(&[]Object{rsOf(foo, "foo-1", "1")}[0], ds) }, want: []int{0}},
		{name: "TestAddReplicaSet bar", woken: func() ([]int, error) { return ReplicaSetAdded(&[]Object{rsOf(bar, "bar-1", "1")}[0], ds) }, want: []int{1}},
		{name: "TestAddReplicaSetOrphan", woken: func() ([]int, error) { return ReplicaSetAdded(&[]Object{rsOf(nil, "orphan", "1")}[0], thirdSelector) }, want: []int{0, 1}, reason: "baz selects baz=qux"},
		{name: "orphan wakes only its namespace", woken: func() ([]int, error) { return ReplicaSetAdded(&[]Object{rsOf(nil, "orphan", "1")}[0], otherNS) }, want: []int{0, 1}},
		{name: "added while being deleted acts as a delete", woken: func() ([]int, error) { return ReplicaSetAdded(&deleting, ds) }, want: []int{0}},
		{name: "wrong kind resolves to nothing", woken: func() ([]int, error) { return ReplicaSetAdded(&kindRS, ds) }, want: nil},
		{name: "TestUpdateReplicaSet", woken: func() ([]int, error) {
			return ReplicaSetUpdated(&[]Object{rsOf(foo, "foo-1", "1")}[0], &[]Object{rsOf(foo, "foo-1", "2")}[0], ds)
		}, want: []int{0}},
		{name: "resync: same resource version", woken: func() ([]int, error) {
			return ReplicaSetUpdated(&[]Object{rsOf(foo, "foo-1", "1")}[0], &[]Object{rsOf(foo, "foo-1", "1")}[0], ds)
		}, want: nil},
		{name: "TestUpdateReplicaSetOrphanWithNewLabels", woken: func() ([]int, error) {
			return ReplicaSetUpdated(&[]Object{rsOf(nil, "rs", "1")}[0], &relabelled, ds)
		}, want: []int{0, 1}},
		{name: "orphan update without label or reference change", woken: func() ([]int, error) {
			return ReplicaSetUpdated(&[]Object{rsOf(nil, "rs", "1")}[0], &[]Object{rsOf(nil, "rs", "2")}[0], ds)
		}, want: nil},
		{name: "TestUpdateReplicaSetChangeControllerRef", woken: func() ([]int, error) {
			return ReplicaSetUpdated(&[]Object{rsOf(bar, "rs", "1")}[0], &[]Object{rsOf(foo, "rs", "2")}[0], ds)
		}, want: []int{0, 1}},
		{name: "TestUpdateReplicaSetRelease", woken: func() ([]int, error) {
			return ReplicaSetUpdated(&[]Object{rsOf(foo, "rs", "1")}[0], &[]Object{rsOf(nil, "rs", "2")}[0], ds)
		}, want: []int{0, 1}, reason: "the old owner, and every Deployment selecting the new orphan"},
		{name: "TestDeleteReplicaSet", woken: func() ([]int, error) { return ReplicaSetDeleted(&[]Object{rsOf(foo, "foo-1", "1")}[0], ds) }, want: []int{0}},
		{name: "TestDeleteReplicaSetOrphan", woken: func() ([]int, error) { return ReplicaSetDeleted(&[]Object{rsOf(nil, "rs", "1")}[0], ds) }, want: nil},
	}
	for _, tt := range tests {
		got, err := tt.woken()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: woken mismatch (-want +got) (%s):\n%s", tt.name, tt.reason, diff)
		}
	}
}

func TestPodDeletedUpstreamCases(t *testing.T) {
	ds := routeFixture()[:1]
	ds[0].Recreate = true
	foo := &ds[0]
	rs1, rs2 := rsOf(foo, "foo-1", "1"), rsOf(foo, "foo-2", "1")
	podOf := func(rs Object, name string) Object {
		return Object{Namespace: "default", Name: name, UID: "uid-" + name, OwnerReferences: ref(KindReplicaSet, rs.Name, rs.UID)}
	}
	pod := podOf(rs1, "p1")
	orphanRS2 := rs2
	orphanRS2.OwnerReferences = nil
	rolling := routeFixture()[:1]
	tests := []struct {
		name string
		rss  []Object
		pods []Object
		ds   []Controller
		want []int
	}{
		{name: "TestPodDeletionEnqueuesRecreateDeployment", rss: []Object{rs1}, ds: ds, want: []int{0}},
		{name: "TestPodDeletionDoesntEnqueueRecreateDeployment", rss: nil, pods: []Object{pod, podOf(rs1, "p2")}, ds: ds, want: nil},
		{name: "TestPodDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment", rss: []Object{rs1, orphanRS2}, ds: ds, want: []int{0}},
		{name: "TestPodDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment", rss: []Object{rs1, orphanRS2}, pods: []Object{pod}, ds: ds, want: nil},
		{name: "a pod of another owned ReplicaSet keeps Recreate waiting", rss: []Object{rs1, rs2}, pods: []Object{podOf(rs2, "p3")}, ds: ds, want: nil},
		{name: "RollingUpdate is never woken by a pod deletion", rss: []Object{rs1}, ds: rolling, want: nil},
	}
	for _, tt := range tests {
		got, err := PodDeleted(&pod, tt.rss, tt.pods, tt.ds)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: PodDeleted mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestRoutingErrors(t *testing.T) {
	dup := []Controller{{Namespace: "a", Name: "x"}, {Namespace: "a", Name: "x"}}
	if _, err := ReplicaSetAdded(&Object{}, dup); err == nil || err.Error() != "ownership: two Deployments named a/x" {
		t.Errorf("ReplicaSetAdded(duplicate Deployments) error = %v", err)
	}
	if _, err := ReplicaSetUpdated(nil, &Object{}, nil); err == nil {
		t.Error("ReplicaSetUpdated(nil old) returned no error")
	}
	if _, err := ReplicaSetDeleted(nil, nil); err == nil {
		t.Error("ReplicaSetDeleted(nil) returned no error")
	}
	if _, err := PodDeleted(nil, nil, nil, nil); err == nil {
		t.Error("PodDeleted(nil) returned no error")
	}
}

// TestPodDeletedNilSelectorListsEverything: upstream lists the Recreate
// Deployment's ReplicaSets with its selector's string form, "" for a nil
// selector, which lists them all: a pod of a controlled ReplicaSet keeps
// the Deployment waiting even though a nil selector matches nothing.
func TestPodDeletedNilSelectorListsEverything(t *testing.T) {
	ds := []Controller{{Namespace: "default", Name: "foo", UID: "uid-foo", Recreate: true}}
	rs := rsOf(&ds[0], "foo-1", "1")
	pod := func(name string) Object {
		return Object{Namespace: "default", Name: name, UID: "uid-" + name, OwnerReferences: ref(KindReplicaSet, rs.Name, rs.UID)}
	}
	got, err := PodDeleted(&[]Object{pod("p1")}[0], []Object{rs}, []Object{pod("p2")}, ds)
	if err != nil || len(got) != 0 {
		t.Errorf("PodDeleted with a pod left = %v, %v; want none", got, err)
	}
	got, err = PodDeleted(&[]Object{pod("p1")}[0], []Object{rs}, nil, ds)
	if err != nil || !cmp.Equal(got, []int{0}) {
		t.Errorf("PodDeleted with no pod left = %v, %v; want [0]", got, err)
	}
}
