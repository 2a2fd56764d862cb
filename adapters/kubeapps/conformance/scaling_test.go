package conformance

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// proportionRS converts what the proportion package reads of rs.
func proportionRS(rs *appsv1.ReplicaSet) proportion.ReplicaSet {
	return proportion.ReplicaSet{
		Name:              rs.Name,
		CreationTime:      rs.CreationTimestamp.Time,
		Replicas:          *rs.Spec.Replicas,
		AvailableReplicas: rs.Status.AvailableReplicas,
		DesiredReplicas:   rs.Annotations[revision.DesiredReplicasAnnotation],
		MaxReplicas:       rs.Annotations[revision.MaxReplicasAnnotation],
	}
}

// smallReplicaSets draws up to max ReplicaSets with few replicas (often
// 0) and creation times that tie, named so that ties fall to the names.
func smallReplicaSets(t *rapid.T, max int) []*appsv1.ReplicaSet {
	rss := replicaSets(oneTemplate, max).Draw(t, "replicaSets")
	for _, rs := range rss {
		n := rapid.Int32Range(0, 3).Draw(t, "spec")
		rs.Spec.Replicas = &n
	}
	return rss
}

func TestActiveOrLatestMatchesFindActiveOrLatest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := smallReplicaSets(t, 5)
		var newRS *appsv1.ReplicaSet
		all := slices.Clone(old)
		newIndex := -1
		if rapid.Bool().Draw(t, "hasNew") {
			n := rapid.Int32Range(0, 2).Draw(t, "newSpec")
			newRS = &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "new",
				CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC))},
				Spec: appsv1.ReplicaSetSpec{Replicas: &n}}
			newIndex = len(all)
			all = append(all, newRS)
		}
		var prss []proportion.ReplicaSet
		for _, rs := range all {
			prss = append(prss, proportionRS(rs))
		}
		i, ok, err := proportion.ActiveOrLatest(prss, newIndex)
		if err != nil {
			t.Fatalf("ActiveOrLatest: %v", err)
		}
		got := "<none>"
		if ok {
			got = all[i].Name
		}
		want := "<none>"
		if up := deploymentutil.FindActiveOrLatest(newRS, slices.Clone(old)); up != nil {
			want = up.Name
		}
		if got != want {
			t.Fatalf("ActiveOrLatest = %s, upstream %s", got, want)
		}
		count("FindActiveOrLatest", "agree")
	})
}

func TestReplicasAnnotationsMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := replicaSet("rs-0", oneTemplate).Draw(t, "replicaSet")
		if rapid.IntRange(0, 9).Draw(t, "nilAnnotations") == 0 {
			rs.Annotations = nil
		}
		prs := proportionRS(rs)
		n, ok := proportion.DesiredAnnotation(prs)
		upN, upOK := deploymentutil.GetDesiredReplicasAnnotation(klog.Background(), rs)
		if n != upN || ok != upOK {
			t.Fatalf("DesiredAnnotation(%q) = %d, %v; upstream %d, %v", prs.DesiredReplicas, n, ok, upN, upOK)
		}
		count("GetDesiredReplicasAnnotation", "agree")
		desired, maxReplicas := count32().Draw(t, "desired"), count32().Draw(t, "max")
		if got, up := proportion.AnnotationsNeedUpdate(prs, desired, maxReplicas),
			deploymentutil.ReplicasAnnotationsNeedUpdate(rs, desired, maxReplicas); got != up {
			t.Fatalf("AnnotationsNeedUpdate(%+v, %d, %d) = %v, upstream %v", prs, desired, maxReplicas, got, up)
		}
		count("ReplicasAnnotationsNeedUpdate", "agree")
	})
}

func TestSortOrdersMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss := smallReplicaSets(t, 6)
		var prss []proportion.ReplicaSet
		for _, rs := range rss {
			prss = append(prss, proportionRS(rs))
		}
		orders := []struct {
			name     string
			ours     func(a, b proportion.ReplicaSet) int
			upstream func([]*appsv1.ReplicaSet) sort.Interface
		}{
			{"ReplicaSetsByCreationTimestamp", proportion.ByCreation, func(s []*appsv1.ReplicaSet) sort.Interface { return controller.ReplicaSetsByCreationTimestamp(s) }},
			{"ReplicaSetsBySizeNewer", proportion.BySizeNewer, func(s []*appsv1.ReplicaSet) sort.Interface { return controller.ReplicaSetsBySizeNewer(s) }},
			{"ReplicaSetsBySizeOlder", proportion.BySizeOlder, func(s []*appsv1.ReplicaSet) sort.Interface { return controller.ReplicaSetsBySizeOlder(s) }},
		}
		for _, o := range orders {
			ours := slices.Clone(prss)
			slices.SortFunc(ours, o.ours)
			up := slices.Clone(rss)
			sort.Sort(o.upstream(up))
			var got, want []string
			for i := range ours {
				got, want = append(got, ours[i].Name), append(want, up[i].Name)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: ours %v, upstream %v", o.name, got, want)
			}
			count(o.name, "agree")
		}
	})
}

func TestTerminatingReplicasMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss := replicaSets(oneTemplate, 5).Draw(t, "replicaSets")
		for i, rs := range rss {
			rs.Status.ObservedGeneration = rapid.Int64Range(0, 2).Draw(t, fmt.Sprintf("observedGeneration%d", i))
			if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("nilTerminating%d", i)) > 0 {
				n := count32().Draw(t, fmt.Sprintf("terminating%d", i))
				rs.Status.TerminatingReplicas = &n
			}
		}
		got := rollout.TerminatingReplicas(kubeapps.ReplicaSets(rss))
		up := deploymentutil.GetTerminatingReplicaCountForReplicaSets(rss)
		switch {
		case (got == nil) != (up == nil):
			t.Fatalf("TerminatingReplicas = %v, upstream %v", got, up)
		case got == nil || *got == *up:
			count("GetTerminatingReplicaCountForReplicaSets", "agree")
		default:
			var sum int64
			for _, rs := range rss {
				if rs.Status.TerminatingReplicas != nil {
					sum += int64(*rs.Status.TerminatingReplicas)
				}
			}
			if sum <= math.MaxInt32 || *got != math.MaxInt32 || *up != int32(sum) {
				t.Fatalf("TerminatingReplicas = %d, upstream %d (sum %d)", *got, *up, sum)
			}
			count("GetTerminatingReplicaCountForReplicaSets", overflowClass)
		}
	})
}

func TestRollbackAnnotationsMatchSetDeploymentAnnotationsTo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		value := rapid.SampledFrom([]string{"a", "b", "", "3"})
		d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Annotations: annotations(t, "deployment", annotationKeys, value)}}
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Annotations: annotations(t, "replicaSet", annotationKeys, value)}}
		got := revision.RollbackAnnotations(d.Annotations, rs.Annotations)
		up := d.DeepCopy()
		deploymentutil.SetDeploymentAnnotationsTo(up, rs)
		if !equality.Semantic.DeepEqual(got, up.Annotations) || got == nil {
			t.Fatalf("RollbackAnnotations = %v, upstream %v", got, up.Annotations)
		}
		count("SetDeploymentAnnotationsTo", "agree")
	})
}

func TestSetConditionMatchesSetDeploymentCondition(t *testing.T) {
	types := []appsv1.DeploymentConditionType{appsv1.DeploymentAvailable, appsv1.DeploymentProgressing, appsv1.DeploymentReplicaFailure}
	condition := rapid.Custom(func(t *rapid.T) appsv1.DeploymentCondition {
		return appsv1.DeploymentCondition{
			Type:               rapid.SampledFrom(types).Draw(t, "type"),
			Status:             rapid.SampledFrom([]corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}).Draw(t, "status"),
			Reason:             rapid.SampledFrom([]string{rollout.ReasonReplicaSetUpdated, rollout.ReasonNewReplicaSetAvailable, rollout.ReasonMinimumReplicasAvailable}).Draw(t, "reason"),
			Message:            rapid.SampledFrom([]string{"", "m1", "m2"}).Draw(t, "message"),
			LastUpdateTime:     metav1.NewTime(time.Unix(rapid.Int64Range(0, 5).Draw(t, "update"), 0)),
			LastTransitionTime: metav1.NewTime(time.Unix(rapid.Int64Range(0, 5).Draw(t, "transition"), 0)),
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		var s appsv1.DeploymentStatus
		for _, c := range rapid.SliceOfNDistinct(condition, 0, 3, func(c appsv1.DeploymentCondition) appsv1.DeploymentConditionType { return c.Type }).Draw(t, "conditions") {
			s.Conditions = append(s.Conditions, c)
		}
		c := condition.Draw(t, "set")
		ours := kubeapps.Status(&s)
		oc := kubeapps.Status(&appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{c}}).Conditions[0]
		up := s.DeepCopy()
		if rapid.Bool().Draw(t, "remove") {
			ours.Conditions = rollout.RemoveCondition(ours.Conditions, oc.Type)
			deploymentutil.RemoveDeploymentCondition(up, c.Type)
			count("RemoveDeploymentCondition", "agree")
		} else {
			ours.Conditions = rollout.SetCondition(ours.Conditions, oc)
			deploymentutil.SetDeploymentCondition(up, c)
			count("SetDeploymentCondition", "agree")
		}
		if got := kubeapps.StatusObject(&ours); !equality.Semantic.DeepEqual(got.Conditions, up.Conditions) {
			t.Fatalf("conditions: ours %+v, upstream %+v", got.Conditions, up.Conditions)
		}
	})
}
