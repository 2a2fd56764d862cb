// Package conformance holds no code: its tests check, on thousands of
// generated inputs per function, that the rolloutmath packages give the
// answers kube-controller-manager v1.36.3 gives, by calling the upstream
// functions (k8s.io/kubernetes/pkg/controller/deployment/util and
// pkg/controller) side by side with the library, and its benchmarks
// time the two on the same inputs.
//
// k8s.io/kubernetes is imported only here, in test files, so the adapters
// and the program of this module, and the library itself, never link it.
package conformance
