// Package argorollouts reads Argo Rollouts' argoproj.io/v1alpha1 Rollout
// manifests and the apps/v1 ReplicaSets they own, and converts them into
// the rollout/argo types.
//
// Most users start with:
//
//	objs, err := argorollouts.Read(os.Stdin)       // kubectl get rollout,rs -o yaml
//	ro, err := argorollouts.Rollout(&objs.Rollouts[0])
//	rss, err := argorollouts.ReplicaSets(argorollouts.Owned(&objs.Rollouts[0], objs.ReplicaSets))
//
// The Rollout is decoded into this package's own types ([RolloutObject]
// and the types it holds), which mirror the CRD's JSON as argo-rollouts
// v1.10.1 defines it (pkg/apis/rollouts/v1alpha1/types.go): same field
// names, JSON names and Go types for every field rollout/argo reads, the
// standard metadata (metav1.ObjectMeta), corev1.PodTemplateSpec for the
// template, and the subtrees the replica math does not read kept as
// written (json.RawMessage). The mirror exists because the argo-rollouts
// Go module requires k8s.io/kubernetes, which a consumer's module cannot
// require without replace lines; this module requires only k8s.io/api and
// k8s.io/apimachinery. The conformance module beside it
// (adapters/argorollouts/conformance) checks the mirror against Argo's
// own types on random Rollouts: what Argo's type holds after decoding a
// manifest is what [Rollout] returns.
//
// [Rollout], [Status] and [ReplicaSet] copy values as written: nil stays
// nil, and Argo's defaults (replicas 1, maxSurge "25", ...) are applied
// by rollout/argo where Argo applies them. Maps, slices and the pod
// template are shared with the inputs, which is safe because rollout/argo
// never modifies its inputs. Errors are *field.Error values wrapping
// field.ErrInvalid.
package argorollouts
