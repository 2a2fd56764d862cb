package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/rolloutmath/rolloutmath/revision"
)

// traceStart is the virtual time at which every trace starts.
var traceStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// world is the cluster of one trace in virtual time: the Deployment and
// its ReplicaSets as the API server holds them after the last sync, with
// every timestamp virtual. Between syncs the harness plays the user (the
// scripted events), the ReplicaSet controller and the kubelets (pods
// move toward spec.replicas) and lets time pass.
type world struct {
	r *rand.Rand
	// sel draws the selector events (selectorEvent) apart from r, so
	// that a trace without them is the trace it was before they existed.
	sel  *rand.Rand
	now  time.Time
	d    *appsv1.Deployment
	rss  []*appsv1.ReplicaSet // sorted by name
	uids int
	// log holds what happened since the previous sync, for reports.
	log []string
	// classes names the kinds of scripted events the trace used.
	tampered, collided, deleted, deleting, emptied bool
}

// traceImages are the pod templates a trace moves between, so that templates
// come back (a rollback or an image change to an older ReplicaSet's).
var traceImages = []string{"web:1", "web:2", "web:3", "web:4"}

func tracePodTemplate(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
	}
}

func ptr32(v int32) *int32 { return &v }

// bound draws a maxSurge or maxUnavailable.
func (w *world) bound() *intstr.IntOrString {
	choices := []intstr.IntOrString{
		intstr.FromInt32(0), intstr.FromInt32(1), intstr.FromInt32(2), intstr.FromInt32(3),
		intstr.FromString("0%"), intstr.FromString("25%"), intstr.FromString("50%"), intstr.FromString("100%"),
	}
	v := choices[w.r.IntN(len(choices))]
	return &v
}

// setBounds sets a valid rolling-update strategy (not both bounds 0).
func (w *world) setBounds(d *appsv1.Deployment) {
	d.Spec.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
	for {
		ru := &appsv1.RollingUpdateDeployment{MaxSurge: w.bound(), MaxUnavailable: w.bound()}
		if !bothZero(ru) {
			d.Spec.Strategy.RollingUpdate = ru
			return
		}
	}
}

// bothZero reports whether the bounds both resolve to the value 0 as
// written (the API server rejects that).
func bothZero(ru *appsv1.RollingUpdateDeployment) bool {
	zero := func(v *intstr.IntOrString) bool { return v.String() == "0" || v.String() == "0%" }
	return zero(ru.MaxSurge) && zero(ru.MaxUnavailable)
}

func newWorld(seed uint64) *world {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w := &world{r: r, sel: rand.New(rand.NewPCG(seed^0x5e1ec7a11, seed+0x5e1ec7a11)), now: traceStart}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name: traceName, Namespace: traceNamespace, UID: traceUID, Generation: 1,
			CreationTimestamp: metav1.Time{Time: traceStart},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas:                ptr32(int32(r.IntN(7))),
			Selector:                traceSelector(),
			Template:                tracePodTemplate(traceImages[0]),
			MinReadySeconds:         []int32{0, 0, 1, 5}[r.IntN(4)],
			RevisionHistoryLimit:    ptr32([]int32{0, 1, 2, 3, 10}[r.IntN(5)]),
			ProgressDeadlineSeconds: ptr32([]int32{10, 30, 60, 600, math.MaxInt32}[r.IntN(5)]),
		},
	}
	if r.IntN(4) == 0 {
		d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
	} else {
		w.setBounds(d)
	}
	if r.IntN(3) == 0 {
		d.Annotations = map[string]string{"team": "blue"}
	}
	w.d = d
	w.log = append(w.log, fmt.Sprintf("created: %s", describeSpec(d)))
	return w
}

// advance lets virtual time pass: often not at all or a few seconds,
// sometimes past any progress deadline.
func (w *world) advance() {
	var s int
	switch n := w.r.IntN(20); {
	case n < 4:
		s = 0
	case n < 13:
		s = 1 + w.r.IntN(5)
	case n < 18:
		s = 5 + w.r.IntN(40)
	default:
		s = 60 + w.r.IntN(900)
	}
	w.now = w.now.Add(time.Duration(s) * time.Second)
}

// tick plays the ReplicaSet controller and the kubelets on some of the
// ReplicaSets: terminating pods finish, pods become ready and available
// (or, now and then, one stops being ready), and the ReplicaSet
// controller creates or deletes pods toward spec.replicas (deleting
// unready ones first) and records observedGeneration.
func (w *world) tick() {
	for _, rs := range w.rss {
		if w.r.IntN(10) < 3 {
			continue
		}
		st := &rs.Status
		term := int32(0)
		if st.TerminatingReplicas != nil {
			term = *st.TerminatingReplicas
		}
		if term > 0 {
			term -= w.r.Int32N(term + 1)
		}
		if n := st.Replicas - st.ReadyReplicas; n > 0 {
			st.ReadyReplicas += w.r.Int32N(n + 1)
		}
		if n := st.ReadyReplicas - st.AvailableReplicas; n > 0 {
			st.AvailableReplicas += w.r.Int32N(n + 1)
		}
		if st.ReadyReplicas > 0 && w.r.IntN(12) == 0 {
			st.ReadyReplicas--
			st.AvailableReplicas = min(st.AvailableReplicas, st.ReadyReplicas)
		}
		spec := *rs.Spec.Replicas
		switch {
		case spec > st.Replicas:
			st.Replicas += 1 + w.r.Int32N(spec-st.Replicas)
		case spec < st.Replicas:
			k := 1 + w.r.Int32N(st.Replicas-spec)
			st.Replicas -= k
			term += k
			st.ReadyReplicas = min(st.ReadyReplicas, st.Replicas)
			st.AvailableReplicas = min(st.AvailableReplicas, st.ReadyReplicas)
		}
		st.FullyLabeledReplicas = st.Replicas
		st.TerminatingReplicas = ptr32(term)
		st.ObservedGeneration = rs.Generation
	}
}

// userUpdate applies a user's change to the Deployment with the API
// server's rule: metadata.generation rises when the spec or the
// annotations change.
func (w *world) userUpdate(what string, change func(d *appsv1.Deployment)) {
	d := w.d.DeepCopy()
	change(d)
	if !equality.Semantic.DeepEqual(d.Spec, w.d.Spec) || !equality.Semantic.DeepEqual(d.Annotations, w.d.Annotations) {
		d.Generation++
	}
	w.d = d
	w.log = append(w.log, what)
}

func setAnnotation(d *appsv1.Deployment, k, v string) {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[k] = v
}

// event plays one scripted user action.
func (w *world) event() {
	r := w.r
	switch n := r.IntN(100); {
	case n < 22:
		img := traceImages[r.IntN(len(traceImages))]
		w.userUpdate("set image "+img, func(d *appsv1.Deployment) { d.Spec.Template = tracePodTemplate(img) })
	case n < 40:
		R := int32(r.IntN(9))
		if r.IntN(5) == 0 {
			R = 9 + int32(r.IntN(17)) // percentages round differently
		}
		w.userUpdate(fmt.Sprintf("resize to %d", R), func(d *appsv1.Deployment) { d.Spec.Replicas = ptr32(R) })
	case n < 50:
		w.userUpdate(fmt.Sprintf("paused=%v", !w.d.Spec.Paused), func(d *appsv1.Deployment) { d.Spec.Paused = !d.Spec.Paused })
	case n < 60:
		to := w.rollbackTarget()
		w.userUpdate("rollback to "+to, func(d *appsv1.Deployment) { setAnnotation(d, appsv1.DeprecatedRollbackTo, to) })
	case n < 66:
		w.userUpdate("switch strategy", func(d *appsv1.Deployment) {
			if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
				w.setBounds(d)
				return
			}
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		})
	case n < 72:
		if w.d.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType {
			return
		}
		w.userUpdate("new maxSurge/maxUnavailable", func(d *appsv1.Deployment) {
			w.setBounds(d)
		})
	case n < 78:
		h := []int32{0, 1, 2, 3, 10}[r.IntN(5)]
		w.userUpdate(fmt.Sprintf("revisionHistoryLimit %d", h), func(d *appsv1.Deployment) { d.Spec.RevisionHistoryLimit = ptr32(h) })
	case n < 83:
		p := []int32{10, 30, 60, 600, math.MaxInt32}[r.IntN(5)]
		w.userUpdate(fmt.Sprintf("progressDeadlineSeconds %d", p), func(d *appsv1.Deployment) { d.Spec.ProgressDeadlineSeconds = ptr32(p) })
	case n < 88:
		v := []string{"blue", "red", ""}[r.IntN(3)]
		w.userUpdate("annotation team="+v, func(d *appsv1.Deployment) {
			if v == "" {
				delete(d.Annotations, "team")
				return
			}
			setAnnotation(d, "team", v)
		})
	case n < 92:
		m := []int32{0, 1, 5}[r.IntN(3)]
		w.userUpdate(fmt.Sprintf("minReadySeconds %d", m), func(d *appsv1.Deployment) { d.Spec.MinReadySeconds = m })
	case n < 94:
		w.collide()
	case n < 96:
		w.tamper()
	case n < 97:
		if w.d.DeletionTimestamp != nil {
			return
		}
		w.deleted = true
		d := w.d.DeepCopy()
		d.DeletionTimestamp = &metav1.Time{Time: w.now}
		d.Finalizers = []string{"example.com/hold"}
		d.Generation++
		w.d = d
		w.log = append(w.log, "deployment deleted (held by a finalizer)")
	case n < 99:
		w.deleteReplicaSet()
	default:
		w.releaseReplicaSet()
	}
}

// traceSelector is the selector a trace's Deployment has, and gets back.
func traceSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
}

// selectorEvent, now and then, sets spec.selector to the empty selector
// (&metav1.LabelSelector{}: nil matchLabels and matchExpressions), which
// syncDeployment refuses with a SelectingAll event, recording only
// status.observedGeneration; while the selector is empty it restores the
// trace's selector with probability 1/3 per step, so an empty stretch lasts
// a few syncs. About one trace in twenty empties its selector.
//
// No real API server lets this happen: apps/v1 validation rejects an
// empty Deployment selector on create and update alike ("empty selector
// is invalid for deployment") and forbids changing the selector at all.
// The state reaches the controller only around the API server (an object
// an older API server or an older API version's rules let through,
// restored from a backup or written straight to storage, or a broken
// server); the harness's
// in-memory API server does not validate, and the controller does not
// care how the object got there. The point is rollout.Plan's
// PathSelectingAll, compared here with the controller's own early return,
// and the syncs after the selector comes back.
func (w *world) selectorEvent() {
	if w.d.Spec.Selector != nil && w.d.Spec.Selector.MatchLabels == nil && w.d.Spec.Selector.MatchExpressions == nil {
		if w.sel.IntN(3) == 0 {
			w.userUpdate("selector restored", func(d *appsv1.Deployment) { d.Spec.Selector = traceSelector() })
		}
		return
	}
	if w.sel.IntN(600) != 0 {
		return
	}
	w.emptied = true
	w.userUpdate("selector set empty (selects every pod)", func(d *appsv1.Deployment) { d.Spec.Selector = &metav1.LabelSelector{} })
}

// deleteReplicaSet deletes a ReplicaSet as a person could, held by a
// finalizer: it stays, with metadata.deletionTimestamp set.
func (w *world) deleteReplicaSet() {
	if len(w.rss) == 0 {
		return
	}
	rs := w.rss[w.r.IntN(len(w.rss))]
	if rs.DeletionTimestamp != nil {
		return
	}
	rs.DeletionTimestamp = &metav1.Time{Time: w.now}
	rs.Finalizers = []string{"example.com/hold"}
	rs.Generation++
	w.deleting = true
	w.log = append(w.log, "ReplicaSet "+rs.Name+" deleted (held by a finalizer)")
}

// releaseReplicaSet removes the finalizer of a ReplicaSet being deleted:
// it is gone.
func (w *world) releaseReplicaSet() {
	for i, rs := range w.rss {
		if rs.DeletionTimestamp != nil {
			w.rss = slices.Delete(w.rss, i, i+1)
			w.log = append(w.log, "ReplicaSet "+rs.Name+" finalizer removed: gone")
			return
		}
	}
}

// rollbackTarget draws a rollback revision: 0 (the previous one), an
// existing revision, one that does not exist, or a non-integer (ignored).
func (w *world) rollbackTarget() string {
	switch w.r.IntN(6) {
	case 0, 1:
		return "0"
	case 2, 3, 4:
		if len(w.rss) > 0 {
			rs := w.rss[w.r.IntN(len(w.rss))]
			if v, ok := rs.Annotations[revision.RevisionAnnotation]; ok {
				return v
			}
		}
		return "1"
	default:
		return "17"
	}
}

// collide creates, as another writer could, a ReplicaSet owned by the
// Deployment under the name its next template would get, with another
// template, then moves the Deployment to that template: the controller
// meets a hash collision.
func (w *world) collide() {
	img := traceImages[w.r.IntN(len(traceImages))]
	tmpl := tracePodTemplate(img)
	for _, rs := range w.rss {
		if revision.EqualIgnoreHash(&rs.Spec.Template, &tmpl) {
			return // the template has a ReplicaSet: no creation, no collision
		}
	}
	hash := controller.ComputeHash(&tmpl, w.d.Status.CollisionCount)
	name := traceName + "-" + hash
	for _, rs := range w.rss {
		if rs.Name == name {
			return
		}
	}
	isController := true
	labels := map[string]string{"app": "web", appsv1.DefaultDeploymentUniqueLabelKey: hash}
	squat := tracePodTemplate("squatter:1")
	squat.Labels = labels
	w.uids++
	w.rss = append(w.rss, &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: traceNamespace, UID: idOf(w.uids), Generation: 1,
			CreationTimestamp: metav1.Time{Time: w.now}, Labels: labels,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: traceName, UID: traceUID, Controller: &isController}},
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr32(0),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: squat,
		},
	})
	sortByName(w.rss)
	w.collided = true
	w.log = append(w.log, "ReplicaSet "+name+" created by another writer with another template")
	w.userUpdate("set image "+img, func(d *appsv1.Deployment) { d.Spec.Template = tmpl })
}

func idOf(n int) types.UID { return types.UID(fmt.Sprintf("uid-rs-%d", n)) }

// tamper edits a ReplicaSet's revision annotation as a person with
// kubectl could: a non-integer, none, or another ReplicaSet's revision.
func (w *world) tamper() {
	if len(w.rss) == 0 {
		return
	}
	rs := w.rss[w.r.IntN(len(w.rss))]
	ann := make(map[string]string, len(rs.Annotations))
	for k, v := range rs.Annotations {
		ann[k] = v
	}
	var what string
	switch w.r.IntN(3) {
	case 0:
		ann[revision.RevisionAnnotation] = "x" + ann[revision.RevisionAnnotation]
		what = "non-integer"
	case 1:
		delete(ann, revision.RevisionAnnotation)
		what = "removed"
	default:
		other := w.rss[w.r.IntN(len(w.rss))]
		ann[revision.RevisionAnnotation] = other.Annotations[revision.RevisionAnnotation]
		what = "copied from " + other.Name
	}
	rs.Annotations = ann
	w.tampered = true
	w.log = append(w.log, fmt.Sprintf("revision annotation of %s edited (%s): %q", rs.Name, what, ann[revision.RevisionAnnotation]))
}

func sortByName(rss []*appsv1.ReplicaSet) {
	sort.Slice(rss, func(i, j int) bool { return rss[i].Name < rss[j].Name })
}

// describeSpec prints the Deployment's spec in one line.
func describeSpec(d *appsv1.Deployment) string {
	s := fmt.Sprintf("replicas=%d %s", *d.Spec.Replicas, d.Spec.Strategy.Type)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		s += fmt.Sprintf("(maxSurge=%s maxUnavailable=%s)", ru.MaxSurge.String(), ru.MaxUnavailable.String())
	}
	s += fmt.Sprintf(" image=%s paused=%v minReadySeconds=%d progressDeadlineSeconds=%s revisionHistoryLimit=%d",
		d.Spec.Template.Spec.Containers[0].Image, d.Spec.Paused, d.Spec.MinReadySeconds, deadline(d.Spec.ProgressDeadlineSeconds), *d.Spec.RevisionHistoryLimit)
	return s
}

func deadline(p *int32) string {
	if *p == math.MaxInt32 {
		return "none"
	}
	return strconv.Itoa(int(*p))
}
