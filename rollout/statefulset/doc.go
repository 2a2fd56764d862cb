// Package statefulset computes what kube-controller-manager v1.36's
// StatefulSet controller does in one sync, and over a whole rollout.
package statefulset
