package ownership

import (
	"errors"
	"fmt"
)

// Decision is what a controller does with one object it lists.
type Decision uint8

// The decisions of ClaimObject. The zero value is Ignore.
const (
	// Ignore: the object is not the controller's and stays as it is.
	Ignore Decision = iota
	// Keep: the object is the controller's already.
	Keep
	// Adopt: an orphan the controller takes by adding its controller
	// reference (adapters/kubeapps.AdoptPatch writes it).
	Adopt
	// Release: the controller's object that it lets go by removing its
	// reference (adapters/kubeapps.ReleasePatch writes it).
	Release
)

// String returns "Ignore", "Keep", "Adopt" or "Release".
func (d Decision) String() string {
	switch d {
	case Ignore:
		return "Ignore"
	case Keep:
		return "Keep"
	case Adopt:
		return "Adopt"
	case Release:
		return "Release"
	}
	return fmt.Sprintf("Decision(%d)", uint8(d))
}

// MarshalText returns String, so a Decision reads well in JSON.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Claim is the decision for one object and why, in words a person can
// read.
type Claim struct {
	Decision Decision `json:"decision"`
	Reason   string   `json:"reason"`
}

// Recheck is the controller as a fresh (uncached) read from the API server
// returns it. Upstream makes that read once, before the first adoption of a
// sync (canAdopt, controller.RecheckDeletionTimestamp), and refuses every
// adoption of the sync if the controller is gone, was replaced by another
// of the same name (a different UID), or is being deleted. A nil *Recheck
// means the read returned the controller unchanged.
type Recheck struct {
	// Gone says the read failed (usually: not found).
	Gone bool `json:"gone,omitempty"`
	// UID is the UID the read returned.
	UID string `json:"uid"`
	// Deleting says the fresh copy has a deletionTimestamp.
	Deleting bool `json:"deleting,omitempty"`
}

// ErrAdoptionRefused is wrapped by every *AdoptError.
var ErrAdoptionRefused = errors.New("adoption refused")

// AdoptError reports an adoption that the recheck refused. Its text is
// "can't adopt <namespace>/<name> (<uid>): <why>", like upstream's
// "can't adopt ReplicaSet ..." message, with our own words after the colon
// (upstream's contain a timestamp and the API error).
type AdoptError struct {
	Namespace, Name, UID string
	// Why says what the recheck found.
	Why string
}

// Error returns "can't adopt <namespace>/<name> (<uid>): <why>".
func (e *AdoptError) Error() string {
	return fmt.Sprintf("can't adopt %s/%s (%s): %s", e.Namespace, e.Name, e.UID, e.Why)
}

// Unwrap returns ErrAdoptionRefused.
func (e *AdoptError) Unwrap() error { return ErrAdoptionRefused }

// refusal returns why r refuses adoptions by c, or "".
func (r *Recheck) refusal(c *Controller) string {
	switch {
	case r == nil:
		return ""
	case r.Gone:
		return fmt.Sprintf("can't recheck DeletionTimestamp: %s/%s not found", c.Namespace, c.Name)
	case r.UID != c.UID:
		return fmt.Sprintf("can't recheck DeletionTimestamp: original Deployment %s/%s is gone: got uid %s, wanted %s", c.Namespace, c.Name, r.UID, c.UID)
	case r.Deleting:
		return fmt.Sprintf("%s/%s has just been deleted", c.Namespace, c.Name)
	}
	return ""
}

// ClaimObject decides whether controller c keeps, adopts, releases or
// ignores object o, checking in upstream's order:
//
//  1. o has a controller reference to another UID: Ignore.
//  2. o's controller reference is c's UID: Keep if c's selector matches
//     o's labels; otherwise Ignore if c is being deleted, else Release.
//  3. o is an orphan: Ignore if c is being deleted, if the selector does
//     not match, if o is being deleted, or if c.Namespace is not "" and
//     differs from o's; otherwise Adopt, unless recheck refuses it (then
//     Ignore and an *AdoptError).
//
// Only the controller reference's UID is compared: kind and name are not.
// A nil c.Selector matches nothing (so c releases everything it owns), an
// empty one everything. The decision assumes the write it implies
// succeeds; upstream treats a NotFound answer to the patch as Ignore and
// any other failure as an error.
//
// Errors: nil c or o; an invalid c.Selector (Selector.Validate's
// [field.ErrorList], wrapping ErrInvalidSelector; the Claim is zero). Upstream:
// BaseControllerRefManager.ClaimObject with the ReplicaSet manager's
// match, AdoptReplicaSet (canAdopt) and ReleaseReplicaSet.
func ClaimObject(c *Controller, o *Object, recheck *Recheck) (Claim, error) {
	if c == nil || o == nil {
		return Claim{}, errors.New("ownership: ClaimObject needs a controller and an object")
	}
	if err := c.Selector.Validate(); err != nil {
		return Claim{}, err
	}
	return claim(c, o, recheck)
}

// claim is ClaimObject on a validated selector.
func claim(c *Controller, o *Object, recheck *Recheck) (Claim, error) {
	if ref, ok := o.ControllerRef(); ok {
		if ref.UID != c.UID {
			return Claim{Ignore, fmt.Sprintf("controlled by %s %s (uid %s), not this controller", ref.Kind, ref.Name, ref.UID)}, nil
		}
		if c.Selector.matches(o.Labels) {
			return Claim{Keep, "controlled by this controller and its labels match the selector"}, nil
		}
		if c.Deleting {
			return Claim{Ignore, "controlled by this controller, labels no longer match the selector, but the controller is being deleted: not released"}, nil
		}
		return Claim{Release, "controlled by this controller, but its labels no longer match the selector: released"}, nil
	}
	switch {
	case c.Deleting:
		return Claim{Ignore, "orphan, but the controller is being deleted: not adopted"}, nil
	case !c.Selector.matches(o.Labels):
		return Claim{Ignore, "orphan whose labels do not match the selector"}, nil
	case o.Deleting:
		return Claim{Ignore, "orphan being deleted: not adopted"}, nil
	case c.Namespace != "" && c.Namespace != o.Namespace:
		return Claim{Ignore, fmt.Sprintf("orphan in namespace %q, the controller is in %q", o.Namespace, c.Namespace)}, nil
	}
	if why := recheck.refusal(c); why != "" {
		return Claim{Ignore, "orphan whose labels match, but adoption refused: " + why},
			&AdoptError{Namespace: o.Namespace, Name: o.Name, UID: o.UID, Why: why}
	}
	return Claim{Adopt, "orphan whose labels match the selector: adopted"}, nil
}

// Claims is what a controller decides for a list of objects.
type Claims struct {
	// Claims holds one Claim per input object, in input order.
	Claims []Claim `json:"claims"`
	// Owned are the indexes of the objects the controller manages after
	// the writes (Keep and Adopt), in input order: the ReplicaSets to pass
	// to rollout.Plan.
	Owned []int `json:"owned"`
	// Adopt and Release are the indexes of the objects to patch, in
	// input order.
	Adopt   []int `json:"adopt"`
	Release []int `json:"release"`
}

// ClaimAll runs ClaimObject for c on every object of objs (the
// ReplicaSets of c's namespace, from the cache). The recheck is shared by
// the whole list, as upstream makes it once per sync: if it refuses, every
// would-be adoption is ignored and reported. Each object's claim depends on
// that object and c alone, so the result does not depend on the order of
// objs beyond following it.
//
// Errors: nil c; an invalid selector, as upstream's
// getReplicaSetsForDeployment words it ("deployment <ns>/<name> has invalid
// label selector: ..."), wrapping ErrInvalidSelector, with zero Claims; a
// refused adoption: the Claims are complete (the objects are ignored) and
// the error joins one *AdoptError per object (errors.Join). Upstream:
// ReplicaSetControllerRefManager.ClaimReplicaSets.
func ClaimAll(c *Controller, objs []Object, recheck *Recheck) (Claims, error) {
	if c == nil {
		return Claims{}, errors.New("ownership: ClaimAll needs a controller")
	}
	if err := c.Selector.Validate(); err != nil {
		return Claims{}, fmt.Errorf("deployment %s/%s has invalid label selector: %w", c.Namespace, c.Name, err)
	}
	out := Claims{Claims: make([]Claim, len(objs))}
	var errs []error
	for i := range objs {
		cl, err := claim(c, &objs[i], recheck)
		if err != nil {
			errs = append(errs, err)
		}
		out.Claims[i] = cl
		switch cl.Decision {
		case Keep:
			out.Owned = append(out.Owned, i)
		case Adopt:
			out.Owned = append(out.Owned, i)
			out.Adopt = append(out.Adopt, i)
		case Release:
			out.Release = append(out.Release, i)
		}
	}
	return out, errors.Join(errs...)
}
