package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// defaultNow is now for manifests without timestamps.
var defaultNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// input is what the manifests hold, converted.
type input struct {
	// rollout is the Rollout, nil without one; pauses its steps'.
	rollout *batchrelease.Rollout
	pauses  []batchrelease.Pause
	// release is the BatchRelease, or the one the Rollout creates
	// (fromRollout).
	release     batchrelease.Release
	fromRollout bool
	// workload is the workload as the release reads it, with the counts
	// of the pods; the manifest's object is cs or d (or neither, for a
	// StatefulSet).
	workload batchrelease.Workload
	cs       *kruise.CloneSet
	d        *appsv1.Deployment
	pods     int
	// podTemplateHash is the Rollout's status.canaryStatus.podTemplateHash.
	podTemplateHash string
	// now is when the first sync runs, nowFrom where it came from.
	now     time.Time
	nowFrom string
}

// deniedError is a Rollout kruise-rollout's webhook rejects.
type deniedError struct{ err error }

func (e *deniedError) Error() string {
	return `admission webhook "vrollout.kb.io" denied the request: ` + e.err.Error()
}

// load picks the Rollout, the BatchRelease and their workload out of
// objs and converts them.
func load(cfg *config, objs *kruiserollouts.Objects) (*input, error) {
	switch {
	case len(objs.Rollouts) > 1:
		return nil, fmt.Errorf("%d Rollouts in the manifests: give one (kubectl get rollout NAME)", len(objs.Rollouts))
	case len(objs.BatchReleases) > 1:
		return nil, fmt.Errorf("%d BatchReleases in the manifests: give one (kubectl get batchrelease NAME)", len(objs.BatchReleases))
	case len(objs.Rollouts) == 0 && len(objs.BatchReleases) == 0:
		return nil, errors.New("no Rollout or BatchRelease in the manifests: give kubectl get rollout,batchrelease,<workload> -o yaml")
	}
	in := &input{}
	var ref kruiserollouts.ObjectRef
	var who string
	var br *kruiserollouts.BatchRelease
	stamped := []any{}
	if len(objs.Rollouts) == 1 {
		r := objs.Rollouts[0]
		stamped = append(stamped, r)
		ro, err := kruiserollouts.ConvertRollout(r)
		if err != nil {
			return nil, err
		}
		if err := batchrelease.Validate(&ro); err != nil {
			return nil, &deniedError{err}
		}
		in.rollout = &ro
		s := ro.Canary
		if s == nil {
			s = ro.BlueGreen
		}
		for _, st := range s.Steps {
			in.pauses = append(in.pauses, st.Pause)
		}
		if cs := r.Status.CanaryStatus; cs != nil {
			in.podTemplateHash = cs.PodTemplateHash
		}
		ref, who = r.Spec.WorkloadRef, fmt.Sprintf("Rollout %q", r.Name)
	}
	if len(objs.BatchReleases) == 1 {
		br = objs.BatchReleases[0]
		stamped = append(stamped, br)
		rel, err := kruiserollouts.ConvertBatchRelease(br)
		if err != nil {
			return nil, err
		}
		if in.rollout != nil && (br.Spec.WorkloadRef.Kind != ref.Kind || br.Spec.WorkloadRef.Name != ref.Name) {
			return nil, fmt.Errorf("the Rollout %q releases %s %q but the BatchRelease %q releases %s %q: give the BatchRelease of the Rollout",
				in.rollout.Name, ref.Kind, ref.Name, br.Name, br.Spec.WorkloadRef.Kind, br.Spec.WorkloadRef.Name)
		}
		in.release = rel
		ref, who = br.Spec.WorkloadRef, fmt.Sprintf("BatchRelease %q", br.Name)
	} else {
		rel, err := batchrelease.ReleaseFor(in.rollout)
		if err != nil {
			return nil, err
		}
		rel.Generation = 1
		in.release, in.fromRollout = rel, true
	}
	kind, err := kruiserollouts.WorkloadKind(ref, "spec.workloadRef")
	if err != nil {
		return nil, err
	}
	var obj metav1.Object
	switch kind {
	case batchrelease.CloneSet:
		for _, cs := range objs.CloneSets {
			if cs.Name == ref.Name {
				in.cs, obj = cs, cs
				in.workload, err = kruiserollouts.CloneSet(cs)
			}
		}
	case batchrelease.Deployment:
		for _, d := range objs.Deployments {
			if d.Name == ref.Name {
				in.d, obj = d, d
				in.workload, err = kruiserollouts.Deployment(d)
			}
		}
	case batchrelease.StatefulSet:
		for _, s := range objs.StatefulSets {
			if s.Name == ref.Name {
				obj = s
				in.workload, err = kruiserollouts.StatefulSet(s)
			}
		}
	default:
		for _, s := range objs.AdvancedStatefulSets {
			if s.Name == ref.Name {
				obj = s
				in.workload, err = kruiserollouts.AdvancedStatefulSet(s)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, fmt.Errorf("the %s %s %q that the %s names is not in the manifests: add kubectl get %s %s -o yaml",
			ref.APIVersion, ref.Kind, ref.Name, who, strings.ToLower(ref.Kind), ref.Name)
	}
	stamped = append(stamped, obj)
	in.workload.Controlled = kruiserollouts.ControlledBy(obj, br)
	if err := kruiserollouts.Pods(&in.workload, objs.Pods, in.release.RolloutID); err != nil {
		return nil, err
	}
	in.pods = len(objs.Pods)
	for _, p := range objs.Pods {
		stamped = append(stamped, p)
	}
	switch {
	case cfg.now != nil:
		in.now, in.nowFrom = *cfg.now, "--now"
	default:
		t, ok, err := manifesttime.Latest(stamped...)
		if err != nil {
			return nil, err
		}
		if ok {
			in.now, in.nowFrom = t, "the latest timestamp in the manifests"
		} else {
			in.now, in.nowFrom = defaultNow, "no timestamp in the manifests"
		}
	}
	return in, nil
}
