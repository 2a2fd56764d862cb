package kubeapps_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// cluster is an in-memory API server holding one Deployment and its
// ReplicaSets, with a ReplicaSet controller whose pods are ready at once.
type cluster struct {
	d   *appsv1.Deployment
	rss map[string]*appsv1.ReplicaSet
	now time.Time
	log []string
}

func (c *cluster) list() []*appsv1.ReplicaSet {
	names := slices.Sorted(maps.Keys(c.rss))
	out := make([]*appsv1.ReplicaSet, len(names))
	for i, n := range names {
		out[i] = c.rss[n]
	}
	return out
}

// apply carries out the changes as the API server would.
func (c *cluster) apply(t *testing.T, changes []kubeapps.Change) {
	for _, ch := range changes {
		c.log = append(c.log, describe(ch))
		switch ch.Verb {
		case kubeapps.VerbCreateReplicaSet:
			rs := ch.ReplicaSet.DeepCopy()
			if _, ok := c.rss[rs.Name]; ok {
				t.Fatalf("create of existing ReplicaSet %s", rs.Name)
			}
			rs.UID = types.UID("uid-" + rs.Name)
			rs.CreationTimestamp = metav1.NewTime(c.now)
			rs.Generation = 1
			c.rss[rs.Name] = rs
		case kubeapps.VerbUpdateReplicaSet:
			old, ok := c.rss[ch.ReplicaSet.Name]
			if !ok {
				t.Fatalf("update of missing ReplicaSet %s", ch.ReplicaSet.Name)
			}
			rs := ch.ReplicaSet.DeepCopy()
			rs.Status = old.Status // the spec write does not touch the status
			if !equality.Semantic.DeepEqual(rs.Spec, old.Spec) {
				rs.Generation = old.Generation + 1
			}
			c.rss[rs.Name] = rs
		case kubeapps.VerbDeleteReplicaSet:
			delete(c.rss, ch.ReplicaSet.Name)
		case kubeapps.VerbUpdateDeployment:
			d := ch.Deployment.DeepCopy()
			d.Status = c.d.Status
			if !equality.Semantic.DeepEqual(d.Spec, c.d.Spec) {
				d.Generation = c.d.Generation + 1
			}
			c.d = d
		case kubeapps.VerbUpdateDeploymentStatus:
			c.d.Status = ch.Deployment.Status
			c.d.Annotations = ch.Deployment.Annotations
		}
	}
}

// runReplicaSets makes every ReplicaSet's pods match its spec, all
// ready and available.
func (c *cluster) runReplicaSets() {
	for _, rs := range c.rss {
		n := *rs.Spec.Replicas
		rs.Status = appsv1.ReplicaSetStatus{Replicas: n, FullyLabeledReplicas: n, ReadyReplicas: n, AvailableReplicas: n,
			ObservedGeneration: rs.Generation, TerminatingReplicas: ptr(int32(0))}
	}
}

func describe(ch kubeapps.Change) string {
	switch {
	case ch.ReplicaSet != nil:
		return fmt.Sprintf("%v %s %d", ch.Verb, ch.ReplicaSet.Name, *ch.ReplicaSet.Spec.Replicas)
	default:
		return fmt.Sprintf("%v %s", ch.Verb, ch.Deployment.Name)
	}
}

// sync runs one Plan and applies its changes, returning them.
func (c *cluster) sync(t *testing.T) []kubeapps.Change {
	t.Helper()
	d, err := kubeapps.Deployment(c.d)
	if err != nil {
		t.Fatal(err)
	}
	list := c.list()
	s, err := rollout.Plan(&d, kubeapps.ReplicaSets(list), c.now)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := kubeapps.Changes(c.d, list, &s)
	if err != nil {
		t.Fatal(err)
	}
	c.apply(t, changes)
	return changes
}

// TestChangesDriveARollout runs a whole rolling update through Plan and
// Changes against an in-memory API server and checks the ReplicaSet the
// controller creates field by field, against upstream's hash.
func TestChangesDriveARollout(t *testing.T) {
	d := nginxDeployment()
	oldHash := revision.Hash(&d.Spec.Template, nil)
	c := &cluster{d: d, rss: map[string]*appsv1.ReplicaSet{}, now: at.Add(time.Hour)}
	old := nginxReplicaSet(d, oldHash)
	c.rss[old.Name] = old
	if changes := c.sync(t); len(changes) != 0 {
		t.Fatalf("a settled Deployment should need no change, got %v", c.log)
	}

	c.d.Spec.Template = nginxTemplate("nginx:1.9.3")
	c.d.Generation++
	newHash := revision.Hash(&c.d.Spec.Template, c.d.Status.CollisionCount)
	first := c.sync(t)
	if len(first) == 0 || first[0].Verb != kubeapps.VerbCreateReplicaSet {
		t.Fatalf("the first sync after the update should create the new ReplicaSet, got %v", c.log)
	}
	created := first[0].ReplicaSet
	want := map[string]string{"app": "nginx", "pod-template-hash": newHash}
	switch {
	case created.Name != "nginx-deployment-"+newHash:
		t.Errorf("created ReplicaSet name %q, want nginx-deployment-%s", created.Name, newHash)
	case created.Namespace != "default":
		t.Errorf("created ReplicaSet namespace %q", created.Namespace)
	case !maps.Equal(created.Labels, want), !maps.Equal(created.Spec.Template.Labels, want),
		!maps.Equal(created.Spec.Selector.MatchLabels, want):
		t.Errorf("created ReplicaSet labels %v, template labels %v, selector %v, want %v",
			created.Labels, created.Spec.Template.Labels, created.Spec.Selector.MatchLabels, want)
	case len(created.OwnerReferences) != 1 || created.OwnerReferences[0].UID != d.UID ||
		created.OwnerReferences[0].Kind != "Deployment" || !*created.OwnerReferences[0].Controller:
		t.Errorf("created ReplicaSet owner references %+v", created.OwnerReferences)
	case *created.Spec.Replicas != 3:
		t.Errorf("created ReplicaSet with %d replicas, want 3 (10 + maxSurge 3 - 10)", *created.Spec.Replicas)
	case !maps.Equal(created.Annotations, map[string]string{"deployment.kubernetes.io/revision": "2", "team": "web",
		"deployment.kubernetes.io/desired-replicas": "10", "deployment.kubernetes.io/max-replicas": "13"}):
		t.Errorf("created ReplicaSet annotations %v", created.Annotations)
	}

	for i := 0; i < 30; i++ {
		c.now = c.now.Add(10 * time.Second)
		c.runReplicaSets()
		if len(c.sync(t)) == 0 {
			break
		}
	}
	newRS, oldRS := c.rss["nginx-deployment-"+newHash], c.rss[old.Name]
	if newRS == nil || oldRS == nil || *newRS.Spec.Replicas != 10 || *oldRS.Spec.Replicas != 0 {
		t.Fatalf("the rollout did not converge:\n%s", strings.Join(c.log, "\n"))
	}
	if s := c.d.Status; s.UpdatedReplicas != 10 || s.AvailableReplicas != 10 || s.ObservedGeneration != c.d.Generation ||
		c.d.Annotations["deployment.kubernetes.io/revision"] != "2" {
		t.Errorf("final Deployment status %+v, revision %q", s, c.d.Annotations["deployment.kubernetes.io/revision"])
	}
	t.Logf("writes:\n%s", strings.Join(c.log, "\n"))
}

func TestChangesDeleteBeyondHistoryLimit(t *testing.T) {
	d := nginxDeployment()
	d.Spec.RevisionHistoryLimit = ptr(int32(1))
	c := &cluster{d: d, rss: map[string]*appsv1.ReplicaSet{}, now: at.Add(time.Hour)}
	current := nginxReplicaSet(d, revision.Hash(&d.Spec.Template, nil))
	c.rss[current.Name] = current
	for i, image := range []string{"nginx:1.7", "nginx:1.8"} {
		tmpl := nginxTemplate(image)
		h := revision.Hash(&tmpl, nil)
		rs := nginxReplicaSet(d, h)
		rs.Spec.Template = tmpl
		rs.Spec.Template.Labels["pod-template-hash"] = h
		rs.UID = types.UID("old-" + h)
		rs.Spec.Replicas = ptr(int32(0))
		rs.Status = appsv1.ReplicaSetStatus{ObservedGeneration: 1}
		rs.Annotations["deployment.kubernetes.io/revision"] = fmt.Sprint(i + 1)
		c.rss[rs.Name] = rs
	}
	current.Annotations["deployment.kubernetes.io/revision"] = "3"
	c.d.Annotations["deployment.kubernetes.io/revision"] = "3"
	var deleted []string
	for _, ch := range c.sync(t) {
		if ch.Verb == kubeapps.VerbDeleteReplicaSet {
			deleted = append(deleted, ch.ReplicaSet.Annotations["deployment.kubernetes.io/revision"])
		}
	}
	if !slices.Equal(deleted, []string{"1"}) {
		t.Fatalf("deleted revisions %v, want [1]; writes %v", deleted, c.log)
	}
}

// TestChangesSyncMinReadySeconds checks the write upstream's
// getNewReplicaSet makes when only the Deployment's minReadySeconds
// changed: the new ReplicaSet takes it, old ones keep theirs.
func TestChangesSyncMinReadySeconds(t *testing.T) {
	d := nginxDeployment()
	c := &cluster{d: d, rss: map[string]*appsv1.ReplicaSet{}, now: at.Add(time.Hour)}
	rs := nginxReplicaSet(d, revision.Hash(&d.Spec.Template, nil))
	c.rss[rs.Name] = rs
	c.d.Spec.MinReadySeconds = 5
	c.d.Generation++
	gen := rs.Generation
	changes := c.sync(t)
	if len(changes) == 0 || changes[0].Verb != kubeapps.VerbUpdateReplicaSet || changes[0].ReplicaSet.Spec.MinReadySeconds != 5 {
		t.Fatalf("want the new ReplicaSet's minReadySeconds set to 5 first, got %v", c.log)
	}
	if !strings.Contains(changes[0].Reason, "set minReadySeconds of new ReplicaSet") {
		t.Errorf("the write's reason %q is not rollout's AnnotateReplicaSet reason", changes[0].Reason)
	}
	if got := c.rss[rs.Name].Generation; got != gen+1 {
		t.Errorf("new ReplicaSet generation %d after the write, want %d", got, gen+1)
	}
	if changes := c.sync(t); len(changes) != 0 {
		t.Errorf("a second sync should change nothing, got %v", c.log)
	}
}

// TestChangesMinReadySecondsWriteCarriesCopiedAnnotations is the third
// case of gap G1: the new ReplicaSet's revision does not parse, so the
// controller does not update it for the Deployment's annotations, but it
// copied them onto its in-memory ReplicaSet first; its minReadySeconds
// update sends that copy, which persists them. One write, not two.
func TestChangesMinReadySecondsWriteCarriesCopiedAnnotations(t *testing.T) {
	d := nginxDeployment()
	d.Annotations = map[string]string{"deployment.kubernetes.io/revision": "x1", "team": "red"}
	d.Spec.MinReadySeconds = 1
	c := &cluster{d: d, rss: map[string]*appsv1.ReplicaSet{}, now: at.Add(time.Hour)}
	rs := nginxReplicaSet(d, revision.Hash(&d.Spec.Template, nil))
	rs.Annotations = map[string]string{"deployment.kubernetes.io/revision": "x1",
		"deployment.kubernetes.io/desired-replicas": "10", "deployment.kubernetes.io/max-replicas": "13"}
	c.rss[rs.Name] = rs
	changes := c.sync(t)
	var updates []*appsv1.ReplicaSet
	for _, ch := range changes {
		if ch.Verb == kubeapps.VerbUpdateReplicaSet {
			updates = append(updates, ch.ReplicaSet)
		}
	}
	if len(updates) != 1 {
		t.Fatalf("want one update of the new ReplicaSet, got %v", c.log)
	}
	if u := updates[0]; u.Spec.MinReadySeconds != 1 || u.Annotations["team"] != "red" || u.Annotations["deployment.kubernetes.io/revision"] != "x1" {
		t.Errorf("update sends minReadySeconds %d, annotations %v; want 1 with team: red and revision x1", u.Spec.MinReadySeconds, u.Annotations)
	}
}

// TestChangesScaleThenDeleteCarriesReplicasAnnotations is the minimal
// case the whole-controller differential found: a paused Recreate
// Deployment without a new ReplicaSet scales its only old ReplicaSet from
// 0 to spec.replicas and the same sync's history cleanup (limit 0, which
// reads the size from before the sync) deletes it. Upstream's scale
// write carries desired-replicas and max-replicas for the new size; the
// ReplicaSet is not in the sync's result, so the annotations must come
// from the Deployment.
func TestChangesScaleThenDeleteCarriesReplicasAnnotations(t *testing.T) {
	d := nginxDeployment()
	d.Spec.Replicas = ptr(int32(8))
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	d.Spec.Paused = true
	d.Spec.RevisionHistoryLimit = ptr(int32(0))
	d.Spec.Template = nginxTemplate("nginx:1.9.3") // no ReplicaSet has it
	rs := nginxReplicaSet(d, revision.Hash(&d.Spec.Template, nil))
	rs.Name = "nginx-deployment-old"
	rs.Spec.Template = nginxTemplate("nginx:1.7.9")
	rs.Spec.Replicas = ptr(int32(0))
	rs.Status = appsv1.ReplicaSetStatus{ObservedGeneration: rs.Generation}
	rs.Annotations["deployment.kubernetes.io/desired-replicas"] = "3"
	rs.Annotations["deployment.kubernetes.io/max-replicas"] = "3"
	c := &cluster{d: d, rss: map[string]*appsv1.ReplicaSet{rs.Name: rs}, now: at.Add(time.Hour)}
	changes := c.sync(t)
	if len(changes) < 2 || changes[0].Verb != kubeapps.UpdateReplicaSet || changes[1].Verb != kubeapps.DeleteReplicaSet {
		t.Fatalf("want a scale write then the deletion, got %v", c.log)
	}
	got := changes[0].ReplicaSet
	if *got.Spec.Replicas != 8 || got.Annotations["deployment.kubernetes.io/desired-replicas"] != "8" ||
		got.Annotations["deployment.kubernetes.io/max-replicas"] != "8" {
		t.Errorf("scale write: replicas %d, annotations %v; want 8 with desired-replicas and max-replicas 8",
			*got.Spec.Replicas, got.Annotations)
	}
}

// TestChangesAnnotateThenScaleKeepsReplicasAnnotations is the second
// minimal case from the whole-controller differential: a Recreate
// Deployment resized from 8 to 1 whose new ReplicaSet (at 0, old pods
// gone) also needs its revision raised. Upstream first writes the
// revision with the replicas annotations still at 8, then scales to 1
// with them at 1.
func TestChangesAnnotateThenScaleKeepsReplicasAnnotations(t *testing.T) {
	d := nginxDeployment()
	d.Spec.Replicas = ptr(int32(1))
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	newRS := nginxReplicaSet(d, revision.Hash(&d.Spec.Template, nil))
	newRS.Spec.Replicas = ptr(int32(0))
	newRS.Status = appsv1.ReplicaSetStatus{ObservedGeneration: newRS.Generation}
	newRS.Annotations["deployment.kubernetes.io/revision"] = "2"
	newRS.Annotations["deployment.kubernetes.io/desired-replicas"] = "8"
	newRS.Annotations["deployment.kubernetes.io/max-replicas"] = "8"
	oldRS := newRS.DeepCopy()
	oldRS.Name, oldRS.UID = "nginx-deployment-old", "uid-old"
	oldRS.Spec.Template = nginxTemplate("nginx:1.7.9")
	oldRS.Annotations["deployment.kubernetes.io/revision"] = "3"
	c := &cluster{d: d, rss: map[string]*appsv1.ReplicaSet{newRS.Name: newRS, oldRS.Name: oldRS}, now: at.Add(time.Hour)}
	changes := c.sync(t)
	if len(changes) < 2 || changes[0].Verb != kubeapps.UpdateReplicaSet || changes[1].Verb != kubeapps.UpdateReplicaSet {
		t.Fatalf("want the revision write then the scale write, got %v", c.log)
	}
	first, second := changes[0].ReplicaSet.Annotations, changes[1].ReplicaSet.Annotations
	if first["deployment.kubernetes.io/revision"] != "4" || first["deployment.kubernetes.io/desired-replicas"] != "8" ||
		first["deployment.kubernetes.io/max-replicas"] != "8" {
		t.Errorf("revision write annotations %v, want revision 4 with desired-replicas and max-replicas still 8", first)
	}
	if *changes[1].ReplicaSet.Spec.Replicas != 1 || second["deployment.kubernetes.io/revision"] != "4" ||
		second["deployment.kubernetes.io/desired-replicas"] != "1" || second["deployment.kubernetes.io/max-replicas"] != "1" {
		t.Errorf("scale write: replicas %d, annotations %v; want 1 with revision 4, desired-replicas and max-replicas 1",
			*changes[1].ReplicaSet.Spec.Replicas, second)
	}
}
