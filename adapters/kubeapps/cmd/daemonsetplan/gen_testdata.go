//go:build ignore

// gen_testdata writes the manifests under testdata as `kubectl get
// ds/fluentd,pods,nodes,controllerrevisions -n kube-system -o yaml`
// prints them on 2026-11-26: the DaemonSet as the API server stores it
// (defaults filled in, server fields: uid, resourceVersion, generation,
// creationTimestamp, managedFields, the template-generation annotation),
// its pods as the controller creates them (node affinity, tolerations,
// labels) and as the kubelet reports them, the nodes with their labels,
// taints and conditions, and the ControllerRevisions with the
// controller's bytes and names (kubeapps.DaemonSetRevisionData,
// daemonset.Hash). Keys come out sorted, as kubectl prints them (JSON,
// then YAML).
//
//	go run gen_testdata.go
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

const dsUID = "3e8b1f40-6c2a-4d7e-a915-0b4c7d2e8f61"

func at(hms string) metav1.Time {
	t, err := time.Parse(time.RFC3339, "2026-11-26T"+hms+"Z")
	if err != nil {
		panic(err)
	}
	return metav1.NewTime(t)
}

func ptr[T any](v T) *T { return &v }

const (
	v16 = "fluent/fluentd:v1.16-1"
	v17 = "fluent/fluentd:v1.17-1"
)

// template is the pod template as the API server stores it.
func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "fluentd"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "fluentd", Image: image,
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("200Mi")},
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("200Mi")},
				},
				VolumeMounts:             []corev1.VolumeMount{{Name: "varlog", MountPath: "/var/log"}},
				ReadinessProbe:           &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/metrics", Port: intstr.FromInt32(24231), Scheme: corev1.URISchemeHTTP}}, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
				ImagePullPolicy:          corev1.PullIfNotPresent,
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			}},
			Volumes:                       []corev1.Volume{{Name: "varlog", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log", Type: ptr(corev1.HostPathType(""))}}}},
			Tolerations:                   []corev1.Toleration{{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			SecurityContext:               &corev1.PodSecurityContext{},
			SchedulerName:                 "default-scheduler",
		},
	}
}

func managed(manager, sub, t, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1",
		Time: ptr(at(t)), FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}, Subresource: sub}
}

func daemonSet(image string, generation int64, rv, edited, statusAt string, status appsv1.DaemonSetStatus, ru *appsv1.RollingUpdateDaemonSet) *appsv1.DaemonSet {
	mf := []metav1.ManagedFieldsEntry{managed("kubectl-client-side-apply", "", "08:02:11", `{"f:spec":{}}`)}
	if edited != "" {
		mf = append(mf, managed("kubectl", "", edited, `{"f:spec":{"f:template":{"f:spec":{"f:containers":{}}}}}`))
	}
	mf = append(mf, managed("kube-controller-manager", "status", statusAt, `{"f:status":{}}`))
	if ru == nil {
		ru = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: ptr(intstr.FromInt32(1)), MaxSurge: ptr(intstr.FromInt32(0))}
	}
	return &appsv1.DaemonSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "fluentd", Namespace: "kube-system", UID: dsUID, ResourceVersion: rv, Generation: generation,
			CreationTimestamp: at("08:02:11"),
			Labels:            map[string]string{"app": "fluentd"},
			Annotations:       map[string]string{"deprecated.daemonset.template.generation": fmt.Sprint(generation)},
			ManagedFields:     mf,
		},
		Spec: appsv1.DaemonSetSpec{
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "fluentd"}},
			Template:             template(image),
			UpdateStrategy:       appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: ru},
			RevisionHistoryLimit: ptr(int32(10)),
		},
		Status: status,
	}
}

// revision is the ControllerRevision the controller writes for ds at image.
func revision(ds *appsv1.DaemonSet, image string, number int64, created string) (*appsv1.ControllerRevision, string) {
	d := ds.DeepCopy()
	d.Spec.Template = template(image)
	data, err := kubeapps.DaemonSetRevisionData(d)
	if err != nil {
		panic(err)
	}
	hash := daemonset.Hash(&d.Spec.Template, nil)
	name := daemonset.RevisionName("fluentd", hash)
	r := kubeapps.DaemonSetRevisionObject(d, &daemonset.ControllerRevision{Name: name, Hash: hash, Number: number, Data: data})
	r.TypeMeta = metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"}
	r.UID = types.UID(fmt.Sprintf("9c2d%04d-5e6f-4a7b-8c9d-0e1f2a3b4c%02d", number, number))
	r.ResourceVersion = fmt.Sprint(884100 + number*7)
	r.CreationTimestamp = at(created)
	r.Annotations = map[string]string{"deprecated.daemonset.template.generation": fmt.Sprint(number)}
	r.ManagedFields = []metav1.ManagedFieldsEntry{managed("kube-controller-manager", "", created,
		`{"f:data":{},"f:metadata":{"f:annotations":{},"f:labels":{},"f:ownerReferences":{}},"f:revision":{}}`)}
	return r, hash
}

// node is one node of the cluster: nodes is its name, its IP, its
// creation, and whether it is the control plane (tainted NoSchedule).
type nodeSpec struct {
	name, ip, created string
	controlPlane      bool
}

func node(n nodeSpec) *corev1.Node {
	labels := map[string]string{"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
		"kubernetes.io/hostname": n.name, "kubernetes.io/os": "linux"}
	var taints []corev1.Taint
	if n.controlPlane {
		labels["node-role.kubernetes.io/control-plane"] = ""
		labels["node.kubernetes.io/exclude-from-external-load-balancers"] = ""
		taints = []corev1.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule}}
	}
	beat := "10:14:27"
	cond := func(t corev1.NodeConditionType, s corev1.ConditionStatus, reason, msg string) corev1.NodeCondition {
		return corev1.NodeCondition{Type: t, Status: s, LastHeartbeatTime: at(beat), LastTransitionTime: at(n.created), Reason: reason, Message: msg}
	}
	return &corev1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name: n.name, UID: types.UID("6f1a2b3c-" + fmt.Sprintf("%04x", len(n.name)*97+int(n.ip[len(n.ip)-1])) + "-4d5e-8f90-a1b2c3d4e5f6"),
			ResourceVersion: fmt.Sprint(883000 + int(n.ip[len(n.ip)-1])*11), CreationTimestamp: at(n.created), Labels: labels,
			Annotations: map[string]string{"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
		},
		Spec: corev1.NodeSpec{PodCIDR: "10.244." + n.ip[len(n.ip)-1:] + ".0/24", PodCIDRs: []string{"10.244." + n.ip[len(n.ip)-1:] + ".0/24"}, Taints: taints},
		Status: corev1.NodeStatus{
			Capacity:    corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("16369332Ki"), corev1.ResourcePods: resource.MustParse("110")},
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("16266932Ki"), corev1.ResourcePods: resource.MustParse("110")},
			Conditions: []corev1.NodeCondition{
				cond(corev1.NodeMemoryPressure, corev1.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
				cond(corev1.NodeDiskPressure, corev1.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
				cond(corev1.NodePIDPressure, corev1.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
				cond(corev1.NodeReady, corev1.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
			},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.ip}, {Type: corev1.NodeHostName, Address: n.name}},
			NodeInfo: corev1.NodeSystemInfo{Architecture: "amd64", ContainerRuntimeVersion: "containerd://2.1.4", KernelVersion: "6.8.0-88-generic",
				KubeletVersion: "v1.36.3", OperatingSystem: "linux", OSImage: "Ubuntu 24.04.3 LTS", BootID: "b00710" + n.ip[len(n.ip)-1:], MachineID: "4c1d0e7a9b" + n.ip[len(n.ip)-1:], SystemUUID: "ec2f1a" + n.ip[len(n.ip)-1:]},
		},
	}
}

// podSpec is what one pod holds.
type podSpec struct {
	name, node, nodeIP   string
	image, hash          string
	generation           int64
	created, started     string // creationTimestamp, status.startTime
	ready                string // Ready's lastTransitionTime; "" for not ready
	ip                   string // "" while the sandbox is being created
	ownerKind, ownerName string
	ownerUID             string
}

func pod(p podSpec) *corev1.Pod {
	if p.ownerKind == "" {
		p.ownerKind, p.ownerName, p.ownerUID = "DaemonSet", "fluentd", dsUID
	}
	tmpl := template(p.image)
	spec := tmpl.Spec
	spec.NodeName = p.node
	spec.ServiceAccountName, spec.DeprecatedServiceAccount = "default", "default"
	spec.EnableServiceLinks = ptr(true)
	spec.Priority = ptr(int32(0))
	spec.PreemptionPolicy = ptr(corev1.PreemptLowerPriority)
	// What the DaemonSet controller adds to every pod it creates: the
	// node affinity for its node and the default tolerations.
	spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{p.node}}}}}}}}
	spec.Tolerations = append(spec.Tolerations,
		corev1.Toleration{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		corev1.Toleration{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		corev1.Toleration{Key: "node.kubernetes.io/disk-pressure", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		corev1.Toleration{Key: "node.kubernetes.io/memory-pressure", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		corev1.Toleration{Key: "node.kubernetes.io/pid-pressure", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		corev1.Toleration{Key: "node.kubernetes.io/unschedulable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	)
	labels := map[string]string{"app": "fluentd", "controller-revision-hash": p.hash, "pod-template-generation": fmt.Sprint(p.generation)}
	if p.ownerKind != "DaemonSet" {
		spec.Affinity, spec.Tolerations = nil, nil
		labels = map[string]string{"k8s-app": "kube-dns", "pod-template-hash": p.hash}
	}
	ready := corev1.ConditionFalse
	readyAt := p.started
	if p.ready != "" {
		ready, readyAt = corev1.ConditionTrue, p.ready
	}
	cname := spec.Containers[0].Name
	cs := corev1.ContainerStatus{Name: cname, Image: p.image, Ready: p.ready != "", Started: ptr(p.ready != "")}
	phase := corev1.PodRunning
	var podIP []corev1.PodIP
	if p.ip == "" {
		phase = corev1.PodPending
		cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
		cs.Started = ptr(false)
	} else {
		cs.ImageID = "docker.io/" + strings.Split(p.image, ":")[0] + "@sha256:" + strings.Repeat(fmt.Sprintf("%x", len(p.image)*7+int(p.hash[0])), 64)[:64]
		cs.ContainerID = fmt.Sprintf("containerd://%064x", 0x5eed0000+len(p.name)*7919+int(p.name[len(p.name)-1])*31+len(p.created))
		cs.State.Running = &corev1.ContainerStateRunning{StartedAt: at(p.started)}
		podIP = []corev1.PodIP{{IP: p.ip}}
	}
	notReady := map[bool]string{true: "", false: "ContainersNotReady"}[p.ready != ""]
	msg := map[bool]string{true: "", false: "containers with unready status: [" + cname + "]"}[p.ready != ""]
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: p.name, Namespace: "kube-system", GenerateName: p.name[:strings.LastIndex(p.name, "-")+1],
			UID:               types.UID(fmt.Sprintf("7a4e%04d-1b2c-4d3e-9f80-%012d", len(p.name)*13+int(p.name[len(p.name)-1]), 412300+int(p.name[len(p.name)-2])*11)),
			ResourceVersion:   fmt.Sprint(884160 + int(p.name[len(p.name)-1])*13),
			CreationTimestamp: at(p.created),
			Labels:            labels,
			OwnerReferences:   []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: p.ownerKind, Name: p.ownerName, UID: types.UID(p.ownerUID), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: ptr(at(p.created)), FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{},"f:spec":{}}`)}},
				{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: ptr(at(readyAt)), FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{}}`)}, Subresource: "status"},
			},
		},
		Spec: spec,
		Status: corev1.PodStatus{
			Phase: phase,
			Conditions: []corev1.PodCondition{
				{Type: "PodReadyToStartContainers", Status: map[bool]corev1.ConditionStatus{true: corev1.ConditionTrue, false: corev1.ConditionFalse}[p.ip != ""], LastTransitionTime: at(p.started)},
				{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: at(p.created)},
				{Type: corev1.PodReady, Status: ready, LastTransitionTime: at(readyAt), Reason: notReady, Message: msg},
				{Type: corev1.ContainersReady, Status: ready, LastTransitionTime: at(readyAt), Reason: notReady, Message: msg},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: at(p.created)},
			},
			HostIP: p.nodeIP, HostIPs: []corev1.HostIP{{IP: p.nodeIP}},
			PodIP: p.ip, PodIPs: podIP,
			StartTime:         ptr(at(p.started)),
			ContainerStatuses: []corev1.ContainerStatus{cs},
			QOSClass:          corev1.PodQOSBurstable,
		},
	}
}

func write(name, header string, objs ...runtime.Object) {
	items := make([]runtime.RawExtension, len(objs))
	for i, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			panic(err)
		}
		items[i] = runtime.RawExtension{Raw: b}
	}
	l := corev1.List{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "List"}, Items: items}
	b, err := json.Marshal(l)
	if err != nil {
		panic(err)
	}
	y, err := yaml.JSONToYAML(b)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile("testdata/"+name, append([]byte(header), y...), 0o644); err != nil {
		panic(err)
	}
}

var nodes = []nodeSpec{
	{"cp-1", "10.0.0.10", "07:40:03", true},
	{"node-a", "10.0.1.11", "07:41:20", false},
	{"node-b", "10.0.1.12", "07:41:22", false},
	{"node-c", "10.0.1.13", "07:41:25", false},
	{"node-d", "10.0.1.14", "07:41:31", false},
	{"node-e", "10.0.1.15", "07:41:36", false},
}

func nodeIP(name string) string {
	for _, n := range nodes {
		if n.name == name {
			return n.ip
		}
	}
	panic(name)
}

func main() {
	rest := daemonSet(v16, 1, "871902", "", "08:02:40", appsv1.DaemonSetStatus{}, nil)
	rev1, h16 := revision(rest, v16, 1, "08:02:11")
	rev2, h17 := revision(rest, v17, 2, "10:14:02")
	var nodeObjs []runtime.Object
	for _, n := range nodes {
		nodeObjs = append(nodeObjs, node(n))
	}
	// The pods at rest on v1.16, one per node (the control plane's
	// taint is tolerated), created at 08:02:11 and ready by 08:02:40.
	type place struct{ name, node, created, ready, ip string }
	rested := []place{
		{"fluentd-6x2kd", "cp-1", "08:02:11", "08:02:24", "10.244.0.14"},
		{"fluentd-9wq7m", "node-a", "08:02:11", "08:02:29", "10.244.1.21"},
		{"fluentd-b4t8r", "node-b", "08:02:11", "08:02:27", "10.244.2.17"},
		{"fluentd-h5n2v", "node-c", "08:02:11", "08:02:31", "10.244.3.9"},
		{"fluentd-m8zc4", "node-d", "08:02:11", "08:02:26", "10.244.4.12"},
		{"fluentd-r2j6p", "node-e", "08:02:11", "08:02:40", "10.244.5.30"},
	}
	oldPod := func(p place) *corev1.Pod {
		return pod(podSpec{name: p.name, node: p.node, nodeIP: nodeIP(p.node), image: v16, hash: h16, generation: 1, created: p.created, started: p.created, ready: p.ready, ip: p.ip})
	}
	coredns := pod(podSpec{name: "coredns-7db6d8ff4d-4kq9x", node: "node-c", nodeIP: nodeIP("node-c"), image: "registry.k8s.io/coredns/coredns:v1.12.1", hash: "7db6d8ff4d",
		created: "07:45:02", started: "07:45:02", ready: "07:45:09", ip: "10.244.3.2", ownerKind: "ReplicaSet", ownerName: "coredns-7db6d8ff4d", ownerUID: "a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d"})
	coredns.Spec.Containers[0].Name = "coredns"
	coredns.Status.ContainerStatuses[0].Name = "coredns"

	// today.yaml: mid-rollout. fluentd v1.16 -> v1.17 applied at
	// 10:14:02 with maxUnavailable 1; cp-1's pod was replaced and is
	// ready; node-a's old pod was deleted at 10:14:12, its replacement
	// created at 10:14:22 is Running but not yet Ready; the other nodes
	// still run v1.16. coredns (a ReplicaSet's pod) is in the list too.
	today := daemonSet(v17, 2, "884233", "10:14:02", "10:14:31", appsv1.DaemonSetStatus{
		CurrentNumberScheduled: 6, DesiredNumberScheduled: 6, NumberReady: 5, NumberAvailable: 5, NumberUnavailable: 1,
		UpdatedNumberScheduled: 2, ObservedGeneration: 2}, nil)
	todayPods := []runtime.Object{
		pod(podSpec{name: "fluentd-k7p4s", node: "cp-1", nodeIP: nodeIP("cp-1"), image: v17, hash: h17, generation: 2, created: "10:14:03", started: "10:14:03", ready: "10:14:11", ip: "10.244.0.15"}),
		pod(podSpec{name: "fluentd-t9v2w", node: "node-a", nodeIP: nodeIP("node-a"), image: v17, hash: h17, generation: 2, created: "10:14:22", started: "10:14:22", ip: "10.244.1.22"}),
	}
	for _, p := range rested[2:] {
		todayPods = append(todayPods, oldPod(p))
	}
	todayPods = append(todayPods, coredns)
	rev2.ResourceVersion = "884102"
	objs := append([]runtime.Object{today}, todayPods...)
	objs = append(objs, nodeObjs...)
	objs = append(objs, rev1, rev2)
	write("today.yaml", "# kubectl get ds/fluentd,pods,nodes,controllerrevisions -n kube-system -o yaml\n# on 2026-11-26 at 10:14:31Z, mid-rollout: fluentd v1.16 -> v1.17 applied at\n# 10:14:02 with maxUnavailable 1; cp-1 updated, node-a's new pod not yet\n# ready; coredns belongs to a ReplicaSet. Written by gen_testdata.go.\n", objs...)

	// settled.yaml: the DaemonSet at rest on v1.16 with its nodes and
	// its revision, without pods.
	rest.Status = appsv1.DaemonSetStatus{CurrentNumberScheduled: 6, DesiredNumberScheduled: 6, NumberReady: 6, NumberAvailable: 6, UpdatedNumberScheduled: 6, ObservedGeneration: 1}
	write("settled.yaml", "# kubectl get ds/fluentd,nodes,controllerrevisions -n kube-system -o yaml on\n# 2026-11-26: the DaemonSet at rest on v1.16 since 08:02:40Z, without its\n# pods. Written by gen_testdata.go.\n", append(append([]runtime.Object{rest}, nodeObjs...), rev1)...)

	// unknown-node.yaml: today's manifests without node-e, whose pod
	// is still in the list (kubectl get nodes -l some-label).
	write("unknown-node.yaml", "# today.yaml without node-e, which runs pod fluentd-r2j6p. Written by\n# gen_testdata.go.\n", append(append([]runtime.Object{today}, todayPods...), append(nodeObjs[:5:5], rev1, rev2)...)...)

	// misscheduled.yaml: kubectl edit at 09:30:00 removed the
	// toleration of the control plane's taint (a new template, not yet
	// synced): cp-1 should no longer run the pod, but its pod may stay
	// (NoSchedule), and the other nodes' pods are rolled.
	nt := daemonSet(v16, 2, "902214", "09:30:00", "08:02:40", appsv1.DaemonSetStatus{CurrentNumberScheduled: 6, DesiredNumberScheduled: 6, NumberReady: 6,
		NumberAvailable: 6, UpdatedNumberScheduled: 6, ObservedGeneration: 1}, &appsv1.RollingUpdateDaemonSet{MaxUnavailable: ptr(intstr.FromString("40%")), MaxSurge: ptr(intstr.FromInt32(0))})
	nt.Spec.Template.Spec.Tolerations = nil
	var ntPods []runtime.Object
	for _, p := range rested {
		ntPods = append(ntPods, oldPod(p))
	}
	write("misscheduled.yaml", "# kubectl get ds/fluentd,pods,nodes,controllerrevisions -n kube-system -o yaml\n# on 2026-11-26 just after kubectl edit (09:30:00Z) removed the DaemonSet's\n# toleration of the control plane's NoSchedule taint (maxUnavailable 40%);\n# the controller has not synced yet. Written by gen_testdata.go.\n",
		append(append(append([]runtime.Object{nt}, ntPods...), nodeObjs...), rev1)...)
}
