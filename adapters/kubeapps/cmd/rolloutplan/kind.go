package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// accepted are the kinds a manifest document may hold, by apiVersion and
// kind, each with a value of its Go type for explaining decoding errors.
var accepted = map[[2]string]func() any{
	{"apps/v1", "Deployment"}:     func() any { return new(appsv1.Deployment) },
	{"apps/v1", "ReplicaSet"}:     func() any { return new(appsv1.ReplicaSet) },
	{"apps/v1", "DeploymentList"}: func() any { return new(appsv1.DeploymentList) },
	{"apps/v1", "ReplicaSetList"}: func() any { return new(appsv1.ReplicaSetList) },
	{"v1", "List"}:                func() any { return new(corev1.List) },
}

// checkKind reads the apiVersion and kind of one YAML or JSON document
// and rejects it, in a short message that quotes neither the document nor
// a Go type, unless it is one of the accepted kinds. It runs before
// strict decoding, so that a StatefulSet is reported as the wrong kind
// rather than for fields a Deployment would not have.
func checkKind(doc []byte) (apiVersion, kind string, err error) {
	js, err := utilyaml.ToJSON(doc)
	if err != nil {
		return "", "", fmt.Errorf("not YAML or JSON: %s", shortYAMLError(err))
	}
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return "", "", fmt.Errorf("not YAML or JSON: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", "", fmt.Errorf("want an apps/v1 Deployment or ReplicaSet, got %s instead of an object", jsonKind(v))
	}
	apiVersion, okVersion := obj["apiVersion"].(string)
	kind, okKind := obj["kind"].(string)
	switch {
	case !okVersion && !okKind:
		return "", "", errors.New("want an apps/v1 Deployment or ReplicaSet, got an object without apiVersion and kind")
	case !okVersion || apiVersion == "":
		return "", "", fmt.Errorf("want an apps/v1 Deployment or ReplicaSet, got kind %q without an apiVersion", kind)
	case !okKind || kind == "":
		return "", "", fmt.Errorf("want an apps/v1 Deployment or ReplicaSet, got apiVersion %q without a kind", apiVersion)
	}
	if _, ok := accepted[[2]string{apiVersion, kind}]; !ok {
		return "", "", wrongKind(apiVersion, kind)
	}
	return apiVersion, kind, nil
}

// otherPrograms name the program of this module that plans a kind
// rolloutplan does not read.
var otherPrograms = map[[2]string]string{
	{"apps/v1", "StatefulSet"}: "statefulsetplan",
	{"apps/v1", "DaemonSet"}:   "daemonsetplan",
}

// wrongKind reports a document of a kind rolloutplan does not read,
// naming the program to use for a StatefulSet or a DaemonSet.
func wrongKind(apiVersion, kind string) error {
	if prog, ok := otherPrograms[[2]string{apiVersion, kind}]; ok {
		return fmt.Errorf("want an apps/v1 Deployment or ReplicaSet, got %s %s (for a %s use %s)", apiVersion, kind, kind, prog)
	}
	return fmt.Errorf("want an apps/v1 Deployment or ReplicaSet, got %s %s", apiVersion, kind)
}

// shortYAMLError returns the YAML parser's message without the
// conversion's wrapping: "yaml: line 3: mapping values are not allowed in
// this context".
func shortYAMLError(err error) string {
	s := err.Error()
	if i := strings.Index(s, "yaml: "); i >= 0 {
		s = s[i:]
	}
	return s
}

// jsonKind names the kind of a decoded JSON value for a message: "a
// string", "a list", ...
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case []any:
		return "a list"
	}
	return "an object"
}

// explain rewrites a decoding error of a document of an accepted kind.
// Strict-decoding errors (unknown and duplicate fields) are kept: they
// name the field. A value of the wrong JSON type, which apimachinery
// reports with Go type names, becomes "spec.replicas: want an integer
// from -2147483648 to 2147483647, got a string".
func explain(doc []byte, apiVersion, kind string, err error) error {
	if runtime.IsStrictDecodingError(err) {
		return err
	}
	js, jerr := utilyaml.ToJSON(doc)
	if jerr != nil {
		return err
	}
	var te *json.UnmarshalTypeError
	if errors.As(json.Unmarshal(js, accepted[[2]string{apiVersion, kind}]()), &te) && te.Field != "" {
		want := goKind(te.Type)
		if strings.HasSuffix(te.Field, ".maxSurge") || strings.HasSuffix(te.Field, ".maxUnavailable") {
			want = `an integer or a percentage such as "25%"` // an IntOrString
		}
		return fmt.Errorf("%s: want %s, got %s", te.Field, want, article(te.Value))
	}
	return err
}

// goKind names the JSON a Go type is read from.
func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int32:
		return "an integer from -2147483648 to 2147483647"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// article names a JSON value as encoding/json reports it ("string",
// "number", "array", "object", "bool") with an article; a number it
// quotes ("number 1.5") is given as written.
func article(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number "):
		return strings.TrimPrefix(v, "number ")
	case v == "number":
		return "a number"
	case v == "object":
		return "an object"
	}
	return "a " + v
}
