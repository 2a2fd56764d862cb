// Package revision is the identity side of a Deployment rollout: which
// ReplicaSet is "new", what revision number it gets, which annotations it
// carries, where a rollback goes, which old revisions a history limit
// deletes, and what pod-template-hash a template gets.
//
// Most callers need [FindNew] (which ReplicaSet matches the Deployment's
// template), [Hash] and [ReplicaSetName] (the pod-template-hash and the
// name of the ReplicaSet to create), [RollbackTarget] (where a rollback
// goes) and [ToCleanUp] (which old revisions a history limit deletes).
// Package rollout's Plan calls all of them; use them directly when you
// need one answer without a whole sync.
//
// Every answer is the one kube-controller-manager v1.36 gives (the
// deployment controller and pkg/controller/deployment/util), unless a
// function documents a named option that deliberately does better.
//
// # Templates
//
// The package does not import Kubernetes. Functions that look at pod
// templates are generic over the caller's own template type T and take
// pointers, so a controller passes its corev1.PodTemplateSpec as it is,
// and a caller without Kubernetes types uses [Template]. [EqualIgnoreHash]
// compares two templates semantically by reflection, ignoring the
// [HashLabel] label; [Hash] renders a template the way upstream's hashing
// does and returns the same pod-template-hash. [EqualsItself] tells
// whether a template equals a copy of itself (a NaN or a non-nil func
// makes it not, and then no ReplicaSet ever matches it).
// [RegisterEqualIgnoreHash] replaces the reflection, for one template
// type, with a comparator written or generated for it: the kubeapps package
// of the adapters/kubeapps module registers a generated one for
// corev1.PodTemplateSpec.
//
// # ReplicaSets
//
// [ReplicaSet] is one ReplicaSet as this module reads it. Functions that
// take a slice of them never reorder, modify or retain it; where upstream
// sorts in place, this package sorts its own copy of the indices.
//
// Everything is pure and safe for concurrent use. The shared state is a
// per-type cache of reflection facts (where the labels are, which types
// have an Equal method, how values of the type render for hashing), pools
// of scratch space that let map comparisons and hashing run without
// allocating, and the typed comparators registered with
// [RegisterEqualIgnoreHash]; only a registered comparator can change a
// result, and it must not.
package revision
