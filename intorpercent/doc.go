// Package intorpercent implements values that are either an absolute count
// or a percentage of a total, as Kubernetes' IntOrString is used for a
// Deployment's maxSurge and maxUnavailable.
//
// A [Value] is a small comparable struct: [Int] and [Percent] build one,
// [Parse] reads "3" or "25%", and its JSON form is a bare number or a "N%"
// string, as the API server writes IntOrString, so a strategy decoded from
// a manifest lands straight in a Value. Malformed text (a fraction, a sign,
// spaces, a quoted plain number, a number beyond int32) is rejected when it
// is parsed, not later when it is scaled.
//
// [Value.Scaled] resolves a value against a replica count with an explicit
// [Rounding], using exact integer arithmetic: it matches upstream's
// float64 formula on every input whose result fits in an int32, and
// reports overflow instead of wrapping.
//
// [ValidateRollingUpdate] and its helpers apply the API server's rules for
// a rolling-update strategy and return [field.ErrorList] values worded as
// the API server words them.
//
// # Two types: a value as written, and a value as read
//
// An [IntOrString] is a field as a manifest holds it: [FromInt] and
// [FromString] build one, and its JSON is the manifest's, a number or a
// string kept exactly as written (3 is 3, "40%" is "40%", "40" stays the
// string "40"), as apimachinery's intstr.IntOrString reads and writes
// it. A [Value] is what the strict reader made of such a field: a count
// or a whole percentage, and nothing else.
//
// They are two types because the same text has three readings that
// disagree, and both the text and a reading are needed. Kruise reads
// "25" as 25% in its controller and rejects it in its webhook, and reads
// "33.3%" as 0 in one and as 33.3% in the other, so a CloneSet must keep
// the text (rollout/cloneset holds IntOrStrings). A Value holds no text:
// it is 8 bytes, comparable with ==, valid by construction, so that
// [Value.Scaled] has no parse failures and does not allocate, and a
// Deployment whose maxSurge is malformed fails when it is decoded
// (rollout holds Values). [IntOrString.Value] reads text strictly, as the
// API server's validation does, and [Value.IntOrString] writes a Value
// back as the API server writes it. [ValidateRollingUpdateIntOrString]
// applies the API server's rules to values as written, so that a policy
// checker can reject "2.5%" in the API server's words before anything is
// read.
//
// OpenKruise reads the same fields in two other ways, each a named
// function over an [IntOrString] as written rather than a variant of
// Parse: [ScaledLegacy] is apimachinery's deprecated reader, which
// kruise's CloneSet controller uses for maxSurge and maxUnavailable (any
// string is a percentage, every '%' in it is dropped, "25" is 25%), and
// [ScaledFractional] is kruise's own reader for partition and for its
// webhook (a string must end in '%' and may be a fraction, "99.99%").
// Both reproduce upstream's float64 rounding; both return upstream's
// error texts (as [*field.Error]s holding only upstream's words) so that
// [ValidateKruisePartition] and [ValidateKruiseRollingUpdate] can word
// errors as kruise's webhook does.
//
// Every bad-input error is a [*field.Error] (or a [field.ErrorList] of
// them) wrapping [field.ErrInvalid] and its kind, so callers use
// errors.Is and errors.As. The package imports only the standard library
// and package field, keeps no state and is safe for concurrent use.
package intorpercent
