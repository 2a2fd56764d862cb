package conformance

import (
	"math"
	"slices"
	"sync/atomic"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/revision"
)

func TestEqualIgnoreHashMatchesUpstream(t *testing.T) {
	var equal, unequal atomic.Int64
	rapid.Check(t, func(t *rapid.T) {
		p := templatePair().Draw(t, "templates")
		a, b := p[0], p[1]
		got := revision.EqualIgnoreHash(&a, &b)
		if rev := revision.EqualIgnoreHash(&b, &a); rev != got {
			t.Fatalf("EqualIgnoreHash is not symmetric: %v one way, %v the other", got, rev)
		}
		up := deploymentutil.EqualIgnoreHash(&a, &b)
		if got != up {
			t.Fatalf("EqualIgnoreHash = %v, upstream %v\na: %#v\nb: %#v", got, up, a, b)
		}
		if got {
			equal.Add(1)
		} else {
			unequal.Add(1)
		}
		count("EqualIgnoreHash", "agree")
	})
	t.Logf("%d equal pairs, %d unequal", equal.Load(), unequal.Load())
}

func TestHashMatchesComputeHash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tmpl := podTemplate().Draw(t, "template")
		var cc *int32
		if rapid.Bool().Draw(t, "hasCollisionCount") {
			n := rapid.OneOf(rapid.Int32Range(0, 3), rapid.Just(int32(math.MaxInt32)), rapid.Int32()).Draw(t, "collisionCount")
			cc = &n
		}
		up := controller.ComputeHash(&tmpl, cc)
		if got := revision.Hash(&tmpl, cc); got != up {
			t.Fatalf("Hash = %q, upstream %q for %#v", got, up, tmpl)
		}
		count("ComputeHash", "agree")
	})
}

// templatePool draws a Deployment template and a pool of ReplicaSet
// templates: renderings of it (equal to it), of mutations of it, and of
// other templates.
func templatePool(t *rapid.T) (corev1.PodTemplateSpec, []corev1.PodTemplateSpec) {
	m := genModel(t)
	d := render(t, m)
	delete(d.Labels, revision.HashLabel)
	pool := []corev1.PodTemplateSpec{render(t, m), render(t, m), render(t, mutate(t, m)), render(t, genModel(t))}
	return d, pool
}

func TestFindNewMatchesFindNewReplicaSet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tmpl, pool := templatePool(t)
		rss := replicaSets(pool, 6).Draw(t, "replicaSets")
		d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: tmpl}}
		i, ok := revision.FindNew(&tmpl, kubeapps.ReplicaSets(rss))
		up := deploymentutil.FindNewReplicaSet(d, slices.Clone(rss)) // it sorts its argument
		got := "<none>"
		if ok {
			got = rss[i].Name
		}
		want := "<none>"
		if up != nil {
			want = up.Name
		}
		if got != want {
			t.Fatalf("FindNew = %s, upstream %s", got, want)
		}
		count("FindNewReplicaSet", "agree")
	})
}

func TestFindOldMatchesFindOldReplicaSets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tmpl, pool := templatePool(t)
		rss := replicaSets(pool, 6).Draw(t, "replicaSets")
		noUIDs := rapid.IntRange(0, 9).Draw(t, "noUIDs") == 0
		if noUIDs {
			for _, rs := range rss {
				rs.UID = ""
			}
		}
		d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: tmpl}}
		all, active := revision.FindOld(&tmpl, kubeapps.ReplicaSets(rss))
		upActive, upAll := deploymentutil.FindOldReplicaSets(d, slices.Clone(rss))
		// Upstream returns them in creation order (it sorts its argument),
		// the library in input order: compare the sets.
		gotAll, gotActive := names(rss, all), names(rss, active)
		wantAll, wantActive := objectNames(upAll), objectNames(upActive)
		if slices.Equal(gotAll, wantAll) && slices.Equal(gotActive, wantActive) {
			count("FindOldReplicaSets", "agree")
			return
		}
		_, hasNew := revision.FindNew(&tmpl, kubeapps.ReplicaSets(rss))
		if noUIDs && hasNew && len(wantAll) < len(gotAll) {
			// Upstream drops every ReplicaSet whose UID equals the new
			// one's, here every one of them; the library only drops
			// ReplicaSets sharing a non-empty UID. The API server always
			// sets a UID.
			count("FindOldReplicaSets", "ReplicaSets without a UID: upstream drops them all as new")
			return
		}
		t.Fatalf("FindOld = all %v active %v, upstream all %v active %v", gotAll, gotActive, wantAll, wantActive)
	})
}

// names returns the sorted names of rss at the indices.
func names(rss []*appsv1.ReplicaSet, indices []int) []string {
	out := []string{}
	for _, i := range indices {
		out = append(out, rss[i].Name)
	}
	slices.Sort(out)
	return out
}

// objectNames returns the sorted names of rss.
func objectNames(rss []*appsv1.ReplicaSet) []string {
	out := []string{}
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	slices.Sort(out)
	return out
}
