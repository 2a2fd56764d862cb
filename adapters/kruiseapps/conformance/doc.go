// Package conformance holds no code: its tests check, on thousands of
// generated inputs per function, that package rollout/cloneset gives the
// answers OpenKruise v1.9.1's CloneSet controller gives, by calling
// kruise's own functions (pkg/controller/cloneset/sync, .../utils,
// pkg/util/revision, pkg/util/inplaceupdate, pkg/webhook/cloneset) side by
// side with the library, and its benchmarks time the two on the same
// states.
//
// This is a module of its own, and the only one that requires
// github.com/openkruise/kruise (with kruise's replace block pinning
// k8s.io/kubernetes v1.32.10 and its staging modules), so the library and
// the adapter module, which users depend on, never do.
package conformance
