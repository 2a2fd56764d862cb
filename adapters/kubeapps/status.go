package kubeapps

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Status converts a Deployment's status: counters, collision count and
// conditions (in order). The pointers are copied, not shared.
func Status(s *appsv1.DeploymentStatus) rollout.Status {
	out := rollout.Status{
		ObservedGeneration:  s.ObservedGeneration,
		Replicas:            s.Replicas,
		UpdatedReplicas:     s.UpdatedReplicas,
		ReadyReplicas:       s.ReadyReplicas,
		AvailableReplicas:   s.AvailableReplicas,
		UnavailableReplicas: s.UnavailableReplicas,
		TerminatingReplicas: clonePtr(s.TerminatingReplicas),
		CollisionCount:      clonePtr(s.CollisionCount),
	}
	if len(s.Conditions) > 0 {
		out.Conditions = make([]rollout.Condition, len(s.Conditions))
		for i, c := range s.Conditions {
			out.Conditions[i] = rollout.Condition{
				Type:               rollout.ConditionType(c.Type),
				Status:             rollout.ConditionStatus(c.Status),
				Reason:             c.Reason,
				Message:            c.Message,
				LastUpdateTime:     c.LastUpdateTime.Time,
				LastTransitionTime: c.LastTransitionTime.Time,
			}
		}
	}
	return out
}

// StatusObject converts a status back to apps/v1.
func StatusObject(s *rollout.Status) appsv1.DeploymentStatus {
	out := appsv1.DeploymentStatus{
		ObservedGeneration:  s.ObservedGeneration,
		Replicas:            s.Replicas,
		UpdatedReplicas:     s.UpdatedReplicas,
		ReadyReplicas:       s.ReadyReplicas,
		AvailableReplicas:   s.AvailableReplicas,
		UnavailableReplicas: s.UnavailableReplicas,
		TerminatingReplicas: clonePtr(s.TerminatingReplicas),
		CollisionCount:      clonePtr(s.CollisionCount),
	}
	if len(s.Conditions) > 0 {
		out.Conditions = make([]appsv1.DeploymentCondition, len(s.Conditions))
		for i, c := range s.Conditions {
			out.Conditions[i] = appsv1.DeploymentCondition{
				Type:               appsv1.DeploymentConditionType(c.Type),
				Status:             corev1.ConditionStatus(c.Status),
				Reason:             c.Reason,
				Message:            c.Message,
				LastUpdateTime:     metav1.Time{Time: c.LastUpdateTime},
				LastTransitionTime: metav1.Time{Time: c.LastTransitionTime},
			}
		}
	}
	return out
}
