package kubeapps_test

import (
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

func TestStatefulSetConvertsEveryField(t *testing.T) {
	s := webStatefulSet()
	s.DeletionTimestamp = ptr(metav1.NewTime(at))
	s.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: 4}
	s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
	mu := intstr.FromInt32(2)
	s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &mu
	s.Spec.MinReadySeconds = 7
	s.Spec.RevisionHistoryLimit = ptr(int32(-1))
	s.Status.AvailableReplicas, s.Status.UpdatedReplicas, s.Status.UpdateRevision = 2, 1, "web-84bb6ff5c6"
	got := kubeapps.StatefulSet(s)
	want := statefulset.StatefulSet[kubeapps.Template]{
		Name: "web", Namespace: "default", UID: "uid-web", Generation: 2, Deleting: true,
		Replicas: 3, Ordinals: statefulset.Ordinals{Start: 4},
		Selector:            &ownership.Selector{MatchLabels: map[string]string{"app": "web"}},
		PodManagementPolicy: statefulset.Parallel,
		UpdateStrategy: statefulset.UpdateStrategy{Type: statefulset.RollingUpdate, RollingUpdate: &statefulset.RollingUpdateStrategy{
			Partition: 2, MaxUnavailable: &intorpercent.IntOrString{Int: 2}}},
		MinReadySeconds: 7, RevisionHistoryLimit: ptr(int32(-1)),
		TemplateLabels: map[string]string{"app": "web"},
		Template:       s.Spec.Template,
		Status: statefulset.Status{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, CurrentReplicas: 3, UpdatedReplicas: 1,
			AvailableReplicas: 2, CurrentRevision: "web-6bd8cfcb95", UpdateRevision: "web-84bb6ff5c6", CollisionCount: ptr(int32(0))},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StatefulSet(s) =\n%+v\nwant\n%+v", got, want)
	}
	// Pointers are copied: the library owns what it is given.
	*got.RevisionHistoryLimit = 5
	*got.Status.CollisionCount = 9
	if *s.Spec.RevisionHistoryLimit != -1 || *s.Status.CollisionCount != 0 {
		t.Errorf("StatefulSet shares pointers with its input")
	}
}

func TestStatefulSetReadsAbsentFieldsAsDefaulted(t *testing.T) {
	s := webStatefulSet()
	s.Spec.Replicas = nil
	s.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{} // partition absent
	s.Spec.RevisionHistoryLimit = nil
	got := kubeapps.StatefulSet(s)
	if got.Replicas != 1 || got.UpdateStrategy.RollingUpdate == nil || got.UpdateStrategy.RollingUpdate.Partition != 0 ||
		got.UpdateStrategy.RollingUpdate.MaxUnavailable != nil || got.RevisionHistoryLimit != nil || got.Ordinals.Start != 0 {
		t.Errorf("StatefulSet(absent fields) = %+v", got)
	}
	s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	if got := kubeapps.StatefulSet(s).UpdateStrategy; got != (statefulset.UpdateStrategy{Type: statefulset.OnDelete}) {
		t.Errorf("StatefulSet(OnDelete).UpdateStrategy = %+v", got)
	}
	// A percentage, valid or not, is kept as written for Validate.
	for _, v := range []intstr.IntOrString{intstr.FromString("25%"), intstr.FromString("5"), intstr.FromInt32(0)} {
		s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: &v}}
		mu := kubeapps.StatefulSet(s).UpdateStrategy.RollingUpdate.MaxUnavailable
		if mu == nil || mu.IsString != (v.Type == intstr.String) || mu.Str != v.StrVal || mu.Int != v.IntVal {
			t.Errorf("maxUnavailable %s read as %+v", v.String(), mu)
		}
	}
}

func TestStatefulSetStatusRoundTrip(t *testing.T) {
	in := webStatefulSet().Status
	in.UpdatedReplicas, in.AvailableReplicas, in.UpdateRevision = 1, 2, "web-84bb6ff5c6"
	st := kubeapps.StatefulSetStatus(&in)
	back := kubeapps.StatefulSetStatusObject(&st)
	if !equality.Semantic.DeepEqual(back, in) {
		t.Errorf("StatefulSetStatusObject(StatefulSetStatus(s)) =\n%+v\nwant\n%+v", back, in)
	}
	*back.CollisionCount = 4
	if *st.CollisionCount != 0 {
		t.Errorf("StatefulSetStatusObject shares collisionCount")
	}
}

func TestStatefulSetPodReadsTheControllersFields(t *testing.T) {
	isController, notController := true, false
	since := at.Add(-time.Minute)
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "web-3", CreationTimestamp: metav1.NewTime(at.Add(-time.Hour)), DeletionTimestamp: ptr(metav1.NewTime(at)),
			Labels: map[string]string{"app": "web", appsv1.StatefulSetRevisionLabel: "web-1", appsv1.StatefulSetPodNameLabel: "web-9"},
			OwnerReferences: []metav1.OwnerReference{
				{Kind: "ConfigMap", UID: "uid-other", Controller: &notController},
				{Kind: "StatefulSet", UID: "uid-web", Controller: &isController},
			},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at.Add(-2 * time.Hour))},
			{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(since)},
		}},
	}
	got := kubeapps.StatefulSetPod(p)
	want := statefulset.Pod{Name: "web-3", Revision: "web-1", PodNameLabel: "web-9", Labels: p.Labels, ControllerUID: "uid-web",
		Phase: statefulset.PodRunning, Ready: false, ReadySince: since, Terminating: true, CreationTime: at.Add(-time.Hour)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StatefulSetPod =\n%+v\nwant\n%+v", got, want)
	}
	// An orphan without labels or conditions: nothing is invented.
	bare := kubeapps.StatefulSetPod(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0"}, Status: corev1.PodStatus{Phase: corev1.PodPending}})
	if !reflect.DeepEqual(bare, statefulset.Pod{Name: "web-0", Phase: statefulset.PodPending}) {
		t.Errorf("StatefulSetPod(bare) = %+v", bare)
	}
}

func TestStatefulSetRevisionObjectHoldsWhatTheControllerWrites(t *testing.T) {
	s := webStatefulSet()
	data, err := kubeapps.StatefulSetRevisionData(s)
	if err != nil {
		t.Fatal(err)
	}
	rev := statefulset.ControllerRevision{Name: "web-6bd8cfcb95", Number: 3, Hash: "6bd8cfcb95", Data: data}
	obj := kubeapps.StatefulSetRevisionObject(s, &rev)
	back := kubeapps.StatefulSetRevisions([]*appsv1.ControllerRevision{obj})
	if len(back) != 1 || !reflect.DeepEqual(back[0], rev) {
		t.Errorf("StatefulSetRevisions(StatefulSetRevisionObject(rev)) = %+v, want %+v", back, rev)
	}
	ref := obj.OwnerReferences[0]
	if ref.APIVersion != "apps/v1" || ref.Kind != "StatefulSet" || ref.Name != "web" || ref.UID != "uid-web" || !*ref.Controller || !*ref.BlockOwnerDeletion {
		t.Errorf("owner reference %+v", ref)
	}
	obj.Data.Raw[0] = 'X'
	obj.Labels["app"] = "changed"
	if rev.Data[0] == 'X' || s.Spec.Template.Labels["app"] == "changed" {
		t.Errorf("StatefulSetRevisionObject shares data or labels with its inputs")
	}
	if _, err := kubeapps.StatefulSetRevisionData(nil); err == nil || err.Error() != "kubeapps: nil StatefulSet" {
		t.Errorf("StatefulSetRevisionData(nil) error = %v", err)
	}
}
