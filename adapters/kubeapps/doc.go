// Package kubeapps converts between the apps/v1 objects a controller holds
// and the rolloutmath types, in both directions.
//
// Deployment and ReplicaSet turn an apps/v1 Deployment and its ReplicaSets
// into rollout.Deployment and rollout.ReplicaSet values with
// corev1.PodTemplateSpec templates, applying the apps/v1 defaults the
// library does not read from a nil field (spec.replicas 1). Changes turns
// what rollout.Plan decided into the writes a controller sends to the API
// server: the new ReplicaSet object (name, labels, selector with the
// pod-template-hash, annotations, controller owner reference), ReplicaSet
// updates and deletions, a rollback of the Deployment's template, and the
// Deployment's status.
//
// StatefulSets: StatefulSet, StatefulSetPod(s), StatefulSetRevisions and
// StatefulSetStatus turn an apps/v1 StatefulSet, its pods and its
// ControllerRevisions into the rollout/statefulset types (absent fields
// read as the apps/v1 defaults: replicas 1, partition 0);
// StatefulSetRevisionData gives the bytes, and so the revision name, the
// controller records for the template; StatefulSetRevisionObject and
// StatefulSetStatusObject build the ControllerRevision a sync creates and
// the status it writes.
//
// Ownership: Selector, OwnerReferences, Object(s) and Controller convert
// what the ownership package reads (label selectors, owner references, a
// Deployment's identity), and AdoptPatch, ReleasePatch and ClaimPatches
// are the patches upstream's controller-ref manager sends for what
// ownership.ClaimAll decided. Deployment fills rollout.Deployment.Selector
// from spec.selector, so an empty selector takes rollout.PathSelectingAll.
//
// DaemonSets: DaemonSet, DaemonSetPod(s), DaemonSetRevisions and
// DaemonSetStatus turn an apps/v1 DaemonSet (its template generation read
// from the deprecated.daemonset.template.generation annotation), its pods
// (each placed on its node, or while unscheduled on the node its node
// affinity names) and its ControllerRevisions into the rollout/daemonset
// types; DaemonSetNode(s) answer the scheduling predicates for a node with
// a simple predicate (the template's nodeName and nodeSelector, and
// NoSchedule and NoExecute taints against its tolerations and the ones
// every daemon pod gets), refusing a template with a required node
// affinity; DaemonSetRevisionData, DaemonSetRevisionObject and
// DaemonSetStatusObject give the revision bytes, the ControllerRevision a
// sync creates and the status it writes.
//
// The conversions copy the counters and scalars the library reads; maps
// (annotations, labels) and pod templates are shared with the input
// objects, which is safe because the library never modifies its inputs.
// Do not modify the inputs while a result is in use. The objects returned
// by Changes are deep copies. Validate checks a Deployment as the API
// server does, in its words.
//
// Importing the package registers, with revision.RegisterEqualIgnoreHash, a
// comparator of corev1.PodTemplateSpec templates generated from the
// corev1 types (equal_generated.go, written by internal/equalgen). It
// gives revision.EqualIgnoreHash's answers without reflection, several
// times faster, so that revision.FindNew and rollout.Plan find the new
// ReplicaSet of a corev1 Deployment quicker. Its tests compare it with the
// reflective comparison and with upstream's.
package kubeapps
