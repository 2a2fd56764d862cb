package field

import (
	"errors"
	"testing"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "invalid", err: &Error{Field: "spec.replicas", Type: TypeInvalid, Value: "-1", Detail: "must be greater than or equal to 0"},
			want: "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{name: "required leaves out value", err: &Error{Field: "deployment", Type: TypeRequired, Value: "x"}, want: "deployment: Required value"},
		{name: "forbidden with detail", err: &Error{Field: "spec.strategy.rollingUpdate", Type: TypeForbidden, Detail: "may not be specified"},
			want: "spec.strategy.rollingUpdate: Forbidden: may not be specified"},
		{name: "not supported", err: &Error{Field: "spec.strategy", Type: TypeNotSupported, Value: `{"Type":"X"}`, Detail: `supported values: "Recreate"`},
			want: `spec.strategy: Unsupported value: {"Type":"X"}: supported values: "Recreate"`},
		{name: "invalid without value", err: &Error{Field: "spec.selector", Type: TypeInvalid, Detail: "bad"}, want: "spec.selector: Invalid value: bad"},
		{name: "ours with value", err: &Error{Prefix: "cloneset", Field: "spec.minReadySeconds", Value: "-1", Detail: "must not be negative"},
			want: "cloneset: spec.minReadySeconds: -1: must not be negative"},
		{name: "ours without value", err: &Error{Prefix: "proportion", Field: "rss[2].Replicas", Detail: "-1 must not be negative"},
			want: "proportion: rss[2].Replicas: -1 must not be negative"},
		{name: "parse", err: &Error{Prefix: "revision", Value: `"abc"`, Detail: "invalid syntax"}, want: `revision: parsing "abc": invalid syntax`},
		{name: "detail only", err: &Error{Detail: `"Gt" is not a valid label selector operator`}, want: `"Gt" is not a valid label selector operator`},
		{name: "prefixed api error", err: &Error{Prefix: `rollout: invalid Deployment "web"`, Field: "spec.replicas", Type: TypeInvalid, Value: "-1", Detail: "d"},
			want: `rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: d`},
		{name: "list of one", err: ErrorList{{Field: "a", Type: TypeRequired}}, want: "a: Required value"},
		{name: "list of two", err: ErrorList{{Field: "a", Type: TypeRequired}, {Field: "b", Type: TypeForbidden}}, want: "[a: Required value, b: Forbidden]"},
		{name: "list sharing a prefix", err: ErrorList{{Prefix: "p", Field: "a", Type: TypeRequired}, {Prefix: "p", Field: "b", Type: TypeForbidden}},
			want: "p: [a: Required value, b: Forbidden]"},
		{name: "list with different prefixes", err: ErrorList{{Prefix: "p", Field: "a", Type: TypeRequired}, {Prefix: "q", Field: "b", Type: TypeForbidden}},
			want: "[p: a: Required value, q: b: Forbidden]"},
		{name: "list with one prefix missing", err: ErrorList{{Prefix: "p", Field: "a", Type: TypeRequired}, {Field: "b", Type: TypeForbidden}},
			want: "[p: a: Required value, b: Forbidden]"},
		{name: "empty list", err: ErrorList{}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestErrorUnwrap(t *testing.T) {
	e := &Error{Field: "x", Err: ErrNegative}
	if !errors.Is(e, ErrInvalid) || !errors.Is(e, ErrNegative) || errors.Is(e, ErrSyntax) {
		t.Errorf("Error with Err ErrNegative: Is(ErrInvalid, ErrNegative, ErrSyntax) wrong")
	}
	if !errors.Is(&Error{Field: "x"}, ErrInvalid) {
		t.Errorf("Error without Err does not wrap ErrInvalid")
	}
	inner := &Error{Field: "inner", Err: ErrRange}
	outer := &Error{Field: "outer", Err: inner}
	var fe *Error
	if !errors.As(outer, &fe) || fe != outer || !errors.Is(outer, ErrRange) {
		t.Errorf("nested Error: As or Is(ErrRange) fails")
	}
	list := ErrorList{{Field: "a"}, {Field: "b", Err: ErrDuplicate}}
	if !errors.Is(list, ErrDuplicate) || !errors.As(list, &fe) || fe.Field != "a" {
		t.Errorf("ErrorList: Is(ErrDuplicate) or As fails")
	}
}

func TestToError(t *testing.T) {
	var l ErrorList
	if err := l.ToError(); err != nil {
		t.Errorf("nil list ToError() = %v, want nil", err)
	}
	if err := (ErrorList{}).ToError(); err != nil {
		t.Errorf("empty list ToError() = %v, want nil", err)
	}
}

func TestWithPrefixCopies(t *testing.T) {
	l := ErrorList{{Field: "a", Type: TypeRequired, Err: ErrRequired}}
	p := l.WithPrefix("pre")
	if l[0].Prefix != "" || p[0].Prefix != "pre" || p[0] == l[0] || p[0].Err != ErrRequired {
		t.Errorf("WithPrefix: got %+v from %+v", p[0], l[0])
	}
}

func TestSentinelsDistinct(t *testing.T) {
	all := []error{ErrInvalid, ErrSyntax, ErrRange, ErrNegative, ErrDuplicate, ErrIndex, ErrRequired, ErrUnsupported}
	for i, a := range all {
		for j, b := range all {
			if i != j && errors.Is(a, b) {
				t.Errorf("%v is %v", a, b)
			}
		}
	}
}
