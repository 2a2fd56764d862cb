package kruiseapps_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// state is a generated CloneSet mid-update with its pods and revisions.
type state struct {
	obj       *kruise.CloneSet
	pods      []*corev1.Pod
	revisions []*appsv1.ControllerRevision
}

// drawState draws a CloneSet whose template moved from nginx:1.24 to
// nginx:1.25, with pods at either revision in various states.
func drawState(t *rapid.T) state {
	strategy := rapid.SampledFrom([]kruise.CloneSetUpdateStrategyType{
		kruise.RecreateCloneSetUpdateStrategyType, kruise.InPlaceIfPossibleCloneSetUpdateStrategyType}).Draw(t, "strategy")
	replicas := rapid.Int32Range(0, 8).Draw(t, "replicas")
	old := demo(replicas, "nginx:1.24", strategy)
	oldRev := revisionOf(old, 1)
	obj := demo(replicas, "nginx:1.25", strategy)
	mu := intstr.FromInt32(rapid.Int32Range(0, 3).Draw(t, "maxUnavailable"))
	obj.Spec.UpdateStrategy.MaxUnavailable = &mu
	if rapid.Bool().Draw(t, "surge") {
		ms := intstr.FromInt32(1)
		obj.Spec.UpdateStrategy.MaxSurge = &ms
		obj.Spec.UpdateStrategy.Type = kruise.RecreateCloneSetUpdateStrategyType
	}
	p := intstr.FromInt32(rapid.Int32Range(0, replicas).Draw(t, "partition"))
	obj.Spec.UpdateStrategy.Partition = &p
	revisions := []*appsv1.ControllerRevision{oldRev}
	newRev := revisionOf(obj, 2)
	if rapid.Bool().Draw(t, "newRevisionExists") {
		revisions = append(revisions, newRev)
	}
	obj.Status.CurrentRevision, obj.Status.UpdateRevision = oldRev.Name, oldRev.Name
	n := rapid.IntRange(0, 10).Draw(t, "pods")
	pods := runningPods(old, oldRev, n)
	for i, pod := range pods {
		pod.CreationTimestamp = metav1.NewTime(t0.Add(-time.Duration(i+1) * time.Minute))
		if len(revisions) == 2 && rapid.Bool().Draw(t, fmt.Sprintf("pods[%d].new", i)) {
			pod.Labels[cloneset.RevisionLabel] = newRev.Name
			pod.Spec.Containers = obj.Spec.Template.Spec.Containers
		}
		if !rapid.Bool().Draw(t, fmt.Sprintf("pods[%d].ready", i)) {
			pod.Status.Conditions[0].Status = corev1.ConditionFalse
		}
	}
	return state{obj: obj, pods: pods, revisions: revisions}
}

// verbOf is the verb Changes must use for each action kind.
var verbOf = map[cloneset.ActionKind]kruiseapps.Verb{
	cloneset.CreatePod: kruiseapps.VerbCreatePod, cloneset.DeletePod: kruiseapps.VerbDeletePod,
	cloneset.SetPodLifecycle: kruiseapps.VerbUpdatePod, cloneset.UpdatePodInPlace: kruiseapps.VerbUpdatePod,
	cloneset.RecreatePod: kruiseapps.VerbUpdatePod, cloneset.SetPodInPlaceUpdateReady: kruiseapps.VerbUpdatePod,
	cloneset.ApplyHeldPodUpdate: kruiseapps.VerbUpdatePod, cloneset.DropHeldPodUpdate: kruiseapps.VerbUpdatePod,
	cloneset.WriteStatus: kruiseapps.VerbUpdateCloneSetStatus, cloneset.TrimPodsToDelete: kruiseapps.VerbUpdateCloneSet,
	cloneset.DeleteRevision: kruiseapps.VerbDeleteRevision,
}

// TestChangesAgreeWithSync checks that Changes writes one change per
// action, with the verb the action's kind asks for, that every pod it
// writes reads back (through Pod) with the revision, lifecycle state and
// specified-delete mark the sync leaves that pod in, and that it modifies
// none of its inputs.
func TestChangesAgreeWithSync(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := drawState(t)
		cs, err := kruiseapps.CloneSet(st.obj)
		if err != nil {
			t.Fatal(err)
		}
		owned := kruiseapps.Owned(st.obj, st.pods)
		pods, err := kruiseapps.Pods(owned)
		if err != nil {
			t.Fatal(err)
		}
		s, err := cloneset.Plan(&cs, pods, kruiseapps.Revisions(st.revisions), t0)
		if err != nil {
			t.Fatal(err)
		}
		objBefore := st.obj.DeepCopy()
		podsBefore := make([]*corev1.Pod, len(owned))
		for i, p := range owned {
			podsBefore[i] = p.DeepCopy()
		}
		changes, err := kruiseapps.Changes(st.obj, owned, st.revisions, &s, t0)
		if err != nil {
			t.Fatalf("Changes: %v (plan: %s)", err, s.Reason)
		}
		// One change per action, and per pod of a CreatePod.
		var perChange []cloneset.Action
		for _, a := range s.Actions {
			n := int32(1)
			if a.Kind == cloneset.CreatePod {
				n = max(a.Count, 1)
			}
			for range n {
				perChange = append(perChange, a)
			}
		}
		if len(changes) != len(perChange) {
			t.Fatalf("Changes wrote %d changes for %d actions (%d with the pods of each CreatePod)", len(changes), len(s.Actions), len(perChange))
		}
		last := map[string]*corev1.Pod{}
		for i, c := range changes {
			a := perChange[i]
			want, ok := verbOf[a.Kind]
			if a.Kind == cloneset.WriteRevision {
				want, ok = kruiseapps.VerbCreateRevision, true
				if len(st.revisions) == 2 {
					want = kruiseapps.VerbUpdateRevision
				}
			}
			if !ok || c.Verb != want {
				t.Fatalf("change %d for %v is %v, want %v", i, a.Kind, c.Verb, want)
			}
			if c.Pod != nil && c.Verb != kruiseapps.VerbDeletePod {
				last[c.Pod.Name] = c.Pod
			}
		}
		after, err := s.AppendCreatedPods(slices.Clip(s.Pods))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range after {
			obj, ok := last[want.Name]
			if !ok {
				continue
			}
			got, err := kruiseapps.Pod(obj)
			if err != nil {
				t.Fatalf("Pod(written %s): %v", want.Name, err)
			}
			if got.Revision != want.Revision || got.Lifecycle != want.Lifecycle || got.SpecifiedDelete != want.SpecifiedDelete {
				t.Fatalf("written pod %s reads back as revision %q, lifecycle %q, specified-delete %v; the sync leaves it at %q, %q, %v",
					want.Name, got.Revision, got.Lifecycle, got.SpecifiedDelete, want.Revision, want.Lifecycle, want.SpecifiedDelete)
			}
			if (got.InPlaceUpdate == nil) != (want.InPlaceUpdate == nil) ||
				got.InPlaceUpdate != nil && got.InPlaceUpdate.Revision != want.InPlaceUpdate.Revision {
				t.Fatalf("written pod %s reads back with in-place state %+v; the sync leaves %+v", want.Name, got.InPlaceUpdate, want.InPlaceUpdate)
			}
		}
		if diff := cmp.Diff(objBefore, st.obj); diff != "" {
			t.Fatalf("Changes modified the CloneSet (-before +after):\n%s", diff)
		}
		for i := range owned {
			if diff := cmp.Diff(podsBefore[i], owned[i]); diff != "" {
				t.Fatalf("Changes modified pod %s (-before +after):\n%s", owned[i].Name, diff)
			}
		}
	})
}

// TestStatusRoundTrip checks that StatusObject(Status(s)) == s for every
// status kruise-api can hold (conditions have no lastUpdateTime there).
func TestStatusRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int32Range(0, 1000)
		s := kruise.CloneSetStatus{
			ObservedGeneration: rapid.Int64Range(0, 100).Draw(t, "observedGeneration"),
			Replicas:           n.Draw(t, "replicas"), ReadyReplicas: n.Draw(t, "readyReplicas"),
			AvailableReplicas: n.Draw(t, "availableReplicas"), UpdatedReplicas: n.Draw(t, "updatedReplicas"),
			UpdatedReadyReplicas: n.Draw(t, "updatedReadyReplicas"), UpdatedAvailableReplicas: n.Draw(t, "updatedAvailableReplicas"),
			ExpectedUpdatedReplicas: n.Draw(t, "expectedUpdatedReplicas"),
			UpdateRevision:          rapid.StringMatching(`(demo-[a-z0-9]{1,10})?`).Draw(t, "updateRevision"),
			CurrentRevision:         rapid.StringMatching(`(demo-[a-z0-9]{1,10})?`).Draw(t, "currentRevision"),
			LabelSelector:           rapid.SampledFrom([]string{"", "app=demo"}).Draw(t, "labelSelector"),
		}
		if rapid.Bool().Draw(t, "hasCollisionCount") {
			c := n.Draw(t, "collisionCount")
			s.CollisionCount = &c
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "conditions") {
			s.Conditions = append(s.Conditions, kruise.CloneSetCondition{
				Type:               rapid.SampledFrom([]kruise.CloneSetConditionType{"FailedScale", "FailedUpdate", "Progressing"}).Draw(t, fmt.Sprintf("conditions[%d].type", i)),
				Status:             rapid.SampledFrom([]corev1.ConditionStatus{"True", "False", "Unknown"}).Draw(t, fmt.Sprintf("conditions[%d].status", i)),
				Reason:             rapid.StringMatching(`[A-Za-z]{0,12}`).Draw(t, fmt.Sprintf("conditions[%d].reason", i)),
				Message:            rapid.String().Draw(t, fmt.Sprintf("conditions[%d].message", i)),
				LastTransitionTime: metav1.NewTime(t0.Add(time.Duration(rapid.IntRange(-1000, 1000).Draw(t, fmt.Sprintf("conditions[%d].at", i))) * time.Second)),
			})
		}
		before := *s.DeepCopy()
		mid := kruiseapps.Status(&s)
		got := kruiseapps.StatusObject(&mid)
		if diff := cmp.Diff(before, got); diff != "" {
			t.Fatalf("StatusObject(Status(s)) differs from s (-s +got):\n%s", diff)
		}
		if diff := cmp.Diff(before, s); diff != "" {
			t.Fatalf("Status modified its input (-before +after):\n%s", diff)
		}
	})
}
