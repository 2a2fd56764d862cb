package kruiseapps_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// plan converts obj, pods and revisions, plans one reconcile at t0 and
// returns the changes.
func plan(t *testing.T, obj *kruise.CloneSet, pods []*corev1.Pod, revisions []*appsv1.ControllerRevision) (cloneset.Sync[kruiseapps.Template], []kruiseapps.Change) {
	t.Helper()
	cs, err := kruiseapps.CloneSet(obj)
	if err != nil {
		t.Fatal(err)
	}
	owned := kruiseapps.Owned(obj, pods)
	converted, err := kruiseapps.Pods(owned)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cloneset.Plan(&cs, converted, kruiseapps.Revisions(revisions), t0)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := kruiseapps.Changes(obj, owned, revisions, &s, t0)
	if err != nil {
		t.Fatal(err)
	}
	return s, changes
}

func TestChangesCreatePodsAsKruiseDoes(t *testing.T) {
	obj := demo(2, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	obj.Spec.Template.Annotations = map[string]string{"team": "web"}
	obj.Spec.Template.Finalizers = []string{"example.com/keep"}
	rev := revisionOf(obj, 1)
	s, changes := plan(t, obj, nil, []*appsv1.ControllerRevision{rev})
	var created []*corev1.Pod
	for _, c := range changes {
		if c.Verb == kruiseapps.VerbCreatePod {
			created = append(created, c.Pod)
		}
	}
	if len(created) != 2 {
		t.Fatalf("Changes created %d pods, want 2 (plan: %s)", len(created), s.Reason)
	}
	for _, p := range created {
		id, ok := strings.CutPrefix(p.Name, "demo-")
		if !ok || len(id) != 5 {
			t.Errorf("created pod name %q, want demo- and a five-character id", p.Name)
		}
		wantLabels := map[string]string{
			"app":                                 "demo",
			"controller-revision-hash":            rev.Name,
			"pod-template-hash":                   strings.TrimPrefix(rev.Name, "demo-"),
			"apps.kruise.io/cloneset-instance-id": id,
			"lifecycle.apps.kruise.io/state":      "PreparingNormal",
		}
		if diff := cmp.Diff(wantLabels, p.Labels); diff != "" {
			t.Errorf("labels of created pod %s (-want +got):\n%s", p.Name, diff)
		}
		wantAnnotations := map[string]string{"team": "web", "lifecycle.apps.kruise.io/timestamp": "2026-01-02T03:04:05Z"}
		if diff := cmp.Diff(wantAnnotations, p.Annotations); diff != "" {
			t.Errorf("annotations of created pod %s (-want +got):\n%s", p.Name, diff)
		}
		if diff := cmp.Diff([]string{"example.com/keep"}, p.Finalizers); diff != "" {
			t.Errorf("finalizers of created pod %s (-want +got):\n%s", p.Name, diff)
		}
		if len(p.OwnerReferences) != 1 || p.OwnerReferences[0].UID != "uid-demo" || p.OwnerReferences[0].Kind != "CloneSet" ||
			p.OwnerReferences[0].Controller == nil || !*p.OwnerReferences[0].Controller {
			t.Errorf("owner references of created pod %s = %+v, want a controller reference to CloneSet demo", p.Name, p.OwnerReferences)
		}
		if diff := cmp.Diff([]corev1.PodReadinessGate{{ConditionType: "InPlaceUpdateReady"}}, p.Spec.ReadinessGates); diff != "" {
			t.Errorf("readiness gates of created pod %s (-want +got):\n%s", p.Name, diff)
		}
		if p.Namespace != "default" || p.GenerateName != "demo-" || p.Spec.Containers[0].Image != "nginx:1.24" {
			t.Errorf("created pod %s: namespace %q, generateName %q, image %q; want default, demo-, nginx:1.24",
				p.Name, p.Namespace, p.GenerateName, p.Spec.Containers[0].Image)
		}
	}
	if obj.Spec.Template.Labels["controller-revision-hash"] != "" {
		t.Errorf("Changes modified the CloneSet's template labels: %v", obj.Spec.Template.Labels)
	}
}

func TestChangesUpdateInPlaceWritesKruisesRecord(t *testing.T) {
	old := demo(1, "nginx:1.24", kruise.InPlaceIfPossibleCloneSetUpdateStrategyType)
	oldRev := revisionOf(old, 1)
	pods := runningPods(old, oldRev, 1)
	before := pods[0].DeepCopy()
	obj := demo(1, "nginx:1.25", kruise.InPlaceIfPossibleCloneSetUpdateStrategyType)
	obj.Spec.Template.Labels["tier"] = "front"
	obj.Status.CurrentRevision, obj.Status.UpdateRevision = oldRev.Name, oldRev.Name
	s, changes := plan(t, obj, pods, []*appsv1.ControllerRevision{oldRev})
	var got []string
	for _, c := range changes {
		got = append(got, c.Verb.String())
	}
	if diff := cmp.Diff([]string{"CreateRevision", "UpdatePod", "UpdateCloneSetStatus"}, got); diff != "" {
		t.Fatalf("Changes verbs (-want +got):\n%s\nplan: %s", diff, s.Reason)
	}
	rev := changes[0].Revision
	p := changes[1].Pod
	if img := p.Spec.Containers[0].Image; img != "nginx:1.25" {
		t.Errorf("image after the in-place update = %q, want nginx:1.25", img)
	}
	if p.Labels["controller-revision-hash"] != rev.Name || p.Labels["pod-template-hash"] != rev.Labels["controller.kubernetes.io/hash"] ||
		p.Labels["lifecycle.apps.kruise.io/state"] != "Updating" || p.Labels["tier"] != "front" {
		t.Errorf("labels after the in-place update = %v, want revision %s, its hash, Updating and tier=front", p.Labels, rev.Name)
	}
	wantState := `{"revision":"` + rev.Name + `","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"sha256:nginx:1.24"}},"updateImages":true}`
	if got := p.Annotations["apps.kruise.io/inplace-update-state"]; got != wantState {
		t.Errorf("in-place update state = %s, want %s", got, wantState)
	}
	var ready *corev1.PodCondition
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == "InPlaceUpdateReady" {
			ready = &p.Status.Conditions[i]
		}
	}
	if ready == nil || ready.Status != corev1.ConditionFalse || ready.Reason != "StartInPlaceUpdate" {
		t.Errorf("InPlaceUpdateReady after the in-place update = %+v, want False/StartInPlaceUpdate", ready)
	}
	if diff := cmp.Diff(before, pods[0]); diff != "" {
		t.Errorf("Changes modified its input pod (-before +after):\n%s", diff)
	}
	// The pod written reads back as a pod in the middle of its update.
	back, err := kruiseapps.Pod(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.InPlaceUpdate == nil || back.InPlaceUpdate.Revision != rev.Name || !back.InPlaceUpdate.UpdateTime.Equal(t0) || back.InPlaceUpdate.Done {
		t.Errorf("Pod(updated pod).InPlaceUpdate = %+v, want revision %s at %v, not done (the imageID has not changed)", back.InPlaceUpdate, rev.Name, t0)
	}
}

func TestChangesRecreateMarksSpecifiedDelete(t *testing.T) {
	old := demo(2, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	oldRev := revisionOf(old, 1)
	obj := demo(2, "nginx:1.25", kruise.RecreateCloneSetUpdateStrategyType)
	obj.Status.CurrentRevision, obj.Status.UpdateRevision = oldRev.Name, oldRev.Name
	_, changes := plan(t, obj, runningPods(old, oldRev, 2), []*appsv1.ControllerRevision{oldRev})
	var marked []string
	for _, c := range changes {
		if c.Verb == kruiseapps.VerbUpdatePod && c.Pod.Labels["apps.kruise.io/specified-delete"] == "true" {
			marked = append(marked, c.Pod.Name)
		}
	}
	if len(marked) != 1 {
		t.Errorf("pods marked specified-delete = %v, want 1 (maxUnavailable 1)", marked)
	}
}

func TestChangesErrors(t *testing.T) {
	obj := demo(1, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	tests := []struct {
		name    string
		actions []cloneset.Action
		want    string
	}{
		{name: "deletion of a pod not given", actions: []cloneset.Action{{Kind: cloneset.DeletePod, Pod: "ghost"}},
			want: `kruiseapps: deletion of unknown pod "ghost"`},
		{name: "creation at a revision not in the sync", actions: []cloneset.Action{{Kind: cloneset.CreatePod, Pod: "demo-x", Revision: "demo-1"}},
			want: `kruiseapps: revision "demo-1" is not in the sync's revisions`},
		{name: "lifecycle of a pod not given", actions: []cloneset.Action{{Kind: cloneset.SetPodLifecycle, Pod: "ghost"}},
			want: `kruiseapps: SetPodLifecycle of unknown pod "ghost"`},
		{name: "revision deletion not given", actions: []cloneset.Action{{Kind: cloneset.DeleteRevision, Revision: "demo-1"}},
			want: `kruiseapps: deletion of unknown revision "demo-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := cloneset.Sync[kruiseapps.Template]{Actions: tt.actions}
			got, err := kruiseapps.Changes(obj, nil, nil, &s, t0)
			if err == nil || err.Error() != tt.want || got != nil {
				t.Errorf("Changes(%v) = %v, %v; want nil, %q", tt.actions, got, err, tt.want)
			}
		})
	}
}

// TestChangesTimestampsFollowNow checks that the written timestamps
// follow the now passed to Changes.
func TestChangesTimestampsFollowNow(t *testing.T) {
	obj := demo(1, "nginx:1.24", kruise.RecreateCloneSetUpdateStrategyType)
	rev := revisionOf(obj, 1)
	cs, _ := kruiseapps.CloneSet(obj)
	s, err := cloneset.Plan(&cs, nil, kruiseapps.Revisions([]*appsv1.ControllerRevision{rev}), t0)
	if err != nil {
		t.Fatal(err)
	}
	later := t0.Add(90 * time.Minute)
	changes, err := kruiseapps.Changes(obj, nil, []*appsv1.ControllerRevision{rev}, &s, later)
	if err != nil {
		t.Fatal(err)
	}
	if got := changes[0].Pod.Annotations["lifecycle.apps.kruise.io/timestamp"]; got != "2026-01-02T04:34:05Z" {
		t.Errorf("lifecycle timestamp = %q, want 2026-01-02T04:34:05Z", got)
	}
}
