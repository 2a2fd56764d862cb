// Package conformance holds no code: its tests check, on thousands of
// generated inputs per function, that package rollout/batchrelease gives
// the answers openkruise/rollouts v0.6.3 gives, by calling kruise-rollout's
// own functions (pkg/controller/batchrelease/control,
// .../batchrelease/context, the partition-style controllers,
// pkg/controller/deployment and its util package, the advanced Deployment
// reconciler, the Rollout webhook) side by side with the library, and that the adapter module's mirror types read upstream's
// Rollout and BatchRelease JSON field by field.
//
// This is a module of its own, and the only one that requires
// github.com/openkruise/rollouts (with the controller-runtime v0.14,
// client-go v0.26 and kruise-api v1.3.0 it builds with), so the library
// and the adapter module, which users depend on, never do.
package conformance
