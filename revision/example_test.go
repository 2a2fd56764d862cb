package revision_test

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/revision"
)

func ExampleEqualIgnoreHash() {
	deployment := revision.Template[[]string]{
		Labels: map[string]string{"app": "web"},
		Spec:   []string{"nginx:1.27"},
	}
	rs := revision.Template[[]string]{
		Labels: map[string]string{"app": "web", revision.HashLabel: "5d4c8f7b9"},
		Spec:   []string{"nginx:1.27"},
	}
	fmt.Println(revision.EqualIgnoreHash(&deployment, &rs))

	rs.Spec = []string{"nginx:1.28"}
	fmt.Println(revision.EqualIgnoreHash(&deployment, &rs))

	// nil and empty are equal; a nil pointer and a pointer to 0 are not.
	type podSpec struct {
		Args        []string
		GracePeriod *int64
	}
	zero := int64(0)
	a := revision.Template[podSpec]{Spec: podSpec{Args: nil}}
	b := revision.Template[podSpec]{Labels: map[string]string{}, Spec: podSpec{Args: []string{}}}
	c := revision.Template[podSpec]{Spec: podSpec{GracePeriod: &zero}}
	fmt.Println(revision.EqualIgnoreHash(&a, &b), revision.EqualIgnoreHash(&a, &c))
	// Output:
	// true
	// false
	// true false
}

// The values below agree with upstream's pipeline over the real go-spew
// (checked outside this repository; see hash_test.go).
func ExampleHash() {
	deployment := revision.Template[[]string]{
		Labels: map[string]string{"app": "web"},
		Spec:   []string{"nginx:1.27"},
	}
	fmt.Println(revision.Hash(&deployment, nil))

	// After a collision, status.collisionCount salts the hash.
	count := int32(1)
	fmt.Println(revision.Hash(&deployment, &count))
	// Output:
	// 5555c64fdd
	// d5c79579c
}

func ExampleReplicaSetName() {
	fmt.Println(revision.ReplicaSetName("web", "5d4c8f7b9"))

	long := fmt.Sprintf("%0250d", 0)
	name := revision.ReplicaSetName(long, "5d4c8f7b99")
	fmt.Println(len(name), name[240:])
	// Output:
	// web-5d4c8f7b9
	// 253 00-5d4c8f7b99
}

func ExampleFindNew() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	deployment := revision.Template[[]string]{Labels: map[string]string{"app": "web"}, Spec: []string{"nginx:1.28"}}
	rss := []revision.ReplicaSet[revision.Template[[]string]]{
		{Name: "web-a", CreationTime: t0,
			Annotations: map[string]string{revision.RevisionAnnotation: "1"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-a"}, Spec: []string{"nginx:1.27"}}},
		{Name: "web-c", CreationTime: t0.Add(9 * time.Minute),
			Annotations: map[string]string{revision.RevisionAnnotation: "3"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-c"}, Spec: []string{"nginx:1.28"}}}, // a duplicate, created later
		{Name: "web-b", CreationTime: t0.Add(5 * time.Minute),
			Annotations: map[string]string{revision.RevisionAnnotation: "2"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-b"}, Spec: []string{"nginx:1.28"}}},
	}
	if i, ok := revision.FindNew(&deployment, rss); ok {
		fmt.Println(rss[i].Name)
	}

	deployment.Spec = []string{"nginx:1.29"}
	fmt.Println(revision.FindNew(&deployment, rss))
	// Output:
	// web-b
	// -1 false
}

func ExampleFindOld() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	deployment := revision.Template[[]string]{Labels: map[string]string{"app": "web"}, Spec: []string{"nginx:1.28"}}
	rss := []revision.ReplicaSet[revision.Template[[]string]]{
		{Name: "web-a", CreationTime: t0,
			Annotations: map[string]string{revision.RevisionAnnotation: "1"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-a"}, Spec: []string{"nginx:1.26"}}},
		{Name: "web-b", CreationTime: t0.Add(5 * time.Minute),
			Annotations: map[string]string{revision.RevisionAnnotation: "2"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-b"}, Spec: []string{"nginx:1.27"}}},
		{Name: "web-c", CreationTime: t0.Add(9 * time.Minute),
			Annotations: map[string]string{revision.RevisionAnnotation: "3"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-c"}, Spec: []string{"nginx:1.28"}}},
	}
	rss[1].Replicas = 4 // web-b still has pods
	all, active := revision.FindOld(&deployment, rss)
	fmt.Println(all, active)
	// Output:
	// [0 1] [1]
}

func ExampleRevision() {
	fmt.Println(revision.Revision(map[string]string{revision.RevisionAnnotation: "7"}))
	fmt.Println(revision.Revision(nil))
	// Output:
	// 7 <nil>
	// 0 <nil>
}

func ExampleRevision_errors() {
	_, err := revision.Revision(map[string]string{revision.RevisionAnnotation: "v7"})
	fmt.Println(err)
	fmt.Println(errors.Is(err, field.ErrSyntax))
	// Output:
	// revision: parsing "v7": invalid syntax
	// true
}

// A parse error is a *field.Error whose Value is the annotation, quoted.
func ExampleRevision_fieldError() {
	_, err := revision.Revision(map[string]string{revision.RevisionAnnotation: "99999999999999999999"})
	var pe *field.Error
	if errors.As(err, &pe) {
		fmt.Printf("%s: %v\n", pe.Value, pe.Err)
	}
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrRange))
	// Output:
	// "99999999999999999999": value out of range
	// true true
}

func ExampleMaxRevision() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rss := []revision.ReplicaSet[revision.Template[[]string]]{
		{Name: "a", CreationTime: t0, Annotations: map[string]string{revision.RevisionAnnotation: "x"}},
		{Name: "b", CreationTime: t0.Add(1 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "4"}},
		{Name: "c", CreationTime: t0.Add(2 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "2"}},
	}
	fmt.Println(revision.MaxRevision(rss))
	// Output:
	// 4
}

func ExampleLastRevision() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, revs := range [][]string{{"1", "2", "3"}, {"3", "3", "1"}, {"5"}} {
		var rss []revision.ReplicaSet[revision.Template[[]string]]
		for i, r := range revs {
			rss = append(rss, revision.ReplicaSet[revision.Template[[]string]]{Name: strconv.Itoa(i), CreationTime: t0.Add(time.Duration(i) * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: r}})
		}
		fmt.Println(revs, "->", revision.LastRevision(rss))
	}
	// Output:
	// [1 2 3] -> 2
	// [3 3 1] -> 3
	// [5] -> 0
}

func ExampleNextRevision() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rss := []revision.ReplicaSet[revision.Template[[]string]]{
		{Name: "a", CreationTime: t0, Annotations: map[string]string{revision.RevisionAnnotation: "1"}},
		{Name: "b", CreationTime: t0.Add(1 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "2"}},
		{Name: "c", CreationTime: t0.Add(2 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "3"}},
	}
	fmt.Println(revision.NextRevision(rss, -1)) // no new ReplicaSet yet
	fmt.Println(revision.NextRevision(rss, 0))  // rolling back to a
	fmt.Println(revision.NextRevision(rss, 2))  // c is already the newest
	// Output:
	// 4
	// 4
	// 3
}

func ExampleIsCopiedAnnotation() {
	fmt.Println(revision.IsCopiedAnnotation("team"), revision.IsCopiedAnnotation(revision.RevisionAnnotation), revision.IsCopiedAnnotation(revision.LastAppliedAnnotation))
	// Output:
	// true false false
}

func ExampleCopied() {
	// Deprecated name of IsCopiedAnnotation.
	fmt.Println(revision.Copied("team"))
	// Output:
	// true
}

func ExampleNewAnnotations() {
	// A new ReplicaSet for revision 4 of a Deployment with 10 replicas and
	// maxSurge 3.
	ann, changed := revision.NewAnnotations(revision.AnnotationsInput{
		Deployment: map[string]string{
			"team":                      "web",
			revision.RevisionAnnotation: "3",
		},
		Revision:    "4",
		Replicas:    10,
		MaxReplicas: 13,
	})
	fmt.Println(changed)
	for _, k := range slices.Sorted(maps.Keys(ann)) {
		fmt.Printf("  %s=%q\n", k, ann[k])
	}
	// Output:
	// true
	//   deployment.kubernetes.io/desired-replicas="10"
	//   deployment.kubernetes.io/max-replicas="13"
	//   deployment.kubernetes.io/revision="4"
	//   team="web"
}

func ExampleNewAnnotations_rollback() {
	// Rolling back to the ReplicaSet of revision 2 makes it revision 5;
	// 2 moves to its history.
	ann, changed := revision.NewAnnotations(revision.AnnotationsInput{
		ReplicaSet: map[string]string{
			revision.RevisionAnnotation:        "2",
			revision.RevisionHistoryAnnotation: "1",
		},
		Revision: "5",
		Exists:   true,
	})
	fmt.Println(changed)
	for _, k := range slices.Sorted(maps.Keys(ann)) {
		fmt.Printf("  %s=%q\n", k, ann[k])
	}
	// Output:
	// true
	//   deployment.kubernetes.io/revision="5"
	//   deployment.kubernetes.io/revision-history="1,2"
}

func ExampleRollbackAnnotations() {
	ann := revision.RollbackAnnotations(
		map[string]string{revision.RevisionAnnotation: "5", "team": "web", "owner": "ana"},
		map[string]string{revision.RevisionAnnotation: "2", "team": "platform"},
	)
	for _, k := range slices.Sorted(maps.Keys(ann)) {
		fmt.Printf("  %s=%q\n", k, ann[k])
	}
	// Output:
	//   deployment.kubernetes.io/revision="5"
	//   team="platform"
}

func ExampleRollbackTo() {
	fmt.Println(revision.RollbackTo(map[string]string{revision.RollbackToAnnotation: "0"}))
	fmt.Println(revision.RollbackTo(map[string]string{revision.RollbackToAnnotation: "two"}))
	// Output:
	// 0 true
	// 0 false
}

func ExampleRollbackTarget() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rss := []revision.ReplicaSet[revision.Template[[]string]]{
		{Name: "web-a", CreationTime: t0,
			Annotations: map[string]string{revision.RevisionAnnotation: "1"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-a"}, Spec: []string{"nginx:1.26"}}},
		{Name: "web-b", CreationTime: t0.Add(5 * time.Minute),
			Annotations: map[string]string{revision.RevisionAnnotation: "2"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-b"}, Spec: []string{"nginx:1.27"}}},
		{Name: "web-c", CreationTime: t0.Add(9 * time.Minute),
			Annotations: map[string]string{revision.RevisionAnnotation: "3"},
			Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-c"}, Spec: []string{"nginx:1.28"}}},
	}
	current := revision.Template[[]string]{Labels: map[string]string{"app": "web"}, Spec: []string{"nginx:1.28"}}
	for _, to := range []int64{0, 3, 7} {
		r := revision.RollbackTarget(&current, rss, to)
		fmt.Printf("%d: %v %d %d\n", to, r.Outcome, r.Revision, r.Index)
	}
	// Output:
	// 0: RolledBack 2 1
	// 3: RollbackUnchanged 3 2
	// 7: RollbackNotFound 7 -1
}

func ExampleRollback_Message() {
	r := revision.Rollback{Outcome: revision.RolledBack, Revision: 2, Index: 1}
	fmt.Println(r.Message("web"))
	r = revision.Rollback{Outcome: revision.RollbackNoPrevious, Index: -1}
	fmt.Println(r.Message("web"))
	// Output:
	// Rolled back deployment "web" to revision 2
	// Unable to find last revision.
}

func ExampleRollbackOutcome_Reason() {
	fmt.Println(revision.RollbackUnchanged.Reason())
	// Output:
	// DeploymentRollbackTemplateUnchanged
}

func ExampleRollbackOutcome_String() {
	fmt.Println(revision.RollbackNoPrevious)
	// Output:
	// RollbackNoPrevious
}

func ExampleWithoutHashLabel() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rs := revision.ReplicaSet[revision.Template[[]string]]{Name: "web-b", CreationTime: t0.Add(5 * time.Minute),
		Annotations: map[string]string{revision.RevisionAnnotation: "2"},
		Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-b"}, Spec: []string{"nginx:1.27"}}}
	t := revision.WithoutHashLabel(&rs.Template)
	fmt.Println(t.Labels, t.Spec)
	fmt.Println(len(rs.Template.Labels)) // unchanged
	// Output:
	// map[app:web] [nginx:1.27]
	// 2
}

func ExampleToCleanUp() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// revisionHistoryLimit 1, four old ReplicaSets; the lowest revision
	// still has pods.
	rss := []revision.ReplicaSet[revision.Template[[]string]]{
		{Name: "r1", CreationTime: t0, Annotations: map[string]string{revision.RevisionAnnotation: "1"}},
		{Name: "r2", CreationTime: t0.Add(1 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "2"}},
		{Name: "r3", CreationTime: t0.Add(2 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "3"}},
		{Name: "r4", CreationTime: t0.Add(3 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "4"}},
		{Name: "r5", CreationTime: t0.Add(4 * time.Minute), Annotations: map[string]string{revision.RevisionAnnotation: "5"}},
	}
	rss[0].Replicas = 2
	limit := int32(1)
	newRS := 4
	fmt.Println(revision.ToCleanUp(rss, newRS, &limit, revision.CleanupUpstream))
	fmt.Println(revision.ToCleanUp(rss, newRS, &limit, revision.CleanupSubstitute))
	fmt.Println(revision.ToCleanUp(rss, newRS, nil, revision.CleanupUpstream))
	// Output:
	// [1 2]
	// [1 2 3]
	// []
}

func ExampleCleanupMode_String() {
	fmt.Println(revision.CleanupSubstitute)
	// Output:
	// CleanupSubstitute
}

func ExampleIsHashCollision() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	deployment := revision.Template[[]string]{Labels: map[string]string{"app": "web"}, Spec: []string{"nginx:1.28"}}
	existing := revision.ReplicaSet[revision.Template[[]string]]{Name: "web-5555c64fdd", CreationTime: t0,
		Annotations: map[string]string{revision.RevisionAnnotation: "3"},
		Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-5555c64fdd"}, Spec: []string{"nginx:1.28"}}}
	fmt.Println(revision.IsHashCollision("uid-web", &deployment, "uid-web", &existing.Template))
	fmt.Println(revision.IsHashCollision("uid-web", &deployment, "uid-other", &existing.Template))
	// Output:
	// false
	// true
}

func ExampleCollision() {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// Deprecated name of IsHashCollision.
	deployment := revision.Template[[]string]{Labels: map[string]string{"app": "web"}, Spec: []string{"nginx:1.28"}}
	existing := revision.ReplicaSet[revision.Template[[]string]]{Name: "web-5555c64fdd", CreationTime: t0,
		Annotations: map[string]string{revision.RevisionAnnotation: "3"},
		Template:    revision.Template[[]string]{Labels: map[string]string{"app": "web", revision.HashLabel: "hweb-5555c64fdd"}, Spec: []string{"nginx:1.28"}}}
	fmt.Println(revision.Collision("uid-web", &deployment, "uid-other", &existing.Template))
	// Output:
	// true
}

func ExampleNextCollisionCount() {
	fmt.Println(revision.NextCollisionCount(nil))
	two := int32(2)
	fmt.Println(revision.NextCollisionCount(&two))
	// Output:
	// 1
	// 3
}

func ExampleEqualsItself() {
	// A spec with a weight: NaN never equals itself, so a template holding
	// it never matches the ReplicaSet made from it.
	type weighted struct{ Weight float64 }
	good := revision.Template[weighted]{Spec: weighted{Weight: 0.5}}
	bad := revision.Template[weighted]{Spec: weighted{Weight: math.NaN()}}
	ok, _ := revision.EqualsItself(&good)
	fmt.Println(ok)
	ok, path := revision.EqualsItself(&bad)
	fmt.Println(ok, path)
	// Output:
	// true
	// false template.Spec.Weight (NaN)
}

func ExampleRegisterEqualIgnoreHash() {
	// A typed comparator for Template[[]string], with EqualIgnoreHash's
	// rules: labels without the hash label, nil equal to empty. Register
	// it once, in an init function.
	revision.RegisterEqualIgnoreHash(func(a, b *revision.Template[[]string]) bool {
		la, lb := maps.Clone(a.Labels), maps.Clone(b.Labels)
		delete(la, revision.HashLabel)
		delete(lb, revision.HashLabel)
		return maps.Equal(la, lb) && maps.Equal(a.Annotations, b.Annotations) && slices.Equal(a.Spec, b.Spec)
	})
	defer revision.RegisterEqualIgnoreHash[revision.Template[[]string]](nil)

	deployment := revision.Template[[]string]{Labels: map[string]string{"app": "web"}, Spec: []string{"nginx:1.27"}}
	rs := revision.Template[[]string]{
		Labels: map[string]string{"app": "web", revision.HashLabel: "5d4c8f7b9"},
		Spec:   []string{"nginx:1.27"},
	}
	fmt.Println(revision.EqualIgnoreHash(&deployment, &rs))
	rs.Spec = []string{"nginx:1.28"}
	fmt.Println(revision.EqualIgnoreHash(&deployment, &rs))
	// Output:
	// true
	// false
}
