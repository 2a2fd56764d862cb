package conformance

// Each step function of rollout/statefulset against its upstream
// counterpart in pkg/controller/statefulset, on generated inputs. The
// upstream functions are unexported; the linknames below reach them as
// the package's own tests call them.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "unsafe" // for go:linkname

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/controller/history"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

//go:linkname upstreamStsMaxUnavailable k8s.io/kubernetes/pkg/controller/statefulset.getStatefulSetMaxUnavailable
func upstreamStsMaxUnavailable(mu *intstr.IntOrString, replicas int) (int, error)

//go:linkname upstreamParentAndOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getParentNameAndOrdinal
func upstreamParentAndOrdinal(pod *corev1.Pod) (string, int)

//go:linkname upstreamIsRunningAndReady k8s.io/kubernetes/pkg/controller/statefulset.isRunningAndReady
func upstreamIsRunningAndReady(pod *corev1.Pod) bool

//go:linkname upstreamIsRunningAndAvailable k8s.io/kubernetes/pkg/controller/statefulset.isRunningAndAvailable
func upstreamIsRunningAndAvailable(pod *corev1.Pod, minReadySeconds int32, now time.Time) bool

//go:linkname upstreamIsUnavailable k8s.io/kubernetes/pkg/controller/statefulset.isUnavailable
func upstreamIsUnavailable(pod *corev1.Pod, minReadySeconds int32, now time.Time) bool

// upstreamReplicaStatus has the layout of the controller's replicaStatus.
type upstreamReplicaStatus struct {
	replicas, readyReplicas, availableReplicas, currentReplicas, updatedReplicas int32
}

//go:linkname upstreamComputeReplicaStatus k8s.io/kubernetes/pkg/controller/statefulset.computeReplicaStatus
func upstreamComputeReplicaStatus(pods []*corev1.Pod, minReadySeconds int32, current, update *appsv1.ControllerRevision, now time.Time) upstreamReplicaStatus

//go:linkname upstreamCompleteRollingUpdate k8s.io/kubernetes/pkg/controller/statefulset.completeRollingUpdate
func upstreamCompleteRollingUpdate(set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus)

//go:linkname upstreamInconsistentStatus k8s.io/kubernetes/pkg/controller/statefulset.inconsistentStatus
func upstreamInconsistentStatus(set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) bool

//go:linkname upstreamNewVersionedPod k8s.io/kubernetes/pkg/controller/statefulset.newVersionedStatefulSetPod
func upstreamNewVersionedPod(currentSet, updateSet *appsv1.StatefulSet, currentRevision, updateRevision string, ordinal int) *corev1.Pod

//go:linkname upstreamNewRevision k8s.io/kubernetes/pkg/controller/statefulset.newRevision
func upstreamNewRevision(set *appsv1.StatefulSet, revision int64, collisionCount *int32) (*appsv1.ControllerRevision, error)

// anyStsMaxUnavailable draws a maxUnavailable as written, valid or not.
func anyStsMaxUnavailable() *rapid.Generator[*intstr.IntOrString] {
	return rapid.OneOf(
		rapid.Just[*intstr.IntOrString](nil),
		rapid.Map(rapid.Int32Range(-3, 30), func(n int32) *intstr.IntOrString { v := intstr.FromInt32(n); return &v }),
		rapid.Map(rapid.IntRange(0, 150), func(n int) *intstr.IntOrString { v := intstr.FromString(fmt.Sprintf("%d%%", n)); return &v }),
		rapid.Map(rapid.SampledFrom([]string{"abc", "5", "1.5%", "-5%", "+5%", "", "%", "007%", "2147483647%"}),
			func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }),
	)
}

func writtenIOS(v *intstr.IntOrString) *intorpercent.IntOrString {
	if v == nil {
		return nil
	}
	return &intorpercent.IntOrString{IsString: v.Type == intstr.String, Int: v.IntVal, Str: v.StrVal}
}

// refusedPercent reports whether v is a string the API server's
// validation refuses as maxUnavailable: not [0-9]+%, or above 100%.
func refusedPercent(v *intstr.IntOrString) bool {
	if v == nil || v.Type != intstr.String {
		return false
	}
	if len(k8svalidation.IsValidPercent(v.StrVal)) > 0 {
		return true
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return err != nil || n > 100
}

func TestMaxUnavailableMatchesGetStatefulSetMaxUnavailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		mu := anyStsMaxUnavailable().Draw(t, "maxUnavailable")
		r := rapid.OneOf(rapid.Int32Range(0, 30), rapid.Int32Range(0, 1<<30)).Draw(t, "replicas")
		got, err := statefulset.MaxUnavailable(writtenIOS(mu), r)
		up, upErr := upstreamStsMaxUnavailable(mu, int(r))
		switch {
		case upErr != nil && err != nil:
			count("getStatefulSetMaxUnavailable", "agree")
		case upErr == nil && err != nil && refusedPercent(mu):
			// "-5%", "+5%", "2147483647%": the API server refuses them
			// (validateRollingUpdateStatefulSet), so the controller never
			// reads them; MaxUnavailable reports them instead of scaling.
			count("getStatefulSetMaxUnavailable", "error for a percentage the API server refuses")
		case upErr != nil || err != nil:
			t.Fatalf("MaxUnavailable(%s, %d) = %d, %v; upstream %d, %v", iosString(mu), r, got, err, up, upErr)
		case int(got) != up:
			t.Fatalf("MaxUnavailable(%s, %d) = %d, upstream %d", iosString(mu), r, got, up)
		default:
			count("getStatefulSetMaxUnavailable", "agree")
		}
	})
}

func TestParseOrdinalMatchesGetParentNameAndOrdinal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.OneOf(
			rapid.Map(rapid.IntRange(0, 1000), func(n int) string { return fmt.Sprintf("web-%d", n) }),
			rapid.SampledFrom([]string{"web-", "web-01", "web-2147483647", "web-2147483648", "web-99999999999999999999",
				"a-b-7", "web7", "-5", "5", "", "web--3", "web-+3", "web-٣", "my-db-0"}),
			rapid.StringMatching(`[ab0-9-]{0,8}`),
		).Draw(t, "name")
		parent, ord := statefulset.ParseOrdinal(name)
		upParent, upOrd := upstreamParentAndOrdinal(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}})
		if parent != upParent || int(ord) != upOrd {
			t.Fatalf("ParseOrdinal(%q) = %q, %d; upstream %q, %d", name, parent, ord, upParent, upOrd)
		}
		count("getParentNameAndOrdinal", "agree")
	})
}

// stsRevisionNames are the revision labels generated pods carry.
var stsRevisionNames = []string{"web-a", "web-b", "web-c", ""}

// stsPodGen draws a pod the controller may list: any phase (including
// "" only when withPlaceholder), Ready or not with a transition time
// around traceStart (or none), terminating or not, at one of
// stsRevisionNames.
func stsPodGen(withPlaceholder bool) *rapid.Generator[*corev1.Pod] {
	phases := []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown}
	if withPlaceholder {
		phases = append(phases, "")
	}
	return rapid.Custom(func(t *rapid.T) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Name:   fmt.Sprintf("web-%d", rapid.IntRange(0, 9).Draw(t, "ordinal")),
			Labels: map[string]string{appsv1.StatefulSetRevisionLabel: rapid.SampledFrom(stsRevisionNames).Draw(t, "revision")},
		}}
		p.Status.Phase = rapid.SampledFrom(phases).Draw(t, "phase")
		switch rapid.IntRange(0, 3).Draw(t, "ready") {
		case 1, 2:
			st := []corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}[rapid.IntRange(0, 2).Draw(t, "readyStatus")]
			var ltt metav1.Time
			if rapid.IntRange(0, 5).Draw(t, "lttSet") > 0 {
				ltt = metav1.NewTime(traceStart.Add(time.Duration(rapid.IntRange(-20, 5).Draw(t, "ltt")) * time.Second))
			}
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: st, LastTransitionTime: ltt}}
		case 3:
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}
		}
		if rapid.IntRange(0, 3).Draw(t, "terminating") == 0 {
			p.DeletionTimestamp = &metav1.Time{Time: traceStart}
		}
		return p
	})
}

func TestPodPredicatesMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := stsPodGen(false).Draw(t, "pod")
		m := rapid.SampledFrom([]int32{0, 1, 5, 10, 20, 30}).Draw(t, "minReadySeconds")
		ours := kubeapps.StatefulSetPod(p)
		if got, up := statefulset.IsRunningAndReady(&ours), upstreamIsRunningAndReady(p); got != up {
			t.Fatalf("IsRunningAndReady = %v, upstream %v (%+v)", got, up, p.Status)
		}
		count("isRunningAndReady", "agree")
		if got, up := statefulset.IsAvailable(&ours, m, traceStart), upstreamIsRunningAndAvailable(p, m, traceStart); got != up {
			t.Fatalf("IsAvailable(minReady %d) = %v, upstream %v (%+v)", m, got, up, p.Status)
		}
		count("isRunningAndAvailable", "agree")
		if got, up := statefulset.IsUnavailable(&ours, m, traceStart), upstreamIsUnavailable(p, m, traceStart); got != up {
			t.Fatalf("IsUnavailable(minReady %d) = %v, upstream %v (%+v)", m, got, up, p.Status)
		}
		count("isUnavailable", "agree")
	})
}

// TestComputeStatusMatchesComputeReplicaStatus passes upstream the pods
// with placeholders (phase "") among them, and ComputeStatus the created
// pods only, as Plan does: upstream counts only created pods.
func TestComputeStatusMatchesComputeReplicaStatus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := rapid.SliceOfN(stsPodGen(true), 0, 8).Draw(t, "pods")
		m := rapid.SampledFrom([]int32{0, 1, 10}).Draw(t, "minReadySeconds")
		cur := rapid.SampledFrom(stsRevisionNames[:3]).Draw(t, "current")
		upd := rapid.SampledFrom(stsRevisionNames[:3]).Draw(t, "update")
		var created []statefulset.Pod
		for _, p := range pods {
			if p.Status.Phase != "" {
				created = append(created, kubeapps.StatefulSetPod(p))
			}
		}
		got := statefulset.ComputeStatus(created, m, cur, upd, traceStart)
		up := upstreamComputeReplicaStatus(pods, m, &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: cur}},
			&appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: upd}}, traceStart)
		want := statefulset.Status{Replicas: up.replicas, ReadyReplicas: up.readyReplicas, AvailableReplicas: up.availableReplicas,
			CurrentReplicas: up.currentReplicas, UpdatedReplicas: up.updatedReplicas, CurrentRevision: cur, UpdateRevision: upd}
		if !equality.Semantic.DeepEqual(got, want) {
			t.Fatalf("ComputeStatus = %+v, upstream %+v", got, want)
		}
		count("computeReplicaStatus", "agree")
	})
}

// stsStatusGen draws a status whose counters are often R or close.
func stsStatusGen(t *rapid.T, label string, r int32) appsv1.StatefulSetStatus {
	n := func(f string) int32 {
		return rapid.OneOf(rapid.Just(r), rapid.Just(max(r-1, 0)), rapid.Just(r+1), rapid.Int32Range(-1, 8)).Draw(t, label+"."+f)
	}
	return appsv1.StatefulSetStatus{
		ObservedGeneration: rapid.Int64Range(0, 3).Draw(t, label+".observedGeneration"),
		Replicas:           n("replicas"), ReadyReplicas: n("readyReplicas"), AvailableReplicas: n("availableReplicas"),
		CurrentReplicas: n("currentReplicas"), UpdatedReplicas: n("updatedReplicas"),
		CurrentRevision: rapid.SampledFrom(stsRevisionNames).Draw(t, label+".currentRevision"),
		UpdateRevision:  rapid.SampledFrom(stsRevisionNames).Draw(t, label+".updateRevision"),
		CollisionCount:  rapid.SampledFrom([]*int32{nil, ptr32(0), ptr32(1)}).Draw(t, label+".collisionCount"),
	}
}

// stsStrategyGen draws an update strategy as the API server stores it.
func stsStrategyGen(t *rapid.T) appsv1.StatefulSetUpdateStrategy {
	switch rapid.IntRange(0, 2).Draw(t, "strategy") {
	case 0:
		return appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	case 1:
		return appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType}
	}
	return appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
		RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr32(rapid.Int32Range(0, 8).Draw(t, "partition"))}}
}

func TestCompleteRollingUpdateMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 5).Draw(t, "replicas")
		set := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: ptr32(r), UpdateStrategy: stsStrategyGen(t)}}
		st := stsStatusGen(t, "status", r)
		ourSet := kubeapps.StatefulSet(set)
		ours := kubeapps.StatefulSetStatus(&st)
		statefulset.CompleteRollingUpdate(&ourSet, &ours)
		upstreamCompleteRollingUpdate(set, &st)
		if want := kubeapps.StatefulSetStatus(&st); !equality.Semantic.DeepEqual(ours, want) {
			t.Fatalf("CompleteRollingUpdate = %+v, upstream %+v", ours, want)
		}
		count("completeRollingUpdate", "agree")
	})
}

func TestStatusChangedMatchesInconsistentStatus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 5).Draw(t, "replicas")
		set := &appsv1.StatefulSet{Status: stsStatusGen(t, "old", r)}
		next := set.Status.DeepCopy()
		if rapid.Bool().Draw(t, "changed") {
			*next = stsStatusGen(t, "next", r)
		}
		old, ours := kubeapps.StatefulSetStatus(&set.Status), kubeapps.StatefulSetStatus(next)
		if got, up := statefulset.StatusChanged(&old, &ours), upstreamInconsistentStatus(set, next); got != up {
			t.Fatalf("StatusChanged(%+v, %+v) = %v, upstream %v", old, ours, got, up)
		}
		count("inconsistentStatus", "agree")
	})
}

func TestNewPodRevisionMatchesNewVersionedStatefulSetPod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := rapid.Int32Range(0, 4).Draw(t, "start")
		set := &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: stsName, Namespace: traceNamespace, UID: stsUID},
			Spec: appsv1.StatefulSetSpec{Replicas: ptr32(rapid.Int32Range(0, 6).Draw(t, "replicas")),
				Template: stsTemplate("web:1"), UpdateStrategy: stsStrategyGen(t)},
			Status: appsv1.StatefulSetStatus{CurrentReplicas: rapid.Int32Range(-1, 7).Draw(t, "status.currentReplicas")},
		}
		if start > 0 || rapid.Bool().Draw(t, "ordinalsSet") {
			set.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: start}
		}
		ord := int(start) + rapid.IntRange(0, 8).Draw(t, "slot")
		up := upstreamNewVersionedPod(set, set, "web-cur", "web-upd", ord).Labels[appsv1.StatefulSetRevisionLabel]
		ours := kubeapps.StatefulSet(set)
		got := statefulset.NewPodRevision(ours.UpdateStrategy, int64(ord), start, set.Status.CurrentReplicas, "web-cur", "web-upd")
		if got != up {
			t.Fatalf("NewPodRevision(%s, ordinal %d, start %d, currentReplicas %d) = %s, upstream %s",
				strategyString(set.Spec.UpdateStrategy), ord, start, set.Status.CurrentReplicas, got, up)
		}
		count("newVersionedStatefulSetPod", "agree")
	})
}

// stsTemplateGen draws a pod template with the kinds of values whose
// encoding could differ: defaults, quantities, integers, escapes, empty
// and nil maps.
func stsTemplateGen(t *rapid.T) corev1.PodTemplateSpec {
	tmpl := stsTemplate(rapid.SampledFrom([]string{"nginx:1.25", "web:<1>&", "a\u2028b", ""}).Draw(t, "image"))
	c := &tmpl.Spec.Containers[0]
	if rapid.Bool().Draw(t, "defaults") {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
		c.ImagePullPolicy = corev1.PullIfNotPresent
		tmpl.Spec.RestartPolicy = corev1.RestartPolicyAlways
		tmpl.Spec.TerminationGracePeriodSeconds = ptr64(rapid.SampledFrom([]int64{30, 0, 1 << 53, 1<<53 + 1}).Draw(t, "grace"))
		tmpl.Spec.DNSPolicy = corev1.DNSClusterFirst
		tmpl.Spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	if rapid.Bool().Draw(t, "resources") {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(rapid.SampledFrom([]string{"100m", "0.5", "1", "1Gi"}).Draw(t, "cpu"))}
	}
	if rapid.Bool().Draw(t, "annotations") {
		tmpl.Annotations = map[string]string{"b": "2", "a": rapid.SampledFrom([]string{"1", "", "x\"y"}).Draw(t, "annotation")}
	}
	if rapid.Bool().Draw(t, "env") {
		c.Env = []corev1.EnvVar{{Name: "Z", Value: "1"}, {Name: "A", Value: "<&>"}}
	}
	return tmpl
}

func ptr64(v int64) *int64 { return &v }

// TestRevisionMatchesNewRevision checks, for generated templates and
// collision counts, that kubeapps.StatefulSetRevisionData gives
// newRevision's data bytes, statefulset.HashRevision and RevisionName
// give history.HashControllerRevision and ControllerRevisionName, and
// StatefulSetRevisionObject gives the object newRevision builds (labels,
// annotations, owner, number).
func TestRevisionMatchesNewRevision(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: rapid.SampledFrom([]string{stsName, strings.Repeat("d", 230)}).Draw(t, "name"),
				Namespace: traceNamespace, UID: stsUID},
			Spec: appsv1.StatefulSetSpec{Replicas: ptr32(3), Template: stsTemplateGen(t)},
		}
		if rapid.Bool().Draw(t, "setAnnotations") {
			set.Annotations = map[string]string{"team": "db"}
		}
		cc := rapid.SampledFrom([]int32{0, 1, 7, 1 << 30}).Draw(t, "collisionCount")
		number := rapid.Int64Range(1, 9).Draw(t, "revision")
		up, err := upstreamNewRevision(set, number, &cc)
		if err != nil {
			t.Fatalf("newRevision: %v", err)
		}
		data, err := kubeapps.StatefulSetRevisionData(set)
		if err != nil {
			t.Fatalf("StatefulSetRevisionData: %v", err)
		}
		if !bytes.Equal(data, up.Data.Raw) {
			t.Fatalf("StatefulSetRevisionData =\n%s\nupstream\n%s", data, up.Data.Raw)
		}
		count("newRevision (data)", "agree")
		hash := statefulset.HashRevision(data, cc)
		if upHash := history.HashControllerRevision(up, &cc); hash != upHash {
			t.Fatalf("HashRevision = %s, upstream %s", hash, upHash)
		}
		name := statefulset.RevisionName(set.Name, hash)
		if upName := history.ControllerRevisionName(set.Name, hash); name != upName {
			t.Fatalf("RevisionName = %s, upstream %s", name, upName)
		}
		count("HashControllerRevision", "agree")
		if up.Name != name || up.Labels[history.ControllerRevisionHashLabel] != hash {
			t.Fatalf("newRevision named %s with hash label %s, want %s and %s", up.Name, up.Labels[history.ControllerRevisionHashLabel], name, hash)
		}
		// The API server fills in the namespace from the request.
		up.Namespace = set.Namespace
		obj := kubeapps.StatefulSetRevisionObject(set, &statefulset.ControllerRevision{Name: name, Number: number, Hash: hash, Data: data})
		if !equality.Semantic.DeepEqual(obj, up) {
			t.Fatalf("StatefulSetRevisionObject =\n%+v\nupstream\n%+v", obj, up)
		}
		count("newRevision (object)", "agree")
	})
}

// stsInScope reports whether an upstream StatefulSet validation error is
// about a field statefulset.Validate checks: not metadata, the selector,
// the service name, the claim templates and retention policy, nor the
// pod template (the caller's type).
func stsInScope(e *field.Error) bool {
	for _, p := range []string{"spec.template", "spec.selector", "spec.serviceName", "spec.volumeClaimTemplates", "spec.persistentVolumeClaimRetentionPolicy"} {
		if strings.HasPrefix(e.Field, p) {
			return false
		}
	}
	return strings.HasPrefix(e.Field, "spec.") || strings.HasPrefix(e.Field, "status.")
}

// TestValidateMatchesValidateStatefulSetSpec draws StatefulSets as users
// may submit them, defaults them as the API server does (apps/v1
// SetObjectDefaults_StatefulSet), validates them with upstream's
// ValidateStatefulSetSpec and ValidateStatefulSetStatus on the internal
// type, and compares the full error texts, in order, with
// statefulset.Validate's on the converted set.
func TestValidateMatchesValidateStatefulSetSpec(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		counter := rapid.Int32Range(-1, 4)
		set := &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: stsName, Namespace: traceNamespace},
			Spec: appsv1.StatefulSetSpec{
				Selector:            traceSelector(),
				Template:            stsTemplate("web:1"),
				ServiceName:         stsName,
				PodManagementPolicy: appsv1.PodManagementPolicyType(rapid.SampledFrom([]string{"", "OrderedReady", "Parallel", "Foo"}).Draw(t, "policy")),
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
					Type: appsv1.StatefulSetUpdateStrategyType(rapid.SampledFrom([]string{"", "RollingUpdate", "OnDelete", "Foo"}).Draw(t, "strategy"))},
				MinReadySeconds: counter.Draw(t, "minReadySeconds"),
			},
			Status: appsv1.StatefulSetStatus{
				ObservedGeneration: int64(counter.Draw(t, "observedGeneration")),
				Replicas:           counter.Draw(t, "statusReplicas"), ReadyReplicas: counter.Draw(t, "readyReplicas"),
				CurrentReplicas: counter.Draw(t, "currentReplicas"), UpdatedReplicas: counter.Draw(t, "updatedReplicas"),
				AvailableReplicas: counter.Draw(t, "availableReplicas"),
			},
		}
		if rapid.Bool().Draw(t, "hasReplicas") {
			set.Spec.Replicas = ptr32(counter.Draw(t, "replicas"))
		}
		if rapid.Bool().Draw(t, "hasRollingUpdate") {
			ru := &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: anyStsMaxUnavailable().Draw(t, "maxUnavailable")}
			if rapid.Bool().Draw(t, "hasPartition") {
				ru.Partition = ptr32(counter.Draw(t, "partition"))
			}
			set.Spec.UpdateStrategy.RollingUpdate = ru
		}
		if rapid.Bool().Draw(t, "hasOrdinals") {
			set.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: counter.Draw(t, "start")}
		}
		if rapid.Bool().Draw(t, "hasCollisionCount") {
			set.Status.CollisionCount = ptr32(counter.Draw(t, "collisionCount"))
		}
		appsv1defaults.SetObjectDefaults_StatefulSet(set)
		var internal apps.StatefulSet
		if err := appsv1defaults.Convert_v1_StatefulSet_To_apps_StatefulSet(set, &internal, nil); err != nil {
			t.Fatalf("converting to the internal type: %v", err)
		}
		upErrs := appsvalidation.ValidateStatefulSetSpec(&internal.Spec, field.NewPath("spec"), apivalidation.PodValidationOptions{}, appsvalidation.StatefulSetValidationOptions{})
		upErrs = append(upErrs, appsvalidation.ValidateStatefulSetStatus(&internal.Status, field.NewPath("status"))...)
		var want []string
		for _, e := range upErrs {
			if stsInScope(e) {
				want = append(want, e.Error())
			}
		}
		ours := kubeapps.StatefulSet(set)
		var got []string
		for _, e := range statefulset.Validate(&ours) {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("statefulset.Validate:\n  %s\nupstream:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		count("ValidateStatefulSetSpec (statefulset.Validate)", "agree")
	})
}
