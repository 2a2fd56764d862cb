package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the controller's unexported reconcile

	"github.com/argoproj/argo-rollouts/controller/metrics"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	argofake "github.com/argoproj/argo-rollouts/pkg/client/clientset/versioned/fake"
	argoinformers "github.com/argoproj/argo-rollouts/pkg/client/informers/externalversions"
	"github.com/argoproj/argo-rollouts/rollout"
	"github.com/argoproj/argo-rollouts/utils/conditions"
	"github.com/argoproj/argo-rollouts/utils/hash"
	ingressutil "github.com/argoproj/argo-rollouts/utils/ingress"
	istioutil "github.com/argoproj/argo-rollouts/utils/istio"
	"github.com/argoproj/argo-rollouts/utils/queue"
	"github.com/argoproj/argo-rollouts/utils/record"
	timeutil "github.com/argoproj/argo-rollouts/utils/time"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/dynamic/dynamicinformer"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/util/workqueue"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/internal/tally"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// ctrlChecks is how many random rollouts TestControllerReconcilesAgreeWithPlan
// drives through Argo's controller.
var ctrlChecks = flag.Int("ctrl.checks", 10, "random rollouts driven through Argo's rollout controller")

// syncRollout is the controller's reconcile of one Rollout key
// ("namespace/name"): (*Controller).syncHandler in rollout/controller.go,
// unexported, reached by name.
//
//go:linkname syncRollout github.com/argoproj/argo-rollouts/rollout.(*Controller).syncHandler
func syncRollout(c *rollout.Controller, ctx context.Context, key string) error

// noTemplateRefs is the controller's TemplateRefResolver for Rollouts
// without a workloadRef (the only ones driven here): nothing to resolve.
type noTemplateRefs struct{}

func (noTemplateRefs) Resolve(*v1alpha1.Rollout) error { return nil }

// argoReconcile runs one reconcile of Argo's rollout controller on ro
// and rss as an API server holding exactly those objects would serve
// them, and returns the Rollout and ReplicaSets the fake API server holds
// afterwards. Each call builds a fresh controller on fresh fake
// clientsets (kube, Argo, dynamic), with the listers filled from the same
// objects, wired as Argo's own test fixture wires it (newFixture and
// newController in rollout/controller_test.go); time is timeutil.Now,
// which the caller sets.
func argoReconcile(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet) (*v1alpha1.Rollout, []*appsv1.ReplicaSet, error) {
	gotRO, gotRSs, _, err := argoReconcileWith(ro, rss, nil)
	return gotRO, gotRSs, err
}

// argoReconcileWith is argoReconcile with Services besides (a blue-green
// Rollout's active and preview Services): they are in the fake API
// server and the Services lister too, and it returns them as the API
// server holds them afterwards, in the order given.
func argoReconcileWith(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet, svcs []*corev1.Service) (*v1alpha1.Rollout, []*appsv1.ReplicaSet, []*corev1.Service, error) {
	kubeObjs := make([]runtime.Object, 0, len(rss)+len(svcs))
	for _, rs := range rss {
		kubeObjs = append(kubeObjs, rs.DeepCopy())
	}
	for _, svc := range svcs {
		kubeObjs = append(kubeObjs, svc.DeepCopy())
	}
	kube := kubefake.NewSimpleClientset(kubeObjs...)
	client := argofake.NewSimpleClientset(ro.DeepCopy())
	argoI := argoinformers.NewSharedInformerFactory(client, 0)
	kubeI := kubeinformers.NewSharedInformerFactory(kube, 0)

	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		return nil, nil, nil, err
	}
	vsvc, dest := istioutil.GetIstioVirtualServiceGVR(), istioutil.GetIstioDestinationRuleGVR()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme, map[schema.GroupVersionResource]string{
		vsvc: vsvc.Resource + "List",
		dest: dest.Resource + "List",
	})
	dynI := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0)
	ingresses, err := ingressutil.NewIngressWrapper(ingressutil.IngressModeExtensions, kube, kubeI)
	if err != nil {
		return nil, nil, nil, err
	}
	c := rollout.NewController(rollout.ControllerConfig{
		Namespace:                       metav1.NamespaceAll,
		KubeClientSet:                   kube,
		ArgoProjClientset:               client,
		DynamicClientSet:                dyn,
		ExperimentInformer:              argoI.Argoproj().V1alpha1().Experiments(),
		AnalysisRunInformer:             argoI.Argoproj().V1alpha1().AnalysisRuns(),
		AnalysisTemplateInformer:        argoI.Argoproj().V1alpha1().AnalysisTemplates(),
		ClusterAnalysisTemplateInformer: argoI.Argoproj().V1alpha1().ClusterAnalysisTemplates(),
		ReplicaSetInformer:              kubeI.Apps().V1().ReplicaSets(),
		ServicesInformer:                kubeI.Core().V1().Services(),
		IngressWrapper:                  ingresses,
		RolloutsInformer:                argoI.Argoproj().V1alpha1().Rollouts(),
		IstioPrimaryDynamicClient:       dyn,
		IstioVirtualServiceInformer:     dynI.ForResource(vsvc).Informer(),
		IstioDestinationRuleInformer:    dynI.ForResource(dest).Informer(),
		RolloutWorkQueue:                workqueue.NewNamedRateLimitingQueue(workqueue.NewItemExponentialFailureRateLimiter(time.Millisecond, 10*time.Second), "Rollouts"),
		ServiceWorkQueue:                workqueue.NewNamedRateLimitingQueue(queue.DefaultArgoRolloutsRateLimiter(), "Services"),
		IngressWorkQueue:                workqueue.NewNamedRateLimitingQueue(queue.DefaultArgoRolloutsRateLimiter(), "Ingresses"),
		MetricsServer: metrics.NewMetricsServer(metrics.ServerConfig{
			Addr:               "localhost:8080",
			K8SRequestProvider: &metrics.K8sRequestsCountProvider{},
		}),
		Recorder:                    record.NewFakeEventRecorder(),
		RefResolver:                 noTemplateRefs{},
		EphemeralMetadataThreads:    rollout.DefaultEphemeralMetadataThreads,
		EphemeralMetadataPodRetries: rollout.DefaultEphemeralMetadataPodRetries,
	})
	if err := argoI.Argoproj().V1alpha1().Rollouts().Informer().GetIndexer().Add(ro.DeepCopy()); err != nil {
		return nil, nil, nil, err
	}
	for _, rs := range rss {
		if err := kubeI.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(rs.DeepCopy()); err != nil {
			return nil, nil, nil, err
		}
	}
	for _, svc := range svcs {
		if err := kubeI.Core().V1().Services().Informer().GetIndexer().Add(svc.DeepCopy()); err != nil {
			return nil, nil, nil, err
		}
	}
	ctx := context.Background()
	if err := syncRollout(c, ctx, ro.Namespace+"/"+ro.Name); err != nil {
		return nil, nil, nil, fmt.Errorf("syncHandler: %w", err)
	}
	gotRO, err := client.ArgoprojV1alpha1().Rollouts(ro.Namespace).Get(ctx, ro.Name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, nil, err
	}
	list, err := kube.AppsV1().ReplicaSets(ro.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, nil, nil, err
	}
	gotRSs := make([]*appsv1.ReplicaSet, 0, len(list.Items))
	for i := range list.Items {
		gotRSs = append(gotRSs, &list.Items[i])
	}
	sort.Slice(gotRSs, func(i, j int) bool { return gotRSs[i].Name < gotRSs[j].Name })
	gotSvcs := make([]*corev1.Service, 0, len(svcs))
	for _, svc := range svcs {
		got, err := kube.CoreV1().Services(svc.Namespace).Get(ctx, svc.Name, metav1.GetOptions{})
		if err != nil {
			return nil, nil, nil, err
		}
		gotSvcs = append(gotSvcs, got)
	}
	return gotRO, gotRSs, gotSvcs, nil
}

// ourPlan converts ro and rss through the adapter (the Rollout through
// its JSON, as argorollouts reads a manifest) and plans one sync with
// argo.Plan at now.
func ourPlan(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet, now time.Time) (argo.Sync[argorollouts.Template], error) {
	js, err := json.Marshal(ro)
	if err != nil {
		return argo.Sync[argorollouts.Template]{}, err
	}
	var obj argorollouts.RolloutObject
	if err := json.Unmarshal(js, &obj); err != nil {
		return argo.Sync[argorollouts.Template]{}, err
	}
	lro, err := argorollouts.Rollout(&obj)
	if err != nil {
		return argo.Sync[argorollouts.Template]{}, err
	}
	lrss := make([]argo.ReplicaSet[argorollouts.Template], 0, len(rss))
	for _, rs := range rss {
		l, err := argorollouts.ReplicaSet(rs)
		if err != nil {
			return argo.Sync[argorollouts.Template]{}, err
		}
		lrss = append(lrss, l)
	}
	return argo.Plan(&lro, lrss, now)
}

// canaryCase is a basic canary (no traffic routing) being rolled out from
// a fully available stable ReplicaSet to a new template.
type canaryCase struct {
	replicas                 int32
	steps                    []v1alpha1.CanaryStep
	maxSurge, maxUnavailable *intstr.IntOrString
}

func (cc canaryCase) String() string {
	out := fmt.Sprintf("replicas %d maxSurge %s maxUnavailable %s steps", cc.replicas, iosText(cc.maxSurge), iosText(cc.maxUnavailable))
	for _, s := range cc.steps {
		switch {
		case s.SetWeight != nil:
			out += fmt.Sprintf(" setWeight %d", *s.SetWeight)
		case s.Pause != nil && s.Pause.Duration != nil:
			out += " pause " + s.Pause.Duration.String()
		case s.Pause != nil:
			out += " pause"
		}
	}
	return out
}

// podTemplate is the Rollout's template with image img.
func podTemplate(img string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: img}}},
	}
}

// start returns the Rollout and its one ReplicaSet right after the
// template changed: the stable ReplicaSet (the old template's) has every
// pod available, the status says its rollout completed (every step done,
// stableRS = currentPodHash = its hash), and spec.template is new.
func (cc canaryCase) start(now time.Time) (*v1alpha1.Rollout, []*appsv1.ReplicaSet) {
	old := podTemplate("nginx:1")
	oldHash := hash.ComputePodTemplateHash(&old, nil)
	n := cc.replicas
	ro := &v1alpha1.Rollout{
		TypeMeta: metav1.TypeMeta{APIVersion: argorollouts.APIVersion, Kind: "Rollout"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "web", Namespace: "shop", UID: types.UID("rollout-web-uid"),
			Generation:        2,
			CreationTimestamp: metav1.NewTime(now.Add(-2 * time.Hour)),
			Annotations:       map[string]string{"rollout.argoproj.io/revision": "1"},
		},
		Spec: v1alpha1.RolloutSpec{
			Replicas: &n,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: podTemplate("nginx:2"),
			Strategy: v1alpha1.RolloutStrategy{Canary: &v1alpha1.CanaryStrategy{
				Steps:          cc.steps,
				MaxSurge:       cc.maxSurge,
				MaxUnavailable: cc.maxUnavailable,
			}},
		},
	}
	done := int32(len(cc.steps))
	ro.Status = v1alpha1.RolloutStatus{
		CurrentPodHash:     oldHash,
		StableRS:           oldHash,
		CurrentStepIndex:   &done,
		CurrentStepHash:    conditions.ComputeStepHash(ro),
		ObservedGeneration: "1",
		Replicas:           n, UpdatedReplicas: n, ReadyReplicas: n, AvailableReplicas: n,
	}
	labels := map[string]string{"app": "web", v1alpha1.DefaultRolloutUniqueLabelKey: oldHash}
	tmpl := *old.DeepCopy()
	tmpl.Labels = labels
	stable := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: "web-" + oldHash, Namespace: "shop", UID: types.UID("rs-" + oldHash),
			CreationTimestamp: metav1.NewTime(now.Add(-time.Hour)),
			Labels:            labels,
			Annotations: map[string]string{
				"rollout.argoproj.io/revision":         "1",
				"rollout.argoproj.io/desired-replicas": strconv.Itoa(int(n)),
			},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ro, v1alpha1.SchemeGroupVersion.WithKind("Rollout"))},
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &n,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: tmpl,
		},
		Status: appsv1.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n},
	}
	return ro, []*appsv1.ReplicaSet{stable}
}

// tb is what the reconcile loop needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// specReplicas maps pod-template hash to spec.replicas, for Argo's
// ReplicaSets.
func specReplicas(rss []*appsv1.ReplicaSet) map[string]int32 {
	out := map[string]int32{}
	for _, rs := range rss {
		n := int32(1)
		if rs.Spec.Replicas != nil {
			n = *rs.Spec.Replicas
		}
		out[rs.Labels[v1alpha1.DefaultRolloutUniqueLabelKey]] = n
	}
	return out
}

// ourSpecReplicas maps pod-template hash to spec.replicas, for Plan's.
func ourSpecReplicas(rss []argo.ReplicaSet[argorollouts.Template]) map[string]int32 {
	out := map[string]int32{}
	for _, rs := range rss {
		out[rs.PodTemplateHash] = rs.Replicas
	}
	return out
}

func sameCounts(a, b map[string]int32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// driveCanary rolls cc out reconcile by reconcile. Before each reconcile
// both sides get the same Rollout and ReplicaSets (the state the previous
// Argo reconcile left in the fake API server); argo.Plan and Argo's
// syncHandler each run once, and the test fails unless they leave the
// same spec.replicas on every ReplicaSet (by pod-template hash), the
// same status.currentStepIndex, stableRS and number of pause conditions,
// except where Argo's reconcile only writes its pause conditions
// (pauseConditionsStale), which is checked on its own terms.
// Between reconciles every pod becomes available (each ReplicaSet's
// status counts are set to its spec.replicas), a pause without a
// duration is promoted (its pause conditions cleared, as `kubectl argo
// rollouts promote` does), and the clock moves on a minute, so a pause
// with a duration ends by itself. It returns, one line per reconcile until
// the rollout is finished (the stable ReplicaSet is the new template's and
// it is the only one with pods), what Argo left: the old and new
// ReplicaSets' spec.replicas, currentStepIndex and the pause conditions.
func driveCanary(t tb, cc canaryCase) []string {
	t.Helper()
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	defer timeutil.SetNowTimeFunc(time.Now)
	ro, rss := cc.start(start)
	newHash := hash.ComputePodTemplateHash(&ro.Spec.Template, nil)
	oldHash := ro.Status.StableRS
	var trace []string
	// Each step takes a few reconciles (scale stable down, grow the new
	// ReplicaSet, write the status); the pods take one more.
	// A timed pause (at most 2 minutes here) takes up to 3.
	limit := 6*(len(cc.steps)+int(cc.replicas)) + 10
	for n := 1; n <= limit; n++ {
		now := start.Add(time.Duration(n) * time.Minute)
		timeutil.SetNowTimeFunc(func() time.Time { return now })
		ours, err := ourPlan(ro, rss, now)
		if err != nil {
			t.Fatalf("%v\nreconcile %d: argo.Plan: %v", cc, n, err)
		}
		gotRO, gotRSs, err := argoReconcile(ro, rss)
		if err != nil {
			t.Fatalf("%v\nreconcile %d: Argo: %v", cc, n, err)
		}
		theirCounts, ourCounts := specReplicas(gotRSs), ourSpecReplicas(ours.ReplicaSets)
		ourSummary := fmt.Sprintf("spec.replicas %v currentStepIndex %s stableRS %q pauses %d", ourCounts, ptrText(ours.Rollout.Status.CurrentStepIndex), ours.Rollout.Status.StableRS, len(ours.Rollout.Status.PauseConditions))
		if pauseConditionsStale(ro) {
			// Argo's reconcile writes the Paused and Progressing
			// conditions and stops (checkPausedConditions in
			// rollout/sync.go); argo.Plan, which does not model
			// conditions, reads Argo's result as the same input. Check
			// that Argo changed nothing else and that Plan gives the
			// same answer on Argo's result at the same time; the next
			// reconcile then compares both sides as usual.
			if !sameCounts(theirCounts, specReplicas(rss)) || ptrText(gotRO.Status.CurrentStepIndex) != ptrText(ro.Status.CurrentStepIndex) || gotRO.Status.StableRS != ro.Status.StableRS || len(gotRO.Status.PauseConditions) != len(ro.Status.PauseConditions) {
				t.Fatalf("%v\nreconcile %d from %s: the pause conditions were stale, yet Argo did more than write them: spec.replicas %v currentStepIndex %s stableRS %q pauses %d",
					cc, n, stateText(ro, rss), theirCounts, ptrText(gotRO.Status.CurrentStepIndex), gotRO.Status.StableRS, len(gotRO.Status.PauseConditions))
			}
			again, err := ourPlan(gotRO, gotRSs, now)
			if err != nil {
				t.Fatalf("%v\nreconcile %d: argo.Plan on Argo's result: %v", cc, n, err)
			}
			againSummary := fmt.Sprintf("spec.replicas %v currentStepIndex %s stableRS %q pauses %d", ourSpecReplicas(again.ReplicaSets), ptrText(again.Rollout.Status.CurrentStepIndex), again.Rollout.Status.StableRS, len(again.Rollout.Status.PauseConditions))
			if againSummary != ourSummary {
				t.Fatalf("%v\nreconcile %d: Argo only wrote its pause conditions, yet argo.Plan reads that as a different input: %s before, %s after", cc, n, ourSummary, againSummary)
			}
			count("syncHandler: reconciles", "Argo writes only its Paused and Progressing conditions (checkPausedConditions), which Plan does not model: Plan answers the same on its result")
			trace = append(trace, fmt.Sprintf("stable %d new %d index %s pauses %d (conditions only)", theirCounts[oldHash], theirCounts[newHash], ptrText(gotRO.Status.CurrentStepIndex), len(gotRO.Status.PauseConditions)))
			ro, rss = settle(gotRO, gotRSs, now)
			continue
		}
		theirIndex, ourIndex := ptrText(gotRO.Status.CurrentStepIndex), ptrText(ours.Rollout.Status.CurrentStepIndex)
		theirPauses, ourPauses := len(gotRO.Status.PauseConditions), len(ours.Rollout.Status.PauseConditions)
		if !sameCounts(theirCounts, ourCounts) || theirIndex != ourIndex || gotRO.Status.StableRS != ours.Rollout.Status.StableRS || theirPauses != ourPauses {
			t.Fatalf("%v\nreconcile %d from %s:\n  Argo:       spec.replicas %v currentStepIndex %s stableRS %q pauses %d\n  argo.Plan:  spec.replicas %v currentStepIndex %s stableRS %q pauses %d\n  Plan's actions: %+v",
				cc, n, stateText(ro, rss), theirCounts, theirIndex, gotRO.Status.StableRS, theirPauses, ourCounts, ourIndex, ours.Rollout.Status.StableRS, ourPauses, ours.Actions)
		}
		count("syncHandler: reconciles", tally.Agree)
		trace = append(trace, fmt.Sprintf("stable %d new %d index %s pauses %d", theirCounts[oldHash], theirCounts[newHash], theirIndex, theirPauses))
		if gotRO.Status.StableRS == newHash && finished(gotRSs, newHash, cc.replicas) {
			return trace
		}
		ro, rss = settle(gotRO, gotRSs, now)
	}
	t.Fatalf("%v\nnot finished after %d reconciles: %s", cc, limit, stateText(ro, rss))
	return nil
}

// settle is the cluster between two reconciles: every pod of every
// ReplicaSet becomes available, a created ReplicaSet gets its creation
// time, and a pause without a duration is promoted.
func settle(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet, now time.Time) (*v1alpha1.Rollout, []*appsv1.ReplicaSet) {
	settlePods(rss, now)
	if indefinitePause(ro) {
		ro.Status.PauseConditions = nil
	}
	return ro, rss
}

// settlePods is the pods' part of settle: every pod of every ReplicaSet
// becomes available and a created ReplicaSet gets its creation time and
// a UID, as an API server gives them (the fake clientset gives neither;
// Argo tells the new ReplicaSet from the older ones by UID, in
// FindOldReplicaSets, so two created ReplicaSets without one would be
// taken for the same).
func settlePods(rss []*appsv1.ReplicaSet, now time.Time) {
	for _, rs := range rss {
		if rs.CreationTimestamp.IsZero() {
			rs.CreationTimestamp = metav1.NewTime(now)
		}
		if rs.UID == "" {
			rs.UID = types.UID("rs-" + rs.Labels[v1alpha1.DefaultRolloutUniqueLabelKey])
		}
		c := int32(1)
		if rs.Spec.Replicas != nil {
			c = *rs.Spec.Replicas
		}
		rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas = c, c, c
	}
}

// pauseConditionsStale is the test checkPausedConditions (rollout/sync.go)
// makes before anything else: the Rollout's pause state (pause conditions
// or spec.paused) disagrees with its Progressing condition's reason or its
// Paused condition, or an aborted Rollout was retried. Argo's reconcile
// then only writes those conditions.
func pauseConditionsStale(ro *v1alpha1.Rollout) bool {
	progressing := conditions.GetRolloutCondition(ro.Status, v1alpha1.RolloutProgressing)
	if progressing != nil && progressing.Reason == conditions.RolloutAbortedReason {
		return !ro.Status.Abort
	}
	paused := len(ro.Status.PauseConditions) > 0 || ro.Spec.Paused
	progressingPaused := progressing != nil && progressing.Reason == conditions.RolloutPausedReason
	if paused != progressingPaused && !conditions.RolloutCompleted(&ro.Status) {
		return true
	}
	pausedCond := conditions.GetRolloutCondition(ro.Status, v1alpha1.RolloutPaused)
	return paused != (pausedCond != nil && pausedCond.Status == corev1.ConditionTrue)
}

// indefinitePause says the current step is a pause without a duration,
// which waits for a promote.
func indefinitePause(ro *v1alpha1.Rollout) bool {
	steps := ro.Spec.Strategy.Canary.Steps
	i := ro.Status.CurrentStepIndex
	return i != nil && *i >= 0 && int(*i) < len(steps) && steps[*i].Pause != nil && steps[*i].Pause.Duration == nil
}

// finished says the new ReplicaSet has all the pods and every other none.
func finished(rss []*appsv1.ReplicaSet, newHash string, replicas int32) bool {
	for h, n := range specReplicas(rss) {
		if h == newHash && n != replicas || h != newHash && n != 0 {
			return false
		}
	}
	return true
}

// stateText is a reconcile's input, for failure messages.
func stateText(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet) string {
	out := fmt.Sprintf("status{index %s stableRS %q currentPodHash %q pauses %d controllerPause %v}", ptrText(ro.Status.CurrentStepIndex), ro.Status.StableRS, ro.Status.CurrentPodHash, len(ro.Status.PauseConditions), ro.Status.ControllerPause)
	for _, rs := range rss {
		out += fmt.Sprintf(" rs %s spec %s avail %d", rs.Labels[v1alpha1.DefaultRolloutUniqueLabelKey], ptrText(rs.Spec.Replicas), rs.Status.AvailableReplicas)
	}
	return out
}

func weightStep(w int32) v1alpha1.CanaryStep { return v1alpha1.CanaryStep{SetWeight: &w} }

func pauseStep() v1alpha1.CanaryStep { return v1alpha1.CanaryStep{Pause: &v1alpha1.RolloutPause{}} }

// TestArgosControllerReconcilesAsPlan drives Argo's rollout controller
// through one basic canary (10 replicas, setWeight 20, pause,
// setWeight 50, the default maxSurge and maxUnavailable "25%") and checks
// every reconcile against argo.Plan.
func TestArgosControllerReconcilesAsPlan(t *testing.T) {
	cc := canaryCase{replicas: 10, steps: []v1alpha1.CanaryStep{weightStep(20), pauseStep(), weightStep(50)}}
	got := driveCanary(t, cc)
	// What Argo's controller does, read off its reconciles (so that the
	// harness is seen to drive it, not only to compare): create the new
	// ReplicaSet at 0; reset the steps; for setWeight 20 (2 of 10, no
	// surge needed) stable first down to 8 within maxUnavailable 2, then
	// the new one up to 2; step done; pause; promoted; for setWeight 50
	// stable 8 -> 6 (maxUnavailable 2), new 2 -> 5, stable 6 -> 5; steps
	// done (index 3); stable 5 -> 3 and new 5 -> 10 within maxSurge 3;
	// the new ReplicaSet becomes stable and the old one goes to 0.
	want := []string{
		"stable 10 new 0 index 3 pauses 0",
		"stable 10 new 0 index 0 pauses 0",
		"stable 8 new 0 index 0 pauses 0",
		"stable 8 new 2 index 0 pauses 0",
		"stable 8 new 2 index 1 pauses 0",
		"stable 8 new 2 index 1 pauses 1",
		"stable 8 new 2 index 2 pauses 0",
		"stable 6 new 2 index 2 pauses 0",
		"stable 6 new 5 index 2 pauses 0",
		"stable 5 new 5 index 2 pauses 0",
		"stable 5 new 5 index 3 pauses 0",
		"stable 3 new 5 index 3 pauses 0",
		"stable 3 new 10 index 3 pauses 0",
		"stable 0 new 10 index 3 pauses 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Argo's reconciles:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestControllerReconcilesAgreeWithPlan is the same over random basic
// canaries: replicas, steps (setWeight, pause, pause with a duration)
// and the fenceposts.
// It runs -ctrl.checks rollouts (each builds a controller per reconcile,
// a few dozen reconciles), whatever -rapid.checks says.
func TestControllerReconcilesAgreeWithPlan(t *testing.T) {
	defer ctrlRapidChecks(t)()
	rapid.Check(t, func(t *rapid.T) {
		cc := canaryCase{replicas: rapid.Int32Range(1, 12).Draw(t, "replicas")}
		for i, k := 0, rapid.IntRange(1, 5).Draw(t, "steps"); i < k; i++ {
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 0:
				cc.steps = append(cc.steps, pauseStep())
			case 1:
				var d intstr.IntOrString
				if rapid.Bool().Draw(t, "durationText") {
					d = intstr.FromString(rapid.SampledFrom([]string{"30s", "90s", "2m", "1m30s"}).Draw(t, "duration"))
				} else {
					d = intstr.FromInt32(rapid.Int32Range(1, 120).Draw(t, "seconds"))
				}
				cc.steps = append(cc.steps, v1alpha1.CanaryStep{Pause: &v1alpha1.RolloutPause{Duration: &d}})
			default:
				cc.steps = append(cc.steps, weightStep(rapid.Int32Range(0, 100).Draw(t, "weight")))
			}
		}
		cc.maxSurge = genValidFencepost(t, "maxSurge")
		cc.maxUnavailable = genValidFencepost(t, "maxUnavailable")
		if isZeroFencepost(cc.maxSurge) && isZeroFencepost(cc.maxUnavailable) {
			// Both 0 is refused by Validate on both sides; the
			// default "25%" surge stands in.
			cc.maxSurge = nil
		}
		driveCanary(t, cc)
		count("syncHandler: basic canary rollouts", tally.Agree)
	})
}

// ctrlRapidChecks sets -rapid.checks to -ctrl.checks, for a property that
// drives the controller through whole rollouts, and returns the function
// that sets it back.
func ctrlRapidChecks(t *testing.T) func() {
	f := flag.Lookup("rapid.checks")
	saved := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(*ctrlChecks)); err != nil {
		t.Fatal(err)
	}
	return func() { _ = f.Value.Set(saved) }
}

// genValidFencepost draws maxSurge or maxUnavailable as Validate accepts
// them: nil (the default "25%"), a count 0..5 or a percentage 0..100.
func genValidFencepost(t *rapid.T, label string) *intstr.IntOrString {
	switch rapid.IntRange(0, 2).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		v := intstr.FromInt32(rapid.Int32Range(0, 5).Draw(t, label+"Int"))
		return &v
	default:
		v := intstr.FromString(strconv.Itoa(rapid.IntRange(0, 100).Draw(t, label+"Pct")) + "%")
		return &v
	}
}

func isZeroFencepost(v *intstr.IntOrString) bool {
	return v != nil && (v.Type == intstr.Int && v.IntVal == 0 || v.Type == intstr.String && v.StrVal == "0%")
}
