package conformance

import (
	"flag"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/rolloutmath/rolloutmath/examples/kubernetes/adapt"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// realisticTemplate is a production-like pod template: three containers
// with env, resources, probes and volume mounts.
func realisticTemplate() corev1.PodTemplateSpec {
	grace := int64(30)
	container := func(name, image string, port int32) corev1.Container {
		return corev1.Container{
			Name:  name,
			Image: image,
			Args:  []string{"--port=" + fmt.Sprint(port), "--log-level=info"},
			Env: []corev1.EnvVar{
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
				{Name: "MODE", Value: "production"},
				{Name: "CACHE_SIZE", Value: "256"},
			},
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: port, Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			},
			LivenessProbe: &corev1.Probe{
				ProbeHandler:        corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(port), Scheme: corev1.URISchemeHTTP}},
				InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
			ReadinessProbe: &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
				PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
			VolumeMounts: []corev1.VolumeMount{
				{Name: "config", MountPath: "/etc/app", ReadOnly: true},
				{Name: "cache", MountPath: "/var/cache/app"},
			},
			TerminationMessagePath:   corev1.TerminationMessagePathDefault,
			TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy:          corev1.PullIfNotPresent,
		}
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{
			Labels:      map[string]string{"app": "shop", "tier": "frontend", "version": "v2"},
			Annotations: map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{
				container("web", "registry.example.com/shop/web:2.4.1", 8080),
				container("sidecar", "registry.example.com/shop/proxy:1.9.0", 9901),
				container("metrics", "registry.example.com/shop/exporter:0.7.3", 9090),
			},
			Volumes: []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "shop-config"}}}},
				{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace,
			DNSPolicy:                     corev1.DNSClusterFirst,
			SchedulerName:                 corev1.DefaultSchedulerName,
			SecurityContext:               &corev1.PodSecurityContext{},
			NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
		},
	}
}

// benchDeployment is a 10-replica RollingUpdate Deployment (25%/25%) on
// the realistic template, mid-rollout: a new ReplicaSet of 5 and nine old
// ones, the last of which still has 8 pods.
func benchDeployment() (*appsv1.Deployment, []*appsv1.ReplicaSet) {
	r := int32(10)
	quarter := intstr.FromString("25%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", UID: "d-uid", Generation: 3},
		Spec: appsv1.DeploymentSpec{
			Replicas: &r,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "shop"}},
			Template: realisticTemplate(),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
		},
		Status: appsv1.DeploymentStatus{Replicas: 13},
	}
	var rss []*appsv1.ReplicaSet
	for i := 0; i < 10; i++ {
		tmpl := realisticTemplate()
		spec := int32(0)
		switch i {
		case 8:
			spec = 8
		case 9:
			spec = 5 // the new one: same template
		}
		if i < 9 {
			tmpl.Spec.Containers[0].Image = fmt.Sprintf("registry.example.com/shop/web:2.3.%d", i)
		}
		hash := controller.ComputeHash(&tmpl, nil)
		tmpl.Labels[revision.HashLabel] = hash
		rss = append(rss, &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{
				Name:              "shop-" + hash,
				UID:               types.UID(fmt.Sprint("uid-", i)),
				CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC)),
				Annotations: map[string]string{
					revision.RevisionAnnotation:        fmt.Sprint(i + 1),
					revision.DesiredReplicasAnnotation: "10",
					revision.MaxReplicasAnnotation:     "13",
				},
			},
			Spec:   appsv1.ReplicaSetSpec{Replicas: &spec, Template: tmpl},
			Status: appsv1.ReplicaSetStatus{Replicas: spec, ReadyReplicas: spec, AvailableReplicas: spec},
		})
	}
	return d, rss
}

// A benchmark pair runs the same input through upstream and rolloutmath.
type benchPair struct {
	name                  string
	upstream, rolloutmath func(b *testing.B)
}

// sink keeps results alive so the compiler cannot drop the calls.
var sink any

func benchPairs() []benchPair {
	d, rss := benchDeployment()
	ours, err := adapt.Deployment(d)
	if err != nil {
		panic(err)
	}
	ourRSs := adapt.ReplicaSets(rss)
	a, b2 := realisticTemplate(), realisticTemplate()
	b2.Labels[revision.HashLabel] = "6b966d6b4"
	newRS := 9
	pd := proportion.Deployment{Replicas: 20, MaxSurge: 5, StatusReplicas: 13, RollingUpdate: true}
	d20 := d.DeepCopy()
	twenty := int32(20)
	d20.Spec.Replicas = &twenty
	prs := proportion.ReplicaSet{Name: rss[8].Name, CreationTime: rss[8].CreationTimestamp.Time, Replicas: 8,
		AvailableReplicas: 8, DesiredReplicas: "10", MaxReplicas: "13"}
	logger := klog.Background()
	return []benchPair{
		{"EqualIgnoreHash",
			func(b *testing.B) {
				for b.Loop() {
					sink = deploymentutil.EqualIgnoreHash(&a, &b2)
				}
			},
			func(b *testing.B) {
				for b.Loop() {
					sink = revision.EqualIgnoreHash(&a, &b2)
				}
			}},
		{"Hash",
			func(b *testing.B) {
				for b.Loop() {
					sink = controller.ComputeHash(&a, nil)
				}
			},
			func(b *testing.B) {
				for b.Loop() {
					sink = revision.Hash(&a, nil)
				}
			}},
		{"NewRSNewReplicas",
			func(b *testing.B) {
				for b.Loop() {
					n, _ := deploymentutil.NewRSNewReplicas(d, rss, rss[newRS])
					sink = n
				}
			},
			func(b *testing.B) {
				for b.Loop() {
					n, _ := rollout.NewReplicas(&ours, ourRSs, newRS)
					sink = n
				}
			}},
		{"GetReplicaSetProportion",
			func(b *testing.B) {
				for b.Loop() {
					sink = deploymentutil.GetReplicaSetProportion(logger, rss[8], *d20, 12, 3)
				}
			},
			func(b *testing.B) {
				for b.Loop() {
					sink = proportion.Of(prs, pd, 12, 3)
				}
			}},
		{"FindNewReplicaSet/10",
			func(b *testing.B) {
				// FindNewReplicaSet sorts its argument in place: after the
				// first call the slice is already in order.
				for b.Loop() {
					sink = deploymentutil.FindNewReplicaSet(d, rss)
				}
			},
			func(b *testing.B) {
				for b.Loop() {
					i, _ := revision.FindNew(&ours.Template, ourRSs)
					sink = i
				}
			}},
	}
}

func Benchmark(b *testing.B) {
	for _, p := range benchPairs() {
		b.Run(p.name+"/upstream", func(b *testing.B) { b.ReportAllocs(); p.upstream(b) })
		b.Run(p.name+"/rolloutmath", func(b *testing.B) { b.ReportAllocs(); p.rolloutmath(b) })
	}
}

// TestBenchmarkInputsAgree checks that each benchmark pair computes the
// same answer, so the timings compare like with like.
func TestBenchmarkInputsAgree(t *testing.T) {
	d, rss := benchDeployment()
	ours, err := adapt.Deployment(d)
	if err != nil {
		t.Fatal(err)
	}
	ourRSs := adapt.ReplicaSets(rss)
	a := realisticTemplate()
	if got, up := revision.Hash(&a, nil), controller.ComputeHash(&a, nil); got != up {
		t.Errorf("Hash = %q, upstream %q", got, up)
	}
	b2 := realisticTemplate()
	b2.Labels[revision.HashLabel] = "x"
	if !revision.EqualIgnoreHash(&a, &b2) || !deploymentutil.EqualIgnoreHash(&a, &b2) {
		t.Errorf("the benchmark templates are not equal for both")
	}
	got, _ := rollout.NewReplicas(&ours, ourRSs, 9)
	up, _ := deploymentutil.NewRSNewReplicas(d, rss, rss[9])
	if got != up {
		t.Errorf("NewReplicas = %d, upstream %d", got, up)
	}
	i, ok := revision.FindNew(&ours.Template, ourRSs)
	if n := deploymentutil.FindNewReplicaSet(d, append([]*appsv1.ReplicaSet(nil), rss...)); !ok || n == nil || n.Name != rss[i].Name {
		t.Errorf("FindNew and FindNewReplicaSet disagree")
	}
}

var speedups = flag.Bool("speedups", false, "print the upstream/rolloutmath benchmark table (markdown) and exit the test")

// TestSpeedups prints, with -speedups, each benchmark pair's time and
// allocations and the ratio, as the README's table.
func TestSpeedups(t *testing.T) {
	if !*speedups {
		t.Skip("run with -speedups to print the benchmark table")
	}
	fmt.Println("| function | upstream ns/op | allocs/op | rolloutmath ns/op | allocs/op | speedup |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, p := range benchPairs() {
		up := testing.Benchmark(p.upstream)
		ours := testing.Benchmark(p.rolloutmath)
		ratio := float64(up.NsPerOp()) / float64(max(ours.NsPerOp(), 1))
		if ours.NsPerOp() < 10 {
			ratio = float64(up.T) / float64(up.N) / (float64(ours.T) / float64(ours.N))
		}
		fmt.Printf("| %s | %.0f | %d | %.1f | %d | %.1fx |\n", p.name,
			float64(up.T.Nanoseconds())/float64(up.N), up.AllocsPerOp(),
			float64(ours.T.Nanoseconds())/float64(ours.N), ours.AllocsPerOp(), ratio)
	}
}
