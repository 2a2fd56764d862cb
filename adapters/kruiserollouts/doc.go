// Package kruiserollouts reads kruise-rollout's rollouts.kruise.io/v1beta1
// Rollout and BatchRelease manifests, and the workloads they release
// (OpenKruise CloneSets and Advanced StatefulSets, apps/v1 Deployments
// and StatefulSets), into the rollout/batchrelease types.
//
// Most users start with:
//
//	objs, err := kruiserollouts.Read(f)                       // kubectl get rollout,batchrelease,cloneset -o yaml
//	ro, err := kruiserollouts.ConvertRollout(objs.Rollouts[0])  // batchrelease.Rollout
//	br, err := kruiserollouts.ConvertBatchRelease(objs.BatchReleases[0])
//	w, err := kruiserollouts.CloneSet(objs.CloneSets[0])       // or Deployment, StatefulSet, AdvancedStatefulSet
//	err = kruiserollouts.Pods(&w, objs.Pods, br.RolloutID)     // counts taken from the pods, if any
//	w.Controlled = kruiserollouts.ControlledBy(objs.CloneSets[0], objs.BatchReleases[0])
//
// For the Canary style, CanaryDeployment reads the extra canary
// Deployment into the stable Deployment's Workload.Canary.
//
// The Rollout and BatchRelease types are this package's own mirror of
// the CRDs' JSON (api/v1beta1 of github.com/openkruise/rollouts v0.6.3),
// for the fields a batch release reads plus metadata. Read also takes
// v1alpha1 Rollouts and BatchReleases and converts them to v1beta1 as
// kruise-rollout's conversion does (RolloutV1alpha1.ToV1beta1,
// BatchReleaseV1alpha1.ToV1beta1). The module does not
// require github.com/openkruise/rollouts, whose controller dependencies
// (controller-runtime, client-go, gateway-api) a consumer would otherwise
// inherit. The conformance module beside this one proves the mirror:
// upstream's own types, filled at random and marshalled with
// encoding/json, decode here and convert field by field to the same
// values.
//
// The workload types are k8s.io/api's and kruise-api's (the versions
// kruise-rollout v0.6.3 builds with, or newer ones a consumer requires).
// The conversions read what kruise-rollout's controllers read
// (ParseWorkload in pkg/util/parse_utils.go, the partition-style
// controllers' BuildController) and copy int-or-percent fields as
// written: whether they parse is for batchrelease.Validate and the step
// functions to answer, in upstream's words. Errors are *field.Error values
// prefixed "kruiserollouts".
package kruiserollouts
