package kruiseapps_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kruiseapps"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// cluster is an API server and kubelet over the real objects: it applies
// the changes Changes returns and moves pods along as a kubelet would.
type cluster struct {
	obj       *kruise.CloneSet
	pods      map[string]*corev1.Pod
	revisions map[string]*appsv1.ControllerRevision
}

// apply carries out one change.
func (c *cluster) apply(t *rapid.T, ch kruiseapps.Change) {
	switch ch.Verb {
	case kruiseapps.VerbCreatePod:
		if _, dup := c.pods[ch.Pod.Name]; dup {
			t.Fatalf("CreatePod %s: the pod exists", ch.Pod.Name)
		}
		c.pods[ch.Pod.Name] = ch.Pod
	case kruiseapps.VerbUpdatePod:
		if _, ok := c.pods[ch.Pod.Name]; !ok {
			t.Fatalf("UpdatePod %s: no such pod", ch.Pod.Name)
		}
		c.pods[ch.Pod.Name] = ch.Pod
	case kruiseapps.VerbDeletePod:
		delete(c.pods, ch.Pod.Name)
	case kruiseapps.VerbCreateRevision, kruiseapps.VerbUpdateRevision:
		c.revisions[ch.Revision.Name] = ch.Revision
	case kruiseapps.VerbDeleteRevision:
		delete(c.revisions, ch.Revision.Name)
	case kruiseapps.VerbUpdateCloneSet:
		c.obj.Spec = ch.CloneSet.Spec
		c.obj.Generation++
	case kruiseapps.VerbUpdateCloneSetStatus:
		c.obj.Status = ch.CloneSet.Status
	default:
		t.Fatalf("unknown verb %v", ch.Verb)
	}
}

// kubelet starts every pod: scheduled, running its spec's images, Ready
// since now (a pod already ready keeps its time).
func (c *cluster) kubelet(now time.Time) {
	for _, p := range c.pods {
		p.Spec.NodeName = "node-1"
		p.Status.Phase = corev1.PodRunning
		p.Status.ContainerStatuses = nil
		for _, ct := range p.Spec.Containers {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: ct.Name, Image: ct.Image, ImageID: "sha256:" + ct.Image, Ready: true})
		}
		ready := false
		for i := range p.Status.Conditions {
			if p.Status.Conditions[i].Type == corev1.PodReady {
				ready = p.Status.Conditions[i].Status == corev1.ConditionTrue
				p.Status.Conditions[i].Status = corev1.ConditionTrue
			}
		}
		if !ready {
			p.Status.Conditions = slices.DeleteFunc(p.Status.Conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.PodReady })
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now)})
		}
	}
}

func (c *cluster) list() ([]*corev1.Pod, []*appsv1.ControllerRevision) {
	var pods []*corev1.Pod
	for _, p := range c.pods {
		pods = append(pods, p)
	}
	var revs []*appsv1.ControllerRevision
	for _, r := range c.revisions {
		revs = append(revs, r)
	}
	return pods, revs
}

// TestChangesDriveRolloutToCompletion runs kruise's reconcile in a loop
// over real objects: convert, Plan, Changes, apply the changes, let a
// kubelet start the pods. Every rollout of a new image must end with
// spec.replicas pods, all running the new image at the update revision
// with kruise's labels, status.currentRevision == status.updateRevision,
// and every pod read back by Pod without error on every round. This
// checks that Changes writes what Pod and CloneSet read: a label,
// annotation or condition written differently from how it is read would
// stall the loop or leave pods behind.
func TestChangesDriveRolloutToCompletion(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		strategy := rapid.SampledFrom([]kruise.CloneSetUpdateStrategyType{
			kruise.RecreateCloneSetUpdateStrategyType, kruise.InPlaceIfPossibleCloneSetUpdateStrategyType}).Draw(t, "strategy")
		replicas := rapid.Int32Range(0, 6).Draw(t, "replicas")
		obj := demo(replicas, "nginx:1.24", strategy)
		mu := intstr.FromInt32(rapid.Int32Range(1, 3).Draw(t, "maxUnavailable"))
		obj.Spec.UpdateStrategy.MaxUnavailable = &mu
		if strategy == kruise.RecreateCloneSetUpdateStrategyType && rapid.Bool().Draw(t, "surge") {
			ms := intstr.FromInt32(1)
			obj.Spec.UpdateStrategy.MaxSurge = &ms
		}
		if strategy == kruise.InPlaceIfPossibleCloneSetUpdateStrategyType {
			if grace := rapid.SampledFrom([]int32{0, 5, 25}).Draw(t, "gracePeriodSeconds"); grace > 0 {
				obj.Spec.UpdateStrategy.InPlaceUpdateStrategy = &appspub.InPlaceUpdateStrategy{GracePeriodSeconds: grace}
			}
		}
		c := &cluster{obj: obj, pods: map[string]*corev1.Pod{}, revisions: map[string]*appsv1.ControllerRevision{}}
		now := t0
		step := func() {
			now = now.Add(10 * time.Second)
			pods, revs := c.list()
			cs, err := kruiseapps.CloneSet(c.obj)
			if err != nil {
				t.Fatal(err)
			}
			owned := kruiseapps.Owned(c.obj, pods)
			converted, err := kruiseapps.Pods(owned)
			if err != nil {
				t.Fatalf("Pods on written pods: %v", err)
			}
			s, err := cloneset.Plan(&cs, converted, kruiseapps.Revisions(revs), now)
			if err != nil {
				t.Fatal(err)
			}
			changes, err := kruiseapps.Changes(c.obj, owned, revs, &s, now)
			if err != nil {
				t.Fatalf("Changes: %v (plan: %s)", err, s.Reason)
			}
			for _, ch := range changes {
				c.apply(t, ch)
			}
			c.kubelet(now)
		}
		settled := func() bool {
			if c.obj.Status.ObservedGeneration != c.obj.Generation || c.obj.Status.UpdateRevision == "" ||
				c.obj.Status.CurrentRevision != c.obj.Status.UpdateRevision || c.obj.Status.UpdatedAvailableReplicas != replicas ||
				int32(len(c.pods)) != replicas {
				return false
			}
			for _, p := range c.pods {
				if p.Labels[cloneset.RevisionLabel] != c.obj.Status.UpdateRevision || p.Labels[cloneset.LifecycleStateLabel] != "Normal" {
					return false
				}
			}
			return true
		}
		run := func(what string) {
			for range 100 {
				step()
				if settled() {
					return
				}
			}
			var states []string
			for _, p := range c.pods {
				states = append(states, fmt.Sprintf("%s %s %s", p.Name, p.Labels[cloneset.RevisionLabel], p.Labels[cloneset.LifecycleStateLabel]))
			}
			slices.Sort(states)
			t.Fatalf("%s did not settle in 100 reconciles: status %+v, pods:\n%s", what, c.obj.Status, strings.Join(states, "\n"))
		}
		run("the first rollout")
		c.obj.Spec.Template.Spec.Containers[0].Image = "nginx:1.25"
		relabel := rapid.Bool().Draw(t, "relabel")
		if relabel {
			c.obj.Spec.Template.Labels = map[string]string{"app": "demo", "track": "v2"}
		}
		c.obj.Generation++
		run("the update to nginx:1.25")
		for _, p := range c.pods {
			if img := p.Spec.Containers[0].Image; img != "nginx:1.25" {
				t.Fatalf("pod %s runs %s after the update, want nginx:1.25", p.Name, img)
			}
			if p.Labels[cloneset.TemplateHashLabel] != strings.TrimPrefix(c.obj.Status.UpdateRevision, "demo-") ||
				p.Labels[kruiseapps.InstanceIDLabel] != strings.TrimPrefix(p.Name, "demo-") {
				t.Fatalf("pod %s has labels %v, want the update revision's hash and its instance id", p.Name, p.Labels)
			}
			if relabel && p.Labels["track"] != "v2" {
				t.Fatalf("pod %s has labels %v after the template gained track=v2", p.Name, p.Labels)
			}
		}
	})
}
