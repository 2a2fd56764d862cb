package revision

import (
	"time"
)

// tmpl is the small template most tests use: the spec is the image.
type tmpl = Template[string]

func image(spec string) tmpl {
	return tmpl{Labels: map[string]string{"app": "web"}, Spec: spec}
}

// base is the creation time of the first test ReplicaSet.
var base = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// rs builds a ReplicaSet with a revision annotation (none when revision is
// "-"), created minutes after base, with template image(spec) carrying a
// hash label.
func rs(name, revision string, minutes int, spec string) ReplicaSet[tmpl] {
	t := image(spec)
	t.Labels = map[string]string{"app": "web", HashLabel: "h-" + name}
	r := ReplicaSet[tmpl]{
		Name:         name,
		UID:          "uid-" + name,
		CreationTime: base.Add(time.Duration(minutes) * time.Minute),
		Template:     t,
	}
	if revision != "-" {
		r.Annotations = map[string]string{RevisionAnnotation: revision}
	}
	return r
}

// revs builds ReplicaSets with the given revision annotations ("-" for
// none), one minute apart.
func revs(revisions ...string) []ReplicaSet[tmpl] {
	out := make([]ReplicaSet[tmpl], len(revisions))
	for i, r := range revisions {
		out[i] = rs("rs"+string(rune('a'+i)), r, i, "nginx:1")
	}
	return out
}
