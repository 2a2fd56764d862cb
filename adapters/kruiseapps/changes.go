package kruiseapps

import (
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"strings"
	"time"

	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// Verb is the kind of write a Change makes.
type Verb uint8

// The writes a CloneSet controller sends, in the words of the API call.
const (
	// VerbCreateRevision creates Change.Revision.
	VerbCreateRevision Verb = iota + 1
	// VerbUpdateRevision updates Change.Revision (a rollback gives an old
	// revision the next number).
	VerbUpdateRevision
	// VerbDeleteRevision deletes Change.Revision (beyond
	// revisionHistoryLimit).
	VerbDeleteRevision
	// VerbCreatePod creates Change.Pod.
	VerbCreatePod
	// VerbDeletePod deletes Change.Pod.
	VerbDeletePod
	// VerbUpdatePod updates Change.Pod: labels, annotations, finalizers,
	// container images and conditions as the reconcile leaves them (kruise
	// writes a condition through the status subresource and the rest with
	// an update; the object carries both).
	VerbUpdatePod
	// VerbUpdateCloneSet updates Change.CloneSet's spec
	// (scaleStrategy.podsToDelete trimmed).
	VerbUpdateCloneSet
	// VerbUpdateCloneSetStatus writes Change.CloneSet's status through the
	// status subresource.
	VerbUpdateCloneSetStatus
)

// String returns the verb's name without the Verb prefix, such as
// "CreatePod".
func (v Verb) String() string {
	switch v {
	case VerbCreateRevision:
		return "CreateRevision"
	case VerbUpdateRevision:
		return "UpdateRevision"
	case VerbDeleteRevision:
		return "DeleteRevision"
	case VerbCreatePod:
		return "CreatePod"
	case VerbDeletePod:
		return "DeletePod"
	case VerbUpdatePod:
		return "UpdatePod"
	case VerbUpdateCloneSet:
		return "UpdateCloneSet"
	case VerbUpdateCloneSetStatus:
		return "UpdateCloneSetStatus"
	}
	return fmt.Sprintf("Verb(%d)", uint8(v))
}

// Change is one write to the API server, with the object to send: one of
// Pod, Revision and CloneSet is set, as Verb says.
type Change struct {
	Verb     Verb
	Pod      *corev1.Pod
	Revision *appsv1.ControllerRevision
	CloneSet *kruise.CloneSet
	// Reason is the cloneset.Action's reason.
	Reason string
}

// The label, annotation and condition keys Changes writes besides those
// the cloneset package names.
const (
	// InstanceIDLabel is the pod label holding its instance id, the part
	// of its name after "<cloneset>-".
	InstanceIDLabel = kruise.CloneSetInstanceID
	// LifecycleTimestampAnnotation records when the lifecycle state label
	// last changed (RFC 3339, seconds).
	LifecycleTimestampAnnotation = appspub.LifecycleTimestampKey
	// InPlaceUpdateReadyCondition is the readiness gate and condition of
	// an in-place update.
	InPlaceUpdateReadyCondition = appspub.InPlaceUpdateReady
)

// Changes returns the writes that carry out s, the result of
// cloneset.Plan for the CloneSet cs with the pods and ControllerRevisions
// the plan's inputs were converted from, at time now (the time written
// in lifecycle and in-place update records), in the order of s.Actions.
// Every object is a new deep copy; the inputs are not modified. A pod or
// revision written twice carries the earlier writes too.
//
//   - WriteRevision: a new revision is created (NewRevisionObject); an
//     existing one is updated with its new number.
//   - CreatePod: one Change per pod the action creates (Count of them,
//     named as s.CreatedPods names them, so the Changes of a sync grow
//     with the pods it creates), each the pod kruise builds from the template of the
//     revision it is created at (decoded from that revision's data): the
//     template's labels, annotations, finalizers and spec; the
//     controller-revision-hash label (the revision name), the
//     pod-template-hash label (its hash), the instance-id label (the
//     name after "<cloneset>-"), the lifecycle state PreparingNormal and
//     its timestamp annotation; generateName "<cloneset>-", the
//     InPlaceUpdateReady readiness gate, and a controller owner
//     reference to cs. Volumes for spec.volumeClaimTemplates are not
//     added (PVCs are not modelled).
//   - DeletePod: the pod as it is.
//   - SetPodLifecycle: the lifecycle label and timestamp; with
//     Action.AddHook, the inPlaceUpdate hook's labels and
//     finalizers. Not written: what kruise's pod-readiness control does
//     for a hook with markPodNotReady (a not-ready key in the message of
//     the KruisePodReady condition, on pods that carry that readiness
//     gate, and the Ready condition it implies).
//   - RecreatePod: the specified-delete label "true".
//   - UpdatePodInPlace: InPlaceUpdateReady False, the revision labels, the
//     lifecycle Updating, the in-place update state annotation (revision,
//     time, and the current imageIDs of the containers whose image
//     changes), then the new images and the change from the pod's old
//     template's labels and annotations to the target's (a key the old
//     template had and the new one lacks is removed). With a grace period
//     the images and that change are held instead in the grace annotation
//     (revision, containerImages, metaDataPatch, graceSeconds, as kruise's
//     UpdateSpec encodes them), and the imageIDs are recorded when it is
//     applied. Changes to other template metadata (finalizers, for
//     instance) are not written, although kruise patches them too.
//   - SetPodInPlaceUpdateReady: InPlaceUpdateReady True.
//   - ApplyHeldPodUpdate: the held update applied (its images and
//     metadata, the imageIDs recorded, the grace annotation removed).
//   - DropHeldPodUpdate: the held update dropped (the grace annotation
//     removed).
//   - WriteStatus: cs with the status of s.CloneSet (StatusObject).
//   - TrimPodsToDelete: cs with s.CloneSet's podsToDelete.
//   - DeleteRevision: the revision as it is.
//
// Errors (the result is then nil): an action naming a pod or revision
// found neither in the inputs nor in s, revision data that does not hold
// a pod template, and a grace annotation that is not kruise's JSON.
func Changes(cs *kruise.CloneSet, pods []*corev1.Pod, revisions []*appsv1.ControllerRevision, s *cloneset.Sync[Template], now time.Time) ([]Change, error) {
	c := changer{cs: cs, s: s, now: now, pods: map[string]*corev1.Pod{}, revs: map[string]*appsv1.ControllerRevision{}}
	for _, p := range pods {
		if p != nil {
			c.pods[p.Name] = p
		}
	}
	for _, r := range revisions {
		if r != nil {
			c.revs[r.Name] = r
		}
	}
	var out []Change
	next, stop := iter.Pull2(s.CreatedPods())
	defer stop()
	for _, a := range s.Actions {
		if a.Kind == cloneset.CreatePod {
			for range max(a.Count, 1) {
				q, err, ok := next()
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, fmt.Errorf("kruiseapps: the sync's CreatedPods end before its CreatePod actions")
				}
				p, err := c.newPod(q.Name, q.Revision)
				if err != nil {
					return nil, err
				}
				c.pods[p.Name] = p
				out = append(out, Change{Verb: VerbCreatePod, Pod: p.DeepCopy(), Reason: a.Reason})
			}
			continue
		}
		ch, err := c.change(&a)
		if err != nil {
			return nil, err
		}
		ch.Reason = a.Reason
		out = append(out, ch)
	}
	return out, nil
}

// changer holds the objects as the writes so far leave them.
type changer struct {
	cs   *kruise.CloneSet
	s    *cloneset.Sync[Template]
	now  time.Time
	pods map[string]*corev1.Pod
	revs map[string]*appsv1.ControllerRevision
	set  *kruise.CloneSet
}

func (c *changer) change(a *cloneset.Action) (Change, error) {
	switch a.Kind {
	case cloneset.WriteRevision:
		rev, ok := c.revision(a.Revision)
		if !ok {
			return Change{}, fmt.Errorf("kruiseapps: written revision %q is not in the sync's revisions", a.Revision)
		}
		if old, ok := c.revs[a.Revision]; ok {
			obj := old.DeepCopy()
			obj.Revision = rev.Number
			c.revs[obj.Name] = obj
			return Change{Verb: VerbUpdateRevision, Revision: obj.DeepCopy()}, nil
		}
		obj := NewRevisionObject(c.cs, rev)
		c.revs[obj.Name] = obj
		return Change{Verb: VerbCreateRevision, Revision: obj.DeepCopy()}, nil
	case cloneset.DeleteRevision:
		old, ok := c.revs[a.Revision]
		if !ok {
			return Change{}, fmt.Errorf("kruiseapps: deletion of unknown revision %q", a.Revision)
		}
		return Change{Verb: VerbDeleteRevision, Revision: old.DeepCopy()}, nil
	case cloneset.DeletePod:
		old, ok := c.pods[a.Pod]
		if !ok {
			return Change{}, fmt.Errorf("kruiseapps: deletion of unknown pod %q", a.Pod)
		}
		return Change{Verb: VerbDeletePod, Pod: old.DeepCopy()}, nil
	case cloneset.SetPodLifecycle, cloneset.RecreatePod, cloneset.UpdatePodInPlace,
		cloneset.SetPodInPlaceUpdateReady, cloneset.ApplyHeldPodUpdate, cloneset.DropHeldPodUpdate:
		old, ok := c.pods[a.Pod]
		if !ok {
			return Change{}, fmt.Errorf("kruiseapps: %v of unknown pod %q", a.Kind, a.Pod)
		}
		p := old.DeepCopy()
		if err := c.patch(p, a); err != nil {
			return Change{}, err
		}
		c.pods[p.Name] = p
		return Change{Verb: VerbUpdatePod, Pod: p.DeepCopy()}, nil
	case cloneset.WriteStatus:
		obj := c.cloneSet()
		obj.Status = StatusObject(&c.s.CloneSet.Status)
		return Change{Verb: VerbUpdateCloneSetStatus, CloneSet: obj.DeepCopy()}, nil
	case cloneset.TrimPodsToDelete:
		obj := c.cloneSet()
		obj.Spec.ScaleStrategy.PodsToDelete = append([]string(nil), c.s.CloneSet.ScaleStrategy.PodsToDelete...)
		return Change{Verb: VerbUpdateCloneSet, CloneSet: obj.DeepCopy()}, nil
	}
	return Change{}, fmt.Errorf("kruiseapps: unknown action kind %v", a.Kind)
}

// cloneSet returns the CloneSet as written so far (a copy of cs at
// first).
func (c *changer) cloneSet() *kruise.CloneSet {
	if c.set == nil {
		c.set = c.cs.DeepCopy()
	}
	return c.set
}

// revision finds a revision of the sync by name.
func (c *changer) revision(name string) (*cloneset.ControllerRevision, bool) {
	for i := range c.s.Revisions {
		if c.s.Revisions[i].Name == name {
			return &c.s.Revisions[i], true
		}
	}
	return nil, false
}

// template returns the pod template recorded in the revision named name.
func (c *changer) template(name string) (*corev1.PodTemplateSpec, error) {
	rev, ok := c.revision(name)
	if !ok {
		return nil, fmt.Errorf("kruiseapps: revision %q is not in the sync's revisions", name)
	}
	return TemplateOf(rev.Data)
}

// TemplateOf decodes the pod template from revision data as RevisionData
// writes it ({"spec":{"template":...}}), dropping the "$patch" key.
// Errors: data that is not such a document.
// Upstream: the CloneSet revision control's ApplyRevision.
func TemplateOf(data []byte) (*corev1.PodTemplateSpec, error) {
	var doc struct {
		Spec *struct {
			Template *json.RawMessage `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("kruiseapps: revision data: %v", err)
	}
	if doc.Spec == nil || doc.Spec.Template == nil {
		return nil, fmt.Errorf("kruiseapps: revision data has no spec.template")
	}
	var t corev1.PodTemplateSpec
	if err := json.Unmarshal(*doc.Spec.Template, &t); err != nil {
		return nil, fmt.Errorf("kruiseapps: revision data: spec.template: %v", err)
	}
	return &t, nil
}

// newPod builds a pod kruise creates: see Changes.
func (c *changer) newPod(name, revision string) (*corev1.Pod, error) {
	t, err := c.template(revision)
	if err != nil {
		return nil, err
	}
	id := strings.TrimPrefix(name, c.cs.Name+"-")
	labels := maps.Clone(t.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[cloneset.RevisionLabel] = revision
	labels[cloneset.TemplateHashLabel] = shortHash(revision)
	labels[InstanceIDLabel] = id
	labels[cloneset.LifecycleStateLabel] = string(cloneset.PreparingNormal)
	annotations := maps.Clone(t.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[LifecycleTimestampAnnotation] = c.now.UTC().Format(time.RFC3339)
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:            name,
			GenerateName:    c.cs.Name + "-",
			Namespace:       c.cs.Namespace,
			Labels:          labels,
			Annotations:     annotations,
			Finalizers:      append([]string(nil), t.Finalizers...),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(c.cs, ControllerKind)},
		},
		Spec: *t.Spec.DeepCopy(),
	}
	if !hasGate(p) {
		p.Spec.ReadinessGates = append(p.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: InPlaceUpdateReadyCondition})
	}
	return p, nil
}

func hasGate(p *corev1.Pod) bool {
	for _, g := range p.Spec.ReadinessGates {
		if g.ConditionType == InPlaceUpdateReadyCondition {
			return true
		}
	}
	return false
}

// patch applies one pod write to p: see Changes.
func (c *changer) patch(p *corev1.Pod, a *cloneset.Action) error {
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	switch a.Kind {
	case cloneset.SetPodLifecycle:
		c.setLifecycle(p, a.To)
		if a.AddHook && c.cs.Spec.Lifecycle != nil && c.cs.Spec.Lifecycle.InPlaceUpdate != nil {
			h := c.cs.Spec.Lifecycle.InPlaceUpdate
			maps.Copy(p.Labels, h.LabelsHandler)
			for _, f := range h.FinalizersHandler {
				if !contains(p.Finalizers, f) {
					p.Finalizers = append(p.Finalizers, f)
				}
			}
		}
	case cloneset.RecreatePod:
		p.Labels[cloneset.SpecifiedDeleteLabel] = "true"
	case cloneset.UpdatePodInPlace:
		return c.updateInPlace(p, a)
	case cloneset.SetPodInPlaceUpdateReady:
		c.setCondition(p, InPlaceUpdateReadyCondition, corev1.ConditionTrue, "")
	case cloneset.ApplyHeldPodUpdate:
		text, _ := appspub.GetInPlaceUpdateGrace(p)
		var held heldUpdate
		if err := json.Unmarshal([]byte(text), &held); err != nil {
			return fmt.Errorf("kruiseapps: pod %s: annotation %s: %v", p.Name, appspub.InPlaceUpdateGraceKey, err)
		}
		stateText, _ := appspub.GetInPlaceUpdateState(p)
		var state appspub.InPlaceUpdateState
		if err := json.Unmarshal([]byte(stateText), &state); err != nil {
			return fmt.Errorf("kruiseapps: pod %s: annotation %s: %v", p.Name, appspub.InPlaceUpdateStateKey, err)
		}
		state.LastContainerStatuses = lastStatuses(p, held.ContainerImages)
		p.Annotations[appspub.InPlaceUpdateStateKey] = string(mustJSON(state))
		delete(p.Annotations, appspub.InPlaceUpdateStateKeyOld)
		setImages(p, held.ContainerImages)
		appspub.RemoveInPlaceUpdateGrace(p)
		return applyMetadataPatch(p, held.MetaDataPatch)
	case cloneset.DropHeldPodUpdate:
		appspub.RemoveInPlaceUpdateGrace(p)
	}
	return nil
}

// updateInPlace writes an in-place update: see Changes.
func (c *changer) updateInPlace(p *corev1.Pod, a *cloneset.Action) error {
	if a.InPlace == nil {
		return fmt.Errorf("kruiseapps: in-place update of pod %q without the images to change", a.Pod)
	}
	c.setCondition(p, InPlaceUpdateReadyCondition, corev1.ConditionFalse, "StartInPlaceUpdate")
	oldRev := p.Labels[cloneset.RevisionLabel]
	p.Labels[cloneset.RevisionLabel] = a.Revision
	p.Labels[cloneset.TemplateHashLabel] = shortHash(a.Revision)
	c.setLifecycle(p, cloneset.Updating)
	state := appspub.InPlaceUpdateState{Revision: a.Revision, UpdateTimestamp: metav1.NewTime(c.now),
		UpdateImages: len(a.InPlace.Images) > 0}
	if a.GraceSeconds <= 0 {
		state.LastContainerStatuses = lastStatuses(p, a.InPlace.Images)
	}
	var patch []byte
	if a.InPlace.Metadata {
		to, err := c.template(a.Revision)
		if err != nil {
			return err
		}
		var from *corev1.PodTemplateSpec
		if rev, ok := c.firstMatching(oldRev); ok {
			if from, err = TemplateOf(rev.Data); err != nil {
				return err
			}
		}
		patch = metadataPatch(from, to)
	}
	p.Annotations[appspub.InPlaceUpdateStateKey] = string(mustJSON(state))
	delete(p.Annotations, appspub.InPlaceUpdateStateKeyOld)
	if a.GraceSeconds > 0 {
		p.Annotations[appspub.InPlaceUpdateGraceKey] = string(mustJSON(heldUpdate{Revision: a.Revision,
			ContainerImages: a.InPlace.Images, MetaDataPatch: patch, GraceSeconds: a.GraceSeconds}))
		return nil
	}
	setImages(p, a.InPlace.Images)
	appspub.RemoveInPlaceUpdateGrace(p)
	return applyMetadataPatch(p, patch)
}

// lastStatuses records the imageIDs the containers whose image changes
// run now, from which the completion check tells that they restarted.
func lastStatuses(p *corev1.Pod, images map[string]string) map[string]appspub.InPlaceUpdateContainerStatus {
	out := map[string]appspub.InPlaceUpdateContainerStatus{}
	for _, s := range p.Status.ContainerStatuses {
		if _, ok := images[s.Name]; ok {
			out[s.Name] = appspub.InPlaceUpdateContainerStatus{ImageID: s.ImageID}
		}
	}
	return out
}

// heldUpdate is the part of kruise's inplaceupdate.UpdateSpec that
// Changes writes to and reads from the grace annotation. MetaDataPatch
// encodes as base64, as kruise's []byte field does.
type heldUpdate struct {
	Revision        string            `json:"revision"`
	ContainerImages map[string]string `json:"containerImages,omitempty"`
	MetaDataPatch   []byte            `json:"metaDataPatch,omitempty"`
	GraceSeconds    int32             `json:"graceSeconds,omitempty"`
}

// mustJSON encodes v, which is built of maps of strings and cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // unreachable: the values are strings, bytes and integers
	}
	return b
}

// metadataPatch returns the patch that takes a pod's labels and
// annotations from template from (nil: unknown, nothing is removed) to
// template to: {"metadata":{"labels":{...},"annotations":{...}}}, with
// null for a key to remove. It is a strategic merge patch in kruise's
// format for these two maps; kruise's also carries changes to the other
// metadata fields (finalizers, for instance), which this one does not.
// nil when nothing changes.
func metadataPatch(from, to *corev1.PodTemplateSpec) []byte {
	diff := func(old, next map[string]string) map[string]*string {
		out := map[string]*string{}
		for k := range old {
			if _, ok := next[k]; !ok {
				out[k] = nil
			}
		}
		for k, v := range next {
			if w, ok := old[k]; !ok || w != v {
				out[k] = &v
			}
		}
		return out
	}
	meta := map[string]map[string]*string{}
	if d := diff(fromMeta(from, true), to.Labels); len(d) > 0 {
		meta["labels"] = d
	}
	if d := diff(fromMeta(from, false), to.Annotations); len(d) > 0 {
		meta["annotations"] = d
	}
	if len(meta) == 0 {
		return nil
	}
	return mustJSON(map[string]any{"metadata": meta})
}

// applyMetadataPatch applies a patch metadataPatch wrote to p's labels
// and annotations. A nil patch changes nothing.
func applyMetadataPatch(p *corev1.Pod, patch []byte) error {
	if patch == nil {
		return nil
	}
	var doc struct {
		Metadata struct {
			Labels      map[string]*string `json:"labels"`
			Annotations map[string]*string `json:"annotations"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(patch, &doc); err != nil {
		return fmt.Errorf("kruiseapps: pod %s: metadata patch %s: %v", p.Name, patch, err)
	}
	apply := func(m map[string]string, d map[string]*string) {
		for k, v := range d {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = *v
			}
		}
	}
	apply(p.Labels, doc.Metadata.Labels)
	apply(p.Annotations, doc.Metadata.Annotations)
	return nil
}

// firstMatching returns the first revision of the sync (in
// cloneset.SortRevisions order) a pod at rev matches.
func (c *changer) firstMatching(rev string) (*cloneset.ControllerRevision, bool) {
	order, err := cloneset.SortRevisions(c.s.Revisions)
	if err != nil {
		return nil, false
	}
	probe := cloneset.Pod{Revision: rev}
	for _, i := range order {
		if cloneset.IsPodAtRevision(&probe, c.s.Revisions[i].Name) {
			return &c.s.Revisions[i], true
		}
	}
	return nil, false
}

func fromMeta(t *corev1.PodTemplateSpec, labels bool) map[string]string {
	if t == nil {
		return nil
	}
	if labels {
		return t.Labels
	}
	return t.Annotations
}

// setImages sets the image of every container named in images.
func setImages(p *corev1.Pod, images map[string]string) {
	for i := range p.Spec.Containers {
		if img, ok := images[p.Spec.Containers[i].Name]; ok {
			p.Spec.Containers[i].Image = img
		}
	}
}

// setLifecycle sets the lifecycle label and its timestamp.
func (c *changer) setLifecycle(p *corev1.Pod, to cloneset.LifecycleState) {
	p.Labels[cloneset.LifecycleStateLabel] = string(to)
	p.Annotations[LifecycleTimestampAnnotation] = c.now.UTC().Format(time.RFC3339)
}

// setCondition sets a pod condition's status (and reason), moving its
// transition time to now when the status changes.
func (c *changer) setCondition(p *corev1.Pod, t corev1.PodConditionType, status corev1.ConditionStatus, reason string) {
	for i := range p.Status.Conditions {
		cond := &p.Status.Conditions[i]
		if cond.Type == t {
			if cond.Status != status {
				cond.LastTransitionTime = metav1.NewTime(c.now)
			}
			cond.Status, cond.Reason = status, reason
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(c.now)})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
