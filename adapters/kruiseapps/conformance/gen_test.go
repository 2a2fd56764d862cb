package conformance

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	kruiserevision "github.com/openkruise/kruise/pkg/controller/cloneset/revision"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// caseSeq numbers generated CloneSets, so that every case has its own
// name and UID: kruise keeps scale expectations in a package-level map
// keyed by namespace/name.
var caseSeq atomic.Int64

// Hook labels and finalizers the generated lifecycle hooks use.
const (
	hookLabel     = "example.com/hook"
	hookFinalizer = "example.com/hook-finalizer"
)

// intOrPercent draws a partition, maxSurge or maxUnavailable as a user
// may write it: a count (sometimes negative or beyond the replicas), a
// "N%" string, and now and then text only one of kruise's two readers
// accepts ("25" without '%', "33.3%", "+5%", "007%") or neither does.
func intOrPercent(t *rapid.T, label string) *intstr.IntOrString {
	switch rapid.IntRange(0, 9).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1, 2, 3:
		v := intstr.FromInt32(rapid.Int32Range(-2, 12).Draw(t, label))
		return &v
	case 4, 5, 6:
		v := intstr.FromString(strconv.Itoa(rapid.IntRange(0, 120).Draw(t, label)) + "%")
		return &v
	default:
		s := rapid.SampledFrom([]string{"25", "50", "100%", "0%", "33.3%", "66.7%", "+5%", "007%", "-10%", "1e1%", "%", "", "abc", "50%%", ".5%", "100.0%", "99.99%", "9999999999%"}).Draw(t, label)
		v := intstr.FromString(s)
		return &v
	}
}

// template draws a pod template: one or two containers whose images are
// drawn from a small set, and sometimes an env var, so that two drawn
// templates differ only in images (in place possible), in something else,
// or not at all.
func template(t *rapid.T, label string) corev1.PodTemplateSpec {
	img := rapid.SampledFrom([]string{"nginx:1.25", "nginx:1.27", "nginx@sha256:0a1b"}).Draw(t, label+"Image")
	spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: img}}}
	if rapid.Bool().Draw(t, label+"Sidecar") {
		spec.Containers = append(spec.Containers, corev1.Container{Name: "log", Image: rapid.SampledFrom([]string{"busybox:1", "busybox:2"}).Draw(t, label+"SidecarImage")})
	}
	if rapid.IntRange(0, 3).Draw(t, label+"HasEnv") == 0 {
		spec.Containers[0].Env = []corev1.EnvVar{{Name: "MODE", Value: rapid.SampledFrom([]string{"a", "b"}).Draw(t, label+"Env")}}
	}
	tpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}}, Spec: spec}
	if rapid.IntRange(0, 3).Draw(t, label+"HasAnnotation") == 0 {
		tpl.Annotations = map[string]string{"note": rapid.SampledFrom([]string{"x", "y"}).Draw(t, label+"Annotation")}
	}
	return tpl
}

// hook draws a lifecycle hook or nil.
func hook(t *rapid.T, label string) *appspub.LifecycleHook {
	switch rapid.IntRange(0, 3).Draw(t, label) {
	case 1:
		return &appspub.LifecycleHook{LabelsHandler: map[string]string{hookLabel: "true"}, MarkPodNotReady: rapid.Bool().Draw(t, label+"MarkNotReady")}
	case 2:
		return &appspub.LifecycleHook{FinalizersHandler: []string{hookFinalizer}, MarkPodNotReady: rapid.Bool().Draw(t, label+"MarkNotReady")}
	}
	return nil
}

// state is one generated reconcile input: a CloneSet, its active pods
// (listed by name), its two revisions and the time.
type state struct {
	cs              *appsv1alpha1.CloneSet
	pods            []*corev1.Pod
	current, update *apps.ControllerRevision
	revisions       []*apps.ControllerRevision
	now             time.Time
}

// genState draws a reconcile input with up to maxPods pods. Times are
// whole seconds (the fake client stores them that way) and readiness
// times stay at least 3 s away from the minReadySeconds boundary, because
// kruise reads the wall clock while the library is given now.
func genState(maxPods int) *rapid.Generator[*state] {
	return rapid.Custom(func(t *rapid.T) *state {
		now := time.Now().Truncate(time.Second)
		n := caseSeq.Add(1)
		name := "cs" + strconv.FormatInt(n, 36)
		replicas := rapid.Int32Range(0, int32(maxPods)).Draw(t, "replicas")
		cs := &appsv1alpha1.CloneSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1},
			Spec: appsv1alpha1.CloneSetSpec{
				Replicas:        &replicas,
				Selector:        &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
				MinReadySeconds: rapid.SampledFrom([]int32{0, 0, 10, 60}).Draw(t, "minReadySeconds"),
				UpdateStrategy: appsv1alpha1.CloneSetUpdateStrategy{
					Type:           appsv1alpha1.CloneSetUpdateStrategyType(rapid.SampledFrom([]string{"ReCreate", "InPlaceIfPossible", "InPlaceOnly", "OnDelete", ""}).Draw(t, "strategy")),
					Partition:      intOrPercent(t, "partition"),
					MaxUnavailable: intOrPercent(t, "maxUnavailable"),
					MaxSurge:       intOrPercent(t, "maxSurge"),
					Paused:         rapid.IntRange(0, 7).Draw(t, "paused") == 0,
				},
			},
		}
		if rapid.IntRange(0, 3).Draw(t, "hasInPlaceGrace") == 0 {
			cs.Spec.UpdateStrategy.InPlaceUpdateStrategy = &appspub.InPlaceUpdateStrategy{GracePeriodSeconds: rapid.Int32Range(0, 30).Draw(t, "inPlaceGracePeriodSeconds")}
		}
		if rapid.IntRange(0, 3).Draw(t, "hasScaleMaxUnavailable") == 0 {
			cs.Spec.ScaleStrategy.MaxUnavailable = intOrPercent(t, "scaleMaxUnavailable")
		}
		if rapid.IntRange(0, 2).Draw(t, "hasLifecycle") == 0 {
			cs.Spec.Lifecycle = &appspub.Lifecycle{PreDelete: hook(t, "preDelete"), InPlaceUpdate: hook(t, "inPlaceUpdate"), PreNormal: hook(t, "preNormal")}
		}
		if rapid.IntRange(0, 5).Draw(t, "excludePreparingDelete") == 0 {
			cs.Labels = map[string]string{appsv1alpha1.CloneSetScalingExcludePreparingDeleteKey: "true"}
		}

		// Revisions: the update revision from the CloneSet's template, the
		// current one from another (or the same) template.
		rc := kruiserevision.NewRevisionControl()
		curCS := cs.DeepCopy()
		curCS.Spec.Template = template(t, "currentTemplate")
		cur, err := rc.NewRevision(curCS, 1, new(int32))
		if err != nil {
			t.Fatalf("NewRevision: %v", err)
		}
		cs.Spec.Template = curCS.Spec.Template
		upd := cur
		if rapid.IntRange(0, 4).Draw(t, "sameRevision") != 0 {
			if rapid.Bool().Draw(t, "imagesOnly") {
				// The common rollout: the same template with new images,
				// which kruise can apply in place.
				cs.Spec.Template = *curCS.Spec.Template.DeepCopy()
				for i := range cs.Spec.Template.Spec.Containers {
					cs.Spec.Template.Spec.Containers[i].Image = rapid.SampledFrom([]string{"nginx:1.25", "nginx:1.27", "busybox:3"}).Draw(t, "newImage")
				}
			} else {
				cs.Spec.Template = template(t, "updateTemplate")
			}
			if upd, err = rc.NewRevision(cs, 2, new(int32)); err != nil {
				t.Fatalf("NewRevision: %v", err)
			}
		}
		revisions := []*apps.ControllerRevision{cur}
		if upd.Name != cur.Name {
			revisions = append(revisions, upd)
		}
		for _, r := range revisions {
			r.Namespace = cs.Namespace
		}
		// A pod may also sit at an older revision that still exists, at one
		// that no longer does, or carry only a short hash.
		older := cs.Name + "-old0"
		revLabels := []string{cur.Name, upd.Name, upd.Name, cur.Name, older, shortHash(upd.Name), shortHash(cur.Name)}

		// Half of the states are calm: as many pods as replicas (give or
		// take one), none marked for deletion, so that the scale step
		// often has nothing to do and the update step runs.
		calm := rapid.Bool().Draw(t, "calm")
		stable := calm && rapid.Bool().Draw(t, "stable")
		npods := rapid.IntRange(0, maxPods+2).Draw(t, "pods")
		if calm {
			npods = max(int(replicas)+rapid.SampledFrom([]int{0, 0, 0, 0, 1, -1}).Draw(t, "podsOffReplicas"), 0)
		}
		pods := make([]*corev1.Pod, 0, npods)
		for i := 0; i < npods; i++ {
			pods = append(pods, genPod(t, cs, podName(cs.Name, i), revLabels, now, calm, stable))
		}
		if !calm && rapid.IntRange(0, 4).Draw(t, "hasPodsToDelete") == 0 && npods > 0 {
			cs.Spec.ScaleStrategy.PodsToDelete = []string{podName(cs.Name, rapid.IntRange(0, npods-1).Draw(t, "podToDelete"))}
		}
		byName(pods)
		return &state{cs: cs, pods: pods, current: cur, update: upd, revisions: revisions, now: now}
	})
}

// shortHash is the part of a revision name after its last '-'.
func shortHash(rev string) string {
	for i := len(rev) - 1; i >= 0; i-- {
		if rev[i] == '-' {
			return rev[i+1:]
		}
	}
	return rev
}

// genPod draws one active pod of cs.
// A calm pod is never specified for deletion nor in PreparingDelete; a
// stable one is moreover in lifecycle "" or Normal, so that the update
// step's bookkeeping has nothing to move.
func genPod(t *rapid.T, cs *appsv1alpha1.CloneSet, name string, revLabels []string, now time.Time, calm, stable bool) *corev1.Pod {
	p := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: cs.Namespace, UID: types.UID("uid-" + name),
			CreationTimestamp: metav1.NewTime(at(now, -rapid.IntRange(0, 6).Draw(t, "age"))),
			Labels: map[string]string{
				"app":                                "demo",
				apps.ControllerRevisionHashLabelKey:  rapid.SampledFrom(revLabels).Draw(t, "revision"),
				apps.DefaultDeploymentUniqueLabelKey: "h",
			},
			Annotations:     map[string]string{},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cs, appsv1alpha1.SchemeGroupVersion.WithKind("CloneSet"))},
		},
		Spec: corev1.PodSpec{
			NodeName:   rapid.SampledFrom([]string{"", "node-a", "node-a", "node-b", "node-c"}).Draw(t, "node"),
			Containers: []corev1.Container{{Name: "app", Image: "nginx"}},
		},
		Status: corev1.PodStatus{Phase: rapid.SampledFrom([]corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodPending}).Draw(t, "phase")},
	}
	if stable || calm && rapid.IntRange(0, 2).Draw(t, "healthy") != 0 {
		// Stable pods and most calm ones are healthy: scheduled, Running,
		// Ready for long.
		p.Spec.NodeName = "node-b"
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(now, -3600))}}
	} else if rapid.IntRange(0, 3).Draw(t, "ready") != 0 {
		var since time.Time
		switch rapid.IntRange(0, 9).Draw(t, "readySince") {
		case 0:
			// A zero transition time.
		case 1, 2:
			since = at(now, -rapid.IntRange(0, 5).Draw(t, "readyFor"))
		default:
			since = at(now, -rapid.IntRange(65, 4000).Draw(t, "readyFor"))
		}
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(since)})
	} else if rapid.Bool().Draw(t, "readyFalse") {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse})
	}
	switch rapid.IntRange(0, 5).Draw(t, "inPlaceUpdateReady") {
	case 1, 2:
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: appspub.InPlaceUpdateReady, Status: corev1.ConditionTrue})
	case 3:
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: appspub.InPlaceUpdateReady, Status: corev1.ConditionFalse})
	}
	// A pod has the InPlaceUpdateReady readiness gate exactly when it has
	// the condition: the library has no readiness-gate field and assumes
	// so (see the README).
	for _, c := range p.Status.Conditions {
		if c.Type == appspub.InPlaceUpdateReady {
			p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: appspub.InPlaceUpdateReady}}
		}
	}
	states := []string{"", "", "", "Normal", "Normal", "PreparingNormal", "PreparingUpdate", "Updating", "Updated", "PreparingDelete"}
	if calm {
		states = []string{"", "", "", "", "", "", "Normal", "Normal", "Normal", "Normal", "Normal", "PreparingUpdate", "Updating", "Updated"}
		if stable {
			states = []string{"", "Normal"}
		}
	}
	if st := rapid.SampledFrom(states).Draw(t, "lifecycle"); st != "" {
		p.Labels[appspub.LifecycleStateKey] = st
	}
	hookOdds := 3
	if calm {
		hookOdds = 8
	}
	if stable {
		hookOdds = 30
	}
	if rapid.IntRange(0, hookOdds).Draw(t, "hookLabel") == 0 {
		p.Labels[hookLabel] = "true"
	}
	if rapid.IntRange(0, hookOdds).Draw(t, "hookFinalizer") == 0 {
		p.Finalizers = []string{hookFinalizer}
	}
	if !calm && rapid.IntRange(0, 7).Draw(t, "specifiedDelete") == 0 {
		p.Labels[appsv1alpha1.SpecifiedDeleteKey] = "true"
	}
	if rapid.IntRange(0, 3).Draw(t, "hasCost") == 0 {
		p.Annotations["controller.kubernetes.io/pod-deletion-cost"] = rapid.SampledFrom([]string{"-5", "0", "3", "10", "007", "+3", "x", "2147483648"}).Draw(t, "cost")
	}
	if r := rapid.IntRange(0, 6).Draw(t, "restarts"); r < 3 {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "app", RestartCount: int32(r)}}
	}
	if rapid.IntRange(0, 3).Draw(t, "hasInPlaceState") == 0 {
		addInPlaceState(t, p, revLabels, now)
	}
	return p
}

// describe prints a state compactly for failure messages.
func (s *state) String() string {
	lc, _ := json.Marshal(s.cs.Spec.Lifecycle)
	out := fmt.Sprintf("cloneset %s replicas=%d minReady=%d strategy=%+v scale=%+v lifecycle=%s labels=%v current=%s update=%s now=%s\n",
		s.cs.Name, *s.cs.Spec.Replicas, s.cs.Spec.MinReadySeconds, s.cs.Spec.UpdateStrategy, s.cs.Spec.ScaleStrategy, lc, s.cs.Labels, s.current.Name, s.update.Name, s.now.Format(time.RFC3339))
	for _, p := range s.pods {
		out += fmt.Sprintf("  %s labels=%v fin=%v node=%q phase=%s cond=%v ann=%v created=%s\n", p.Name, p.Labels, p.Finalizers, p.Spec.NodeName, p.Status.Phase, p.Status.Conditions, p.Annotations, p.CreationTimestamp.Format(time.RFC3339))
	}
	return out
}

// addInPlaceState records an in-place update on p, as kruise's
// inplaceupdate leaves it: the InPlaceUpdateStateAnnotation (the revision,
// when it started, the app container's image ID before), a container
// status that shows the update finished or not, and sometimes an
// InPlaceUpdateGraceAnnotation holding new images until a grace period
// has passed. Grace periods end at least 3 s away from now.
func addInPlaceState(t *rapid.T, p *corev1.Pod, revLabels []string, now time.Time) {
	started := rapid.IntRange(0, 120).Draw(t, "updateStartedAgo")
	st := appspub.InPlaceUpdateState{
		Revision:              p.Labels[apps.ControllerRevisionHashLabelKey],
		UpdateTimestamp:       metav1.NewTime(at(now, -started)),
		LastContainerStatuses: map[string]appspub.InPlaceUpdateContainerStatus{"app": {ImageID: "id-old"}},
	}
	var restarts int32
	if len(p.Status.ContainerStatuses) > 0 {
		restarts = p.Status.ContainerStatuses[0].RestartCount
	}
	cs := corev1.ContainerStatus{Name: "app", RestartCount: restarts, ImageID: "id-old", Image: "nginx:0"}
	switch rapid.IntRange(0, 2).Draw(t, "updateDone") {
	case 1: // the kubelet runs the new image
		cs.ImageID = "id-new"
	case 2: // same image ID, but the status names the spec's image
		cs.Image = "nginx:latest"
	}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{cs}
	b, _ := json.Marshal(st)
	p.Annotations[appspub.InPlaceUpdateStateKey] = string(b)
	if rapid.IntRange(0, 2).Draw(t, "hasGrace") == 0 {
		grace := rapid.IntRange(1, 60).Draw(t, "graceSeconds")
		if d := grace - started; d > -3 && d < 3 {
			grace = started + 5
		}
		spec := inplaceupdate.UpdateSpec{
			Revision:        rapid.SampledFrom(append([]string{st.Revision, st.Revision}, revLabels...)).Draw(t, "graceRevision"),
			ContainerImages: map[string]string{"app": "nginx:held"},
			GraceSeconds:    int32(grace),
		}
		b, _ := json.Marshal(spec)
		p.Annotations[appspub.InPlaceUpdateGraceKey] = string(b)
	}
}
