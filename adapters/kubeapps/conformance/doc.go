// Package conformance holds no code: its tests check, on thousands of
// generated inputs per function, that the rolloutmath packages give the
// answers kube-controller-manager v1.36.3 gives, by calling the upstream
// functions (k8s.io/kubernetes/pkg/controller/deployment/util,
// pkg/controller, pkg/controller/statefulset, pkg/controller/daemon and
// pkg/controller/history) side by side with the library; they drive the
// real DeploymentController, StatefulSetController and
// DaemonSetsController sync by sync through random whole rollouts and
// compare every sync with the library's Plan (for a DaemonSet, the writes
// whose nodes upstream picks in its randomised map order are compared as
// counts among the nodes it could pick, not by name); and its benchmarks
// (Benchmark and BenchmarkInterleaved for the Deployment controller,
// BenchmarkStatefulSetSync, BenchmarkDaemonSetSync) time each controller
// and the library on the same inputs.
//
// This is a module of its own, and the only one that requires
// k8s.io/kubernetes (with the replace lines its staging modules need), so
// the adapter module and the library, which users depend on, never do.
package conformance
