package kubeapps

import (
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

func TestDaemonSetConvertsSpecAndStatus(t *testing.T) {
	unavailable, surge := intstr.FromString("10%"), intstr.FromInt32(0)
	limit, collisions := int32(3), int32(2)
	now := metav1.Now()
	d := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "ns", UID: "u-1", Generation: 7, DeletionTimestamp: &now,
			Annotations: map[string]string{daemonset.TemplateGenerationAnnotation: "5"}},
		Spec: appsv1.DaemonSetSpec{
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
			Template:             corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "a"}}},
			UpdateStrategy:       appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &unavailable, MaxSurge: &surge}},
			MinReadySeconds:      4,
			RevisionHistoryLimit: &limit,
		},
		Status: appsv1.DaemonSetStatus{ObservedGeneration: 6, CurrentNumberScheduled: 1, NumberMisscheduled: 2, DesiredNumberScheduled: 3,
			NumberReady: 4, UpdatedNumberScheduled: 5, NumberAvailable: 6, NumberUnavailable: 7, CollisionCount: &collisions},
	}
	got := DaemonSet(d)
	gen := int64(5)
	want := daemonset.DaemonSet[Template]{
		Name: "agent", Namespace: "ns", UID: "u-1", Generation: 7, Deleting: true,
		Selector: Selector(d.Spec.Selector), Template: d.Spec.Template,
		UpdateStrategy: daemonset.UpdateStrategy{Type: daemonset.RollingUpdate, RollingUpdate: &daemonset.RollingUpdateParams{
			MaxUnavailable: &intorpercent.IntOrString{IsString: true, Str: "10%"}, MaxSurge: &intorpercent.IntOrString{}}},
		MinReadySeconds: 4, RevisionHistoryLimit: &limit, TemplateGeneration: &gen,
		Status: daemonset.Status{ObservedGeneration: 6, CurrentNumberScheduled: 1, NumberMisscheduled: 2, DesiredNumberScheduled: 3,
			NumberReady: 4, UpdatedNumberScheduled: 5, NumberAvailable: 6, NumberUnavailable: 7, CollisionCount: &collisions},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DaemonSet =\n%+v\nwant\n%+v", got, want)
	}
	if got.RevisionHistoryLimit == d.Spec.RevisionHistoryLimit || got.Status.CollisionCount == d.Status.CollisionCount {
		t.Error("DaemonSet shares a pointer with its input; want copies")
	}
	if back := DaemonSetStatusObject(&got.Status); !reflect.DeepEqual(back, d.Status) {
		t.Errorf("DaemonSetStatusObject = %+v, want %+v", back, d.Status)
	}
}

func TestDaemonSetTemplateGenerationAnnotation(t *testing.T) {
	for _, tt := range []struct {
		annotations map[string]string
		want        *int64
	}{
		{nil, nil},
		{map[string]string{daemonset.TemplateGenerationAnnotation: "12"}, ptr(int64(12))},
		{map[string]string{daemonset.TemplateGenerationAnnotation: "-3"}, ptr(int64(-3))},
		{map[string]string{daemonset.TemplateGenerationAnnotation: "x"}, nil},
		{map[string]string{daemonset.TemplateGenerationAnnotation: ""}, nil},
		{map[string]string{daemonset.TemplateGenerationAnnotation: "9223372036854775808"}, nil},
	} {
		got := DaemonSet(&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Annotations: tt.annotations}}).TemplateGeneration
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("annotations %v: TemplateGeneration = %v, want %v", tt.annotations, got, tt.want)
		}
	}
}

func TestDaemonSetAbsentRollingUpdate(t *testing.T) {
	got := DaemonSet(&appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}}})
	if got.UpdateStrategy != (daemonset.UpdateStrategy{Type: daemonset.OnDelete}) {
		t.Errorf("UpdateStrategy = %+v, want OnDelete without rollingUpdate", got.UpdateStrategy)
	}
	got = DaemonSet(&appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateDaemonSet{}}}})
	if ru := got.UpdateStrategy.RollingUpdate; ru == nil || ru.MaxSurge != nil || ru.MaxUnavailable != nil {
		t.Errorf("RollingUpdate = %+v, want an empty block", ru)
	}
}

func ptr[T any](v T) *T { return &v }

func affinityFor(terms ...corev1.NodeSelectorTerm) *corev1.Affinity {
	return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms}}}
}

func nameIn(values ...string) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{{Key: metav1.ObjectNameField, Operator: corev1.NodeSelectorOpIn, Values: values}}}
}

func TestDaemonSetPodNode(t *testing.T) {
	other := corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{{Key: metav1.ObjectNameField, Operator: corev1.NodeSelectorOpNotIn, Values: []string{"x"}}}}
	for _, tt := range []struct {
		name        string
		spec        corev1.PodSpec
		node        string
		unscheduled bool
	}{
		{"nodeName", corev1.PodSpec{NodeName: "n1", Affinity: affinityFor(nameIn("n2"))}, "n1", false},
		{"affinity", corev1.PodSpec{Affinity: affinityFor(nameIn("n2"))}, "n2", true},
		{"second term", corev1.PodSpec{Affinity: affinityFor(other, nameIn("n3"))}, "n3", true},
		{"two values", corev1.PodSpec{Affinity: affinityFor(nameIn("n2", "n3"), nameIn("n4"))}, "", true},
		{"no term", corev1.PodSpec{Affinity: affinityFor()}, "", true},
		{"no affinity", corev1.PodSpec{}, "", true},
		{"preferred only", corev1.PodSpec{Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}}}, "", true},
	} {
		got := DaemonSetPod(&corev1.Pod{Spec: tt.spec})
		if got.Node != tt.node || got.Unscheduled != tt.unscheduled {
			t.Errorf("%s: Node, Unscheduled = %q, %v, want %q, %v", tt.name, got.Node, got.Unscheduled, tt.node, tt.unscheduled)
		}
	}
}

func TestDaemonSetPodFields(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ready := created.Add(time.Minute)
	now := metav1.Now()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", CreationTimestamp: metav1.NewTime(created), DeletionTimestamp: &now,
			Labels: map[string]string{daemonset.HashLabel: "h", daemonset.TemplateGenerationLabel: "3"}},
		Spec: corev1.PodSpec{NodeName: "n"},
		Status: corev1.PodStatus{Phase: corev1.PodFailed, Conditions: []corev1.PodCondition{
			{Type: corev1.ContainersReady, Status: corev1.ConditionFalse},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(ready)},
		}},
	}
	want := daemonset.Pod{Name: "p", Node: "n", Hash: "h", TemplateGeneration: "3", Phase: daemonset.PodFailed,
		Ready: true, ReadySince: ready, Terminating: true, Created: created}
	if got := DaemonSetPod(p); !reflect.DeepEqual(got, want) {
		t.Errorf("DaemonSetPod = %+v, want %+v", got, want)
	}
	p.Status.Conditions[1].Status = corev1.ConditionUnknown
	if got := DaemonSetPod(p); got.Ready {
		t.Error("Ready condition Unknown: Ready = true, want false")
	}
	if got := DaemonSetPods([]*corev1.Pod{nil, p, nil}); len(got) != 1 || got[0].Name != "p" {
		t.Errorf("DaemonSetPods skipped wrongly: %+v", got)
	}
}

func TestDaemonSetRevisions(t *testing.T) {
	revs := []*appsv1.ControllerRevision{nil, {
		ObjectMeta: metav1.ObjectMeta{Name: "a-h", Labels: map[string]string{daemonset.HashLabel: "h"}},
		Revision:   4,
	}, {ObjectMeta: metav1.ObjectMeta{Name: "a-g"}, Revision: 2}}
	revs[1].Data.Raw = []byte(`{"x":1}`)
	want := []daemonset.ControllerRevision{{Name: "a-h", Hash: "h", Number: 4, Data: []byte(`{"x":1}`)}, {Name: "a-g", Number: 2}}
	if got := DaemonSetRevisions(revs); !reflect.DeepEqual(got, want) {
		t.Errorf("DaemonSetRevisions = %+v, want %+v", got, want)
	}
}

func TestDaemonSetRevisionData(t *testing.T) {
	if _, err := DaemonSetRevisionData(nil); err == nil || err.Error() != "kubeapps: nil DaemonSet" {
		t.Errorf("nil DaemonSet: err = %v", err)
	}
	d := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}}}
	got, err := DaemonSetRevisionData(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"spec":{"template":{"$patch":"replace","metadata":{},"spec":{"containers":[{"image":"i","name":"c","resources":{}}]}}}}`
	if string(got) != want {
		t.Errorf("DaemonSetRevisionData = %s, want %s", got, want)
	}
}

func TestDaemonSetNode(t *testing.T) {
	taint := func(key, value string, effect corev1.TaintEffect) corev1.Taint {
		return corev1.Taint{Key: key, Value: value, Effect: effect}
	}
	for _, tt := range []struct {
		name                 string
		spec                 corev1.PodSpec
		labels               map[string]string
		taints               []corev1.Taint
		run, continueRunning bool
	}{
		{"plain", corev1.PodSpec{}, nil, nil, true, true},
		{"nodeName other", corev1.PodSpec{NodeName: "other"}, nil, nil, false, false},
		{"nodeName this", corev1.PodSpec{NodeName: "n"}, nil, nil, true, true},
		{"selector match", corev1.PodSpec{NodeSelector: map[string]string{"a": "1"}}, map[string]string{"a": "1", "b": "2"}, nil, true, true},
		{"selector value", corev1.PodSpec{NodeSelector: map[string]string{"a": "1"}}, map[string]string{"a": "2"}, nil, false, false},
		{"selector missing", corev1.PodSpec{NodeSelector: map[string]string{"a": ""}}, nil, nil, false, false},
		{"selector empty value", corev1.PodSpec{NodeSelector: map[string]string{"a": ""}}, map[string]string{"a": ""}, nil, true, true},
		{"NoSchedule", corev1.PodSpec{}, nil, []corev1.Taint{taint("k", "v", corev1.TaintEffectNoSchedule)}, false, true},
		{"NoExecute", corev1.PodSpec{}, nil, []corev1.Taint{taint("k", "v", corev1.TaintEffectNoExecute)}, false, false},
		{"both", corev1.PodSpec{}, nil, []corev1.Taint{taint("k", "v", corev1.TaintEffectNoSchedule), taint("k2", "", corev1.TaintEffectNoExecute)}, false, false},
		{"PreferNoSchedule", corev1.PodSpec{}, nil, []corev1.Taint{taint("k", "v", corev1.TaintEffectPreferNoSchedule)}, true, true},
		{"tolerated Exists", corev1.PodSpec{Tolerations: []corev1.Toleration{{Operator: corev1.TolerationOpExists}}}, nil,
			[]corev1.Taint{taint("k", "v", corev1.TaintEffectNoExecute)}, true, true},
		{"tolerated Equal", corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "k", Value: "v", Effect: corev1.TaintEffectNoSchedule}}}, nil,
			[]corev1.Taint{taint("k", "v", corev1.TaintEffectNoSchedule)}, true, true},
		{"wrong value", corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "k", Value: "w"}}}, nil,
			[]corev1.Taint{taint("k", "v", corev1.TaintEffectNoSchedule)}, false, true},
		{"wrong effect", corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "k", Value: "v", Effect: corev1.TaintEffectNoSchedule}}}, nil,
			[]corev1.Taint{taint("k", "v", corev1.TaintEffectNoExecute)}, false, false},
		{"Gt off", corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpGt, Value: "1"}}}, nil,
			[]corev1.Taint{taint("k", "5", corev1.TaintEffectNoSchedule)}, false, true},
		{"default unschedulable", corev1.PodSpec{}, nil, []corev1.Taint{taint(corev1.TaintNodeUnschedulable, "", corev1.TaintEffectNoSchedule)}, true, true},
		{"default not-ready", corev1.PodSpec{}, nil, []corev1.Taint{taint(corev1.TaintNodeNotReady, "", corev1.TaintEffectNoExecute)}, true, true},
		{"not-ready NoSchedule", corev1.PodSpec{}, nil, []corev1.Taint{taint(corev1.TaintNodeNotReady, "", corev1.TaintEffectNoSchedule)}, false, true},
		{"network without hostNetwork", corev1.PodSpec{}, nil, []corev1.Taint{taint(corev1.TaintNodeNetworkUnavailable, "", corev1.TaintEffectNoSchedule)}, false, true},
		{"network with hostNetwork", corev1.PodSpec{HostNetwork: true}, nil, []corev1.Taint{taint(corev1.TaintNodeNetworkUnavailable, "", corev1.TaintEffectNoSchedule)}, true, true},
	} {
		d := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: tt.spec}}}
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: tt.labels}, Spec: corev1.NodeSpec{Taints: tt.taints}}
		got, err := DaemonSetNode(d, n)
		want := daemonset.Node{Name: "n", ShouldRun: tt.run, ShouldContinueRunning: tt.continueRunning}
		if err != nil || got != want {
			t.Errorf("%s: DaemonSetNode = %+v, %v, want %+v, nil", tt.name, got, err, want)
		}
	}
}

func TestDaemonSetNodeAffinityIsRefused(t *testing.T) {
	d := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Affinity: affinityFor(nameIn("n"))}}}}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}
	got, err := DaemonSetNode(d, n)
	if err != ErrNodeAffinity || got != (daemonset.Node{}) {
		t.Errorf("DaemonSetNode = %+v, %v, want the zero Node and ErrNodeAffinity", got, err)
	}
	const text = "kubeapps: DaemonSetNode does not evaluate spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution; build the daemonset.Node from the scheduler's answer"
	if err.Error() != text {
		t.Errorf("error text = %q, want %q", err, text)
	}
	nodes, err := DaemonSetNodes(d, []*corev1.Node{n})
	if nodes != nil || err != ErrNodeAffinity {
		t.Errorf("DaemonSetNodes = %v, %v, want nil, ErrNodeAffinity", nodes, err)
	}
	d.Spec.Template.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil
	if got, err := DaemonSetNodes(d, []*corev1.Node{nil, n}); err != nil || len(got) != 1 || !got[0].ShouldRun {
		t.Errorf("preferred affinity only: DaemonSetNodes = %+v, %v", got, err)
	}
}

func TestDaemonSetRevisionObject(t *testing.T) {
	d := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", UID: "u", Annotations: map[string]string{"x": "y"}},
		Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "a"}}}}}
	rev := &daemonset.ControllerRevision{Name: "a-h", Hash: "h", Number: 3, Data: []byte("{}")}
	got := DaemonSetRevisionObject(d, rev)
	if got.Name != "a-h" || got.Namespace != "ns" || got.Revision != 3 || string(got.Data.Raw) != "{}" ||
		!reflect.DeepEqual(got.Labels, map[string]string{"app": "a", daemonset.HashLabel: "h"}) ||
		!reflect.DeepEqual(got.Annotations, map[string]string{"x": "y"}) {
		t.Errorf("DaemonSetRevisionObject = %+v", got)
	}
	if ref := metav1.GetControllerOf(got); ref == nil || ref.UID != "u" || ref.Kind != "DaemonSet" || ref.APIVersion != "apps/v1" {
		t.Errorf("owner = %+v", ref)
	}
	got.Labels["app"] = "z"
	got.Data.Raw[0] = 'x'
	if d.Spec.Template.Labels["app"] != "a" || string(rev.Data) != "{}" {
		t.Error("DaemonSetRevisionObject shares a map or the data with its inputs")
	}
}
