package conformance

// The whole-controller differential: the real DeploymentController of
// k8s.io/kubernetes v1.36.3 is driven sync by sync through random whole
// rollouts, and every sync is compared with rollout.Plan given exactly
// the Deployment and ReplicaSets the controller saw. See
// TestPlanMatchesDeploymentControllerSyncBySync.

import (
	"context"
	"flag"
	"fmt"
	"reflect"
	"slices"
	"time"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/controller"
	depcontroller "k8s.io/kubernetes/pkg/controller/deployment"
)

var (
	traceCount = flag.Int("traces", 1000, "random whole rollouts TestPlanMatchesDeploymentControllerSyncBySync drives through the real DeploymentController")
	traceSeed  = flag.Uint64("traces.seed", 1, "seed of the first trace; trace i uses seed+i")
	traceOnly  = flag.Int("traces.only", -1, "run only trace number N (0-based, with -traces.seed) and log every sync")
)

// The controller reads the clock through these two package variables
// (DeploymentTimedOut in util, requeueStuckDeployment in the controller);
// the harness freezes them at the instant it gives rollout.Plan. New
// conditions still get metav1.Now(): see the clock paragraph of
// TestPlanMatchesDeploymentControllerSyncBySync.
//
//go:linkname upstreamUtilNow k8s.io/kubernetes/pkg/controller/deployment/util.nowFn
var upstreamUtilNow func() time.Time

//go:linkname upstreamControllerNow k8s.io/kubernetes/pkg/controller/deployment.nowFn
var upstreamControllerNow func() time.Time

const (
	traceNamespace = metav1.NamespaceDefault
	traceName      = "web"
	traceKey       = traceNamespace + "/" + traceName
	traceUID       = types.UID("uid-deployment-web")
)

// liveController is one real DeploymentController, its informer stores
// (filled directly; the informers never run) and the fake API server
// behind its clientset. One is reused for every trace: a controller
// starts an event broadcaster goroutine that cannot be stopped from
// outside its package.
type liveController struct {
	sync                      func(context.Context, string) error
	client                    *fake.Clientset
	dStore, rsStore, podStore cache.Indexer
	api                       *apiServer
	queue                     *recordingQueue
	events                    *reasonRecorder
}

// reasonRecorder is the controller's event recorder: it keeps the reason
// of every event of the current sync and drops the rest.
type reasonRecorder struct {
	reasons []string
}

func (r *reasonRecorder) Event(_ runtime.Object, _, reason, _ string) {
	r.reasons = append(r.reasons, reason)
}

func (r *reasonRecorder) Eventf(_ runtime.Object, _, reason, _ string, _ ...any) {
	r.reasons = append(r.reasons, reason)
}

func (r *reasonRecorder) AnnotatedEventf(_ runtime.Object, _ map[string]string, _, reason, _ string, _ ...any) {
	r.reasons = append(r.reasons, reason)
}

// recordingQueue is the controller's work queue with the two calls a
// sync makes to look at a Deployment again recorded instead of queued.
type recordingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	requeues []requeue
}

// requeue is one request to sync again: after a delay, or rate-limited
// (as soon as the rate limiter allows).
type requeue struct {
	after       time.Duration
	rateLimited bool
}

func (q *recordingQueue) AddAfter(key string, after time.Duration) {
	q.requeues = append(q.requeues, requeue{after: after})
}

func (q *recordingQueue) AddRateLimited(key string) {
	q.requeues = append(q.requeues, requeue{rateLimited: true})
}

// unexported returns a settable reflect.Value for dc's unexported field
// name: the harness reaches syncHandler and eventRecorder as upstream's
// own tests do from inside the package.
func unexported(dc *depcontroller.DeploymentController, name string) reflect.Value {
	v := reflect.ValueOf(dc).Elem().FieldByName(name)
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func newLiveController() (*liveController, error) {
	api := &apiServer{}
	client := fake.NewSimpleClientset()
	client.PrependReactor("*", "*", api.react)
	f := informers.NewSharedInformerFactory(client, controller.NoResyncPeriodFunc())
	dInf, rsInf, podInf := f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods()
	dc, err := depcontroller.NewDeploymentController(context.Background(), dInf, rsInf, podInf, client)
	if err != nil {
		return nil, err
	}
	events := &reasonRecorder{}
	unexported(dc, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(events)))
	queue := &recordingQueue{TypedRateLimitingInterface: unexported(dc, "queue").Interface().(workqueue.TypedRateLimitingInterface[string])}
	unexported(dc, "queue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](queue)))
	return &liveController{
		events:   events,
		queue:    queue,
		sync:     unexported(dc, "syncHandler").Interface().(func(context.Context, string) error),
		client:   client,
		dStore:   dInf.Informer().GetIndexer(),
		rsStore:  rsInf.Informer().GetIndexer(),
		podStore: podInf.Informer().GetIndexer(),
		api:      api,
	}, nil
}

// apiServer stands in for kube-apiserver behind the fake clientset: it
// keeps one Deployment and its ReplicaSets and applies writes with the
// registry's rules: create sets uid, creationTimestamp and generation 1;
// an update keeps status (status updates keep spec and labels) and
// raises metadata.generation when the ReplicaSet's spec, or the
// Deployment's spec or annotations, change; a name taken is
// AlreadyExists. Like the fake clientset it does not check
// resourceVersion: a sync that writes one object twice from one stale
// copy succeeds twice, where a real API server refuses the second write
// as a conflict (traceResult.multiWrite counts such syncs for the
// Deployment).
type apiServer struct {
	d    *appsv1.Deployment
	rss  map[string]*appsv1.ReplicaSet
	rv   int
	uids int
	// failed records, per action of the current sync in order, whether
	// the API server refused it.
	failed []bool
}

func (a *apiServer) reset(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, uids int) {
	a.d = d.DeepCopy()
	a.rss = make(map[string]*appsv1.ReplicaSet, len(rss))
	for _, rs := range rss {
		a.rss[rs.Name] = rs.DeepCopy()
	}
	a.uids = uids
	a.failed = a.failed[:0]
}

func (a *apiServer) nextRV() string {
	a.rv++
	return fmt.Sprint(a.rv)
}

func (a *apiServer) react(action core.Action) (bool, runtime.Object, error) {
	obj, err := a.apply(action)
	a.failed = append(a.failed, err != nil)
	return true, obj, err
}

func (a *apiServer) apply(action core.Action) (runtime.Object, error) {
	res := action.GetResource().Resource
	switch {
	case res == "replicasets" && action.GetVerb() == "create":
		rs := action.(core.CreateAction).GetObject().(*appsv1.ReplicaSet).DeepCopy()
		if _, ok := a.rss[rs.Name]; ok {
			return nil, apierrors.NewAlreadyExists(appsv1.Resource("replicasets"), rs.Name)
		}
		a.uids++
		rs.UID = types.UID(fmt.Sprintf("uid-rs-%d", a.uids))
		rs.CreationTimestamp = metav1.Now()
		rs.Generation = 1
		rs.ResourceVersion = a.nextRV()
		rs.Status = appsv1.ReplicaSetStatus{}
		a.rss[rs.Name] = rs
		return rs.DeepCopy(), nil
	case res == "replicasets" && action.GetVerb() == "update" && action.GetSubresource() == "":
		rs := action.(core.UpdateAction).GetObject().(*appsv1.ReplicaSet).DeepCopy()
		old, ok := a.rss[rs.Name]
		if !ok {
			return nil, apierrors.NewNotFound(appsv1.Resource("replicasets"), rs.Name)
		}
		rs.UID, rs.CreationTimestamp, rs.DeletionTimestamp = old.UID, old.CreationTimestamp, old.DeletionTimestamp
		rs.Status = old.Status
		rs.Generation = old.Generation
		if !equality.Semantic.DeepEqual(old.Spec, rs.Spec) {
			rs.Generation++
		}
		rs.ResourceVersion = a.nextRV()
		a.rss[rs.Name] = rs
		return rs.DeepCopy(), nil
	case res == "replicasets" && action.GetVerb() == "delete":
		name := action.(core.DeleteAction).GetName()
		if _, ok := a.rss[name]; !ok {
			return nil, apierrors.NewNotFound(appsv1.Resource("replicasets"), name)
		}
		delete(a.rss, name)
		return nil, nil
	case res == "deployments" && action.GetVerb() == "update":
		d := action.(core.UpdateAction).GetObject().(*appsv1.Deployment).DeepCopy()
		old := a.d
		d.UID, d.CreationTimestamp, d.DeletionTimestamp = old.UID, old.CreationTimestamp, old.DeletionTimestamp
		d.Generation = old.Generation
		if action.GetSubresource() == "status" {
			d.Spec = old.Spec
			d.Labels = old.Labels
		} else {
			d.Status = old.Status
			if !equality.Semantic.DeepEqual(old.Spec, d.Spec) || !equality.Semantic.DeepEqual(old.Annotations, d.Annotations) {
				d.Generation++
			}
		}
		d.ResourceVersion = a.nextRV()
		a.d = d
		return d.DeepCopy(), nil
	case res == "deployments" && action.GetVerb() == "get":
		return a.d.DeepCopy(), nil
	case res == "events":
		return nil, nil
	}
	return nil, fmt.Errorf("harness API server: unexpected %s %s/%s", action.GetVerb(), res, action.GetSubresource())
}

// pods returns, for every ReplicaSet, status.replicas running pods and
// status.terminatingReplicas terminating ones: what the controller's pod
// lister holds (Recreate waits until no old pod is left).
func pods(rss []*appsv1.ReplicaSet, now time.Time) []any {
	var out []any
	isController := true
	for _, rs := range rss {
		n := rs.Status.Replicas
		term := int32(0)
		if rs.Status.TerminatingReplicas != nil {
			term = *rs.Status.TerminatingReplicas
		}
		for i := int32(0); i < n+term; i++ {
			p := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{
					Name:      fmt.Sprintf("%s-%d", rs.Name, i),
					Namespace: rs.Namespace,
					Labels:    rs.Spec.Template.Labels,
					OwnerReferences: []metav1.OwnerReference{{
						APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &isController,
					}},
				},
				Status: corev1.PodStatus{Phase: corev1.PodRunning},
			}
			if i >= n {
				p.DeletionTimestamp = &metav1.Time{Time: now}
			}
			out = append(out, p)
		}
	}
	return out
}

// syncOnce loads d and rss into the informer stores and the API server
// and runs one syncDeployment with the controller's clock frozen at now.
// It returns the sync's error, the actions the clientset recorded and the
// Deployment and ReplicaSets the API server holds afterwards (sorted by
// name).
func (c *liveController) syncOnce(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, uids int, now time.Time) (error, []core.Action, []bool, *appsv1.Deployment, []*appsv1.ReplicaSet, int) {
	c.api.reset(d, rss, uids)
	mustReplace(c.dStore, []any{d.DeepCopy()})
	objs := make([]any, len(rss))
	for i, rs := range rss {
		objs[i] = rs.DeepCopy()
	}
	mustReplace(c.rsStore, objs)
	mustReplace(c.podStore, pods(rss, now))
	c.client.ClearActions()
	c.queue.requeues = c.queue.requeues[:0]
	c.events.reasons = c.events.reasons[:0]
	savedUtil, savedController := upstreamUtilNow, upstreamControllerNow
	upstreamUtilNow = func() time.Time { return now }
	upstreamControllerNow = upstreamUtilNow
	err := c.sync(context.Background(), traceKey)
	upstreamUtilNow, upstreamControllerNow = savedUtil, savedController
	actions := c.client.Actions()
	outD := c.api.d.DeepCopy()
	outRSs := make([]*appsv1.ReplicaSet, 0, len(c.api.rss))
	for _, rs := range c.api.rss {
		outRSs = append(outRSs, rs.DeepCopy())
	}
	sortByName(outRSs)
	return err, actions, slices.Clone(c.api.failed), outD, outRSs, c.api.uids
}

func mustReplace(store cache.Indexer, objs []any) {
	if err := store.Replace(objs, ""); err != nil {
		panic(err)
	}
}
