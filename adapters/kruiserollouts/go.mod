module github.com/rolloutmath/rolloutmath/adapters/kruiserollouts

// go 1.24 is the lowest Go this module's requirements allow: the library,
// github.com/rolloutmath/rolloutmath, declares it.
go 1.24

// The API modules are the versions openkruise/rollouts v0.6.3 itself
// builds with (k8s.io/* v0.26.3, kruise-api v1.3.0), the lowest that
// hold every type this module reads, so that the conformance module can
// build rollouts v0.6.3 with this module beside it; a consumer's newer
// versions win under minimal version selection.
require (
	github.com/openkruise/kruise-api v1.3.0
	github.com/rolloutmath/rolloutmath v0.0.0
	k8s.io/api v0.26.3
	k8s.io/apimachinery v0.26.3
	sigs.k8s.io/json v0.0.0-20220713155537-f223a00ba0e2
)

require github.com/google/go-cmp v0.7.0

require (
	github.com/go-logr/logr v1.2.3 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/google/gofuzz v1.1.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/text v0.7.0 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	k8s.io/klog/v2 v2.80.1 // indirect
	k8s.io/utils v0.0.0-20221107191617-1a15be271d1d // indirect
	sigs.k8s.io/structured-merge-diff/v4 v4.2.3 // indirect
	sigs.k8s.io/yaml v1.3.0 // indirect
)

// Between releases the library is this repository's copy. A release
// commit drops this line and requires the library's tagged version
// (docs/releasing.md); a replace line is ignored in a dependency anyway.
replace github.com/rolloutmath/rolloutmath => ../..
