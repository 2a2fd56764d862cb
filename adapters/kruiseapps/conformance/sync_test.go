package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	kruiserevision "github.com/openkruise/kruise/pkg/controller/cloneset/revision"
	clonesetsync "github.com/openkruise/kruise/pkg/controller/cloneset/sync"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	"github.com/openkruise/kruise/pkg/features"
	utilfeature "github.com/openkruise/kruise/pkg/util/feature"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// kruiseScheme knows core/v1 and apps.kruise.io, as kruise-manager's does.
var kruiseScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := appsv1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// effects is what one reconcile's scale and update steps leave behind,
// pod by pod: the observable result both sides are compared on.
type effects struct {
	// Deleted are the pods deleted, by name (a set: see the README).
	Deleted []string
	// Created counts the pods created at each revision, with the
	// lifecycle state they were created in ("revision/state").
	Created map[string]int
	// Pods are the surviving pods' fields the decisions write.
	Pods map[string]podEffect
	// Err is the error the step returned, "" for none.
	Err string
}

// podEffect holds the fields of one pod that Scale and Update write.
type podEffect struct {
	Revision           string
	Lifecycle          string
	SpecifiedDelete    bool
	InPlaceUpdateReady string
	// Image is the app container's image; Held says the pod carries an
	// InPlaceUpdateGraceAnnotation.
	Image string
	Held  bool
}

func podEffectOf(p *corev1.Pod) podEffect {
	e := podEffect{
		Revision:        p.Labels[apps.ControllerRevisionHashLabelKey],
		Lifecycle:       p.Labels[appspub.LifecycleStateKey],
		SpecifiedDelete: hasKey(p.Labels, appsv1alpha1.SpecifiedDeleteKey),
	}
	for _, c := range p.Status.Conditions {
		if c.Type == appspub.InPlaceUpdateReady {
			e.InPlaceUpdateReady = string(c.Status)
		}
	}
	for _, c := range p.Spec.Containers {
		if c.Name == "app" {
			e.Image = c.Image
		}
	}
	e.Held = hasKey(p.Annotations, appspub.InPlaceUpdateGraceKey)
	return e
}

// kruiseReconcile runs kruise's sync.Scale and, when Scale modified
// nothing, sync.Update on s through controller-runtime's fake client, as
// syncCloneSet calls them, and reads back what they did.
func kruiseReconcile(s *state) (effects, bool) {
	objs := make([]client.Object, len(s.pods))
	for i, p := range s.pods {
		objs[i] = p.DeepCopy()
	}
	var mu sync.Mutex
	created := map[string]int{}
	c := fake.NewClientBuilder().WithScheme(kruiseScheme).WithObjects(objs...).
		WithInterceptorFuncs(interceptor.Funcs{Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if p, ok := obj.(*corev1.Pod); ok {
				mu.Lock()
				created[p.Labels[apps.ControllerRevisionHashLabelKey]+"/"+p.Labels[appspub.LifecycleStateKey]]++
				mu.Unlock()
			}
			return c.Create(ctx, obj, opts...)
		}}).Build()
	ctrl := clonesetsync.New(c, &record.FakeRecorder{})
	defer clonesetutils.ScaleExpectations.DeleteExpectations(clonesetutils.GetControllerKey(s.cs))

	pods := make([]*corev1.Pod, len(s.pods))
	for i, p := range s.pods {
		pods[i] = p.DeepCopy()
	}
	curCS := s.cs.DeepCopy()
	var e effects
	modified, err := ctrl.Scale(curCS, s.cs.DeepCopy(), s.current.Name, s.update.Name, pods, nil)
	if err != nil {
		e.Err = "scale: " + err.Error()
	} else if !modified && s.cs.DeletionTimestamp == nil {
		revs := make([]*apps.ControllerRevision, len(s.revisions))
		for i, r := range s.revisions {
			revs[i] = r.DeepCopy()
		}
		if err := ctrl.Update(s.cs.DeepCopy(), s.current.DeepCopy(), s.update.DeepCopy(), revs, pods, nil); err != nil {
			e.Err = "update: " + err.Error()
		}
	}

	var list corev1.PodList
	if err := c.List(context.TODO(), &list); err != nil {
		panic(err)
	}
	e.Pods = map[string]podEffect{}
	present := map[string]bool{}
	for i := range list.Items {
		p := &list.Items[i]
		if p.DeletionTimestamp != nil {
			// Deleted, held by a finalizer.
			continue
		}
		present[p.Name] = true
		if _, orig := findPod(s.pods, p.Name); orig {
			e.Pods[p.Name] = podEffectOf(p)
		}
	}
	for _, p := range s.pods {
		if !present[p.Name] {
			e.Deleted = append(e.Deleted, p.Name)
		}
	}
	if len(created) > 0 {
		e.Created = created
	}
	return e, modified
}

func findPod(pods []*corev1.Pod, name string) (*corev1.Pod, bool) {
	for _, p := range pods {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// ourReconcile applies cloneset.Scale and, when it modified nothing,
// cloneset.Update to s, and turns their decisions into the same effects.
func ourReconcile(t *rapid.T, s *state, opts cloneset.Options) (effects, cloneset.ScaleDecision, cloneset.UpdateDecision) {
	cs := ourCloneSet(s.cs)
	pods := ourPods(s.pods)
	revs := cloneset.Revisions{Current: s.current.Name, Update: s.update.Name}
	var e effects
	e.Pods = map[string]podEffect{}
	for _, p := range s.pods {
		e.Pods[p.Name] = podEffectOf(p)
	}
	set := func(name string, f func(*podEffect)) {
		pe, ok := e.Pods[name]
		if !ok {
			t.Fatalf("decision names pod %q, which does not exist", name)
		}
		f(&pe)
		e.Pods[name] = pe
	}

	sd, err := cloneset.Scale(cs, pods, revs, s.now, opts)
	if err != nil {
		t.Fatalf("Scale: %v", err)
	}
	for _, name := range sd.Regret {
		set(name, func(p *podEffect) { p.Lifecycle = string(cloneset.PreparingNormal) })
	}
	for _, name := range sd.PrepareDelete {
		set(name, func(p *podEffect) { p.Lifecycle = string(cloneset.PreparingDelete) })
	}
	for _, name := range sd.Delete {
		e.Deleted = append(e.Deleted, name)
		delete(e.Pods, name)
	}
	if n := sd.CreateCurrent + sd.CreateUpdate; n > 0 {
		e.Created = map[string]int{}
		e.Created[s.current.Name+"/PreparingNormal"] += int(sd.CreateCurrent)
		e.Created[s.update.Name+"/PreparingNormal"] += int(sd.CreateUpdate)
		for k, v := range e.Created {
			if v == 0 {
				delete(e.Created, k)
			}
		}
	}
	var ud cloneset.UpdateDecision
	if sd.Modified || cs.Deleting {
		return e, sd, ud
	}
	revisions := make([]cloneset.ControllerRevision, len(s.revisions))
	for i, r := range s.revisions {
		revisions[i] = ourRevision(r)
	}
	ud, err = cloneset.Update(cs, pods, revisions, revs, s.now, opts)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	for _, a := range ud.Actions {
		switch a.Kind {
		case cloneset.SetPodLifecycle:
			set(a.Pod, func(p *podEffect) { p.Lifecycle = string(a.To) })
		case cloneset.ApplyHeldPodUpdate:
			p, _ := findPod(s.pods, a.Pod)
			var held inplaceupdate.UpdateSpec
			if err := json.Unmarshal([]byte(p.Annotations[appspub.InPlaceUpdateGraceKey]), &held); err != nil {
				t.Fatalf("grace annotation of %s: %v", a.Pod, err)
			}
			set(a.Pod, func(p *podEffect) { p.Held, p.Image = false, held.ContainerImages["app"] })
		case cloneset.DropHeldPodUpdate:
			set(a.Pod, func(p *podEffect) { p.Held = false })
		case cloneset.SetPodInPlaceUpdateReady:
			set(a.Pod, func(p *podEffect) { p.InPlaceUpdateReady = string(cloneset.ConditionTrue) })
		case cloneset.RecreatePod:
			set(a.Pod, func(p *podEffect) { p.SpecifiedDelete = true })
		case cloneset.UpdatePodInPlace:
			set(a.Pod, func(p *podEffect) {
				p.Revision = a.Revision
				p.Lifecycle = string(cloneset.Updating)
				if a.GraceSeconds > 0 {
					// The new images wait in the grace annotation.
					p.Held = true
				} else if img, ok := a.InPlace.Images["app"]; ok {
					p.Image = img
				}
				// The condition goes False on a pod with the readiness
				// gate, which the generated pods have exactly when they
				// have the condition.
				if p.InPlaceUpdateReady != "" {
					p.InPlaceUpdateReady = string(cloneset.ConditionFalse)
				}
			})
		default:
			t.Fatalf("Update action %v is not generated by these inputs", a.Kind)
		}
	}
	if ud.Branch == cloneset.UpdateFailed {
		e.Err = "update: " + ud.Failure
	}
	return e, sd, ud
}

// TestScaleAndUpdateMatchKruise drives kruise's sync.Scale and sync.Update
// on generated CloneSets and pods and compares what they did with what
// cloneset.Scale and cloneset.Update decide: pods created (per revision
// and lifecycle state), pods deleted, and every surviving pod's revision,
// lifecycle state, specified-delete label and InPlaceUpdateReady
// condition, plus the error text.
func TestScaleAndUpdateMatchKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genState(8).Draw(t, "state")

		want, kruiseModified := kruiseReconcile(s)
		got, sd, ud := ourReconcile(t, s, cloneset.Options{})
		sort.Strings(want.Deleted)
		sort.Strings(got.Deleted)
		if sd.Modified != kruiseModified {
			t.Fatalf("Scale modified = %v, kruise %v (branch %v)\n%s", sd.Modified, kruiseModified, sd.Branch, s)
		}
		if diff := diffEffects(want, got); diff != "" {
			t.Fatalf("reconcile differs from kruise's (scale branch %v, update branch %v, diffs %+v):\n%s\n%s", sd.Branch, ud.Branch, sd.Diffs, diff, s)
		}
		fn := "sync.Scale + sync.Update (fake client)"
		count(fn, "agree")
		count("sync.Scale branch "+sd.Branch.String(), "agree")
		if !sd.Modified && s.cs.DeletionTimestamp == nil {
			count("sync.Update branch "+ud.Branch.String(), "agree")
		}
		// Which writes the agreeing cases exercised, once per case and kind.
		kinds := map[string]bool{}
		for _, a := range ud.Actions {
			kinds[a.Kind.String()] = true
		}
		if len(sd.Delete) > 0 {
			kinds["delete (scale)"] = true
		}
		if len(sd.PrepareDelete) > 0 {
			kinds["PreparingDelete (scale)"] = true
		}
		if sd.CreateCurrent+sd.CreateUpdate > 0 {
			kinds["create (scale)"] = true
		}
		for k := range kinds {
			count("sync.Scale/Update cases that write: "+k, "agree")
		}
	})
}

// diffEffects describes how got differs from want, or "".
func diffEffects(want, got effects) string {
	var b strings.Builder
	if fmt.Sprint(want.Deleted) != fmt.Sprint(got.Deleted) {
		fmt.Fprintf(&b, "deleted: kruise %v, ours %v\n", want.Deleted, got.Deleted)
	}
	if fmt.Sprint(want.Created) != fmt.Sprint(got.Created) {
		fmt.Fprintf(&b, "created: kruise %v, ours %v\n", want.Created, got.Created)
	}
	if want.Err != got.Err {
		fmt.Fprintf(&b, "error: kruise %q, ours %q\n", want.Err, got.Err)
	}
	var names []string
	for n := range want.Pods {
		names = append(names, n)
	}
	for n := range got.Pods {
		if _, ok := want.Pods[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if want.Pods[n] != got.Pods[n] {
			fmt.Fprintf(&b, "pod %s: kruise %+v, ours %+v\n", n, want.Pods[n], got.Pods[n])
		}
	}
	return b.String()
}

// genInPlaceRollout draws a reconcile in the middle of an in-place
// rollout: an InPlaceIfPossible or InPlaceOnly CloneSet whose update
// revision changes only images, as many pods as replicas, none marked for
// deletion, in lifecycle "" or Normal, at the current or update revision.
func genInPlaceRollout() *rapid.Generator[*state] {
	return rapid.Custom(func(t *rapid.T) *state {
		s := genState(8).Draw(t, "state")
		cs := s.cs
		cs.Spec.UpdateStrategy.Type = appsv1alpha1.CloneSetUpdateStrategyType(rapid.SampledFrom([]string{"InPlaceIfPossible", "InPlaceOnly"}).Draw(t, "strategy"))
		cs.Spec.UpdateStrategy.Paused = false
		if rapid.IntRange(0, 2).Draw(t, "keepLifecycle") != 0 {
			cs.Spec.Lifecycle = nil
		}
		cs.Spec.ScaleStrategy.PodsToDelete = nil
		r := int32(len(s.pods))
		cs.Spec.Replicas = &r

		rc := kruiserevision.NewRevisionControl()
		cs.Spec.Template = template(t, "base")
		cur, err := rc.NewRevision(cs, 1, new(int32))
		if err != nil {
			t.Fatal(err)
		}
		for i := range cs.Spec.Template.Spec.Containers {
			cs.Spec.Template.Spec.Containers[i].Image = rapid.SampledFrom([]string{"nginx:1.27", "busybox:3"}).Draw(t, "newImage")
		}
		upd, err := rc.NewRevision(cs, 2, new(int32))
		if err != nil {
			t.Fatal(err)
		}
		s.current, s.update = cur, upd
		s.revisions = []*apps.ControllerRevision{cur}
		if upd.Name != cur.Name {
			s.revisions = append(s.revisions, upd)
		}
		for i, p := range s.pods {
			p.Labels[apps.ControllerRevisionHashLabelKey] = rapid.SampledFrom([]string{cur.Name, cur.Name, upd.Name, shortHash(cur.Name)}).Draw(t, fmt.Sprint("podRevision", i))
			p.Labels[appspub.LifecycleStateKey] = rapid.SampledFrom([]string{"", "Normal"}).Draw(t, fmt.Sprint("podLifecycle", i))
			delete(p.Labels, appsv1alpha1.SpecifiedDeleteKey)
		}
		return s
	})
}

// TestInPlaceRolloutMatchesKruise is TestScaleAndUpdateMatchKruise on
// in-place rollouts, where the update step's in-place path (and its
// fallback to recreation) carries the decision.
func TestInPlaceRolloutMatchesKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genInPlaceRollout().Draw(t, "state")
		want, kruiseModified := kruiseReconcile(s)
		got, sd, ud := ourReconcile(t, s, cloneset.Options{})
		sort.Strings(want.Deleted)
		sort.Strings(got.Deleted)
		if sd.Modified != kruiseModified {
			t.Fatalf("Scale modified = %v, kruise %v (branch %v)\n%s", sd.Modified, kruiseModified, sd.Branch, s)
		}
		if diff := diffEffects(want, got); diff != "" {
			t.Fatalf("reconcile differs from kruise's (scale branch %v, update branch %v, diffs %+v):\n%s\n%s", sd.Branch, ud.Branch, sd.Diffs, diff, s)
		}
		count("sync.Scale + sync.Update, in-place rollouts (fake client)", "agree")
		kinds := map[string]bool{}
		for _, a := range ud.Actions {
			kinds[a.Kind.String()] = true
			if a.Kind == cloneset.UpdatePodInPlace && a.GraceSeconds > 0 {
				kinds["UpdatePodInPlace with a grace period"] = true
			}
		}
		if len(kinds) == 0 {
			kinds["nothing"] = true
		}
		for k := range kinds {
			count("sync.Scale + sync.Update, in-place rollouts: cases that write "+k, "agree")
		}
	})
}

// setKruiseGates switches kruise's process-wide feature gates and the
// manager's scaling-exclude flag to g, and returns a function that puts
// the defaults back.
func setKruiseGates(t *rapid.T, g cloneset.Gates) func() {
	set := func(g cloneset.Gates) {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{
			string(features.CloneSetPartitionRollback): g.PartitionRollback,
			string(features.PreparingUpdateAsUpdate):   g.PreparingUpdateAsUpdate,
		}); err != nil {
			t.Fatalf("feature gates: %v", err)
		}
		if err := flag.Set("cloneset-scaling-exclude-preparing-delete", strconv.FormatBool(g.ScalingExcludePreparingDelete)); err != nil {
			t.Fatalf("flag: %v", err)
		}
	}
	set(g)
	return func() { set(cloneset.Gates{}) }
}

// TestScaleAndUpdateWithGatesMatchKruise is TestScaleAndUpdateMatchKruise
// with kruise's CloneSetPartitionRollback and PreparingUpdateAsUpdate
// gates and its --cloneset-scaling-exclude-preparing-delete flag drawn,
// set in kruise's process-wide gate and flag and in Options.Gates.
func TestScaleAndUpdateWithGatesMatchKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := cloneset.Gates{
			PartitionRollback:             rapid.Bool().Draw(t, "partitionRollback"),
			PreparingUpdateAsUpdate:       rapid.Bool().Draw(t, "preparingUpdateAsUpdate"),
			ScalingExcludePreparingDelete: rapid.Bool().Draw(t, "scalingExcludePreparingDelete"),
		}
		s := genState(8).Draw(t, "state")
		if rapid.Bool().Draw(t, "inPlaceRollout") {
			s = genInPlaceRollout().Draw(t, "rollout")
		}
		reset := setKruiseGates(t, g)
		want, kruiseModified := kruiseReconcile(s)
		reset()
		got, sd, ud := ourReconcile(t, s, cloneset.Options{Gates: g})
		sort.Strings(want.Deleted)
		sort.Strings(got.Deleted)
		if sd.Modified != kruiseModified {
			t.Fatalf("gates %+v: Scale modified = %v, kruise %v (branch %v)\n%s", g, sd.Modified, kruiseModified, sd.Branch, s)
		}
		if diff := diffEffects(want, got); diff != "" {
			t.Fatalf("gates %+v: reconcile differs from kruise's (scale branch %v, update branch %v, diffs %+v):\n%s\n%s", g, sd.Branch, ud.Branch, sd.Diffs, diff, s)
		}
		count("sync.Scale + sync.Update with gates drawn (fake client)", "agree")
		if g.PartitionRollback && sd.Diffs.UpdateNum < 0 || ud.Diffs.UpdateNum < 0 {
			count("sync.Scale + sync.Update with gates drawn: rollbacks (UpdateNum < 0)", "agree")
		}
	})
}
