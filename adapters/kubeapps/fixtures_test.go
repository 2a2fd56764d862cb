package kubeapps_test

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// at is a fixed time for the fixtures.
var at = time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// nginxTemplate is the template of the nginx Deployment as the API
// server stores it (defaulted), running image.
func nginxTemplate(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:                     "nginx",
				Image:                    image,
				Ports:                    []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
				Resources:                corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}},
				TerminationMessagePath:   corev1.TerminationMessagePathDefault,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			}},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			SchedulerName:                 corev1.DefaultSchedulerName,
			SecurityContext:               &corev1.PodSecurityContext{},
		},
	}
}

// nginxDeployment is a realistic, defaulted apps/v1 Deployment of 10
// replicas at revision 1, with a complete status.
func nginxDeployment() *appsv1.Deployment {
	quarter := intstr.FromString("25%")
	return &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "nginx-deployment", Namespace: "default", UID: "2f4c7e1a-8a43-4d0e-9d3c-5b7f0e6a1c11",
			Generation: 1, ResourceVersion: "1234", CreationTimestamp: metav1.NewTime(at),
			Labels:      map[string]string{"app": "nginx"},
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "1", "team": "web"},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(10)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: nginxTemplate("nginx:1.9"),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}},
			RevisionHistoryLimit:    ptr(int32(10)),
			ProgressDeadlineSeconds: ptr(int32(600)),
		},
		Status: appsv1.DeploymentStatus{
			ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10,
			TerminatingReplicas: ptr(int32(0)),
			Conditions: []appsv1.DeploymentCondition{
				{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable",
					Message: "Deployment has minimum availability.", LastUpdateTime: metav1.NewTime(at.Add(30 * time.Second)),
					LastTransitionTime: metav1.NewTime(at.Add(30 * time.Second))},
				{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable",
					Message:        `ReplicaSet "nginx-deployment-57f8948cb9" has successfully progressed.`,
					LastUpdateTime: metav1.NewTime(at.Add(30 * time.Second)), LastTransitionTime: metav1.NewTime(at)},
			},
		},
	}
}

// nginxReplicaSet is the Deployment's ReplicaSet for its template, as
// the controller created it, named with hash.
func nginxReplicaSet(d *appsv1.Deployment, hash string) *appsv1.ReplicaSet {
	tmpl := d.Spec.Template.DeepCopy()
	tmpl.Labels["pod-template-hash"] = hash
	r := *d.Spec.Replicas
	return &appsv1.ReplicaSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name: d.Name + "-" + hash, Namespace: d.Namespace, UID: "9b1d2c3e-0000-4000-8000-000000000001",
			Generation: 1, CreationTimestamp: metav1.NewTime(at), Labels: tmpl.Labels,
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "1", "team": "web",
				"deployment.kubernetes.io/desired-replicas": "10", "deployment.kubernetes.io/max-replicas": "13"},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))},
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &r,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx", "pod-template-hash": hash}},
			Template: *tmpl,
		},
		Status: appsv1.ReplicaSetStatus{Replicas: r, FullyLabeledReplicas: r, ReadyReplicas: r, AvailableReplicas: r,
			ObservedGeneration: 1, TerminatingReplicas: ptr(int32(0))},
	}
}
