package cloneset

import "github.com/rolloutmath/rolloutmath/intorpercent"

// str and num build int-or-percent values as a manifest would hold them.
func str(s string) *intorpercent.IntOrString {
	return &intorpercent.IntOrString{IsString: true, Str: s}
}

func num(n int32) *intorpercent.IntOrString {
	return &intorpercent.IntOrString{Int: n}
}
