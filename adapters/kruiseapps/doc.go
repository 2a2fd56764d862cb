// Package kruiseapps converts between OpenKruise's apps.kruise.io/v1alpha1
// CloneSet, the core/v1 Pods it owns and its apps/v1 ControllerRevisions,
// and the rollout/cloneset types, in both directions.
//
// Most users start with:
//
//	cs, err := kruiseapps.CloneSet(obj)          // the CloneSet
//	owned := kruiseapps.Owned(obj, pods)         // the pods it controls
//	converted, err := kruiseapps.Pods(owned)
//	plan, err := cloneset.Plan(&cs, converted, kruiseapps.Revisions(revisions), now)
//	changes, err := kruiseapps.Changes(obj, owned, revisions, &plan, now) // the writes, in order
//
// CloneSet reads a CloneSet as kruise's controller does (spec.replicas nil
// is 1, the webhook's default); Pod reads the labels, annotations and
// conditions kruise's controller reads (revision, lifecycle state,
// specified-delete, deletion cost, in-place update state and grace,
// InPlaceUpdateReady); RevisionData and NewRevisionObject build the
// ControllerRevision kruise records for a template, so that the
// revision name and the in-place decision are kruise's to the byte.
// Changes turns what cloneset.Plan decided into the objects a controller
// sends: revisions to create, renumber or delete, pods to create
// (labelled and owned as kruise creates them), to delete and to update
// (lifecycle, recreation mark, in-place update), and the CloneSet's spec
// and status.
//
// The API types come from github.com/openkruise/kruise-api v1.8.0, the
// newest release of the API module that downloads. It predates three
// things kruise v1.9.1's controller has: spec.progressDeadlineSeconds (so
// a converted CloneSet never has a progress deadline, and a manifest
// holding the field fails strict decoding), the OnDelete update strategy
// type constant (the string "OnDelete" still decodes and converts), and
// a condition's lastUpdateTime (converted conditions take
// lastTransitionTime for it). The module requires no kruise or
// Kubernetes controller code.
//
// The conversions copy what the math reads; maps and the pod template are
// shared with the inputs, which is safe because rollout/cloneset never
// modifies its inputs. The objects Changes returns are deep copies.
package kruiseapps
