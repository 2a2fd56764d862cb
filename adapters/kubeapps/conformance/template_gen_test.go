package conformance

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/revision"
)

// The pod template generators build a template from a semantic model and
// then render it with free representation choices that upstream's
// semantic equality ignores: nil or empty maps and slices, a quantity in
// one unit or another ("1" or "1000m"), a time in one zone or another.
// Two renderings of one model are semantically equal; a mutation of the
// model makes them differ in one place.

// model is what a template means.
type model struct {
	labels      map[string]string
	annotations map[string]string
	hash        string // pod-template-hash label value; "-" for none
	created     time.Time
	deleted     *time.Time
	containers  []containerModel
	grace       *int64
	nodeSel     map[string]string
	volumes     []string
	hostNetwork bool
}

type containerModel struct {
	name, image string
	env         [][2]string
	cpu, memory int64 // millicores, MiB; 0 = unset
	port        int32
	probePort   intstr.IntOrString
	probe       bool
	mounts      []string
	args        []string
}

// zones in which times are rendered.
var zones = []*time.Location{time.UTC, time.FixedZone("CET", 3600), time.FixedZone("PST", -8*3600), time.FixedZone("IST", 5*3600+1800)}

var images = []string{"nginx:1.9", "nginx:1.9.3", "busybox", "registry.k8s.io/pause:3.10"}

func genModel(t *rapid.T) model {
	m := model{
		labels:  smallMap(t, "labels", []string{"app", "tier", "version"}),
		hash:    rapid.SampledFrom([]string{"-", "-", "5d4c8f7b9", "6b966d6b4", ""}).Draw(t, "hash"),
		created: time.Unix(rapid.Int64Range(0, 3).Draw(t, "created")*3600, 0),
		grace:   rapid.SampledFrom([]*int64{nil, ptr(int64(0)), ptr(int64(30))}).Draw(t, "grace"),
		nodeSel: smallMap(t, "nodeSelector", []string{"disk", "zone"}),
	}
	m.annotations = smallMap(t, "annotations", []string{"team", "prometheus.io/scrape"})
	if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
		d := m.created.Add(time.Minute)
		m.deleted = &d
	}
	m.hostNetwork = rapid.IntRange(0, 5).Draw(t, "hostNetwork") == 0
	n := rapid.IntRange(0, 3).Draw(t, "containers")
	for i := 0; i < n; i++ {
		c := containerModel{
			name:      fmt.Sprintf("c%d", i),
			image:     rapid.SampledFrom(images).Draw(t, "image"),
			cpu:       rapid.SampledFrom([]int64{0, 100, 250, 1000, 2000}).Draw(t, "cpu"),
			memory:    rapid.SampledFrom([]int64{0, 64, 128, 1024}).Draw(t, "memory"),
			port:      rapid.SampledFrom([]int32{0, 80, 8080}).Draw(t, "port"),
			probe:     rapid.Bool().Draw(t, "probe"),
			probePort: rapid.SampledFrom([]intstr.IntOrString{intstr.FromInt32(8080), intstr.FromString("http")}).Draw(t, "probePort"),
		}
		for j, k := 0, rapid.IntRange(0, 2).Draw(t, "env"); j < k; j++ {
			c.env = append(c.env, [2]string{fmt.Sprintf("E%d", j), rapid.SampledFrom([]string{"", "1", "x"}).Draw(t, "envValue")})
		}
		for j, k := 0, rapid.IntRange(0, 2).Draw(t, "mounts"); j < k; j++ {
			c.mounts = append(c.mounts, fmt.Sprintf("v%d", j))
		}
		if rapid.Bool().Draw(t, "hasArgs") {
			c.args = rapid.SliceOfN(rapid.SampledFrom([]string{"-v", "--port=80", ""}), 0, 2).Draw(t, "args")
		}
		m.containers = append(m.containers, c)
	}
	for j, k := 0, rapid.IntRange(0, 2).Draw(t, "volumes"); j < k; j++ {
		m.volumes = append(m.volumes, fmt.Sprintf("v%d", j))
	}
	return m
}

func smallMap(t *rapid.T, label string, keys []string) map[string]string {
	m := map[string]string{}
	for _, k := range keys {
		if rapid.Bool().Draw(t, label+"."+k) {
			m[k] = rapid.SampledFrom([]string{"web", "v1", "", "true"}).Draw(t, label+"."+k+"=")
		}
	}
	return m
}

func ptr[T any](v T) *T { return &v }

// mutate changes m in one semantically visible place.
func mutate(t *rapid.T, m model) model {
	m2 := m
	m2.labels = cloneMap(m.labels)
	m2.containers = append([]containerModel(nil), m.containers...)
	switch rapid.IntRange(0, 7).Draw(t, "mutation") {
	case 0:
		m2.labels["app"] += "x"
	case 1:
		if m2.grace == nil {
			m2.grace = ptr(int64(0)) // nil and &0 differ
		} else {
			m2.grace = nil
		}
	case 2:
		if len(m2.containers) >= 2 {
			m2.containers[0], m2.containers[1] = m2.containers[1], m2.containers[0]
		} else {
			m2.hostNetwork = !m2.hostNetwork
		}
	case 3:
		if len(m2.containers) > 0 {
			m2.containers[0].image += "-new"
		} else {
			m2.containers = append(m2.containers, containerModel{name: "c0", image: "nginx"})
		}
	case 4:
		if len(m2.containers) > 0 {
			m2.containers[0].cpu++
		} else {
			m2.volumes = append(m2.volumes, "extra")
		}
	case 5:
		m2.created = m2.created.Add(time.Second)
	case 6:
		// Only the hash label changes: still equal, ignoring the hash.
		m2.hash = rapid.SampledFrom([]string{"-", "abc", "5d4c8f7b9"}).Draw(t, "newHash")
	case 7:
		m2.labels[revision.HashLabel+"x"] = "1"
	}
	return m2
}

// render builds a template from m with representation choices drawn
// from t.
func render(t *rapid.T, m model) corev1.PodTemplateSpec {
	zone := rapid.SampledFrom(zones).Draw(t, "zone")
	var tmpl corev1.PodTemplateSpec
	tmpl.Labels = renderMap(t, "labels", m.labels)
	if m.hash != "-" {
		if tmpl.Labels == nil {
			tmpl.Labels = map[string]string{}
		}
		tmpl.Labels[revision.HashLabel] = m.hash
	}
	tmpl.Annotations = renderMap(t, "annotations", m.annotations)
	tmpl.CreationTimestamp = metav1.NewTime(m.created.In(zone))
	if m.deleted != nil {
		d := metav1.NewTime(m.deleted.In(rapid.SampledFrom(zones).Draw(t, "deletedZone")))
		tmpl.DeletionTimestamp = &d
	}
	tmpl.Spec.TerminationGracePeriodSeconds = m.grace
	tmpl.Spec.NodeSelector = renderMap(t, "nodeSelector", m.nodeSel)
	tmpl.Spec.HostNetwork = m.hostNetwork
	if len(m.containers) > 0 || rapid.Bool().Draw(t, "emptyContainers") {
		tmpl.Spec.Containers = []corev1.Container{}
	}
	for _, c := range m.containers {
		tmpl.Spec.Containers = append(tmpl.Spec.Containers, renderContainer(t, c))
	}
	for _, v := range m.volumes {
		tmpl.Spec.Volumes = append(tmpl.Spec.Volumes, corev1.Volume{Name: v,
			VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	}
	if len(m.volumes) == 0 && rapid.Bool().Draw(t, "emptyVolumes") {
		tmpl.Spec.Volumes = []corev1.Volume{}
	}
	return tmpl
}

func renderContainer(t *rapid.T, c containerModel) corev1.Container {
	out := corev1.Container{Name: c.name, Image: c.image, Args: c.args}
	if c.args != nil && len(c.args) == 0 && rapid.Bool().Draw(t, "nilArgs") {
		out.Args = nil
	}
	for _, e := range c.env {
		out.Env = append(out.Env, corev1.EnvVar{Name: e[0], Value: e[1]})
	}
	if c.cpu != 0 || c.memory != 0 {
		out.Resources.Requests = corev1.ResourceList{}
		out.Resources.Limits = corev1.ResourceList{}
		if c.cpu != 0 {
			out.Resources.Requests[corev1.ResourceCPU] = cpu(t, c.cpu)
			out.Resources.Limits[corev1.ResourceCPU] = cpu(t, 2*c.cpu)
		}
		if c.memory != 0 {
			out.Resources.Requests[corev1.ResourceMemory] = memory(t, c.memory)
			out.Resources.Limits[corev1.ResourceMemory] = memory(t, 2*c.memory)
		}
	} else if rapid.Bool().Draw(t, "emptyResources") {
		out.Resources.Limits = corev1.ResourceList{}
	}
	if c.port != 0 {
		out.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: c.port, Protocol: corev1.ProtocolTCP}}
	}
	if c.probe {
		out.ReadinessProbe = &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: c.probePort}},
			PeriodSeconds: 10,
		}
	}
	for _, v := range c.mounts {
		out.VolumeMounts = append(out.VolumeMounts, corev1.VolumeMount{Name: v, MountPath: "/" + v})
	}
	return out
}

// cpu renders millicores m as "1", "1000m" or "1.0" (equal quantities).
func cpu(t *rapid.T, m int64) resource.Quantity {
	forms := []string{fmt.Sprintf("%dm", m)}
	if m%1000 == 0 {
		forms = append(forms, fmt.Sprint(m/1000), fmt.Sprintf("%d.0", m/1000))
	} else {
		forms = append(forms, fmt.Sprintf("%g", float64(m)/1000))
	}
	return resource.MustParse(rapid.SampledFrom(forms).Draw(t, "cpuForm"))
}

// memory renders mib MiB as "64Mi", "65536Ki" or bytes.
func memory(t *rapid.T, mib int64) resource.Quantity {
	forms := []string{fmt.Sprintf("%dMi", mib), fmt.Sprintf("%dKi", mib*1024), fmt.Sprint(mib << 20)}
	if mib%1024 == 0 {
		forms = append(forms, fmt.Sprintf("%dGi", mib/1024))
	}
	return resource.MustParse(rapid.SampledFrom(forms).Draw(t, "memoryForm"))
}

// renderMap renders an empty map as nil or {}, a non-empty one as a copy.
func renderMap(t *rapid.T, label string, m map[string]string) map[string]string {
	if len(m) == 0 {
		if rapid.Bool().Draw(t, label+"Nil") {
			return nil
		}
		return map[string]string{}
	}
	return cloneMap(m)
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// podTemplate draws one realistic template.
func podTemplate() *rapid.Generator[corev1.PodTemplateSpec] {
	return rapid.Custom(func(t *rapid.T) corev1.PodTemplateSpec { return render(t, genModel(t)) })
}

// templatePair draws two templates: two renderings of one model (equal
// for upstream), or of a model and a mutation of it.
func templatePair() *rapid.Generator[[2]corev1.PodTemplateSpec] {
	return rapid.Custom(func(t *rapid.T) [2]corev1.PodTemplateSpec {
		m := genModel(t)
		m2 := m
		if rapid.Bool().Draw(t, "mutate") {
			m2 = mutate(t, m)
		}
		return [2]corev1.PodTemplateSpec{render(t, m), render(t, m2)}
	})
}
