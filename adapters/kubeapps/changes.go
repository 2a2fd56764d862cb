package kubeapps

import (
	"fmt"
	"math"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Verb is the kind of write a Change makes.
type Verb uint8

// The writes a Deployment controller sends. The names start with Verb so
// that they do not read like rollout's action kinds (rollout.CreateReplicaSet
// is a planned action; VerbCreateReplicaSet is the API call that carries it
// out).
const (
	// VerbCreateReplicaSet creates Change.ReplicaSet.
	VerbCreateReplicaSet Verb = iota + 1
	// VerbUpdateReplicaSet updates Change.ReplicaSet: spec.replicas and
	// annotations.
	VerbUpdateReplicaSet
	// VerbDeleteReplicaSet deletes Change.ReplicaSet (an old revision
	// beyond the history limit).
	VerbDeleteReplicaSet
	// VerbUpdateDeployment updates Change.Deployment's spec and annotations
	// (a rollback restores an old template, or clears the rollback
	// annotation).
	VerbUpdateDeployment
	// VerbUpdateDeploymentStatus writes Change.Deployment's status (and its
	// revision annotation) through the status subresource.
	VerbUpdateDeploymentStatus
)

// The verbs' earlier names, kept so that code written against them still
// compiles.
const (
	// Deprecated: use VerbCreateReplicaSet, which does not read like
	// rollout.CreateReplicaSet.
	CreateReplicaSet = VerbCreateReplicaSet
	// Deprecated: use VerbUpdateReplicaSet.
	UpdateReplicaSet = VerbUpdateReplicaSet
	// Deprecated: use VerbDeleteReplicaSet, which does not read like
	// rollout.DeleteReplicaSet.
	DeleteReplicaSet = VerbDeleteReplicaSet
	// Deprecated: use VerbUpdateDeployment.
	UpdateDeployment = VerbUpdateDeployment
	// Deprecated: use VerbUpdateDeploymentStatus.
	UpdateDeploymentStatus = VerbUpdateDeploymentStatus
)

// String returns the verb's name without the Verb prefix, such as
// "CreateReplicaSet".
func (v Verb) String() string {
	switch v {
	case VerbCreateReplicaSet:
		return "CreateReplicaSet"
	case VerbUpdateReplicaSet:
		return "UpdateReplicaSet"
	case VerbDeleteReplicaSet:
		return "DeleteReplicaSet"
	case VerbUpdateDeployment:
		return "UpdateDeployment"
	case VerbUpdateDeploymentStatus:
		return "UpdateDeploymentStatus"
	}
	return fmt.Sprintf("Verb(%d)", uint8(v))
}

// Change is one write to the API server, with the object to send.
type Change struct {
	Verb Verb
	// ReplicaSet is the object to create, update or delete, for the
	// ReplicaSet verbs.
	ReplicaSet *appsv1.ReplicaSet
	// Deployment is the object to update, for the Deployment verbs.
	Deployment *appsv1.Deployment
	// Reason is the rollout.Action's reason, or "status" for the final
	// status write.
	Reason string
}

// deploymentKind is the kind a ReplicaSet's controller reference names.
var deploymentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

// Changes returns the writes that carry out s, the result of rollout.Plan
// for the Deployment d with the ReplicaSets rss (the objects the
// rollout values were converted from, with ReplicaSet), in the order the
// controller sends them: one change per rollout.Action (a created
// ReplicaSet, scaled or annotated ones, deletions, a rollback), then the
// status write when the status or the Deployment's revision annotation
// changed. Every object is a new deep copy; d and rss are not modified.
//
// An AnnotateReplicaSet write also sets the new ReplicaSet's
// spec.minReadySeconds, as the controller's update does: to the value s
// leaves it at (Plan takes that action when the ReplicaSet's differs from
// the Deployment's, see rollout.AnnotateReplicaSet), or to d's when s does
// not know it (a nil MinReadySeconds). Other ReplicaSet writes carry the
// spec.minReadySeconds s leaves the ReplicaSet at, when known, else the
// object's own.
//
// Each ReplicaSet write carries the annotations the controller's write
// carries at that point of the sync: an annotation update of the new
// ReplicaSet keeps the desired-replicas and max-replicas annotations it
// had (a scale later in the sync writes them), and a scale write of a
// ReplicaSet that the same sync's history cleanup deletes (so s no
// longer holds it) sets them from s.Deployment.
//
// A created ReplicaSet is built as the controller builds it: named
// revision.ReplicaSetName(d.Name, s.Hash), in d's namespace, with d's
// template plus the pod-template-hash label (also its labels), d's
// selector plus the hash label, spec.replicas and minReadySeconds,
// the annotations s gives it, and a controller owner reference to d.
// An error reports an action naming a ReplicaSet found neither in rss
// nor in s.
func Changes(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, s *rollout.Sync[Template]) ([]Change, error) {
	byName := make(map[string]*appsv1.ReplicaSet, len(rss)+1)
	for _, rs := range rss {
		if rs != nil {
			byName[rs.Name] = rs
		}
	}
	after := make(map[string]*rollout.ReplicaSet[Template], len(s.ReplicaSets))
	for i := range s.ReplicaSets {
		after[s.ReplicaSets[i].Name] = &s.ReplicaSets[i]
	}
	var out []Change
	var deployment *appsv1.Deployment // the Deployment as written so far
	for _, a := range s.Actions {
		switch a.Kind {
		case rollout.CreateReplicaSet:
			rs, ok := after[a.ReplicaSet]
			if !ok {
				return nil, fmt.Errorf("kubeapps: created ReplicaSet %q is not in the sync's ReplicaSets", a.ReplicaSet)
			}
			obj := NewReplicaSetObject(d, s.Hash, a.To, rs.Annotations)
			byName[obj.Name] = obj
			out = append(out, Change{Verb: VerbCreateReplicaSet, ReplicaSet: obj.DeepCopy(), Reason: a.Reason})
		case rollout.ScaleReplicaSet, rollout.AnnotateReplicaSet:
			base, ok := byName[a.ReplicaSet]
			if !ok {
				return nil, fmt.Errorf("kubeapps: %v of unknown ReplicaSet %q", a.Kind, a.ReplicaSet)
			}
			obj := base.DeepCopy()
			if a.Kind == rollout.ScaleReplicaSet {
				to := a.To
				obj.Spec.Replicas = &to
			}
			if a.Kind == rollout.AnnotateReplicaSet {
				// The controller's update sets it; rollout's value
				// below, when known, is the same.
				obj.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			}
			if rs, ok := after[a.ReplicaSet]; ok {
				if rs.MinReadySeconds != nil {
					obj.Spec.MinReadySeconds = *rs.MinReadySeconds
				}
				obj.Annotations = cloneMap(rs.Annotations)
				if a.Kind == rollout.AnnotateReplicaSet {
					// The replicas annotations are a scale write's: a
					// later scale in this sync has not happened yet.
					keepReplicasAnnotations(obj.Annotations, base.Annotations)
				}
			} else if a.Kind == rollout.ScaleReplicaSet {
				// Scaled, then deleted by the same sync's history
				// cleanup (which, as upstream's, reads the sizes from
				// before the sync): the sync's result no longer holds
				// it, but the scale write carried the replicas
				// annotations all the same.
				obj.Annotations = replicasAnnotations(obj.Annotations, &s.Deployment)
			}
			byName[obj.Name] = obj
			out = append(out, Change{Verb: VerbUpdateReplicaSet, ReplicaSet: obj.DeepCopy(), Reason: a.Reason})
		case rollout.DeleteReplicaSet:
			base, ok := byName[a.ReplicaSet]
			if !ok {
				return nil, fmt.Errorf("kubeapps: deletion of unknown ReplicaSet %q", a.ReplicaSet)
			}
			out = append(out, Change{Verb: VerbDeleteReplicaSet, ReplicaSet: base.DeepCopy(), Reason: a.Reason})
		case rollout.RollBack, rollout.SkipRollback:
			deployment = d.DeepCopy()
			deployment.Annotations = cloneMap(s.Deployment.Annotations)
			delete(deployment.Annotations, revision.RollbackToAnnotation)
			if a.Kind == rollout.RollBack {
				deployment.Spec.Template = *s.Deployment.Template.DeepCopy()
			}
			out = append(out, Change{Verb: VerbUpdateDeployment, Deployment: deployment.DeepCopy(), Reason: a.Reason})
		case rollout.CountCollision:
			// Written with the status below.
		}
	}
	if deployment == nil {
		deployment = d.DeepCopy()
	}
	status := StatusObject(&s.Deployment.Status)
	rev, hasRev := s.Deployment.Annotations[revision.RevisionAnnotation]
	revChanged := hasRev && deployment.Annotations[revision.RevisionAnnotation] != rev
	if revChanged || !equality.Semantic.DeepEqual(status, d.Status) {
		obj := deployment.DeepCopy()
		if revChanged {
			if obj.Annotations == nil {
				obj.Annotations = map[string]string{}
			}
			obj.Annotations[revision.RevisionAnnotation] = rev
		}
		obj.Status = status
		out = append(out, Change{Verb: VerbUpdateDeploymentStatus, Deployment: obj, Reason: "status"})
	}
	return out, nil
}

// replicasAnnotations returns a copy of ann with the desired-replicas
// and max-replicas annotations a scale write for d sets: spec.replicas
// and spec.replicas + maxSurge (saturated at MaxInt32, as rollout does).
func replicasAnnotations(ann map[string]string, d *rollout.Deployment[Template]) map[string]string {
	out := cloneMap(ann)
	if out == nil {
		out = map[string]string{}
	}
	maxReplicas := min(int64(d.Replicas)+int64(rollout.MaxSurge(d)), math.MaxInt32)
	out[revision.DesiredReplicasAnnotation] = proportion.FormatReplicas(d.Replicas)
	out[revision.MaxReplicasAnnotation] = proportion.FormatReplicas(int32(maxReplicas))
	return out
}

// keepReplicasAnnotations sets ann's desired-replicas and max-replicas
// annotations as they are in base (absent when base has none).
func keepReplicasAnnotations(ann, base map[string]string) {
	for _, k := range []string{revision.DesiredReplicasAnnotation, revision.MaxReplicasAnnotation} {
		if v, ok := base[k]; ok {
			ann[k] = v
		} else {
			delete(ann, k)
		}
	}
}

// NewReplicaSetObject returns the ReplicaSet the controller creates for
// d with pod-template-hash hash, replicas pods and the given annotations
// (copied): see Changes.
func NewReplicaSetObject(d *appsv1.Deployment, hash string, replicas int32, annotations map[string]string) *appsv1.ReplicaSet {
	template := d.Spec.Template.DeepCopy()
	template.Labels = cloneMap(template.Labels)
	if template.Labels == nil {
		template.Labels = map[string]string{}
	}
	template.Labels[revision.HashLabel] = hash
	selector := d.Spec.Selector.DeepCopy()
	if selector == nil {
		selector = &metav1.LabelSelector{}
	}
	if selector.MatchLabels == nil {
		selector.MatchLabels = map[string]string{}
	}
	selector.MatchLabels[revision.HashLabel] = hash
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            revision.ReplicaSetName(d.Name, hash),
			Namespace:       d.Namespace,
			Labels:          template.Labels,
			Annotations:     cloneMap(annotations),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, deploymentKind)},
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        &replicas,
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        selector,
			Template:        *template,
		},
	}
}
