package kruiserollouts

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func readFile(t *testing.T, name string) *Objects {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	objs, err := Read(f)
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return objs
}

func ptr[T any](v T) *T { return &v }

func ios(s string) *intorpercent.IntOrString { v := intorpercent.FromString(s); return &v }
func ioi(n int32) *intorpercent.IntOrString  { v := intorpercent.FromInt(n); return &v }

// TestReadCloneSetList reads `kubectl get rollout,batchrelease,cloneset
// -o yaml` of a CloneSet paused after its first batch (one v1 List) and
// converts the three objects.
func TestReadCloneSetList(t *testing.T) {
	objs := readFile(t, "testdata/cloneset-release.yaml")
	if len(objs.Rollouts) != 1 || len(objs.BatchReleases) != 1 || len(objs.CloneSets) != 1 ||
		len(objs.Deployments)+len(objs.StatefulSets)+len(objs.AdvancedStatefulSets)+len(objs.Pods) != 0 {
		t.Fatalf("Read: %d rollouts, %d batch releases, %d clonesets, %d deployments, %d statefulsets, %d advanced, %d pods; want 1, 1, 1 and no others",
			len(objs.Rollouts), len(objs.BatchReleases), len(objs.CloneSets), len(objs.Deployments), len(objs.StatefulSets), len(objs.AdvancedStatefulSets), len(objs.Pods))
	}

	ro, err := ConvertRollout(objs.Rollouts[0])
	if err != nil {
		t.Fatal(err)
	}
	wantRollout := batchrelease.Rollout{
		Name:         "rollouts-demo",
		WorkloadKind: batchrelease.CloneSet,
		Canary: &batchrelease.Strategy{Steps: []batchrelease.CanaryStep{
			{Replicas: ios("20%")},
			{Replicas: ios("50%"), Pause: batchrelease.Pause{Duration: ptr[int32](60)}},
			{Replicas: ios("100%")},
		}},
		CurrentStepIndex: 1,
	}
	if d := cmp.Diff(wantRollout, ro); d != "" {
		t.Errorf("ConvertRollout (-want +got):\n%s", d)
	}

	br, err := ConvertBatchRelease(objs.BatchReleases[0])
	if err != nil {
		t.Fatal(err)
	}
	wantRelease := batchrelease.Release{
		Name:         "rollouts-demo",
		Generation:   1,
		WorkloadKind: batchrelease.CloneSet,
		Batches: []batchrelease.Batch{
			{CanaryReplicas: intorpercent.FromString("20%")},
			{CanaryReplicas: intorpercent.FromString("50%")},
			{CanaryReplicas: intorpercent.FromString("100%")},
		},
		BatchPartition: ptr[int32](0),
		RollingStyle:   batchrelease.Partition,
		Status: batchrelease.ReleaseStatus{
			Phase:                    batchrelease.Progressing,
			ObservedWorkloadReplicas: 10,
			ObservedGeneration:       1,
			BatchState:               batchrelease.Ready,
			UpdatedReplicas:          2,
			UpdatedReadyReplicas:     2,
			UpdateRevision:           "echoserver-6d7b9c5f4f",
			StableRevision:           "echoserver-5c8b7f6d9",
		},
	}
	if d := cmp.Diff(wantRelease, br); d != "" {
		t.Errorf("ConvertBatchRelease (-want +got):\n%s", d)
	}

	w, err := CloneSet(objs.CloneSets[0])
	if err != nil {
		t.Fatal(err)
	}
	wantWorkload := batchrelease.Workload{
		Kind:               batchrelease.CloneSet,
		Name:               "echoserver",
		Generation:         3,
		ObservedGeneration: 3,
		Replicas:           10,
		Partition:          ios("80%"),
		MaxSurge:           ioi(0),
		MaxUnavailable:     ios("20%"),
		Status: batchrelease.WorkloadStatus{
			Replicas:             10,
			ReadyReplicas:        10,
			UpdatedReplicas:      2,
			UpdatedReadyReplicas: 2,
			UpdateRevision:       "echoserver-6d7b9c5f4f",
			StableRevision:       "echoserver-5c8b7f6d9",
		},
	}
	if d := cmp.Diff(wantWorkload, w); d != "" {
		t.Errorf("CloneSet (-want +got):\n%s", d)
	}
	if !ControlledBy(objs.CloneSets[0], objs.BatchReleases[0]) {
		t.Errorf("ControlledBy: the CloneSet's control-info annotation names the BatchRelease's UID, want true")
	}
	if ControlledBy(objs.CloneSets[0], &BatchRelease{}) {
		t.Errorf("ControlledBy(a BatchRelease without UID) = true, want false")
	}
}

// TestRollbackInBatchAnnotation: any value but "" asks for a rollback in
// batches, as the executor tests it.
func TestRollbackInBatchAnnotation(t *testing.T) {
	for _, tc := range []struct {
		annotations map[string]string
		want        bool
	}{
		{nil, false},
		{map[string]string{RollbackInBatchAnnotation: ""}, false},
		{map[string]string{RollbackInBatchAnnotation: "true"}, true},
		{map[string]string{RollbackInBatchAnnotation: "false"}, true},
	} {
		br := &BatchRelease{}
		br.Annotations = tc.annotations
		br.Spec.WorkloadRef = ObjectRef{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "c"}
		got, err := ConvertBatchRelease(br)
		if err != nil || got.RollbackInBatch != tc.want {
			t.Errorf("annotations %v: RollbackInBatch %v, err %v; want %v", tc.annotations, got.RollbackInBatch, err, tc.want)
		}
	}
}

// TestPodsCounts: terminating pods are listed but not counted; the
// no-need-update label counts only at the update revision; rolloutID ""
// counts no labels; a nil pod is an error.
func TestPodsCounts(t *testing.T) {
	now := metav1.Now()
	mk := func(rev string, ready, terminating bool, labels ...string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: rev}}}
		for i := 0; i+1 < len(labels); i += 2 {
			p.Labels[labels[i]] = labels[i+1]
		}
		if terminating {
			p.DeletionTimestamp = &now
		}
		if ready {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		}
		return p
	}
	pods := []*corev1.Pod{
		mk("new1", true, false, RolloutIDLabel, "r", NoNeedUpdateLabel, "r"),
		mk("new1", true, true, RolloutIDLabel, "r", NoNeedUpdateLabel, "r"),
		mk("old0", true, false, RolloutIDLabel, "r", NoNeedUpdateLabel, "r"),
		mk("new1", false, false, RolloutIDLabel, "other"),
		mk("new1", true, false, RolloutIDLabel, "r"),
	}
	pods[4].Status.Phase = corev1.PodSucceeded // completed: not listed
	w := batchrelease.Workload{Kind: batchrelease.AdvancedStatefulSet, Status: batchrelease.WorkloadStatus{UpdateRevision: "db-new1", UpdatedReadyReplicas: 7}}
	if err := Pods(&w, pods, "r"); err != nil {
		t.Fatal(err)
	}
	want := batchrelease.PodCounts{Listed: 4, RolloutIDLabeled: 2, NoNeedUpdate: 1}
	if w.Status.Pods == nil || *w.Status.Pods != want || w.Status.UpdatedReadyReplicas != 1 {
		t.Errorf("Pods: counts %+v, updatedReady %d; want %+v, 1", w.Status.Pods, w.Status.UpdatedReadyReplicas, want)
	}
	c := batchrelease.Workload{Kind: batchrelease.CloneSet, Status: batchrelease.WorkloadStatus{UpdateRevision: "cs-new1", UpdatedReadyReplicas: 7}}
	if err := Pods(&c, pods, ""); err != nil {
		t.Fatal(err)
	}
	if *c.Status.Pods != (batchrelease.PodCounts{Listed: 4}) || c.Status.UpdatedReadyReplicas != 7 {
		t.Errorf("Pods(rolloutID \"\") on a CloneSet: counts %+v, updatedReady %d; want only Listed 4, and the status's 7 kept", *c.Status.Pods, c.Status.UpdatedReadyReplicas)
	}
	err := Pods(&c, []*corev1.Pod{nil}, "r")
	if err == nil || err.Error() != "kruiserollouts: pods[0]: must not be nil" || !errors.Is(err, field.ErrRequired) {
		t.Errorf("Pods(nil pod) = %v", err)
	}
	if none := (batchrelease.Workload{}); Pods(&none, nil, "r") != nil || none.Status.Pods != nil {
		t.Errorf("Pods(no pods) set counts")
	}
}

// TestReadDeploymentDocuments reads a Rollout with traffic, matches and
// a traffic routing, and the Deployment the advanced Deployment
// controller holds, as two YAML documents.
func TestReadDeploymentDocuments(t *testing.T) {
	objs := readFile(t, "testdata/deployment-release.yaml")
	if len(objs.Rollouts) != 1 || len(objs.Deployments) != 1 || len(objs.BatchReleases)+len(objs.CloneSets) != 0 {
		t.Fatalf("Read: %d rollouts, %d deployments, %d batch releases, %d clonesets; want 1, 1, 0, 0",
			len(objs.Rollouts), len(objs.Deployments), len(objs.BatchReleases), len(objs.CloneSets))
	}
	ro, err := ConvertRollout(objs.Rollouts[0])
	if err != nil {
		t.Fatal(err)
	}
	match := `{"headers":[{"name":"user-agent","type":"Exact","value":"canary"}]}`
	if len(ro.Canary.Steps) != 4 || len(ro.Canary.Steps[1].Matches) != 1 || string(ro.Canary.Steps[1].Matches[0]) != match {
		t.Fatalf("steps[1].matches = %s, want [%s]", ro.Canary.Steps[1].Matches, match)
	}
	wantRollout := batchrelease.Rollout{
		Name:         "web",
		WorkloadKind: batchrelease.Deployment,
		Canary: &batchrelease.Strategy{
			Steps: []batchrelease.CanaryStep{
				{Replicas: ioi(1), Traffic: ptr("5%"), Pause: batchrelease.Pause{Duration: ptr[int32](300)}},
				{Replicas: ioi(3), Matches: ro.Canary.Steps[1].Matches},
				{Replicas: ios("50%")},
				{Replicas: ios("100%")},
			},
			FailureThreshold: ios("10%"),
			TrafficRoutings:  1,
		},
		RolloutID:        "v2",
		CurrentStepIndex: 2,
	}
	if d := cmp.Diff(wantRollout, ro); d != "" {
		t.Errorf("ConvertRollout (-want +got):\n%s", d)
	}

	w, err := Deployment(objs.Deployments[0])
	if err != nil {
		t.Fatal(err)
	}
	wantWorkload := batchrelease.Workload{
		Kind:               batchrelease.Deployment,
		Name:               "web",
		Generation:         6,
		ObservedGeneration: 6,
		Replicas:           10,
		Partition:          ioi(3),
		MaxSurge:           ios("25%"),
		MaxUnavailable:     ios("25%"),
		Status: batchrelease.WorkloadStatus{
			Replicas:             10,
			ReadyReplicas:        8,
			UpdatedReplicas:      3,
			UpdatedReadyReplicas: 1,
			StableRevision:       "5d4c7b9f86",
		},
	}
	if d := cmp.Diff(wantWorkload, w); d != "" {
		t.Errorf("Deployment (-want +got):\n%s", d)
	}
}

// TestReadErrors pins the texts of a stream Read refuses.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unknown kind", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n",
			"kruiserollouts: document 1: want a rollouts.kruise.io/v1beta1 or v1alpha1 Rollout or BatchRelease, an apps.kruise.io/v1alpha1 CloneSet, an apps/v1 Deployment or StatefulSet, an apps.kruise.io/v1beta1 StatefulSet or a v1 Pod (or a List of them), got v1 Service"},
		{"no kind", "metadata:\n  name: web\n",
			"kruiserollouts: document 1: want a rollouts.kruise.io/v1beta1 or v1alpha1 Rollout or BatchRelease, an apps.kruise.io/v1alpha1 CloneSet, an apps/v1 Deployment or StatefulSet, an apps.kruise.io/v1beta1 StatefulSet or a v1 Pod (or a List of them), got (none) (none)"},
		{"item of a list", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n",
			"kruiserollouts: document 1: items[1]: want a rollouts.kruise.io/v1beta1 or v1alpha1 Rollout or BatchRelease, an apps.kruise.io/v1alpha1 CloneSet, an apps/v1 Deployment or StatefulSet, an apps.kruise.io/v1beta1 StatefulSet or a v1 Pod (or a List of them), got v1 ConfigMap"},
		{"wrong type", "apiVersion: rollouts.kruise.io/v1beta1\nkind: BatchRelease\nspec:\n  releasePlan:\n    batches: 3\n",
			"kruiserollouts: document 1: rollouts.kruise.io/v1beta1 BatchRelease: json: cannot unmarshal number into Go struct field ReleasePlan.spec.releasePlan.batches of type []kruiserollouts.ReleaseBatch"},
		{"second document", "apiVersion: apps/v1\nkind: Deployment\n---\n# a comment only\n---\napiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: ten\n",
			"kruiserollouts: document 3: apps/v1 Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Read error:\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestReadTypedListAndJSON reads a RolloutList whose items carry no
// kind, and a JSON BatchRelease.
func TestReadTypedListAndJSON(t *testing.T) {
	in := `apiVersion: rollouts.kruise.io/v1beta1
kind: RolloutList
items:
- metadata:
    name: a
  spec:
    workloadRef: {apiVersion: apps/v1, kind: StatefulSet, name: a}
    strategy:
      canary:
        steps: [{replicas: 1}]
---
{"apiVersion":"rollouts.kruise.io/v1beta1","kind":"BatchRelease","metadata":{"name":"b"},"spec":{"workloadRef":{"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"b"},"releasePlan":{"batches":[{"canaryReplicas":2}],"enableExtraWorkloadForCanary":false}}}
`
	objs, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Rollouts) != 1 || objs.Rollouts[0].Name != "a" || len(objs.BatchReleases) != 1 || objs.BatchReleases[0].Name != "b" {
		t.Fatalf("Read: %d rollouts, %d batch releases; want rollout a and batch release b", len(objs.Rollouts), len(objs.BatchReleases))
	}
	ro, err := ConvertRollout(objs.Rollouts[0])
	if err != nil || ro.WorkloadKind != batchrelease.StatefulSet {
		t.Fatalf("ConvertRollout: kind %v, err %v; want StatefulSet", ro.WorkloadKind, err)
	}
	br, err := ConvertBatchRelease(objs.BatchReleases[0])
	if err != nil || br.WorkloadKind != batchrelease.AdvancedStatefulSet || br.RollingStyle != 0 {
		t.Fatalf("ConvertBatchRelease: kind %v, style %v, err %v; want AdvancedStatefulSet and no style", br.WorkloadKind, br.RollingStyle, err)
	}
}

// TestConvertErrors pins the converters' error texts and kinds.
func TestConvertErrors(t *testing.T) {
	bad := &Rollout{}
	bad.Name = "r"
	bad.Spec.WorkloadRef = ObjectRef{APIVersion: "apps.kruise.io/v1alpha1", Kind: "DaemonSet", Name: "d"}
	_, err := ConvertRollout(bad)
	wantText := `kruiserollouts: invalid Rollout "r": spec.workloadRef.kind: "apps.kruise.io/v1alpha1/DaemonSet": supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet`
	if err == nil || err.Error() != wantText || !errors.Is(err, field.ErrUnsupported) || !errors.Is(err, field.ErrInvalid) {
		t.Errorf("ConvertRollout(DaemonSet) = %v\nwant %s (ErrUnsupported)", err, wantText)
	}

	style := &BatchRelease{}
	style.Name = "b"
	style.Spec.WorkloadRef = ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "d"}
	style.Spec.ReleasePlan.RollingStyle = "Rolling"
	_, err = ConvertBatchRelease(style)
	wantText = `kruiserollouts: invalid BatchRelease "b": spec.releasePlan.rollingStyle: "Rolling": supported values: "Partition", "Canary", "BlueGreen"`
	if err == nil || err.Error() != wantText || !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("ConvertBatchRelease(Rolling) = %v\nwant %s", err, wantText)
	}

	state := &BatchRelease{}
	state.Name = "b"
	state.Spec.WorkloadRef = style.Spec.WorkloadRef
	state.Status.CanaryStatus.CurrentBatchState = "Done"
	_, err = ConvertBatchRelease(state)
	wantText = `kruiserollouts: invalid BatchRelease "b": status.canaryStatus.batchState: "Done": supported values: "Upgrading", "Verifying", "Ready"`
	if err == nil || err.Error() != wantText {
		t.Errorf("ConvertBatchRelease(Done) = %v\nwant %s", err, wantText)
	}
	state.Status.CanaryStatus.CurrentBatchState = ""
	state.Status.Phase = "Healthy"
	_, err = ConvertBatchRelease(state)
	wantText = `kruiserollouts: invalid BatchRelease "b": status.phase: "Healthy": supported values: "Preparing", "Progressing", "Finalizing", "Completed"`
	if err == nil || err.Error() != wantText || !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("ConvertBatchRelease(Healthy) = %v\nwant %s", err, wantText)
	}

	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil rollout", second(ConvertRollout(nil)), "kruiserollouts: rollout: must not be nil"},
		{"nil batch release", second(ConvertBatchRelease(nil)), "kruiserollouts: batchRelease: must not be nil"},
		{"nil cloneset", second(CloneSet(nil)), "kruiserollouts: cloneSet: must not be nil"},
		{"nil deployment", second(Deployment(nil)), "kruiserollouts: deployment: must not be nil"},
		{"nil statefulset", second(StatefulSet(nil)), "kruiserollouts: statefulSet: must not be nil"},
		{"nil advanced statefulset", second(AdvancedStatefulSet(nil)), "kruiserollouts: statefulSet: must not be nil"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || !errors.Is(tc.err, field.ErrRequired) {
			t.Errorf("%s: %v, want %s (ErrRequired)", tc.name, tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestEnableExtraWorkloadIsCanary: an empty rollingStyle with the
// deprecated flag is the Canary style, as the executor reads it.
func TestEnableExtraWorkloadIsCanary(t *testing.T) {
	br := &BatchRelease{}
	br.Spec.WorkloadRef = ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "d"}
	br.Spec.ReleasePlan.EnableExtraWorkloadForCanary = true
	got, err := ConvertBatchRelease(br)
	if err != nil || got.RollingStyle != batchrelease.Canary {
		t.Fatalf("rollingStyle = %v, err %v; want Canary", got.RollingStyle, err)
	}
	br.Spec.ReleasePlan.RollingStyle = Partition
	got, err = ConvertBatchRelease(br)
	if err != nil || got.RollingStyle != batchrelease.Partition {
		t.Fatalf("rollingStyle = %v, err %v; want Partition (the style wins over the flag)", got.RollingStyle, err)
	}
}
