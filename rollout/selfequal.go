package rollout

import (
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/revision"
)

// templateEqualsItself returns a Forbidden *field.Error when d's template does not
// equal a copy of itself (revision.EqualsItself: a NaN, a non-nil func, a
// value whose Equal method rejects its copy). The controller reads its
// ReplicaSets back decoded, as copies, so such a template would never find
// its new ReplicaSet: every sync would create one. d must not be nil.
func templateEqualsItself[T any](d *Deployment[T]) error {
	ok, path := revision.EqualsItself(&d.Template)
	if ok {
		return nil
	}
	return invalidObject("Deployment", d.Name, field.ErrorList{{
		Type:   field.TypeForbidden,
		Field:  "spec.template",
		Detail: "must equal a copy of itself, but " + path + " does not, so no ReplicaSet would ever match it",
	}})
}
