// Package conformance holds no code: its tests check, on thousands of
// generated inputs each, that the adapter module's mirror of the Rollout
// CRD decodes what argo-rollouts v1.10.1's own v1alpha1.Rollout type
// holds, and that package rollout/argo gives the answers Argo's exported
// functions give (utils/replicaset, utils/defaults, utils/weightutil,
// pkg/apis/rollouts/validation), by calling them side by side.
//
// This is a module of its own, and the only one that requires
// github.com/argoproj/argo-rollouts (with Argo's replace block pinning
// the Kubernetes staging modules at v0.34.5 for k8s.io/kubernetes
// v1.34.5), so the library and the adapter module, which users depend on,
// never do.
package conformance
