package conformance

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	core "k8s.io/client-go/testing"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// stsWorld is the cluster of one StatefulSet trace in virtual time: the
// objects the API server holds after the last sync, the state of the
// MaxUnavailableStatefulSet gate in kube-controller-manager, and what
// the kubelets will do with every pod. Between syncs the harness plays
// the user (scripted events), the kubelets (pods start, become ready,
// sometimes stop being ready or fail; terminating pods go away after a
// while) and lets time pass.
type stsWorld struct {
	r    *rand.Rand
	now  time.Time
	obj  *stsObjects
	gate bool
	fate map[types.UID]*podFate
	// log holds what happened since the previous sync, for reports.
	log []string
}

// podFate is what the kubelet does with one pod: it runs at runAt,
// becomes ready at readyAt unless broken (its container never passes
// its readiness probe), and, once terminating, is gone at goneAt.
type podFate struct {
	runAt, readyAt, goneAt time.Time
	broken                 bool
}

// stsImages are the images a trace moves between: templates come back
// (a rollback renumbers an old revision), and one never becomes ready.
var stsImages = []string{"web:1", "web:2", "web:3", "web:bad"}

// stsBrokenImage is the image whose pods never become ready.
const stsBrokenImage = "web:bad"

// stsMaxUnavailable draws a maxUnavailable the API server accepts (or
// nil: the field unset).
func (w *stsWorld) maxUnavailable() *intstr.IntOrString {
	choices := []*intstr.IntOrString{
		nil, ptrIOS(intstr.FromInt32(1)), ptrIOS(intstr.FromInt32(2)), ptrIOS(intstr.FromInt32(3)),
		ptrIOS(intstr.FromString("1%")), ptrIOS(intstr.FromString("25%")), ptrIOS(intstr.FromString("50%")), ptrIOS(intstr.FromString("100%")),
	}
	return choices[w.r.IntN(len(choices))]
}

func ptrIOS(v intstr.IntOrString) *intstr.IntOrString { return &v }

// strategy draws an update strategy as the API server stores it:
// OnDelete, RollingUpdate without a rollingUpdate block (kept nil when
// the type was given explicitly), or RollingUpdate with a partition
// (defaulted to 0 when the block is given) and a maxUnavailable.
func (w *stsWorld) strategy(replicas int32) appsv1.StatefulSetUpdateStrategy {
	switch n := w.r.IntN(8); {
	case n == 0:
		return appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	case n == 1:
		return appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType}
	default:
		return appsv1.StatefulSetUpdateStrategy{
			Type:          appsv1.RollingUpdateStatefulSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr32(w.partition(replicas)), MaxUnavailable: w.maxUnavailable()},
		}
	}
}

// partition draws a partition: often 0, else up to one past replicas.
func (w *stsWorld) partition(replicas int32) int32 {
	if w.r.IntN(2) == 0 {
		return 0
	}
	return w.r.Int32N(replicas + 2)
}

func stsTemplate(image string) corev1.PodTemplateSpec { return tracePodTemplate(image) }

func newStsWorld(seed uint64) *stsWorld {
	r := rand.New(rand.NewPCG(seed, seed^0x5151f00d))
	w := &stsWorld{r: r, now: traceStart, fate: map[types.UID]*podFate{}, gate: r.IntN(2) == 0}
	replicas := int32(r.IntN(6))
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: stsName, Namespace: traceNamespace, UID: stsUID, Generation: 1,
			CreationTimestamp: metav1.Time{Time: traceStart},
		},
		Spec: appsv1.StatefulSetSpec{
			Replicas:             ptr32(replicas),
			Selector:             traceSelector(),
			Template:             stsTemplate(stsImages[0]),
			ServiceName:          stsName,
			PodManagementPolicy:  []appsv1.PodManagementPolicyType{appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement}[r.IntN(2)],
			MinReadySeconds:      []int32{0, 0, 1, 5}[r.IntN(4)],
			RevisionHistoryLimit: ptr32([]int32{0, 1, 2, 10}[r.IntN(4)]),
			PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
				WhenScaled:  appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
			},
		},
	}
	set.Spec.UpdateStrategy = w.strategy(replicas)
	if r.IntN(3) == 0 {
		set.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: r.Int32N(4)}
	}
	w.obj = &stsObjects{set: set, pods: map[string]*corev1.Pod{}, revs: map[string]*appsv1.ControllerRevision{}}
	w.log = append(w.log, "created: "+describeSts(set)+fmt.Sprintf(" gate=%v", w.gate))
	return w
}

// advance lets virtual time pass: often not at all or a few seconds,
// sometimes longer than any delay of the kubelet model.
func (w *stsWorld) advance() {
	var s int
	switch n := w.r.IntN(20); {
	case n < 4:
		s = 0
	case n < 14:
		s = 1 + w.r.IntN(4)
	case n < 18:
		s = 5 + w.r.IntN(15)
	default:
		s = 30 + w.r.IntN(60)
	}
	w.now = w.now.Add(time.Duration(s) * time.Second)
}

func secs(n int) time.Duration { return time.Duration(n) * time.Second }

// tick plays the kubelets: every pod moves toward its fate as far as
// the virtual time allows, now and then a ready pod stops being ready
// for a while or fails, and terminating pods go away.
func (w *stsWorld) tick() {
	for _, p := range w.obj.sortedPods() {
		f := w.fate[p.UID]
		if f == nil {
			run := p.CreationTimestamp.Add(secs(w.r.IntN(4)))
			f = &podFate{runAt: run, readyAt: run.Add(secs(w.r.IntN(8))), broken: image(&corev1.PodTemplateSpec{Spec: p.Spec}) == stsBrokenImage || w.r.IntN(30) == 0}
			w.fate[p.UID] = f
		}
		if p.DeletionTimestamp != nil {
			if f.goneAt.IsZero() {
				f.goneAt = p.DeletionTimestamp.Add(secs(w.r.IntN(12)))
			}
			if !w.now.Before(f.goneAt) {
				delete(w.obj.pods, p.Name)
				delete(w.fate, p.UID)
				w.log = append(w.log, "pod "+p.Name+" gone")
			}
			continue
		}
		switch p.Status.Phase {
		case corev1.PodPending:
			if !w.now.Before(f.runAt) {
				p.Status.Phase = corev1.PodRunning
				setReady(p, false, f.runAt)
			}
		case corev1.PodRunning:
			ready := isReady(p)
			switch {
			case !ready && !f.broken && !w.now.Before(f.readyAt):
				setReady(p, true, f.readyAt)
			case ready && w.r.IntN(40) == 0:
				setReady(p, false, w.now)
				f.readyAt = w.now.Add(secs(2 + w.r.IntN(8)))
				w.log = append(w.log, "pod "+p.Name+" not ready")
			case w.r.IntN(120) == 0:
				p.Status.Phase = []corev1.PodPhase{corev1.PodFailed, corev1.PodFailed, corev1.PodSucceeded}[w.r.IntN(3)]
				setReady(p, false, w.now)
				w.log = append(w.log, "pod "+p.Name+" "+string(p.Status.Phase))
			}
		}
	}
}

func isReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// setReady sets the pod's Ready condition, changed at t.
func setReady(p *corev1.Pod, ready bool, t time.Time) {
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: st, LastTransitionTime: metav1.Time{Time: t}}}
}

// userUpdate applies a user's change to the StatefulSet spec with the API
// server's rule: metadata.generation rises when the spec changes.
func (w *stsWorld) userUpdate(what string, change func(s *appsv1.StatefulSet)) {
	s := w.obj.set.DeepCopy()
	change(s)
	if equality.Semantic.DeepEqual(s.Spec, w.obj.set.Spec) {
		return
	}
	s.Generation++
	w.obj.set = s
	w.log = append(w.log, what)
}

// event plays one scripted action of the user (or of the cluster admin,
// for the feature gate).
func (w *stsWorld) event() {
	r := w.r
	set := w.obj.set
	replicas := *set.Spec.Replicas
	switch n := r.IntN(100); {
	case n < 22:
		img := stsImages[r.IntN(len(stsImages))]
		w.userUpdate("set image "+img, func(s *appsv1.StatefulSet) { s.Spec.Template = stsTemplate(img) })
	case n < 38:
		if set.Spec.UpdateStrategy.RollingUpdate == nil {
			return
		}
		p := w.partition(replicas)
		w.userUpdate(fmt.Sprintf("partition %d", p), func(s *appsv1.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = ptr32(p) })
	case n < 53:
		R := int32(r.IntN(7))
		w.userUpdate(fmt.Sprintf("scale to %d", R), func(s *appsv1.StatefulSet) { s.Spec.Replicas = ptr32(R) })
	case n < 60:
		if set.Spec.UpdateStrategy.RollingUpdate == nil {
			return
		}
		mu := w.maxUnavailable()
		w.userUpdate("maxUnavailable "+iosString(mu), func(s *appsv1.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = mu })
	case n < 66:
		st := w.strategy(replicas)
		w.userUpdate("strategy "+strategyString(st), func(s *appsv1.StatefulSet) { s.Spec.UpdateStrategy = st })
	case n < 72:
		w.gate = !w.gate
		w.log = append(w.log, fmt.Sprintf("MaxUnavailableStatefulSet=%v", w.gate))
	case n < 77:
		m := []int32{0, 1, 5, 10}[r.IntN(4)]
		w.userUpdate(fmt.Sprintf("minReadySeconds %d", m), func(s *appsv1.StatefulSet) { s.Spec.MinReadySeconds = m })
	case n < 82:
		var o *appsv1.StatefulSetOrdinals
		if r.IntN(4) > 0 {
			o = &appsv1.StatefulSetOrdinals{Start: r.Int32N(4)}
		}
		w.userUpdate("ordinals "+ordinalsString(o), func(s *appsv1.StatefulSet) { s.Spec.Ordinals = o })
	case n < 85:
		h := []int32{0, 1, 2, 10}[r.IntN(4)]
		w.userUpdate(fmt.Sprintf("revisionHistoryLimit %d", h), func(s *appsv1.StatefulSet) { s.Spec.RevisionHistoryLimit = ptr32(h) })
	case n < 91:
		pods := w.obj.sortedPods()
		if len(pods) == 0 {
			return
		}
		p := pods[r.IntN(len(pods))]
		if p.DeletionTimestamp == nil {
			p.DeletionTimestamp = &metav1.Time{Time: w.now}
			w.log = append(w.log, "kubectl delete pod "+p.Name)
		}
	case n < 94:
		w.collide()
	case n < 96:
		w.relabel()
	case n < 98:
		w.deleteRevision()
	case n < 99:
		w.claimEvent()
	default:
		if set.DeletionTimestamp == nil && w.r.IntN(3) == 0 {
			s := set.DeepCopy()
			s.DeletionTimestamp = &metav1.Time{Time: w.now}
			s.Finalizers = []string{"example.com/hold"}
			w.obj.set = s
			w.log = append(w.log, "StatefulSet deleted (held by a finalizer)")
		}
	}
}

// collide creates, as another writer could, a ControllerRevision owned
// by the set under the name the set's next template would get, holding
// other data, then moves the set to that template: the controller meets
// a name collision and raises status.collisionCount.
func (w *stsWorld) collide() {
	img := stsImages[w.r.IntN(len(stsImages))]
	next := w.obj.set.DeepCopy()
	next.Spec.Template = stsTemplate(img)
	data, err := kubeapps.StatefulSetRevisionData(next)
	if err != nil {
		panic(err)
	}
	for _, r := range w.obj.revs {
		if bytes.Equal(r.Data.Raw, data) {
			return // a revision holds the template: no creation, no collision
		}
	}
	var cc int32
	if w.obj.set.Status.CollisionCount != nil {
		cc = *w.obj.set.Status.CollisionCount
	}
	hash := statefulset.HashRevision(data, cc)
	name := statefulset.RevisionName(stsName, hash)
	if _, ok := w.obj.revs[name]; ok {
		return
	}
	squat := w.obj.set.DeepCopy()
	squat.Spec.Template = stsTemplate("squatter:1")
	other, err := kubeapps.StatefulSetRevisionData(squat)
	if err != nil {
		panic(err)
	}
	rev := kubeapps.StatefulSetRevisionObject(squat, &statefulset.ControllerRevision{Name: name, Number: 1 + w.r.Int64N(3), Hash: hash, Data: other})
	w.obj.uids++
	rev.UID = types.UID(fmt.Sprintf("uid-rev-%d", w.obj.uids))
	rev.ResourceVersion = fmt.Sprintf("world-%d", w.obj.uids)
	rev.CreationTimestamp = metav1.Time{Time: w.now}
	w.obj.revs[name] = rev
	w.log = append(w.log, fmt.Sprintf("revision %s (number %d) created by another writer with other data", name, rev.Revision))
	w.userUpdate("set image "+img, func(s *appsv1.StatefulSet) { s.Spec.Template = next.Spec.Template })
}

// claimEvent changes which pods the set claims, as other writers or a
// person could: a pod loses its owner reference (it is adopted again),
// a pod's app label changes (it is released, and keeps its name), or
// another writer creates a pod with the set's labels, named as a member
// of the set or not (a member is adopted).
func (w *stsWorld) claimEvent() {
	pods := w.obj.sortedPods()
	switch w.r.IntN(3) {
	case 0:
		if len(pods) == 0 {
			return
		}
		p := pods[w.r.IntN(len(pods))]
		p.OwnerReferences = nil
		w.log = append(w.log, "owner reference of "+p.Name+" removed")
	case 1:
		if len(pods) == 0 {
			return
		}
		p := pods[w.r.IntN(len(pods))]
		labels := make(map[string]string, len(p.Labels))
		for k, v := range p.Labels {
			labels[k] = v
		}
		labels["app"] = []string{"other", "web"}[w.r.IntN(2)]
		p.Labels = labels
		w.log = append(w.log, "app label of "+p.Name+" set to "+labels["app"])
	default:
		name := []string{fmt.Sprintf("%s-%d", stsName, w.r.IntN(8)), "webby-0", stsName + "-x"}[w.r.IntN(3)]
		if _, ok := w.obj.pods[name]; ok {
			return
		}
		w.obj.uids++
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: traceNamespace, UID: types.UID(fmt.Sprintf("uid-pod-%d", w.obj.uids)),
				ResourceVersion:   fmt.Sprintf("world-%d", w.obj.uids),
				CreationTimestamp: metav1.Time{Time: w.now}, Labels: map[string]string{"app": "web"}},
			Spec:   stsTemplate(stsImages[w.r.IntN(len(stsImages))]).Spec,
			Status: corev1.PodStatus{Phase: corev1.PodPending},
		}
		w.obj.pods[name] = p
		w.log = append(w.log, "pod "+name+" created by another writer")
	}
}

// relabel edits a pod's statefulset.kubernetes.io/pod-name label as a
// person with kubectl could (removed, or another pod's name): the
// controller fixes the pod's identity.
func (w *stsWorld) relabel() {
	pods := w.obj.sortedPods()
	if len(pods) == 0 {
		return
	}
	p := pods[w.r.IntN(len(pods))]
	labels := make(map[string]string, len(p.Labels))
	for k, v := range p.Labels {
		labels[k] = v
	}
	if w.r.IntN(2) == 0 {
		delete(labels, appsv1.StatefulSetPodNameLabel)
	} else {
		labels[appsv1.StatefulSetPodNameLabel] = stsName + "-99"
	}
	p.Labels = labels
	w.log = append(w.log, "pod-name label of "+p.Name+" edited")
}

// deleteRevision deletes a ControllerRevision as a person could, the
// current one included: the controller then takes the update revision
// as current, or creates the revision again.
func (w *stsWorld) deleteRevision() {
	revs := w.obj.sortedRevisions()
	if len(revs) == 0 {
		return
	}
	r := revs[w.r.IntN(len(revs))]
	delete(w.obj.revs, r.Name)
	w.log = append(w.log, "revision "+r.Name+" deleted")
}

func iosString(v *intstr.IntOrString) string {
	if v == nil {
		return "unset"
	}
	return v.String()
}

func ordinalsString(o *appsv1.StatefulSetOrdinals) string {
	if o == nil {
		return "unset"
	}
	return fmt.Sprint(o.Start)
}

func strategyString(st appsv1.StatefulSetUpdateStrategy) string {
	s := string(st.Type)
	if ru := st.RollingUpdate; ru != nil {
		s += fmt.Sprintf("(partition=%d maxUnavailable=%s)", *ru.Partition, iosString(ru.MaxUnavailable))
	} else if st.Type == appsv1.RollingUpdateStatefulSetStrategyType {
		s += "(no rollingUpdate)"
	}
	return s
}

// describeSts prints the StatefulSet's spec in one line.
func describeSts(s *appsv1.StatefulSet) string {
	deleting := ""
	if s.DeletionTimestamp != nil {
		deleting = " (deleting)"
	}
	return deleting + fmt.Sprintf("replicas=%d %s %s ordinals=%s image=%s minReadySeconds=%d revisionHistoryLimit=%d",
		*s.Spec.Replicas, s.Spec.PodManagementPolicy, strategyString(s.Spec.UpdateStrategy), ordinalsString(s.Spec.Ordinals),
		image(&s.Spec.Template), s.Spec.MinReadySeconds, *s.Spec.RevisionHistoryLimit)
}

// stsWrite is one write of a sync as the API server received it.
type stsWrite struct {
	// Kind is "pod", "revision" or "status"; Verb is create, update or
	// delete (status: update).
	Kind, Verb, Name string
	// Refused is set when the API server refused the write.
	Refused bool
	// Collisions, on a revision creation, counts the creations refused
	// just before it because the name was taken (see foldCollisions).
	Collisions int32
	Pod        *corev1.Pod
	Rev        *appsv1.ControllerRevision
	Status     *appsv1.StatefulSetStatus
	// Step, for a pod write of Plan's, is the stsPhase of the stage
	// that made it, as Plan records it; -1 when unknown.
	Step int
}

func (w stsWrite) String() string {
	s := w.Verb + " " + w.Kind + " " + w.Name
	switch {
	case w.Pod != nil:
		s += fmt.Sprintf(" revision=%s image=%s", w.Pod.Labels[appsv1.StatefulSetRevisionLabel], image(&corev1.PodTemplateSpec{Spec: w.Pod.Spec}))
	case w.Rev != nil:
		s += fmt.Sprintf(" revision=%d", w.Rev.Revision)
	case w.Status != nil:
		s += " " + stsStatusString(w.Status)
	}
	if w.Refused {
		s += " (refused)"
	}
	return s
}

func stsStatusString(st *appsv1.StatefulSetStatus) string {
	cc := "nil"
	if st.CollisionCount != nil {
		cc = fmt.Sprint(*st.CollisionCount)
	}
	return fmt.Sprintf("{observedGeneration=%d replicas=%d ready=%d available=%d current=%d updated=%d currentRevision=%s updateRevision=%s collisionCount=%s}",
		st.ObservedGeneration, st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas, st.CurrentRevision, st.UpdateRevision, cc)
}

// stsWrites extracts the writes from a sync's recorded actions, in the
// order the API server received them (reads and events left out).
func stsWrites(actions []core.Action, failed []bool) []stsWrite {
	var out []stsWrite
	for i, a := range actions {
		res, verb := a.GetResource().Resource, a.GetVerb()
		if verb != "create" && verb != "update" && verb != "delete" && verb != "patch" {
			continue
		}
		w := stsWrite{Verb: verb, Refused: failed[i]}
		switch res {
		case "pods":
			w.Kind = "pod"
		case "controllerrevisions":
			w.Kind = "revision"
		case "statefulsets":
			w.Kind = "status"
		default:
			continue
		}
		switch a := a.(type) {
		case core.CreateAction:
			w.setObject(a.GetObject())
		case core.UpdateAction:
			w.setObject(a.GetObject())
		case core.DeleteAction:
			w.Name = a.GetName()
		case core.PatchAction:
			// The two patches a sync sends to pods: adoption sets the
			// controller reference, release deletes it.
			w.Name, w.Verb = a.GetName(), "adopt"
			if bytes.Contains(a.GetPatch(), []byte(`"$patch":"delete"`)) {
				w.Verb = "release"
			}
		}
		out = append(out, w)
	}
	return out
}

func (w *stsWrite) setObject(o any) {
	switch o := o.(type) {
	case *corev1.Pod:
		w.Name, w.Pod = o.Name, o.DeepCopy()
	case *appsv1.ControllerRevision:
		w.Name, w.Rev = o.Name, o.DeepCopy()
	case *appsv1.StatefulSet:
		w.Name, w.Status = o.Name, o.Status.DeepCopy()
	}
}

// podOrdinal parses the ordinal of a pod named <set>-<n>; -1 otherwise.
func podOrdinal(name string) int {
	var n int
	if _, err := fmt.Sscanf(name, stsName+"-%d", &n); err != nil || fmt.Sprintf("%s-%d", stsName, n) != name {
		return -1
	}
	return n
}

func isClaim(w stsWrite) bool { return w.Verb == "adopt" || w.Verb == "release" }

// stsPhase names the part of a sync a pod write belongs to, in the
// order the controller runs them: 0 the replicas (processReplica:
// creations, deletions of failed or succeeded pods, identity updates),
// 1 the condemned pods (processCondemned), 2 the update step.
func stsPhase(w stsWrite, before *stsObjects) int {
	set := before.set
	start := int32(0)
	if set.Spec.Ordinals != nil {
		start = set.Spec.Ordinals.Start
	}
	ord := int32(podOrdinal(w.Name))
	inRange := ord >= start && ord < start+*set.Spec.Replicas
	switch {
	case w.Verb != "delete":
		return 0
	case !inRange:
		return 1
	}
	if p := before.pods[w.Name]; p != nil && (p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded) {
		return 0
	}
	return 2
}

// canonicalOrder returns ws with the order upstream does not fix made
// canonical. Under Parallel, processReplica and processCondemned run in
// slowStartBatch: batches of 1, 2, 4, … goroutines, the writes inside a
// batch in whatever order the goroutines reach the API server. The
// batches follow each other, so the slot order is fixed only up to
// reordering inside a batch; this sorts each maximal run of pod writes
// of the same phase (replicas ascending, condemned descending by
// ordinal). The update step and everything under OrderedReady are
// sequential and kept as they are.
func canonicalOrder(ws []stsWrite, before *stsObjects) []stsWrite {
	out := append([]stsWrite(nil), ws...)
	// Claims: the controller releases owned pods, then adopts orphans,
	// each group in the order the pod indexer returns them, which is a
	// map's; each run of releases or adoptions is sorted by name.
	for i := 0; i < len(out); {
		v := out[i].Verb
		if out[i].Kind != "pod" || (v != "adopt" && v != "release") {
			i++
			continue
		}
		j := i + 1
		for j < len(out) && out[j].Kind == "pod" && out[j].Verb == v {
			j++
		}
		run := out[i:j]
		sort.SliceStable(run, func(a, b int) bool { return run[a].Name < run[b].Name })
		i = j
	}
	if before.set.Spec.PodManagementPolicy != appsv1.ParallelPodManagement {
		return out
	}
	for i := 0; i < len(out); {
		if out[i].Kind != "pod" || isClaim(out[i]) {
			i++
			continue
		}
		ph := stsPhase(out[i], before)
		j := i + 1
		for j < len(out) && out[j].Kind == "pod" && !isClaim(out[j]) && stsPhase(out[j], before) == ph {
			j++
		}
		if ph != 2 {
			run := out[i:j]
			sort.SliceStable(run, func(a, b int) bool {
				oa, ob := podOrdinal(run[a].Name), podOrdinal(run[b].Name)
				if ph == 1 {
					return oa > ob
				}
				return oa < ob
			})
		}
		i = j
	}
	return out
}

// foldCollisions returns ws with every revision creation the API server
// refused (the name was taken: CreateControllerRevision then raises the
// collision count and tries the next name) folded into the count of the
// creation that follows, as Plan records it (Action.Collisions).
func foldCollisions(ws []stsWrite) []stsWrite {
	var out []stsWrite
	var pending int32
	for _, w := range ws {
		if w.Kind == "revision" && w.Verb == "create" {
			if w.Refused {
				pending++
				continue
			}
			w.Collisions, pending = pending, 0
		}
		out = append(out, w)
	}
	return out
}

// foldRetries returns ws with each run of a refused write repeated on
// one object (RetryOnConflict in UpdateStatefulPod tries a pod update up
// to four times) kept once.
func foldRetries(ws []stsWrite) []stsWrite {
	var out []stsWrite
	for _, w := range ws {
		if n := len(out); n > 0 && w.Refused && out[n-1].Refused && out[n-1].Kind == w.Kind && out[n-1].Verb == w.Verb && out[n-1].Name == w.Name {
			continue
		}
		out = append(out, w)
	}
	return out
}
