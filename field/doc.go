// Package field is the one shape in which every package of rolloutmath
// reports bad input: a field that breaks a rule, a text that does not
// parse, an argument out of range. A caller branches on it with errors.Is
// and errors.As:
//
//	if errors.Is(err, field.ErrInvalid) { ... } // any bad input
//	if errors.Is(err, field.ErrNegative) { ... } // a negative count
//	var fe *field.Error
//	if errors.As(err, &fe) { fmt.Println(fe.Field, fe.Detail) }
//
// Every bad-input error of the module is an [*Error], or an [ErrorList] of
// them, and wraps [ErrInvalid] and the sentinel for its kind ([ErrSyntax],
// [ErrRange], [ErrNegative], [ErrDuplicate], [ErrIndex], [ErrRequired],
// [ErrUnsupported]; packages may add their own kind, such as
// ownership.ErrInvalidSelector). The package is modelled on apimachinery's
// validation/field, so where a rule is the API server's the text is the
// API server's:
//
//	spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%
//
// and several errors read as its aggregate does, "[a, b]". An error found
// in an object given to Plan or Simulate carries the package and the
// object as its [Error.Prefix], printed once before the list:
//
//	rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// A text that does not parse has no field; it reads as strconv's errors:
//
//	intorpercent: parsing "2.5%": fractional percentages are not allowed
//
// Errors that are not about input (a status the controller refuses to act
// on, a counter at the top of its range) are the packages' own types.
//
// The package imports only the standard library and sits below every
// other package of the module.
package field
