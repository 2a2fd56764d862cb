package field_test

import (
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/field"
)

// A caller tells bad input from other failures with errors.Is, and reads
// the field with errors.As.
func Example() {
	var err error = field.ErrorList{
		{Field: "spec.replicas", Type: field.TypeInvalid, Value: "-1", Detail: "must be greater than or equal to 0", Err: field.ErrNegative},
	}.WithPrefix(`rollout: invalid Deployment "web"`)
	fmt.Println(err)
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrNegative), errors.Is(err, field.ErrSyntax))
	var fe *field.Error
	if errors.As(err, &fe) {
		fmt.Printf("field %s, value %s\n", fe.Field, fe.Value)
	}
	// Output:
	// rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// true true false
	// field spec.replicas, value -1
}

func ExampleError_Error() {
	for _, e := range []*field.Error{
		{Field: "spec.strategy.rollingUpdate.maxUnavailable", Type: field.TypeInvalid, Value: `"120%"`, Detail: "must not be greater than 100%"},
		{Field: "deployment", Type: field.TypeRequired},
		{Prefix: "cloneset", Field: "pods[3].restarts", Value: "-2", Detail: "must not be negative", Err: field.ErrNegative},
		{Prefix: "proportion", Field: "newRS", Detail: "3 is out of range [-1, 3)", Err: field.ErrIndex},
		{Prefix: "intorpercent", Value: `"2.5%"`, Detail: "fractional percentages are not allowed", Err: field.ErrSyntax},
	} {
		fmt.Println(e)
	}
	// Output:
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%
	// deployment: Required value
	// cloneset: pods[3].restarts: -2: must not be negative
	// proportion: newRS: 3 is out of range [-1, 3)
	// intorpercent: parsing "2.5%": fractional percentages are not allowed
}

func ExampleError_Unwrap() {
	err := &field.Error{Prefix: "revision", Value: `"abc"`, Detail: "invalid syntax", Err: field.ErrSyntax}
	fmt.Println(err.Unwrap())
	// Output:
	// [invalid input invalid syntax]
}

func ExampleErrorType_String() {
	fmt.Println(field.TypeInvalid, "|", field.TypeRequired, "|", field.TypeNotSupported, "|", field.TypeForbidden)
	// Output:
	// Invalid value | Required value | Unsupported value | Forbidden
}

func ExampleErrorList_Error() {
	list := field.ErrorList{
		{Field: "spec.replicas", Type: field.TypeInvalid, Value: "-1", Detail: "must be greater than or equal to 0"},
		{Field: "spec.minReadySeconds", Type: field.TypeInvalid, Value: "-5", Detail: "must be greater than or equal to 0"},
	}
	fmt.Println(list)
	fmt.Println(list.WithPrefix(`rollout: invalid Deployment "web"`))
	// Output:
	// [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0]
	// rollout: invalid Deployment "web": [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0]
}

func ExampleErrorList_Unwrap() {
	list := field.ErrorList{{Field: "spec.replicas", Type: field.TypeInvalid, Value: "-1", Detail: "must be greater than or equal to 0"}}
	fmt.Println(len(list.Unwrap()), errors.Is(list, field.ErrInvalid))
	// Output:
	// 1 true
}

func ExampleErrorList_ToError() {
	var list field.ErrorList
	fmt.Println(list.ToError() == nil)
	list = append(list, &field.Error{Field: "deployment", Type: field.TypeRequired, Err: field.ErrRequired})
	fmt.Println(list.ToError())
	// Output:
	// true
	// deployment: Required value
}

func ExampleErrorList_WithPrefix() {
	list := field.ErrorList{{Field: "spec.replicas", Type: field.TypeInvalid, Value: "-1", Detail: "must be greater than or equal to 0"}}
	in := list.WithPrefix(`rollout: invalid ReplicaSet "web-1"`)
	fmt.Println(in)
	fmt.Println(list) // unchanged
	// Output:
	// rollout: invalid ReplicaSet "web-1": spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// spec.replicas: Invalid value: -1: must be greater than or equal to 0
}
