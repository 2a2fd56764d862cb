package conformance

// The DaemonSet harness: the real DaemonSetsController of
// k8s.io/kubernetes v1.36.3, its informer stores filled directly (the
// informers never run), a fake clientset whose every call goes to an
// in-memory API server (dsAPIServer), and a fake clock the harness sets.
// dsLive.syncOnce runs one syncDaemonSet on a given world and returns
// every write the sync made, in the order the API server received it,
// and the objects the API server holds afterwards.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"time"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/controller"
	dscontroller "k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/util/consistency"
	clocktesting "k8s.io/utils/clock/testing"
)

const (
	dsName = "agent"
	dsKey  = traceNamespace + "/" + dsName
	dsUID  = types.UID("uid-daemonset-agent")
)

// dsFieldOf returns a settable reflect.Value for the unexported field
// name of the struct p points to: the harness reaches syncHandler, the
// queue, the expectations and the failed-pod backoff as upstream's own
// tests do from inside the package.
func dsFieldOf(p any, name string) reflect.Value {
	v := reflect.ValueOf(p).Elem().FieldByName(name)
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// dsLive is one real DaemonSetsController with its stores, the API
// server behind its clientset and its clock. One is reused for every
// trace (a controller starts an event broadcaster goroutine that cannot
// be stopped from outside its package).
type dsLive struct {
	dsc                                     *dscontroller.DaemonSetsController
	sync                                    func(context.Context, string) error
	client                                  *fake.Clientset
	setStore, podStore, revStore, nodeStore cache.Indexer
	api                                     *dsAPIServer
	clock                                   *clocktesting.FakeClock
	queue                                   *recordingQueue
}

var (
	dsLiveOnce sync.Once
	dsLiveOne  *dsLive
)

// liveDaemonSetsController returns the shared harness controller.
func liveDaemonSetsController() *dsLive {
	dsLiveOnce.Do(func() { dsLiveOne = newDsLive() })
	return dsLiveOne
}

func newDsLive() *dsLive {
	api := &dsAPIServer{}
	client := fake.NewSimpleClientset()
	client.PrependReactor("*", "*", api.react)
	f := informers.NewSharedInformerFactory(client, controller.NoResyncPeriodFunc())
	setInf, revInf := f.Apps().V1().DaemonSets(), f.Apps().V1().ControllerRevisions()
	podInf, nodeInf := f.Core().V1().Pods(), f.Core().V1().Nodes()
	clk := clocktesting.NewFakeClock(traceStart)
	dsc, err := dscontroller.NewDaemonSetsController(context.Background(), setInf, revInf, podInf, nodeInf, client,
		flowcontrol.NewFakeBackOff(time.Second, 15*time.Minute, clk))
	if err != nil {
		panic(err)
	}
	// The consistency gate (StaleControllerConsistencyDaemonSet) makes a
	// sync wait until the informers have seen the controller's own
	// writes; the harness fills the stores itself before every sync, so
	// the gate has nothing to wait for: it is replaced by the no-op store
	// upstream uses when the feature is off. It does not touch the
	// arithmetic.
	dsFieldOf(dsc, "consistencyStore").Set(reflect.ValueOf(consistency.ConsistencyStore(consistency.NewNoopConsistencyStore())))
	queue := &recordingQueue{TypedRateLimitingInterface: dsFieldOf(dsc, "queue").Interface().(workqueue.TypedRateLimitingInterface[string])}
	dsFieldOf(dsc, "queue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](queue)))
	return &dsLive{
		dsc:       dsc,
		sync:      dsFieldOf(dsc, "syncHandler").Interface().(func(context.Context, string) error),
		client:    client,
		setStore:  setInf.Informer().GetIndexer(),
		podStore:  podInf.Informer().GetIndexer(),
		revStore:  revInf.Informer().GetIndexer(),
		nodeStore: nodeInf.Informer().GetIndexer(),
		api:       api,
		clock:     clk,
		queue:     queue,
	}
}

// dsObjects is what the API server holds for one trace: the DaemonSet,
// the nodes, the pods and the ControllerRevisions by name, and the
// counter that makes UIDs and generated names unique.
type dsObjects struct {
	ds    *appsv1.DaemonSet
	nodes map[string]*corev1.Node
	pods  map[string]*corev1.Pod
	revs  map[string]*appsv1.ControllerRevision
	uids  int
}

func (o *dsObjects) clone() *dsObjects {
	out := &dsObjects{ds: o.ds.DeepCopy(), nodes: make(map[string]*corev1.Node, len(o.nodes)),
		pods: make(map[string]*corev1.Pod, len(o.pods)), revs: make(map[string]*appsv1.ControllerRevision, len(o.revs)), uids: o.uids}
	for k, n := range o.nodes {
		out.nodes[k] = n.DeepCopy()
	}
	for k, p := range o.pods {
		out.pods[k] = p.DeepCopy()
	}
	for k, r := range o.revs {
		out.revs[k] = r.DeepCopy()
	}
	return out
}

func sortedValues[T any](m map[string]*T) []*T {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*T, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// dsAPIServer stands in for kube-apiserver behind the fake clientset,
// with the registry's rules for the writes a DaemonSet sync makes:
//
//   - pod create: the name is generateName and five characters from a
//     counter (the registry picks them at random); the server sets uid,
//     creationTimestamp (the virtual now) and status.phase Pending;
//   - pod delete: graceful, as for a pod with the default grace period:
//     metadata.deletionTimestamp is set to now and the pod stays until
//     the world's kubelet lets it go; a missing pod is NotFound;
//   - pod merge patch (the relabelling of dedupCurHistories);
//   - ControllerRevision create (a taken name is AlreadyExists), get,
//     update, delete;
//   - DaemonSet status update (only status changes; a negative count is
//     refused) and get.
//
// Pod creations run in parallel goroutines upstream: every call holds mu.
type dsAPIServer struct {
	mu  sync.Mutex
	now time.Time
	obj *dsObjects
	rv  int
	// failed records, per action in order, whether it was refused.
	failed []bool
}

func (a *dsAPIServer) react(action core.Action) (bool, runtime.Object, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	obj, err := a.apply(action)
	a.failed = append(a.failed, err != nil)
	return true, obj, err
}

func (a *dsAPIServer) nextRV() string {
	a.rv++
	return strconv.Itoa(a.rv)
}

// generatedSuffix is five characters of the registry's alphabet from n.
func generatedSuffix(n int) string {
	const safe = "bcdfghjklmnpqrstvwxz2456789"
	var b [5]byte
	for i := range b {
		b[i] = safe[n%len(safe)]
		n /= len(safe)
	}
	return string(b[:])
}

func (a *dsAPIServer) apply(action core.Action) (runtime.Object, error) {
	o := a.obj
	res, verb, sub := action.GetResource().Resource, action.GetVerb(), action.GetSubresource()
	switch {
	case res == "pods" && verb == "create":
		p := action.(core.CreateAction).GetObject().(*corev1.Pod).DeepCopy()
		o.uids++
		if p.Name == "" {
			for n := o.uids; ; n++ {
				p.Name = p.GenerateName + generatedSuffix(n)
				if _, ok := o.pods[p.Name]; !ok {
					break
				}
			}
		}
		if _, ok := o.pods[p.Name]; ok {
			return nil, apierrors.NewAlreadyExists(corev1.Resource("pods"), p.Name)
		}
		p.Namespace = action.GetNamespace()
		p.UID = types.UID(fmt.Sprintf("uid-pod-%d", o.uids))
		p.CreationTimestamp = metav1.Time{Time: a.now}
		p.ResourceVersion = a.nextRV()
		p.Status = corev1.PodStatus{Phase: corev1.PodPending}
		o.pods[p.Name] = p
		return p.DeepCopy(), nil
	case res == "pods" && verb == "delete":
		name := action.(core.DeleteAction).GetName()
		p, ok := o.pods[name]
		if !ok {
			return nil, apierrors.NewNotFound(corev1.Resource("pods"), name)
		}
		if p.DeletionTimestamp == nil {
			p.DeletionTimestamp = &metav1.Time{Time: a.now}
			p.ResourceVersion = a.nextRV()
		}
		return nil, nil
	case res == "pods" && verb == "patch":
		pa := action.(core.PatchAction)
		old, ok := o.pods[pa.GetName()]
		if !ok {
			return nil, apierrors.NewNotFound(corev1.Resource("pods"), pa.GetName())
		}
		if pa.GetPatchType() != types.MergePatchType {
			return nil, fmt.Errorf("harness API server: patch type %s", pa.GetPatchType())
		}
		orig, err := json.Marshal(old)
		if err != nil {
			return nil, err
		}
		// A merge patch of labels is the same strategic merge patch.
		patched, err := strategicpatch.StrategicMergePatch(orig, pa.GetPatch(), &corev1.Pod{})
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		p := &corev1.Pod{}
		if err := json.Unmarshal(patched, p); err != nil {
			return nil, err
		}
		p.ResourceVersion = a.nextRV()
		o.pods[p.Name] = p
		return p.DeepCopy(), nil
	case res == "controllerrevisions" && verb == "create":
		r := action.(core.CreateAction).GetObject().(*appsv1.ControllerRevision).DeepCopy()
		if _, ok := o.revs[r.Name]; ok {
			return nil, apierrors.NewAlreadyExists(appsv1.Resource("controllerrevisions"), r.Name)
		}
		o.uids++
		r.Namespace = action.GetNamespace()
		r.UID = types.UID(fmt.Sprintf("uid-rev-%d", o.uids))
		r.CreationTimestamp = metav1.Time{Time: a.now}
		r.ResourceVersion = a.nextRV()
		o.revs[r.Name] = r
		return r.DeepCopy(), nil
	case res == "controllerrevisions" && verb == "get":
		name := action.(core.GetAction).GetName()
		r, ok := o.revs[name]
		if !ok {
			return nil, apierrors.NewNotFound(appsv1.Resource("controllerrevisions"), name)
		}
		return r.DeepCopy(), nil
	case res == "controllerrevisions" && verb == "update":
		r := action.(core.UpdateAction).GetObject().(*appsv1.ControllerRevision).DeepCopy()
		old, ok := o.revs[r.Name]
		if !ok {
			return nil, apierrors.NewNotFound(appsv1.Resource("controllerrevisions"), r.Name)
		}
		r.UID, r.CreationTimestamp = old.UID, old.CreationTimestamp
		r.ResourceVersion = a.nextRV()
		o.revs[r.Name] = r
		return r.DeepCopy(), nil
	case res == "controllerrevisions" && verb == "delete":
		name := action.(core.DeleteAction).GetName()
		if _, ok := o.revs[name]; !ok {
			return nil, apierrors.NewNotFound(appsv1.Resource("controllerrevisions"), name)
		}
		delete(o.revs, name)
		return nil, nil
	case res == "daemonsets" && verb == "update" && sub == "status":
		d := action.(core.UpdateAction).GetObject().(*appsv1.DaemonSet)
		if err := checkDaemonSetStatus(&d.Status); err != nil {
			return nil, err
		}
		out := o.ds.DeepCopy()
		out.Status = *d.Status.DeepCopy()
		out.ResourceVersion = a.nextRV()
		o.ds = out
		return out.DeepCopy(), nil
	case res == "daemonsets" && verb == "get":
		return o.ds.DeepCopy(), nil
	case res == "events":
		return nil, nil
	}
	return nil, fmt.Errorf("harness API server: unexpected %s %s/%s", verb, res, sub)
}

// checkDaemonSetStatus refuses a status with a negative count, as the
// API server's ValidateDaemonSetStatusUpdate does.
func checkDaemonSetStatus(s *appsv1.DaemonSetStatus) error {
	for _, v := range []int64{int64(s.CurrentNumberScheduled), int64(s.NumberMisscheduled), int64(s.DesiredNumberScheduled),
		int64(s.NumberReady), int64(s.UpdatedNumberScheduled), int64(s.NumberAvailable), int64(s.NumberUnavailable), s.ObservedGeneration} {
		if v < 0 {
			return apierrors.NewBadRequest("negative DaemonSet status count")
		}
	}
	return nil
}

// dsSyncResult is one sync of the real controller.
type dsSyncResult struct {
	err error
	// actions are the clientset's recorded calls, in the order the API
	// server received them, and failed tells which it refused.
	actions []core.Action
	failed  []bool
	// after is what the API server holds after the sync.
	after *dsObjects
	// requeues are the sync's AddAfter and AddRateLimited calls.
	requeues []requeue
}

// syncOnce runs one syncDaemonSet on in (left unchanged) at now and
// returns what it did. The informer stores hold exactly in's objects.
// Every sync starts with the controller's expectations satisfied (fresh
// expectations: the previous sync's writes are in the stores) and a
// fresh failed-pod backoff on the clock set to now, so a Failed pod is
// deleted at once, as daemonset.Plan models it.
func (c *dsLive) syncOnce(in *dsObjects, now time.Time) dsSyncResult {
	c.api.mu.Lock()
	c.api.obj = in.clone()
	c.api.now = now
	c.api.failed = c.api.failed[:0]
	c.api.mu.Unlock()
	mustReplace(c.setStore, []any{in.ds.DeepCopy()})
	var nodes, pods, revs []any
	for _, n := range sortedValues(in.nodes) {
		nodes = append(nodes, n.DeepCopy())
	}
	for _, p := range sortedValues(in.pods) {
		pods = append(pods, p.DeepCopy())
	}
	for _, r := range sortedValues(in.revs) {
		revs = append(revs, r.DeepCopy())
	}
	mustReplace(c.nodeStore, nodes)
	mustReplace(c.podStore, pods)
	mustReplace(c.revStore, revs)
	c.client.ClearActions()
	c.queue.requeues = c.queue.requeues[:0]
	c.clock.SetTime(now)
	dsFieldOf(c.dsc, "expectations").Set(reflect.ValueOf(controller.ControllerExpectationsInterface(controller.NewControllerExpectations())))
	dsFieldOf(c.dsc, "failedPodsBackoff").Set(reflect.ValueOf(flowcontrol.NewFakeBackOff(time.Second, 15*time.Minute, c.clock)))
	err := c.sync(context.Background(), dsKey)
	c.api.mu.Lock()
	defer c.api.mu.Unlock()
	return dsSyncResult{
		err:      err,
		actions:  c.client.Actions(),
		failed:   append([]bool(nil), c.api.failed...),
		after:    c.api.obj.clone(),
		requeues: append([]requeue(nil), c.queue.requeues...),
	}
}
