package revision

import (
	"reflect"

	"pgregory.net/rapid"
)

// The generators draw from small domains so that two drawn templates are
// often equal, and often equal only semantically (nil against empty, "1"
// against "1000m", the same instant with another offset, another hash
// label), which is what the equality properties need.

func genLabels() *rapid.Generator[map[string]string] {
	return rapid.Custom(func(t *rapid.T) map[string]string {
		switch rapid.IntRange(0, 2).Draw(t, "labelsKind") {
		case 0:
			return nil
		case 1:
			return map[string]string{}
		}
		keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"app", "tier", HashLabel}), 1, 3, rapid.ID[string]).Draw(t, "labelKeys")
		m := make(map[string]string, len(keys))
		for _, k := range keys {
			m[k] = rapid.SampledFrom([]string{"web", "db", "5d4c8f7b9"}).Draw(t, "labelValue")
		}
		return m
	})
}

func genStrings() *rapid.Generator[[]string] {
	return rapid.Custom(func(t *rapid.T) []string {
		if rapid.Bool().Draw(t, "nilStrings") {
			return nil
		}
		return rapid.SliceOfN(rapid.SampledFrom([]string{"sh", "-c"}), 0, 2).Draw(t, "strings")
	})
}

func genQuantities() *rapid.Generator[map[string]quantity] {
	q := rapid.SampledFrom([]quantity{{1000, "1"}, {1000, "1000m"}, {500, "500m"}, {500, "0.5"}})
	return rapid.Custom(func(t *rapid.T) map[string]quantity {
		if rapid.Bool().Draw(t, "nilQuantities") {
			return nil
		}
		return rapid.MapOfN(rapid.SampledFrom([]string{"cpu", "memory"}), q, 0, 2).Draw(t, "quantities")
	})
}

func genContainer() *rapid.Generator[container] {
	return rapid.Custom(func(t *rapid.T) container {
		c := container{
			Name:      rapid.SampledFrom([]string{"web", "db"}).Draw(t, "name"),
			Image:     rapid.SampledFrom([]string{"nginx:1", "nginx:2"}).Draw(t, "image"),
			Command:   genStrings().Draw(t, "command"),
			Resources: resources{Limits: genQuantities().Draw(t, "limits")},
			RunAsUser: rapid.Ptr(rapid.SampledFrom([]int64{0, 1000}), true).Draw(t, "runAsUser"),
		}
		if rapid.Bool().Draw(t, "hasProbe") {
			c.LivenessProbe = &probe{
				HTTPGet:       rapid.Ptr(rapid.Just(httpGet{Path: "/healthz"}), true).Draw(t, "httpGet"),
				PeriodSeconds: rapid.Int32Range(0, 1).Draw(t, "periodSeconds"),
			}
		}
		return c
	})
}

func genTemplate() *rapid.Generator[podTemplate] {
	return rapid.Custom(func(t *rapid.T) podTemplate {
		var containers []container
		if !rapid.Bool().Draw(t, "nilContainers") {
			containers = rapid.SliceOfN(genContainer(), 0, 2).Draw(t, "containers")
		}
		return podTemplate{
			Labels:      genLabels().Draw(t, "labels"),
			Annotations: rapid.SampledFrom([]map[string]string{nil, {}, {"a": "1"}}).Draw(t, "annotations"),
			Spec: podSpec{
				Containers:                    containers,
				TerminationGracePeriodSeconds: rapid.Ptr(rapid.SampledFrom([]int64{0, 30}), true).Draw(t, "grace"),
				StartAfter: instant{
					unix:   rapid.Int64Range(0, 1).Draw(t, "unix"),
					offset: rapid.SampledFrom([]int32{0, 3600}).Draw(t, "offset"),
				},
			},
		}
	})
}

// cloneTemplate returns a deep copy of t that shares no map, slice or
// pointer with it.
func cloneTemplate(t podTemplate) podTemplate {
	out := t
	out.Labels = cloneMap(t.Labels)
	out.Annotations = cloneMap(t.Annotations)
	out.Spec.Containers = cloneSlice(t.Spec.Containers)
	for i, c := range out.Spec.Containers {
		c.Command = cloneSlice(c.Command)
		c.Args = cloneSlice(c.Args)
		c.Ports = cloneSlice(c.Ports)
		c.Env = cloneSlice(c.Env)
		for j, e := range c.Env {
			c.Env[j].FieldPath = clonePtr(e.FieldPath)
		}
		c.Resources.Limits = cloneMap(c.Resources.Limits)
		c.Resources.Requests = cloneMap(c.Resources.Requests)
		c.VolumeMounts = cloneSlice(c.VolumeMounts)
		c.LivenessProbe = cloneProbe(c.LivenessProbe)
		c.ReadinessProbe = cloneProbe(c.ReadinessProbe)
		c.RunAsUser = clonePtr(c.RunAsUser)
		out.Spec.Containers[i] = c
	}
	out.Spec.Volumes = cloneSlice(t.Spec.Volumes)
	for i, v := range out.Spec.Volumes {
		out.Spec.Volumes[i].ConfigMap = clonePtr(v.ConfigMap)
	}
	out.Spec.NodeSelector = cloneMap(t.Spec.NodeSelector)
	out.Spec.TerminationGracePeriodSeconds = clonePtr(t.Spec.TerminationGracePeriodSeconds)
	out.Spec.Priority = clonePtr(t.Spec.Priority)
	return out
}

func cloneProbe(p *probe) *probe {
	if p == nil {
		return nil
	}
	out := *p
	if p.HTTPGet != nil {
		h := *p.HTTPGet
		h.Headers = cloneMap(h.Headers)
		out.HTTPGet = &h
	}
	out.Exec = cloneSlice(p.Exec)
	return &out
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneSlice[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append(make([]E, 0, len(s)), s...)
}

func clonePtr[V any](p *V) *V {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// referenceEqual is the slow, obviously correct EqualIgnoreHash for the
// test template: it rewrites both templates into a normal form (no hash
// label, empty maps and slices as nil, quantities without their text,
// instants without their offset) and compares those with
// reflect.DeepEqual.
func referenceEqual(a, b podTemplate) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

func normalize(t podTemplate) podTemplate {
	t = cloneTemplate(t)
	delete(t.Labels, HashLabel)
	t.Labels = nilIfEmpty(t.Labels)
	t.Annotations = nilIfEmpty(t.Annotations)
	if len(t.Spec.Containers) == 0 {
		t.Spec.Containers = nil
	}
	for i := range t.Spec.Containers {
		c := &t.Spec.Containers[i]
		if len(c.Command) == 0 {
			c.Command = nil
		}
		for _, m := range []*map[string]quantity{&c.Resources.Limits, &c.Resources.Requests} {
			for k, q := range *m {
				(*m)[k] = quantity{milli: q.milli}
			}
			*m = nilIfEmpty(*m)
		}
	}
	t.Spec.StartAfter.offset = 0
	return t
}

func nilIfEmpty[K comparable, V any](m map[K]V) map[K]V {
	if len(m) == 0 {
		return nil
	}
	return m
}

// genVariant draws a copy of t with zero to three mutations, most of which
// keep it semantically equal (hash label, nil against empty, another
// spelling of a quantity, another offset of the same instant), so that
// chains of variants are often equal.
func genVariant(t podTemplate) *rapid.Generator[podTemplate] {
	return rapid.Custom(func(rt *rapid.T) podTemplate {
		v := cloneTemplate(t)
		for range rapid.IntRange(0, 3).Draw(rt, "mutations") {
			switch rapid.IntRange(0, 7).Draw(rt, "mutation") {
			case 0: // add, change or remove the hash label
				if rapid.Bool().Draw(rt, "removeHash") {
					delete(v.Labels, HashLabel)
				} else {
					if v.Labels == nil {
						v.Labels = map[string]string{}
					}
					v.Labels[HashLabel] = rapid.SampledFrom([]string{"6b4d9cdbdf", "5c86f9496d"}).Draw(rt, "hash")
				}
			case 1: // nil against empty
				if len(v.Labels) == 0 {
					v.Labels = toggleNil(v.Labels)
				}
				if len(v.Annotations) == 0 {
					v.Annotations = toggleNil(v.Annotations)
				}
				if len(v.Spec.Containers) == 0 {
					if v.Spec.Containers == nil {
						v.Spec.Containers = []container{}
					} else {
						v.Spec.Containers = nil
					}
				}
			case 2: // respell quantities
				for i := range v.Spec.Containers {
					for k, q := range v.Spec.Containers[i].Resources.Limits {
						v.Spec.Containers[i].Resources.Limits[k] = respell(q)
					}
				}
			case 3: // same instant, other offset
				v.Spec.StartAfter.offset = 3600 - v.Spec.StartAfter.offset
			case 4: // breaking: other image
				if len(v.Spec.Containers) > 0 {
					v.Spec.Containers[0].Image += "-patched"
				}
			case 5: // breaking: other grace period
				if v.Spec.TerminationGracePeriodSeconds == nil {
					v.Spec.TerminationGracePeriodSeconds = ptrTo[int64](0)
				} else {
					v.Spec.TerminationGracePeriodSeconds = nil
				}
			case 6: // breaking: another label
				if v.Labels == nil {
					v.Labels = map[string]string{}
				}
				v.Labels["extra"] = "x"
			case 7: // breaking: another instant
				v.Spec.StartAfter.unix++
			}
		}
		return v
	})
}

func toggleNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return nil
}

func respell(q quantity) quantity {
	switch q.text {
	case "1":
		q.text = "1000m"
	case "1000m":
		q.text = "1"
	case "500m":
		q.text = "0.5"
	case "0.5":
		q.text = "500m"
	}
	return q
}
