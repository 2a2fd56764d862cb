package conformance

import (
	"context"
	"maps"
	"math"
	"strconv"
	"testing"

	"k8s.io/klog/v2"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/revision"
)

func TestMaxRevisionAndLastRevisionMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss := replicaSets(oneTemplate, 6).Draw(t, "replicaSets")
		ours := kubeapps.ReplicaSets(rss)
		if got, up := revision.MaxRevision(ours), deploymentutil.MaxRevision(klog.Background(), rss); got != up {
			t.Fatalf("MaxRevision = %d, upstream %d", got, up)
		}
		count("MaxRevision", "agree")
		if got, up := revision.LastRevision(ours), deploymentutil.LastRevision(klog.Background(), rss); got != up {
			t.Fatalf("LastRevision = %d, upstream %d", got, up)
		}
		count("LastRevision", "agree")
	})
}

// annotations draws a map over keys with values from values; absent keys
// are left out, and an empty result is nil or empty.
func annotations(t *rapid.T, label string, keys []string, values *rapid.Generator[string]) map[string]string {
	m := map[string]string{}
	for _, k := range keys {
		if rapid.Bool().Draw(t, label+"."+k) {
			m[k] = values.Draw(t, label+"["+k+"]")
		}
	}
	if len(m) == 0 && rapid.Bool().Draw(t, label+"Nil") {
		return nil
	}
	return m
}

// annotationKeys are the keys the generated Deployments and ReplicaSets
// carry: copied ones and every key the controller skips.
var annotationKeys = []string{"team", "kubernetes.io/change-cause",
	revision.LastAppliedAnnotation, revision.RevisionAnnotation, revision.RevisionHistoryAnnotation,
	revision.DesiredReplicasAnnotation, revision.MaxReplicasAnnotation, revision.RollbackToAnnotation}

// historyValue draws a revision-history value, sometimes long enough for
// small limits to drop entries.
func historyValue() *rapid.Generator[string] {
	return rapid.SampledFrom([]string{"", "1", "1,2", "10,11,12", "9,10", ",5", "3,", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"})
}

func TestNewAnnotationsMatchesSetNewReplicaSetAnnotations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		value := rapid.OneOf(rapid.SampledFrom([]string{"a", "b", ""}), revisionAnnotation())
		d.Annotations = annotations(t, "deployment", annotationKeys, value)
		rs := replicaSet("rs-0", oneTemplate).Draw(t, "replicaSet")
		rs.Annotations = annotations(t, "replicaSet", annotationKeys, value)
		if rapid.Bool().Draw(t, "history") {
			if rs.Annotations == nil {
				rs.Annotations = map[string]string{}
			}
			rs.Annotations[revision.RevisionHistoryAnnotation] = historyValue().Draw(t, "revisionHistory")
		}
		newRevision := rapid.OneOf(rapid.Map(rapid.Int64Range(1, 20), func(n int64) string { return strconv.FormatInt(n, 10) }),
			revisionAnnotation()).Draw(t, "newRevision")
		exists := rapid.Bool().Draw(t, "exists")
		limit := rapid.OneOf(rapid.IntRange(1, 30), rapid.Just(revision.MaxHistoryChars)).Draw(t, "limit")

		upRS := rs.DeepCopy()
		upChanged := deploymentutil.SetNewReplicaSetAnnotations(context.Background(), d, upRS, newRevision, exists, limit)

		ours := convert(t, d)
		pd, _ := proportionInputs(t, d, rs)
		got, changed := revision.NewAnnotations(revision.AnnotationsInput{
			Deployment:   ours.Annotations,
			ReplicaSet:   rs.Annotations,
			Revision:     newRevision,
			Exists:       exists,
			Replicas:     ours.Replicas,
			MaxReplicas:  pd.MaxReplicas(),
			HistoryLimit: limit,
		})
		if !maps.Equal(rs.Annotations, kubeapps.ReplicaSet(rs).Annotations) {
			t.Fatalf("NewAnnotations modified its input")
		}
		want := upRS.Annotations
		if changed == upChanged && maps.Equal(got, want) {
			count("SetNewReplicaSetAnnotations", "agree")
			return
		}
		// R + maxSurge beyond int32: upstream writes the wrapped sum.
		sat, wrap, overflow := bounds(d)
		overflow = overflow || !fits32(int64(*d.Spec.Replicas)+int64(sat[0]))
		wrapped := strconv.Itoa(int(*d.Spec.Replicas + wrap[0]))
		if changed == upChanged && overflow && !exists && got[revision.MaxReplicasAnnotation] == strconv.Itoa(math.MaxInt32) &&
			want[revision.MaxReplicasAnnotation] == wrapped {
			g2, w2 := maps.Clone(got), maps.Clone(want)
			delete(g2, revision.MaxReplicasAnnotation)
			delete(w2, revision.MaxReplicasAnnotation)
			if maps.Equal(g2, w2) {
				count("SetNewReplicaSetAnnotations", "max-replicas beyond int32: ours saturates, upstream writes the wrapped sum")
				return
			}
		}
		t.Fatalf("NewAnnotations = %v (changed %v), upstream %v (changed %v)\ndeployment %v\nreplicaSet %v\nrevision %q exists %v limit %d",
			got, changed, want, upChanged, d.Annotations, rs.Annotations, newRevision, exists, limit)
	})
}
