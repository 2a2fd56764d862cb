package conformance

// Each DaemonSet step function against upstream's, on generated inputs
// (rapid; -rapid.checks, default 10,000 each).

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
	_ "unsafe" // for go:linkname

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/controller"
	dscontroller "k8s.io/kubernetes/pkg/controller/daemon"
	dsutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// upstreamGetPatch is getPatch (pkg/controller/daemon/update.go): the
// bytes a DaemonSet's ControllerRevision records.
//
//go:linkname upstreamGetPatch k8s.io/kubernetes/pkg/controller/daemon.getPatch
func upstreamGetPatch(ds *appsv1.DaemonSet) ([]byte, error)

func drawTaint(t *rapid.T, label string) corev1.Taint {
	return corev1.Taint{
		Key:    rapid.SampledFrom([]string{"a", "b", corev1.TaintNodeNotReady, corev1.TaintNodeUnschedulable, corev1.TaintNodeNetworkUnavailable, corev1.TaintNodeDiskPressure}).Draw(t, label+".key"),
		Value:  rapid.SampledFrom([]string{"", "x", "5"}).Draw(t, label+".value"),
		Effect: rapid.SampledFrom([]corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute, corev1.TaintEffectPreferNoSchedule}).Draw(t, label+".effect"),
	}
}

func drawToleration(t *rapid.T, label string) corev1.Toleration {
	return corev1.Toleration{
		Key:      rapid.SampledFrom([]string{"", "a", "b", corev1.TaintNodeNetworkUnavailable}).Draw(t, label+".key"),
		Operator: rapid.SampledFrom([]corev1.TolerationOperator{"", corev1.TolerationOpEqual, corev1.TolerationOpExists, corev1.TolerationOpGt, corev1.TolerationOpLt}).Draw(t, label+".operator"),
		Value:    rapid.SampledFrom([]string{"", "x", "3"}).Draw(t, label+".value"),
		Effect:   rapid.SampledFrom([]corev1.TaintEffect{"", corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute}).Draw(t, label+".effect"),
	}
}

func drawLabels(t *rapid.T, label string) map[string]string {
	m := map[string]string{}
	for _, k := range []string{"zone", "agent"} {
		if rapid.Bool().Draw(t, label+"."+k) {
			m[k] = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, label+"["+k+"]")
		}
	}
	if len(m) == 0 && rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	return m
}

// TestDaemonSetNodeMatchesNodeShouldRunDaemonPod checks the adapter's
// simple predicate against NodeShouldRunDaemonPod on nodes with labels
// and taints and templates with nodeName, nodeSelector, tolerations
// (every operator) and hostNetwork.
func TestDaemonSetNodeMatchesNodeShouldRunDaemonPod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: drawLabels(t, "nodeLabels")}}
		for i := range rapid.IntRange(0, 3).Draw(t, "taints") {
			node.Spec.Taints = append(node.Spec.Taints, drawTaint(t, fmt.Sprint("taint", i)))
		}
		ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: dsName, Namespace: traceNamespace}}
		spec := &ds.Spec.Template.Spec
		spec.NodeName = rapid.SampledFrom([]string{"", "", "n1", "n2"}).Draw(t, "nodeName")
		spec.NodeSelector = drawLabels(t, "nodeSelector")
		spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
		for i := range rapid.IntRange(0, 3).Draw(t, "tolerations") {
			spec.Tolerations = append(spec.Tolerations, drawToleration(t, fmt.Sprint("toleration", i)))
		}
		got, err := kubeapps.DaemonSetNode(ds, node)
		if err != nil {
			t.Fatalf("DaemonSetNode: %v", err)
		}
		run, cont := dscontroller.NodeShouldRunDaemonPod(klog.Background(), node, ds)
		if got.ShouldRun != run || got.ShouldContinueRunning != cont {
			t.Fatalf("DaemonSetNode = %v, %v; NodeShouldRunDaemonPod = %v, %v", got.ShouldRun, got.ShouldContinueRunning, run, cont)
		}
		count("NodeShouldRunDaemonPod", "agree")
	})
}

// TestIsPodUpdatedMatchesUpstream checks daemonset.IsPodUpdated against
// util.IsPodUpdated, generation labels written oddly included.
func TestIsPodUpdatedMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{}}}
		if rapid.Bool().Draw(t, "hasHash") {
			p.Labels[daemonset.HashLabel] = rapid.SampledFrom([]string{"", "h1", "h2"}).Draw(t, "podHash")
		}
		if rapid.Bool().Draw(t, "hasGen") {
			p.Labels[daemonset.TemplateGenerationLabel] = rapid.SampledFrom([]string{"", "0", "1", "2", "01", "+1", "-1", "99", "100", "9223372036854775807", "-9223372036854775808", " 1"}).Draw(t, "podGen")
		}
		hash := rapid.SampledFrom([]string{"", "h1", "h2"}).Draw(t, "hash")
		var gen *int64
		if rapid.Bool().Draw(t, "dsGen") {
			g := rapid.SampledFrom([]int64{0, 1, 2, -1, 99, 100, 1<<63 - 1, -1 << 63}).Draw(t, "gen")
			gen = &g
		}
		pod := kubeapps.DaemonSetPod(p)
		if got, up := daemonset.IsPodUpdated(&pod, hash, gen), dsutil.IsPodUpdated(p, hash, gen); got != up {
			t.Fatalf("IsPodUpdated = %v, upstream %v", got, up)
		}
		count("IsPodUpdated", "agree")
	})
}

// TestIsPodAvailableMatchesUpstream checks daemonset.IsPodAvailable
// against podutil.IsPodAvailable.
func TestIsPodAvailableMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodRunning}}
		if rapid.Bool().Draw(t, "hasReady") {
			var since metav1.Time
			if rapid.Bool().Draw(t, "hasSince") {
				since = metav1.NewTime(traceStart.Add(time.Duration(rapid.IntRange(0, 30).Draw(t, "since")) * time.Second))
			}
			st := rapid.SampledFrom([]corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}).Draw(t, "status")
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: st, LastTransitionTime: since}}
		}
		minReady := int32(rapid.IntRange(0, 20).Draw(t, "minReadySeconds"))
		now := traceStart.Add(time.Duration(rapid.IntRange(0, 40).Draw(t, "now")) * time.Second)
		pod := kubeapps.DaemonSetPod(p)
		if got, up := daemonset.IsPodAvailable(&pod, minReady, now), podutil.IsPodAvailable(p, minReady, metav1.Time{Time: now}); got != up {
			t.Fatalf("IsPodAvailable = %v, upstream %v", got, up)
		}
		count("IsPodAvailable", "agree")
	})
}

func drawIntOrString(t *rapid.T, label string) *intstr.IntOrString {
	if rapid.IntRange(0, 9).Draw(t, label+".nil") == 0 {
		return nil
	}
	if rapid.Bool().Draw(t, label+".isString") {
		v := intstr.FromString(rapid.SampledFrom([]string{"0%", "1%", "10%", "25%", "33%", "50%", "99%", "100%", "150%", "0", "1", "abc", "%", "-10%", "1.5%", "+5%", "05%", ""}).Draw(t, label+".str"))
		return &v
	}
	v := intstr.FromInt32(int32(rapid.IntRange(-2, 12).Draw(t, label+".int")))
	return &v
}

// apiServerRefuses reports whether the API server refuses v as a
// DaemonSet's maxUnavailable or maxSurge on its own (not a whole
// non-negative count or percentage, or a percentage above 100).
func apiServerRefuses(v *intstr.IntOrString) bool {
	path := k8sfield.NewPath("v")
	return len(appsvalidation.ValidatePositiveIntOrPercent(*v, path)) > 0 || len(appsvalidation.IsNotMoreThan100Percent(*v, path)) > 0
}

// TestBudgetsMatchUpstream checks daemonset.UnavailableCount and
// SurgeCount against util.UnavailableCount and util.SurgeCount on
// defaulted DaemonSets: equal counts, or both refuse the value. One
// difference is documented and checked against its model: a value the
// API server refuses on its own ("-10%", "+5%") may be one upstream
// reads (strconv.Atoi accepts a sign) where the daemonset package, which
// reads values strictly, refuses it; such a DaemonSet never reaches the
// controller.
func TestBudgetsMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ds := &appsv1.DaemonSet{}
		if rapid.IntRange(0, 5).Draw(t, "onDelete") == 0 {
			ds.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
		} else if rapid.Bool().Draw(t, "hasRollingUpdate") {
			ds.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: drawIntOrString(t, "maxUnavailable"), MaxSurge: drawIntOrString(t, "maxSurge")}
		}
		appsv1defaults.SetObjectDefaults_DaemonSet(ds)
		desired := rapid.IntRange(0, 40).Draw(t, "desired")
		ours := kubeapps.DaemonSet(ds)
		check := func(fn string, got int32, err error, up int, upErr error, v *intstr.IntOrString) {
			switch {
			case err == nil && upErr == nil && int(got) == up, err != nil && upErr != nil:
				count(fn, "agree")
			case err != nil && upErr == nil && v != nil && apiServerRefuses(v):
				count(fn, "refused by the API server, read by upstream")
			default:
				t.Fatalf("%s = %d, %v; upstream %d, %v", fn, got, err, up, upErr)
			}
		}
		var unavailable, surge *intstr.IntOrString
		if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
			unavailable, surge = ru.MaxUnavailable, ru.MaxSurge
		}
		gotU, errU := daemonset.UnavailableCount(&ours, int32(desired))
		upU, upErrU := dsutil.UnavailableCount(ds, desired)
		check("UnavailableCount", gotU, errU, upU, upErrU, unavailable)
		gotS, errS := daemonset.SurgeCount(&ours, int32(desired))
		upS, upErrS := dsutil.SurgeCount(ds, desired)
		check("SurgeCount", gotS, errS, upS, upErrS, surge)
	})
}

func drawTemplate(t *rapid.T) corev1.PodTemplateSpec {
	tmpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name:  "agent",
			Image: rapid.SampledFrom([]string{"agent:1", "agent:2", "a\u00e9\"<>&"}).Draw(t, "image"),
		}}},
	}
	if rapid.Bool().Draw(t, "annotated") {
		tmpl.Annotations = map[string]string{"note": rapid.SampledFrom([]string{"", "x", "1.5e3"}).Draw(t, "note")}
	}
	if rapid.Bool().Draw(t, "selector") {
		tmpl.Spec.NodeSelector = drawLabels(t, "nodeSelector")
	}
	if rapid.Bool().Draw(t, "grace") {
		g := int64(rapid.IntRange(0, 1<<40).Draw(t, "gracePeriod"))
		tmpl.Spec.TerminationGracePeriodSeconds = &g
	}
	if rapid.Bool().Draw(t, "defaulted") {
		ds := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: tmpl}}
		appsv1defaults.SetObjectDefaults_DaemonSet(ds)
		tmpl = ds.Spec.Template
	}
	return tmpl
}

// TestRevisionDataAndHashMatchUpstream checks daemonset.RevisionData
// (through kubeapps.DaemonSetRevisionData) against getPatch, and
// daemonset.Hash against controller.ComputeHash, with collision counts.
func TestRevisionDataAndHashMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ds := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: drawTemplate(t)}}
		got, err := kubeapps.DaemonSetRevisionData(ds)
		if err != nil {
			t.Fatal(err)
		}
		up, err := upstreamGetPatch(ds)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(up) {
			t.Fatalf("RevisionData = %s\nupstream getPatch  = %s", got, up)
		}
		if !json.Valid(got) {
			t.Fatalf("RevisionData is not JSON: %s", got)
		}
		count("getPatch", "agree")
		var cc *int32
		if rapid.Bool().Draw(t, "hasCollisionCount") {
			c := int32(rapid.IntRange(0, 1<<31-1).Draw(t, "collisionCount"))
			cc = &c
		}
		if h, uh := daemonset.Hash(&ds.Spec.Template, cc), controller.ComputeHash(&ds.Spec.Template, cc); h != uh {
			t.Fatalf("Hash = %s, upstream ComputeHash %s", h, uh)
		}
		count("ComputeHash", "agree")
	})
}

// TestFindUpdatedPodsOnNodeMatchesUpstream checks
// daemonset.FindUpdatedPodsOnNode against findUpdatedPodsOnNode on up
// to four pods of one node, terminating ones included.
func TestFindUpdatedPodsOnNodeMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 4).Draw(t, "pods")
		var pods []*corev1.Pod
		for i := range n {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("p", i), Labels: map[string]string{
				daemonset.HashLabel:               rapid.SampledFrom([]string{"h1", "h2"}).Draw(t, fmt.Sprint("hash", i)),
				daemonset.TemplateGenerationLabel: rapid.SampledFrom([]string{"1", "2"}).Draw(t, fmt.Sprint("gen", i)),
			}}, Spec: corev1.PodSpec{NodeName: "n1"}}
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprint("terminating", i)) == 0 {
				p.DeletionTimestamp = &metav1.Time{Time: traceStart}
			}
			pods = append(pods, p)
		}
		ds := &appsv1.DaemonSet{}
		if rapid.Bool().Draw(t, "hasGen") {
			ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: rapid.SampledFrom([]string{"1", "2", "x"}).Draw(t, "dsGen")}
		}
		hash := rapid.SampledFrom([]string{"h1", "h2"}).Draw(t, "dsHash")
		var ours []*corev1.Pod
		ours = append(ours, pods...)
		conv := kubeapps.DaemonSetPods(ours)
		d := kubeapps.DaemonSet(ds)
		newIdx, oldIdx, ok := daemonset.FindUpdatedPodsOnNode(conv, hash, d.TemplateGeneration)
		upNew, upOld, upOK := upstreamFindUpdatedPodsOnNode(ds, pods, hash)
		name := func(i int) string {
			if i < 0 {
				return ""
			}
			return conv[i].Name
		}
		upName := func(p *corev1.Pod) string {
			if p == nil {
				return ""
			}
			return p.Name
		}
		if ok != upOK || (ok && (name(newIdx) != upName(upNew) || name(oldIdx) != upName(upOld))) {
			t.Fatalf("FindUpdatedPodsOnNode = %q, %q, %v; upstream %q, %q, %v", name(newIdx), name(oldIdx), ok, upName(upNew), upName(upOld), upOK)
		}
		count("findUpdatedPodsOnNode", "agree")
	})
}
