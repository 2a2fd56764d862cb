package conformance

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// dsWorld is the cluster of one DaemonSet trace in virtual time: the
// DaemonSet, its nodes, pods and ControllerRevisions as the API server
// holds them after the last sync. Between syncs the harness plays the
// user (scripted events: template, strategy, minReadySeconds and history
// limit changes, nodes added, removed, tainted and relabelled, pods
// failing or deleted by hand), the scheduler (a pod for a node that
// exists is bound to it), pod garbage collection (pods of a deleted node
// go, sometimes late) and the kubelets (pods start, become ready after a
// per-pod delay or, with the image agent:broken, never; terminating pods
// go after a per-pod grace period), and lets time pass.
type dsWorld struct {
	r     *rand.Rand
	now   time.Time
	obj   *dsObjects
	nodes int // nodes ever added, for names
	// selector says the template has the nodeSelector agent=yes.
	selector bool
	// log holds what happened since the previous sync, for reports.
	log []string
}

// dsImages are the images a trace moves between; dsBroken never becomes
// ready.
var dsImages = []string{"agent:1", "agent:2", "agent:3", dsBroken}

const dsBroken = "agent:broken"

func dsTemplate(image string, selector bool) corev1.PodTemplateSpec {
	t := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: image}}},
	}
	if selector {
		t.Spec.NodeSelector = map[string]string{"agent": "yes"}
	}
	return t
}

// dsBound draws a maxUnavailable or maxSurge that is not zero.
func (w *dsWorld) dsBound() intstr.IntOrString {
	return []intstr.IntOrString{
		intstr.FromInt32(1), intstr.FromInt32(1), intstr.FromInt32(2), intstr.FromInt32(3),
		intstr.FromString("10%"), intstr.FromString("25%"), intstr.FromString("50%"), intstr.FromString("100%"),
	}[w.r.IntN(8)]
}

// strategy draws a valid update strategy: maxUnavailable alone, maxSurge
// alone (maxUnavailable 0), the defaults, or OnDelete.
func (w *dsWorld) strategy() appsv1.DaemonSetUpdateStrategy {
	switch n := w.r.IntN(10); {
	case n == 0:
		return appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
	case n == 1:
		return appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType}
	case n < 6:
		v, zero := w.dsBound(), intstr.FromInt32(0)
		return appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &v, MaxSurge: &zero}}
	default:
		v, zero := w.dsBound(), intstr.FromInt32(0)
		if w.r.IntN(4) == 0 {
			zero = intstr.FromString("0%")
		}
		return appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &zero, MaxSurge: &v}}
	}
}

func newDsWorld(seed uint64) *dsWorld {
	r := rand.New(rand.NewPCG(seed, seed^0xd5e7a11))
	w := &dsWorld{r: r, now: traceStart, selector: r.IntN(4) == 0}
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: dsName, Namespace: traceNamespace, UID: dsUID, Generation: 1,
			CreationTimestamp: metav1.Time{Time: traceStart},
			Annotations:       map[string]string{appsv1.DeprecatedTemplateGeneration: "1"},
		},
		Spec: appsv1.DaemonSetSpec{
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template:             dsTemplate(dsImages[0], w.selector),
			MinReadySeconds:      []int32{0, 0, 2, 5}[r.IntN(4)],
			RevisionHistoryLimit: []*int32{nil, ptr32(0), ptr32(1), ptr32(3)}[r.IntN(4)],
		},
	}
	w.obj = &dsObjects{ds: ds, nodes: map[string]*corev1.Node{}, pods: map[string]*corev1.Pod{}, revs: map[string]*appsv1.ControllerRevision{}}
	ds.Spec.UpdateStrategy = w.strategy()
	appsv1defaults.SetObjectDefaults_DaemonSet(ds)
	for range r.IntN(11) {
		w.addNode()
	}
	w.log = append(w.log, "created: "+describeDs(ds))
	return w
}

// addNode adds a node: usually plain, sometimes labelled agent=yes,
// tainted NoSchedule or NoExecute (taints the template does not
// tolerate) or cordoned (tolerated by every daemon pod).
func (w *dsWorld) addNode() {
	w.nodes++
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%02d", w.nodes), Labels: map[string]string{}}}
	if w.r.IntN(3) > 0 {
		n.Labels["agent"] = "yes"
	}
	switch w.r.IntN(12) {
	case 0:
		n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}}
	case 1:
		n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoExecute}}
	case 2:
		n.Spec.Unschedulable = true
		n.Spec.Taints = []corev1.Taint{{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}}
	}
	w.obj.nodes[n.Name] = n
	w.log = append(w.log, "node added: "+describeNode(n))
}

// seconds returns a per-object delay in [0, n) seconds from its name
// and what (so that a pod keeps its delays).
func seconds(name, what string, n int) time.Duration {
	h := fnv.New32a()
	h.Write([]byte(name + "/" + what))
	return time.Duration(int(h.Sum32()%uint32(n))) * time.Second
}

// advance lets virtual time pass.
func (w *dsWorld) advance() {
	var s int
	switch n := w.r.IntN(20); {
	case n < 4:
		s = 0
	case n < 14:
		s = 1 + w.r.IntN(5)
	case n < 19:
		s = 5 + w.r.IntN(20)
	default:
		s = 30 + w.r.IntN(120)
	}
	w.now = w.now.Add(time.Duration(s) * time.Second)
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func setPodReady(p *corev1.Pod, ready bool, t time.Time) {
	s := corev1.ConditionFalse
	if ready {
		s = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: s, LastTransitionTime: metav1.Time{Time: t}}}
}

// tick plays the scheduler, pod garbage collection and the kubelets.
func (w *dsWorld) tick() {
	for _, p := range sortedValues(w.obj.pods) {
		node := p.Spec.NodeName
		if node == "" {
			node = affinityNodeOf(p)
		}
		_, nodeExists := w.obj.nodes[node]
		switch {
		case p.DeletionTimestamp != nil:
			if !w.now.Before(p.DeletionTimestamp.Add(seconds(p.Name, "grace", 12))) {
				delete(w.obj.pods, p.Name)
			}
		case !nodeExists:
			// Pod garbage collection deletes the pods of a deleted node
			// (bound or not), not always at once.
			if w.r.IntN(3) > 0 {
				delete(w.obj.pods, p.Name)
			}
		case p.Spec.NodeName == "":
			if w.r.IntN(5) > 0 {
				p.Spec.NodeName = node
			}
		case p.Status.Phase == corev1.PodPending:
			if w.r.IntN(4) > 0 {
				p.Status.Phase = corev1.PodRunning
				setPodReady(p, false, w.now)
			}
		case p.Status.Phase == corev1.PodRunning && !podReady(p):
			if p.Spec.Containers[0].Image != dsBroken && !w.now.Before(p.CreationTimestamp.Add(seconds(p.Name, "ready", 15))) {
				setPodReady(p, true, w.now)
			}
		case p.Status.Phase == corev1.PodRunning && podReady(p):
			switch w.r.IntN(60) {
			case 0:
				setPodReady(p, false, w.now)
			case 1:
				p.Status.Phase = corev1.PodFailed
				setPodReady(p, false, w.now)
			case 2:
				p.Status.Phase = corev1.PodSucceeded
				setPodReady(p, false, w.now)
			}
		}
	}
}

// affinityNodeOf is the node of the metadata.name matchFields term the
// controller writes into a pod it creates.
func affinityNodeOf(p *corev1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, r := range t.MatchFields {
			if r.Key == metav1.ObjectNameField && r.Operator == corev1.NodeSelectorOpIn && len(r.Values) == 1 {
				return r.Values[0]
			}
		}
	}
	return ""
}

// userUpdate applies a user's change to the DaemonSet with the API
// server's rules: the apps/v1 defaults are filled in,
// metadata.generation rises when the spec changes, and
// the template generation annotation when the template does.
func (w *dsWorld) userUpdate(what string, change func(d *appsv1.DaemonSet)) {
	d := w.obj.ds.DeepCopy()
	change(d)
	appsv1defaults.SetObjectDefaults_DaemonSet(d)
	if !equality.Semantic.DeepEqual(d.Spec, w.obj.ds.Spec) {
		d.Generation++
	}
	if !equality.Semantic.DeepEqual(d.Spec.Template, w.obj.ds.Spec.Template) {
		g, _ := strconv.ParseInt(d.Annotations[appsv1.DeprecatedTemplateGeneration], 10, 64)
		d.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(g+1, 10)
	}
	w.obj.ds = d
	w.log = append(w.log, what+": "+describeDs(d))
}

// event plays scripted user actions, none most of the time.
func (w *dsWorld) event() {
	if w.r.IntN(10) < 6 {
		return
	}
	switch w.r.IntN(18) {
	case 0, 1, 2:
		img := dsImages[w.r.IntN(len(dsImages))]
		w.userUpdate("image "+img, func(d *appsv1.DaemonSet) { d.Spec.Template.Spec.Containers[0].Image = img })
	case 3:
		w.selector = !w.selector
		img := w.obj.ds.Spec.Template.Spec.Containers[0].Image
		w.userUpdate("nodeSelector toggled", func(d *appsv1.DaemonSet) { d.Spec.Template = dsTemplate(img, w.selector) })
	case 4, 5:
		st := w.strategy()
		w.userUpdate("strategy", func(d *appsv1.DaemonSet) { d.Spec.UpdateStrategy = st })
	case 6:
		m := []int32{0, 2, 5, 10}[w.r.IntN(4)]
		w.userUpdate("minReadySeconds", func(d *appsv1.DaemonSet) { d.Spec.MinReadySeconds = m })
	case 7:
		l := []*int32{nil, ptr32(0), ptr32(1), ptr32(2)}[w.r.IntN(4)]
		w.userUpdate("revisionHistoryLimit", func(d *appsv1.DaemonSet) { d.Spec.RevisionHistoryLimit = l })
	case 8, 9:
		w.addNode()
	case 10:
		if ns := sortedValues(w.obj.nodes); len(ns) > 0 {
			n := ns[w.r.IntN(len(ns))]
			delete(w.obj.nodes, n.Name)
			w.log = append(w.log, "node removed: "+n.Name)
		}
	case 11:
		if ns := sortedValues(w.obj.nodes); len(ns) > 0 {
			n := ns[w.r.IntN(len(ns))]
			switch w.r.IntN(4) {
			case 0:
				n.Spec.Taints = nil
			case 1:
				n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}}
			case 2:
				n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoExecute}}
			case 3:
				if n.Labels["agent"] == "yes" {
					delete(n.Labels, "agent")
				} else {
					n.Labels["agent"] = "yes"
				}
			}
			w.log = append(w.log, "node changed: "+describeNode(n))
		}
	case 12:
		if ps := sortedValues(w.obj.pods); len(ps) > 0 {
			p := ps[w.r.IntN(len(ps))]
			if p.DeletionTimestamp == nil {
				p.DeletionTimestamp = &metav1.Time{Time: w.now}
				w.log = append(w.log, "pod deleted by hand: "+p.Name)
			}
		}
	case 13:
		if ps := sortedValues(w.obj.pods); len(ps) > 0 {
			p := ps[w.r.IntN(len(ps))]
			p.Status.Phase = corev1.PodFailed
			setPodReady(p, false, w.now)
			w.log = append(w.log, "pod failed: "+p.Name)
		}
	case 14:
		// Someone edits a pod's hash label: the pod still counts as
		// updated when its pod-template-generation label is the
		// DaemonSet's template generation (IsPodUpdated).
		if ps := sortedValues(w.obj.pods); len(ps) > 0 {
			p := ps[w.r.IntN(len(ps))]
			p.Labels[appsv1.DefaultDaemonSetUniqueLabelKey] = "edited"
			w.log = append(w.log, "pod hash label edited: "+p.Name)
		}
	case 15:
		w.collide()
	case 16:
		// A copy of a revision under another name (as two controllers
		// racing could leave): when it holds the current template the
		// controller keeps one, relabels pods and deletes the others.
		if rs := sortedValues(w.obj.revs); len(rs) > 0 {
			r := rs[w.r.IntN(len(rs))].DeepCopy()
			w.obj.uids++
			r.Name = fmt.Sprintf("%s-copy%d", dsName, w.obj.uids)
			r.UID = types.UID(fmt.Sprintf("uid-rev-copy-%d", w.obj.uids))
			r.Labels[appsv1.DefaultDaemonSetUniqueLabelKey] = r.Name
			if w.r.IntN(2) == 0 {
				r.Revision += int64(w.r.IntN(3)) - 1
			}
			w.obj.revs[r.Name] = r
			w.log = append(w.log, fmt.Sprintf("revision copied: %s number=%d", r.Name, r.Revision))
		}
	case 17:
		// A revision loses its hash label; the controller sets it to the
		// revision's name.
		if rs := sortedValues(w.obj.revs); len(rs) > 0 {
			r := rs[w.r.IntN(len(rs))]
			delete(r.Labels, appsv1.DefaultDaemonSetUniqueLabelKey)
			w.log = append(w.log, "revision hash label removed: "+r.Name)
		}
	}
}

// collide plants a ControllerRevision, owned by the DaemonSet, under the
// name the revision of another image would get, holding other data: the
// next change to that image meets a name collision.
func (w *dsWorld) collide() {
	ds := w.obj.ds
	img := dsImages[w.r.IntN(len(dsImages))]
	if img == ds.Spec.Template.Spec.Containers[0].Image {
		return
	}
	next := ds.DeepCopy()
	next.Spec.Template = dsTemplate(img, w.selector)
	appsv1defaults.SetObjectDefaults_DaemonSet(next)
	hash := controller.ComputeHash(&next.Spec.Template, ds.Status.CollisionCount)
	name := ds.Name + "-" + hash
	if _, ok := w.obj.revs[name]; ok {
		return
	}
	var number int64
	for _, r := range w.obj.revs {
		number = max(number, r.Revision)
	}
	w.obj.uids++
	w.obj.revs[name] = &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: ds.Namespace, UID: types.UID(fmt.Sprintf("uid-rev-planted-%d", w.obj.uids)),
			Labels:          map[string]string{"app": "agent", appsv1.DefaultDaemonSetUniqueLabelKey: hash},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ds, appsv1.SchemeGroupVersion.WithKind("DaemonSet"))},
		},
		Data:     runtime.RawExtension{Raw: []byte(`{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"planted":"yes"}}}}}`)},
		Revision: number + 1,
	}
	w.log = append(w.log, "revision planted: "+name+" (the name of image "+img+")")
}

func iosText(v *intstr.IntOrString) string {
	if v == nil {
		return "nil"
	}
	return v.String()
}

func describeDs(d *appsv1.DaemonSet) string {
	st := string(d.Spec.UpdateStrategy.Type)
	if ru := d.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		st += fmt.Sprintf("(maxUnavailable %s, maxSurge %s)", iosText(ru.MaxUnavailable), iosText(ru.MaxSurge))
	}
	limit := "nil"
	if l := d.Spec.RevisionHistoryLimit; l != nil {
		limit = strconv.Itoa(int(*l))
	}
	return fmt.Sprintf("generation %d, templateGeneration %s, image %s, nodeSelector %v, %s, minReadySeconds %d, revisionHistoryLimit %s",
		d.Generation, d.Annotations[appsv1.DeprecatedTemplateGeneration], d.Spec.Template.Spec.Containers[0].Image,
		d.Spec.Template.Spec.NodeSelector, st, d.Spec.MinReadySeconds, limit)
}

func describeNode(n *corev1.Node) string {
	var taints []string
	for _, t := range n.Spec.Taints {
		taints = append(taints, t.Key+":"+string(t.Effect))
	}
	return fmt.Sprintf("%s labels=%v taints=%v", n.Name, n.Labels, taints)
}

func describePod(p *corev1.Pod) string {
	var b strings.Builder
	node := p.Spec.NodeName
	if node == "" {
		node = "(" + affinityNodeOf(p) + ")"
	}
	fmt.Fprintf(&b, "%s node=%s hash=%s gen=%s %s ready=%v created=%s", p.Name, node, p.Labels[appsv1.DefaultDaemonSetUniqueLabelKey],
		p.Labels[daemonset.TemplateGenerationLabel], p.Status.Phase, podReady(p), p.CreationTimestamp.Sub(traceStart))
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			fmt.Fprintf(&b, " readySince=%s", c.LastTransitionTime.Sub(traceStart))
		}
	}
	if p.DeletionTimestamp != nil {
		fmt.Fprintf(&b, " terminating")
	}
	return b.String()
}

// describeWorld renders the objects a sync starts from.
func describeWorld(o *dsObjects, now time.Time) string {
	var lines []string
	lines = append(lines, fmt.Sprintf("now %s; %s; status %+v", now.Sub(traceStart), describeDs(o.ds), o.ds.Status))
	for _, n := range sortedValues(o.nodes) {
		lines = append(lines, "  "+describeNode(n))
	}
	for _, p := range sortedValues(o.pods) {
		lines = append(lines, "  pod "+describePod(p))
	}
	for _, r := range sortedValues(o.revs) {
		lines = append(lines, fmt.Sprintf("  revision %s number=%d hash=%s", r.Name, r.Revision, r.Labels[appsv1.DefaultDaemonSetUniqueLabelKey]))
	}
	sort.Strings(lines[1:])
	return strings.Join(lines, "\n")
}
