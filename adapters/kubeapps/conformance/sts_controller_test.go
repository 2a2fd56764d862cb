package conformance

// The StatefulSet harness: the real StatefulSetController of
// k8s.io/kubernetes v1.36.3, its informer stores filled directly (the
// informers never run), a fake clientset whose every call goes to an
// in-memory API server (stsAPIServer), and a passive clock the harness
// sets. syncOnce runs one StatefulSetController.sync on a given world and
// returns every write the sync made, in the order the API server
// received it, and the objects the API server holds afterwards.

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
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/controller"
	stscontroller "k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/util/consistency"
	"k8s.io/kubernetes/pkg/features"
	clocktesting "k8s.io/utils/clock/testing"
)

// upstreamStatefulSetSync is StatefulSetController.sync (stateful_set.go):
// one pass of the controller for one key, as its worker runs it. The
// method is unexported; the linkname reaches it as upstream's own tests
// do from inside the package.
//
//go:linkname upstreamStatefulSetSync k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).sync
func upstreamStatefulSetSync(ssc *stscontroller.StatefulSetController, ctx context.Context, key string) error

const (
	stsName = "web"
	stsKey  = traceNamespace + "/" + stsName
	stsUID  = types.UID("uid-statefulset-web")
)

// fieldOf returns a settable reflect.Value for the unexported field name
// of the struct p points to.
func fieldOf(p any, name string) reflect.Value {
	v := reflect.ValueOf(p).Elem().FieldByName(name)
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// stsLive is one real StatefulSetController with its stores, the API
// server behind its clientset and its clock. One is reused for every
// trace (a controller starts an event broadcaster goroutine that cannot
// be stopped from outside its package).
type stsLive struct {
	ssc                                    *stscontroller.StatefulSetController
	client                                 *fake.Clientset
	setStore, podStore, revStore, pvcStore cache.Indexer
	api                                    *stsAPIServer
	clock                                  *clocktesting.FakePassiveClock
	queue                                  *recordingQueue
}

var (
	stsLiveOnce sync.Once
	stsLiveOne  *stsLive
)

// liveStatefulSetController returns the shared harness controller.
func liveStatefulSetController() *stsLive {
	stsLiveOnce.Do(func() { stsLiveOne = newStsLive() })
	return stsLiveOne
}

func newStsLive() *stsLive {
	api := &stsAPIServer{}
	client := fake.NewSimpleClientset()
	client.PrependReactor("*", "*", api.react)
	f := informers.NewSharedInformerFactory(client, controller.NoResyncPeriodFunc())
	podInf, setInf := f.Core().V1().Pods(), f.Apps().V1().StatefulSets()
	pvcInf, revInf := f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().ControllerRevisions()
	ssc := stscontroller.NewStatefulSetController(context.Background(), podInf, setInf, pvcInf, revInf, client)
	// The consistency gate (StaleControllerConsistencyStatefulSet) makes a
	// sync wait until the informers have seen the controller's own
	// writes; here the harness fills the stores itself before every
	// sync, so the gate has nothing to wait for: it is replaced by the
	// no-op store upstream uses when the feature is off. It does not
	// touch the arithmetic.
	fieldOf(ssc, "consistencyStore").Set(reflect.ValueOf(consistency.ConsistencyStore(consistency.NewNoopConsistencyStore())))
	clk := clocktesting.NewFakePassiveClock(traceStart)
	fieldOf(ssc, "clock").Set(reflect.ValueOf(clk))
	queue := &recordingQueue{TypedRateLimitingInterface: fieldOf(ssc, "queue").Interface().(workqueue.TypedRateLimitingInterface[string])}
	fieldOf(ssc, "queue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](queue)))
	return &stsLive{
		ssc:      ssc,
		client:   client,
		setStore: setInf.Informer().GetIndexer(),
		podStore: podInf.Informer().GetIndexer(),
		revStore: revInf.Informer().GetIndexer(),
		pvcStore: pvcInf.Informer().GetIndexer(),
		api:      api,
		clock:    clk,
		queue:    queue,
	}
}

// stsObjects is what the API server holds for one trace: the
// StatefulSet, its pods by name and its ControllerRevisions by name, and
// the counters that make resource versions and UIDs unique.
type stsObjects struct {
	set  *appsv1.StatefulSet
	pods map[string]*corev1.Pod
	revs map[string]*appsv1.ControllerRevision
	uids int
}

func (o *stsObjects) clone() *stsObjects {
	out := &stsObjects{set: o.set.DeepCopy(), pods: make(map[string]*corev1.Pod, len(o.pods)), revs: make(map[string]*appsv1.ControllerRevision, len(o.revs)), uids: o.uids}
	for k, p := range o.pods {
		out.pods[k] = p.DeepCopy()
	}
	for k, r := range o.revs {
		out.revs[k] = r.DeepCopy()
	}
	return out
}

// sortedPods returns the pods sorted by name.
func (o *stsObjects) sortedPods() []*corev1.Pod {
	out := make([]*corev1.Pod, 0, len(o.pods))
	for _, p := range o.pods {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// sortedRevisions returns the revisions sorted by name.
func (o *stsObjects) sortedRevisions() []*appsv1.ControllerRevision {
	out := make([]*appsv1.ControllerRevision, 0, len(o.revs))
	for _, r := range o.revs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// stsAPIServer stands in for kube-apiserver behind the fake clientset,
// with the registry's rules for the writes a StatefulSet sync makes:
//
//   - every create: metadata.namespace is the request's namespace;
//   - pod create: a taken name is AlreadyExists; the server sets uid,
//     creationTimestamp (the virtual now) and status.phase Pending, as
//     the pod strategy does;
//   - pod delete: graceful, as for a pod with the default 30 s grace
//     period: metadata.deletionTimestamp is set to now and the pod stays
//     until the world's kubelet lets it go; deleting a terminating pod
//     changes nothing; a missing pod is NotFound;
//   - pod update: spec and metadata replaced, status and timestamps kept;
//   - pod patch (adoption and release of a pod): the strategic merge
//     patch applied to the stored pod, its metadata.uid a precondition;
//   - ControllerRevision create (a taken name is AlreadyExists), get,
//     update (of the revision number), delete;
//   - StatefulSet status update: only status changes; it is refused, as
//     the status strategy's validation refuses it, when a counter is
//     negative, when readyReplicas, currentReplicas, updatedReplicas or
//     availableReplicas exceeds replicas, or availableReplicas exceeds
//     readyReplicas (the check ValidateStatefulSetStatus makes);
//   - StatefulSet get (the adoption recheck).
//
// Updates are checked as the API server checks them: an update whose
// metadata.resourceVersion is set and is not the stored one is a
// Conflict (the controller then retries from its cache, which is as
// stale, and fails). Objects the world makes get a resource version too.
// Parallel syncs call it from several goroutines at once: every call
// holds mu.
type stsAPIServer struct {
	mu  sync.Mutex
	now time.Time
	obj *stsObjects
	rv  int
	// failed records, per action in order, whether it was refused.
	failed []bool
}

func (a *stsAPIServer) react(action core.Action) (bool, runtime.Object, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	obj, err := a.apply(action)
	a.failed = append(a.failed, err != nil)
	return true, obj, err
}

func (a *stsAPIServer) nextRV() string {
	a.rv++
	return strconv.Itoa(a.rv)
}

func (a *stsAPIServer) apply(action core.Action) (runtime.Object, error) {
	o := a.obj
	res, verb, sub := action.GetResource().Resource, action.GetVerb(), action.GetSubresource()
	switch {
	case res == "pods" && verb == "create":
		p := action.(core.CreateAction).GetObject().(*corev1.Pod).DeepCopy()
		if _, ok := o.pods[p.Name]; ok {
			return nil, apierrors.NewAlreadyExists(corev1.Resource("pods"), p.Name)
		}
		o.uids++
		p.Namespace = action.GetNamespace()
		p.UID = types.UID(fmt.Sprintf("uid-pod-%d", o.uids))
		p.CreationTimestamp = metav1.Time{Time: a.now}
		p.ResourceVersion = a.nextRV()
		p.Status = corev1.PodStatus{Phase: corev1.PodPending}
		o.pods[p.Name] = p
		return p.DeepCopy(), nil
	case res == "pods" && verb == "update" && sub == "":
		p := action.(core.UpdateAction).GetObject().(*corev1.Pod).DeepCopy()
		old, ok := o.pods[p.Name]
		if !ok {
			return nil, apierrors.NewNotFound(corev1.Resource("pods"), p.Name)
		}
		if p.ResourceVersion != "" && p.ResourceVersion != old.ResourceVersion {
			return nil, apierrors.NewConflict(corev1.Resource("pods"), p.Name, fmt.Errorf("the object has been modified"))
		}
		p.UID, p.CreationTimestamp, p.DeletionTimestamp, p.Status = old.UID, old.CreationTimestamp, old.DeletionTimestamp, old.Status
		p.ResourceVersion = a.nextRV()
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
		if pa.GetPatchType() != types.StrategicMergePatchType {
			return nil, fmt.Errorf("harness API server: patch type %s", pa.GetPatchType())
		}
		orig, err := json.Marshal(old)
		if err != nil {
			return nil, err
		}
		patched, err := strategicpatch.StrategicMergePatch(orig, pa.GetPatch(), &corev1.Pod{})
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		p := &corev1.Pod{}
		if err := json.Unmarshal(patched, p); err != nil {
			return nil, err
		}
		if p.UID != old.UID {
			return nil, apierrors.NewConflict(corev1.Resource("pods"), p.Name, fmt.Errorf("uid precondition"))
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
		if r.ResourceVersion != "" && r.ResourceVersion != old.ResourceVersion {
			return nil, apierrors.NewConflict(appsv1.Resource("controllerrevisions"), r.Name, fmt.Errorf("the object has been modified"))
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
	case res == "statefulsets" && verb == "update" && sub == "status":
		s := action.(core.UpdateAction).GetObject().(*appsv1.StatefulSet)
		if s.ResourceVersion != "" && s.ResourceVersion != o.set.ResourceVersion {
			return nil, apierrors.NewConflict(appsv1.Resource("statefulsets"), s.Name, fmt.Errorf("the object has been modified"))
		}
		if err := checkStatefulSetStatus(&s.Status); err != nil {
			return nil, err
		}
		set := o.set.DeepCopy()
		set.Status = *s.Status.DeepCopy()
		set.ResourceVersion = a.nextRV()
		o.set = set
		return set.DeepCopy(), nil
	case res == "statefulsets" && verb == "get":
		return o.set.DeepCopy(), nil
	case res == "events":
		return nil, nil
	}
	return nil, fmt.Errorf("harness API server: unexpected %s %s/%s", verb, res, sub)
}

// checkStatefulSetStatus refuses a status the API server's status
// validation refuses: upstream's ValidateStatefulSetStatus
// (pkg/apis/apps/validation) on the status converted to the internal
// type, as the status strategy's ValidateUpdate runs it.
func checkStatefulSetStatus(s *appsv1.StatefulSetStatus) error {
	var internal apps.StatefulSetStatus
	if err := appsv1defaults.Convert_v1_StatefulSetStatus_To_apps_StatefulSetStatus(s, &internal, nil); err != nil {
		return err
	}
	if errs := appsvalidation.ValidateStatefulSetStatus(&internal, k8sfield.NewPath("status")); len(errs) > 0 {
		return apierrors.NewInvalid(apps.Kind("StatefulSet"), stsName, errs)
	}
	return nil
}

// stsSyncResult is one sync of the real controller.
type stsSyncResult struct {
	err error
	// actions are the clientset's recorded calls, in the order the API
	// server received them, and failed tells which it refused.
	actions []core.Action
	failed  []bool
	// after is what the API server holds after the sync.
	after *stsObjects
	// requeues are the sync's AddAfter and AddRateLimited calls.
	requeues []requeue
}

// syncOnce runs one StatefulSetController.sync on in (left unchanged)
// at now, with the MaxUnavailableStatefulSet gate set to gate, and
// returns what it did. The informer stores hold exactly in's objects.
func (c *stsLive) syncOnce(in *stsObjects, now time.Time, gate bool) stsSyncResult {
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.MaxUnavailableStatefulSet): gate}); err != nil {
		panic(err)
	}
	c.api.mu.Lock()
	c.api.obj = in.clone()
	c.api.now = now
	c.api.failed = c.api.failed[:0]
	c.api.mu.Unlock()
	mustReplace(c.setStore, []any{in.set.DeepCopy()})
	pods := make([]any, 0, len(in.pods))
	for _, p := range in.sortedPods() {
		pods = append(pods, p.DeepCopy())
	}
	mustReplace(c.podStore, pods)
	revs := make([]any, 0, len(in.revs))
	for _, r := range in.sortedRevisions() {
		revs = append(revs, r.DeepCopy())
	}
	mustReplace(c.revStore, revs)
	mustReplace(c.pvcStore, nil)
	c.client.ClearActions()
	c.queue.requeues = c.queue.requeues[:0]
	c.clock.SetTime(now)
	err := upstreamStatefulSetSync(c.ssc, context.Background(), stsKey)
	c.api.mu.Lock()
	defer c.api.mu.Unlock()
	return stsSyncResult{
		err:      err,
		actions:  c.client.Actions(),
		failed:   append([]bool(nil), c.api.failed...),
		after:    c.api.obj.clone(),
		requeues: append([]requeue(nil), c.queue.requeues...),
	}
}
