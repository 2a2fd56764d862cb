package kruiseapps_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func TestCloneSetConvertsEveryField(t *testing.T) {
	obj := demo(5, "nginx:1.25", kruise.InPlaceOnlyCloneSetUpdateStrategyType)
	now := metav1.NewTime(t0)
	obj.DeletionTimestamp = &now
	obj.Labels = map[string]string{cloneset.ExcludePreparingDeleteLabel: "true"}
	limit := int32(3)
	obj.Spec.RevisionHistoryLimit = &limit
	obj.Spec.MinReadySeconds = 7
	part, surge, smu := intstr.FromString("40%"), intstr.FromString("25"), intstr.FromInt32(2)
	u := &obj.Spec.UpdateStrategy
	u.Partition, u.MaxSurge, u.Paused = &part, &surge, true
	u.PriorityStrategy = &appspub.UpdatePriorityStrategy{OrderPriority: []appspub.UpdatePriorityOrderTerm{{OrderedKey: "rank"}}}
	u.ScatterStrategy = kruise.UpdateScatterStrategy{{Key: "zone", Value: "a"}}
	u.InPlaceUpdateStrategy = &appspub.InPlaceUpdateStrategy{GracePeriodSeconds: 9}
	obj.Spec.ScaleStrategy = kruise.CloneSetScaleStrategy{PodsToDelete: []string{"demo-x"}, MaxUnavailable: &smu}
	obj.Spec.Lifecycle = &appspub.Lifecycle{PreDelete: &appspub.LifecycleHook{FinalizersHandler: []string{"f"}, MarkPodNotReady: true},
		InPlaceUpdate: &appspub.LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
	cc := int32(2)
	obj.Status = kruise.CloneSetStatus{ObservedGeneration: 1, Replicas: 5, UpdateRevision: "demo-b", CurrentRevision: "demo-a", CollisionCount: &cc,
		Conditions: []kruise.CloneSetCondition{{Type: "FailedUpdate", Status: "True", Reason: "r", Message: "m", LastTransitionTime: now}}}
	before := obj.DeepCopy()
	got, err := kruiseapps.CloneSet(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneset.CloneSet[kruiseapps.Template]{
		Name: "demo", Generation: 2, Deleting: true, Labels: obj.Labels, Replicas: 5, MinReadySeconds: 7, RevisionHistoryLimit: &limit,
		UpdateStrategy: cloneset.UpdateStrategy{Type: cloneset.InPlaceOnly,
			Partition:      &intorpercent.IntOrString{IsString: true, Str: "40%"},
			MaxUnavailable: &intorpercent.IntOrString{Int: 1},
			MaxSurge:       &intorpercent.IntOrString{IsString: true, Str: "25"},
			Paused:         true, PriorityStrategy: &cloneset.PriorityStrategy{OrderPriority: []cloneset.OrderTerm{{OrderedKey: "rank"}}},
			ScatterStrategy: []cloneset.ScatterTerm{{Key: "zone", Value: "a"}}, InPlaceGracePeriodSeconds: 9},
		ScaleStrategy: cloneset.ScaleStrategy{PodsToDelete: []string{"demo-x"}, MaxUnavailable: &intorpercent.IntOrString{Int: 2}},
		Lifecycle: &cloneset.Lifecycle{PreDelete: &cloneset.LifecycleHook{FinalizersHandler: []string{"f"}, MarkPodNotReady: true},
			InPlaceUpdate: &cloneset.LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}},
		Template: obj.Spec.Template,
		Status: cloneset.Status{ObservedGeneration: 1, Replicas: 5, UpdateRevision: "demo-b", CurrentRevision: "demo-a", CollisionCount: &cc,
			Conditions: []cloneset.Condition{{Type: "FailedUpdate", Status: "True", Reason: "r", Message: "m", LastUpdateTime: t0, LastTransitionTime: t0}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CloneSet mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, obj); diff != "" {
		t.Errorf("CloneSet modified its input (-before +after):\n%s", diff)
	}
	obj.Spec.UpdateStrategy.PriorityStrategy = newWeight("In")
	got, err = kruiseapps.CloneSet(obj)
	wantWeight := []cloneset.WeightTerm{{Weight: 50, MatchSelector: cloneset.LabelSelector{
		MatchExpressions: []cloneset.LabelSelectorRequirement{{Key: "zone", Operator: ownership.In, Values: []string{"a"}}}}}}
	if err != nil || !cmp.Equal(wantWeight, got.UpdateStrategy.PriorityStrategy.WeightPriority) {
		t.Errorf("weight priority = %+v, %v; want %+v", got.UpdateStrategy.PriorityStrategy, err, wantWeight)
	}
}

func TestPodReadsKruisesFields(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	since := metav1.NewTime(t0.Add(-time.Minute))
	gone := metav1.NewTime(t0)
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "demo-a", CreationTimestamp: since, DeletionTimestamp: &gone, Finalizers: []string{"f"},
			Labels: map[string]string{cloneset.RevisionLabel: "demo-1", cloneset.LifecycleStateLabel: "PreparingDelete",
				cloneset.SpecifiedDeleteLabel: "false"},
			Annotations: map[string]string{cloneset.DeletionCostAnnotation: "+3",
				// kruise's old keys, read when the new ones are absent
				"inplace-update-state": `{"revision":"demo-1","updateTimestamp":"2026-01-02T03:04:05Z"}`,
				"inplace-update-grace": `{"revision":"demo-1","graceSeconds":30}`}},
		Spec: corev1.PodSpec{NodeName: "n", InitContainers: []corev1.Container{{Name: "proxy", RestartPolicy: &always}, {Name: "init"}},
			Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: since},
				{Type: "InPlaceUpdateReady", Status: corev1.ConditionFalse}},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "main", RestartCount: 4}, {Name: "other", RestartCount: 2}},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "proxy", RestartCount: 3}, {Name: "init", RestartCount: 9}}},
	}
	got, err := kruiseapps.Pod(p)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneset.Pod{Name: "demo-a", Revision: "demo-1", Labels: p.Labels, Finalizers: []string{"f"}, Phase: cloneset.PodRunning,
		NodeName: "n", Ready: true, ReadySince: since.Time, CreationTime: since.Time, Restarts: 4, SidecarRestarts: 3,
		DeletionCost: "+3", Lifecycle: cloneset.PreparingDelete, SpecifiedDelete: true, Terminating: true,
		InPlaceUpdateReady: cloneset.ConditionFalse,
		InPlaceUpdate:      &cloneset.InPlaceUpdateState{Revision: "demo-1", UpdateTime: t0, Done: true},
		InPlaceUpdateGrace: &cloneset.InPlaceUpdateGrace{Revision: "demo-1", GraceSeconds: 30}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pod mismatch (-want +got):\n%s", diff)
	}
}

// TestPodInPlaceUpdateDone holds the cases of kruise's default
// completion check (defaultCheckContainersInPlaceUpdateCompleted).
func TestPodInPlaceUpdateDone(t *testing.T) {
	tests := []struct {
		name     string
		state    string
		image    string // the spec's image
		statuses []corev1.ContainerStatus
		want     bool
		reason   string
	}{
		{name: "new imageID", state: `{"revision":"r","lastContainerStatuses":{"main":{"imageID":"id1"}}}`, image: "nginx:1.25",
			statuses: []corev1.ContainerStatus{{Name: "main", Image: "nginx:1.24", ImageID: "id2"}}, want: true},
		{name: "same imageID, old image", state: `{"revision":"r","lastContainerStatuses":{"main":{"imageID":"id1"}}}`, image: "nginx:1.25",
			statuses: []corev1.ContainerStatus{{Name: "main", Image: "nginx:1.24", ImageID: "id1"}}, want: false,
			reason: "the container has not restarted"},
		{name: "same imageID, the spec's image", state: `{"revision":"r","lastContainerStatuses":{"main":{"imageID":"id1"}}}`, image: "nginx:1.25",
			statuses: []corev1.ContainerStatus{{Name: "main", Image: "nginx:1.25", ImageID: "id1"}}, want: true,
			reason: "kruise assumes the new tag may share the old image"},
		{name: "untagged spec image reads as :latest", state: `{"revision":"r","lastContainerStatuses":{"main":{"imageID":"id1"}}}`, image: "nginx",
			statuses: []corev1.ContainerStatus{{Name: "main", Image: "nginx:latest", ImageID: "id1"}}, want: true},
		{name: "no status for a recorded container", state: `{"revision":"r","lastContainerStatuses":{"main":{"imageID":"id1"}}}`, image: "nginx:1.25",
			want: false, reason: "kruise: not found statuses of containers"},
		{name: "a next batch pending", state: `{"revision":"r","nextContainerImages":{"main":"nginx:1.26"}}`, image: "nginx:1.25",
			want: false},
		{name: "nothing recorded", state: `{"revision":"r"}`, image: "nginx:1.25", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Annotations: map[string]string{cloneset.InPlaceUpdateStateAnnotation: tt.state}},
				Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: tt.image}}},
				Status: corev1.PodStatus{ContainerStatuses: tt.statuses}}
			got, err := kruiseapps.Pod(p)
			if err != nil {
				t.Fatal(err)
			}
			if got.InPlaceUpdate == nil || got.InPlaceUpdate.Done != tt.want {
				t.Errorf("Pod(%s).InPlaceUpdate = %+v, want Done %v (%s)", tt.state, got.InPlaceUpdate, tt.want, tt.reason)
			}
		})
	}
}

func TestOwnedWithoutUID(t *testing.T) {
	cs := demo(2, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	pods := runningPods(cs, revisionOf(cs, 1), 2)
	cs.UID = "" // a manifest: pods are matched by owner kind and name
	other := pods[1].DeepCopy()
	other.Name, other.Namespace = "demo-elsewhere", "other"
	var names []string
	for _, p := range kruiseapps.Owned(cs, append(pods, other, nil)) {
		names = append(names, p.Name)
	}
	if diff := cmp.Diff([]string{"demo-a", "demo-b"}, names); diff != "" {
		t.Errorf("Owned mismatch (-want +got):\n%s", diff)
	}
}
