package cloneset

import (
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// validateUpdateType applies the webhook's rule for
// spec.updateStrategy.type (SPEC-cloneset §1.2 V1) at the path field:
// only ReCreate, InPlaceIfPossible and InPlaceOnly are accepted, so
// OnDelete, which the controller implements, is rejected, and so is ""
// (the webhook's defaulting sets ReCreate before it validates). The
// message quotes the three names unevenly, as kruise's does.
func validateUpdateType(t, field string) intorpercent.ErrorList {
	switch t {
	case "ReCreate", "InPlaceIfPossible", "InPlaceOnly":
		return nil
	}
	return intorpercent.ErrorList{{Type: intorpercent.Invalid, Field: field, Value: strconv.Quote(t),
		Detail: "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"}}
}

// validateProgressDeadline applies the webhook's rules for
// spec.progressDeadlineSeconds (SPEC-cloneset §1.2 V10) at the path
// field: nil is valid; otherwise it must not be negative, and unless it
// is math.MaxInt32 (no deadline) it must be greater than
// minReadySeconds. A negative deadline usually breaks both rules.
func validateProgressDeadline(deadline *int32, minReadySeconds int32, field string) intorpercent.ErrorList {
	if deadline == nil {
		return nil
	}
	var errs intorpercent.ErrorList
	value := strconv.FormatInt(int64(*deadline), 10)
	if *deadline < 0 {
		errs = append(errs, &intorpercent.FieldError{Type: intorpercent.Invalid, Field: field, Value: value,
			Detail: "must be greater than or equal to 0"})
	}
	if *deadline != math.MaxInt32 && *deadline <= minReadySeconds {
		errs = append(errs, &intorpercent.FieldError{Type: intorpercent.Invalid, Field: field, Value: value,
			Detail: "must be greater than minReadySeconds"})
	}
	return errs
}
