//go:build ignore

// gen_testdata writes the manifests under testdata as `kubectl get
// sts,pods,controllerrevisions -n prod -l app=web -o yaml` prints them
// on 2026-11-26: the StatefulSet as the API server stores it (defaults
// filled in, server fields: uid, resourceVersion, generation,
// creationTimestamp, managedFields), its pods as the kubelet reports
// them, and its ControllerRevisions with the controller's bytes and
// names (kubeapps.StatefulSetRevisionData, statefulset.HashRevision).
// Keys come out sorted, as kubectl prints them (JSON, then YAML).
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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

const setUID = "5b0e3c1a-7d2f-4a8e-9c61-2f4d8b7e0a13"

func at(hms string) metav1.Time {
	t, err := time.Parse(time.RFC3339, "2026-11-26T"+hms+"Z")
	if err != nil {
		panic(err)
	}
	return metav1.NewTime(t)
}

func ptr[T any](v T) *T { return &v }

// template is the pod template as the API server stores it.
func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "web", Image: image,
				Ports:                    []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				ReadinessProbe:           &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}}, PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
				ImagePullPolicy:          corev1.PullIfNotPresent,
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			}},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			SecurityContext:               &corev1.PodSecurityContext{},
			SchedulerName:                 "default-scheduler",
		},
	}
}

func managed(manager, sub, t string) metav1.ManagedFieldsEntry {
	e := metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1",
		Time: ptr(at(t)), FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}, Subresource: sub}
	if sub == "status" {
		e.FieldsV1.Raw = []byte(`{"f:status":{}}`)
	}
	return e
}

func statefulSet(replicas int32, image string, generation int64, rv string, status appsv1.StatefulSetStatus, edited string) *appsv1.StatefulSet {
	s := &appsv1.StatefulSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "web", Namespace: "prod", UID: setUID, ResourceVersion: rv, Generation: generation,
			CreationTimestamp: at("08:02:11"),
			Labels:            map[string]string{"app": "web"},
			ManagedFields: []metav1.ManagedFieldsEntry{
				managed("kubectl-client-side-apply", "", "08:02:11"),
				managed("kubectl", "", edited),
				managed("kube-controller-manager", "status", status2time(status)),
			},
		},
		Spec: appsv1.StatefulSetSpec{
			Replicas:             ptr(replicas),
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:             template(image),
			ServiceName:          "web",
			PodManagementPolicy:  appsv1.OrderedReadyPodManagement,
			UpdateStrategy:       appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr(int32(0))}},
			RevisionHistoryLimit: ptr(int32(10)),
			PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.RetainPersistentVolumeClaimRetentionPolicyType},
		},
		Status: status,
	}
	return s
}

var statusTime = "08:02:37"

func status2time(appsv1.StatefulSetStatus) string { return statusTime }

func revision(s *appsv1.StatefulSet, image string, number int64, created string) *appsv1.ControllerRevision {
	set := s.DeepCopy()
	set.Spec.Template = template(image)
	data, err := kubeapps.StatefulSetRevisionData(set)
	if err != nil {
		panic(err)
	}
	hash := statefulset.HashRevision(data, 0)
	name := statefulset.RevisionName("web", hash)
	r := kubeapps.StatefulSetRevisionObject(set, &statefulset.ControllerRevision{Name: name, Hash: hash, Number: number, Data: data})
	r.TypeMeta = metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"}
	r.UID = types.UID(fmt.Sprintf("0d7a%04d-3b1c-4e5f-8a90-6c2e1f4b7d%02d", number, number))
	r.ResourceVersion = fmt.Sprint(884100 + number*7)
	r.CreationTimestamp = at(created)
	r.Annotations = nil
	r.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
		APIVersion: "apps/v1", Time: ptr(at(created)), FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{},"f:metadata":{"f:labels":{".":{},"f:app":{},"f:controller.kubernetes.io/hash":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"` + setUID + `\"}":{}}},"f:revision":{}}`)}}}
	return r
}

func revName(s *appsv1.StatefulSet, image string) string {
	set := s.DeepCopy()
	set.Spec.Template = template(image)
	data, _ := kubeapps.StatefulSetRevisionData(set)
	return statefulset.RevisionName("web", statefulset.HashRevision(data, 0))
}

// podSpec is what a pod of ordinal k on node holds.
type podSpec struct {
	ordinal           int
	image, rev        string
	created, started  string // creationTimestamp, status.startTime
	ready             string // Ready's lastTransitionTime; "" for not ready
	node              string
	ip                string
	ownerName, ownerU string
}

func pod(p podSpec) *corev1.Pod {
	name := fmt.Sprintf("web-%d", p.ordinal)
	if p.ownerName == "" {
		p.ownerName, p.ownerU = "web", setUID
	}
	tmpl := template(p.image)
	spec := tmpl.Spec
	spec.Hostname, spec.Subdomain, spec.NodeName = name, "web", p.node
	spec.ServiceAccountName, spec.DeprecatedServiceAccount = "default", "default"
	spec.EnableServiceLinks = ptr(true)
	spec.Priority = ptr(int32(0))
	spec.PreemptionPolicy = ptr(corev1.PreemptLowerPriority)
	spec.Tolerations = []corev1.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
		{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
	}
	token := "kube-api-access-" + []string{"h7x2k", "q9m4t", "b2w8n", "z5r6c", "m3p9v"}[p.ordinal]
	spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: token, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}}
	spec.Volumes = []corev1.Volume{{Name: token, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: ptr(int32(420)),
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: ptr(int64(3607)), Path: "token"}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		}}}}}
	ready := corev1.ConditionFalse
	readyAt := p.started
	if p.ready != "" {
		ready, readyAt = corev1.ConditionTrue, p.ready
	}
	cs := corev1.ContainerStatus{Name: "web", Image: p.image, ImageID: "", Ready: p.ready != "", RestartCount: 0, Started: ptr(p.ready != "")}
	phase := corev1.PodRunning
	var podIP []corev1.PodIP
	if p.ip == "" {
		phase = corev1.PodPending
		cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
		cs.Started = ptr(false)
	} else {
		cs.ImageID = "registry.example.com/web@sha256:" + strings.Repeat(fmt.Sprintf("%x", len(p.image)+p.ordinal), 64)[:64]
		cs.ContainerID = fmt.Sprintf("containerd://%064x", 0x5eed0000+p.ordinal*7919+len(p.created))
		cs.State.Running = &corev1.ContainerStateRunning{StartedAt: at(p.started)}
		podIP = []corev1.PodIP{{IP: p.ip}}
	}
	cs.VolumeMounts = []corev1.VolumeMountStatus{{Name: token, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true, RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyDisabled)}}
	hostIP := map[string]string{"node-a": "10.0.1.11", "node-b": "10.0.1.12", "node-c": "10.0.1.13"}[p.node]
	containersReady := ready
	scheduledAt := p.created
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "prod", GenerateName: "web-",
			UID:               types.UID(fmt.Sprintf("7c4e%04d-1a2b-4c3d-9e8f-%012d", p.ordinal, 412300+p.ordinal*11+len(p.created))),
			ResourceVersion:   fmt.Sprint(884160 + p.ordinal*13 + len(p.rev)),
			CreationTimestamp: at(p.created),
			Labels: map[string]string{"app": "web", "apps.kubernetes.io/pod-index": fmt.Sprint(p.ordinal),
				"controller-revision-hash": p.rev, "statefulset.kubernetes.io/pod-name": name},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: p.ownerName, UID: types.UID(p.ownerU), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}},
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
				{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: at(scheduledAt)},
				{Type: corev1.PodReady, Status: ready, LastTransitionTime: at(readyAt), Reason: map[bool]string{true: "", false: "ContainersNotReady"}[p.ready != ""], Message: map[bool]string{true: "", false: "containers with unready status: [web]"}[p.ready != ""]},
				{Type: corev1.ContainersReady, Status: containersReady, LastTransitionTime: at(readyAt), Reason: map[bool]string{true: "", false: "ContainersNotReady"}[p.ready != ""], Message: map[bool]string{true: "", false: "containers with unready status: [web]"}[p.ready != ""]},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: at(scheduledAt)},
			},
			HostIP: hostIP, HostIPs: []corev1.HostIP{{IP: hostIP}},
			PodIP: p.ip, PodIPs: podIP,
			StartTime:         ptr(at(p.started)),
			ContainerStatuses: []corev1.ContainerStatus{cs},
			QOSClass:          corev1.PodQOSBestEffort,
		},
	}
}

func list(header string, objs ...runtime.Object) {
	items := make([]runtime.RawExtension, len(objs))
	for i, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			panic(err)
		}
		items[i] = runtime.RawExtension{Raw: b}
	}
	l := corev1.List{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "List"}, ListMeta: metav1.ListMeta{ResourceVersion: ""}, Items: items}
	b, err := json.Marshal(l)
	if err != nil {
		panic(err)
	}
	y, err := yaml.JSONToYAML(b)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile("testdata/"+header[:strings.Index(header, "\n")], append([]byte(header[strings.Index(header, "\n")+1:]), y...), 0o644); err != nil {
		panic(err)
	}
}

func main() {
	const v14, v15 = "registry.example.com/web:1.4", "registry.example.com/web:1.5"
	base := statefulSet(5, v15, 2, "884233", appsv1.StatefulSetStatus{}, "10:14:02")
	old, upd := revName(base, v14), revName(base, v15)

	// today.yaml: mid-rollout. web:1.4 -> web:1.5 applied at 10:14:02;
	// web-4 was replaced and is ready, web-3 was deleted at 10:14:27 and
	// its replacement is still creating; web-0..2 are at 1.4.
	statusTime = "10:14:31"
	sts := statefulSet(5, v15, 2, "884233", appsv1.StatefulSetStatus{
		ObservedGeneration: 2, Replicas: 5, ReadyReplicas: 4, CurrentReplicas: 3, UpdatedReplicas: 2, AvailableReplicas: 4,
		CurrentRevision: old, UpdateRevision: upd, CollisionCount: ptr(int32(0))}, "10:14:02")
	pods := []runtime.Object{
		pod(podSpec{ordinal: 0, image: v14, rev: old, created: "08:02:11", started: "08:02:11", ready: "08:02:19", node: "node-a", ip: "10.244.1.17"}),
		pod(podSpec{ordinal: 1, image: v14, rev: old, created: "08:02:20", started: "08:02:20", ready: "08:02:27", node: "node-b", ip: "10.244.2.9"}),
		pod(podSpec{ordinal: 2, image: v14, rev: old, created: "08:02:28", started: "08:02:28", ready: "08:02:36", node: "node-c", ip: "10.244.3.22"}),
		pod(podSpec{ordinal: 3, image: v15, rev: upd, created: "10:14:31", started: "10:14:31", node: "node-a"}),
		pod(podSpec{ordinal: 4, image: v15, rev: upd, created: "10:14:04", started: "10:14:04", ready: "10:14:26", node: "node-b", ip: "10.244.2.31"}),
	}
	revs := []runtime.Object{revision(sts, v14, 1, "08:02:11"), revision(sts, v15, 2, "10:14:02")}
	list("today.yaml\n# kubectl get sts,pods,controllerrevisions -n prod -l app=web -o yaml, on\n# 2026-11-26 at 10:14:31Z, mid-rollout: web:1.4 -> web:1.5 applied at\n# 10:14:02, web-4 replaced and ready, web-3's replacement still creating.\n# Written by gen_testdata.go.\n",
		append(append([]runtime.Object{sts}, pods...), revs...)...)

	// settled.yaml: the same set at rest on web:1.4 before the update,
	// the set alone (kubectl get sts web -o yaml prints the object, not a
	// List).
	statusTime = "08:02:37"
	rest := statefulSet(5, v14, 1, "871902", appsv1.StatefulSetStatus{
		ObservedGeneration: 1, Replicas: 5, ReadyReplicas: 5, CurrentReplicas: 5, UpdatedReplicas: 5, AvailableReplicas: 5,
		CurrentRevision: old, UpdateRevision: old, CollisionCount: ptr(int32(0))}, "08:02:11")
	rest.ManagedFields = rest.ManagedFields[:1:1]
	rest.ManagedFields = append(rest.ManagedFields, managed("kube-controller-manager", "status", "08:02:37"))
	b, _ := json.Marshal(rest)
	y, _ := yaml.JSONToYAML(b)
	os.WriteFile("testdata/settled.yaml", append([]byte("# kubectl get sts web -n prod -o yaml on 2026-11-26, the set at rest on\n# web:1.4 since 08:02:37Z. Written by gen_testdata.go.\n"), y...), 0o644)

	// scaledown.yaml: kubectl scale --replicas 3 at 11:30:00 on the set
	// at rest: web-3 and web-4 are beyond the replicas and are deleted
	// from the highest ordinal down; a pod of another StatefulSet
	// (cache-0) is in the list too and is ignored.
	statusTime = "08:02:37"
	down := statefulSet(3, v14, 2, "902214", appsv1.StatefulSetStatus{
		ObservedGeneration: 1, Replicas: 5, ReadyReplicas: 5, CurrentReplicas: 5, UpdatedReplicas: 5, AvailableReplicas: 5,
		CurrentRevision: old, UpdateRevision: old, CollisionCount: ptr(int32(0))}, "11:30:00")
	var downPods []runtime.Object
	for k, node := range []string{"node-a", "node-b", "node-c", "node-a", "node-b"} {
		c := fmt.Sprintf("08:02:%02d", 11+k*8)
		r := fmt.Sprintf("08:02:%02d", 18+k*8)
		downPods = append(downPods, pod(podSpec{ordinal: k, image: v14, rev: old, created: c, started: c, ready: r, node: node, ip: fmt.Sprintf("10.244.%d.%d", 1+k%3, 40+k)}))
	}
	other := pod(podSpec{ordinal: 0, image: "registry.example.com/cache:7.2", rev: "cache-5f7d9c6b48", created: "09:00:00", started: "09:00:00", ready: "09:00:06", node: "node-c", ip: "10.244.3.50",
		ownerName: "cache", ownerU: "9a1f3e2d-4c5b-4d6e-8f70-1a2b3c4d5e6f"})
	other.Name, other.GenerateName, other.Labels = "cache-0", "cache-", map[string]string{"app": "cache", "apps.kubernetes.io/pod-index": "0", "controller-revision-hash": "cache-5f7d9c6b48", "statefulset.kubernetes.io/pod-name": "cache-0"}
	downPods = append(downPods, other)
	list("scaledown.yaml\n# kubectl get sts,pods,controllerrevisions -n prod -o yaml on 2026-11-26 just\n# after kubectl scale sts web --replicas 3 (11:30:00Z): the controller has\n# not synced yet; cache-0 belongs to another StatefulSet. Written by\n# gen_testdata.go.\n",
		append(append([]runtime.Object{down}, downPods...), revision(down, v14, 1, "08:02:11"))...)
}
