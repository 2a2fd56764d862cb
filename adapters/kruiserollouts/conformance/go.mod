module github.com/rolloutmath/rolloutmath/adapters/kruiserollouts/conformance

go 1.26.0

// openkruise/rollouts v0.6.3 builds with Go 1.26 on the versions it
// requires, with one exception that only `go mod tidy` meets: its own
// pkg/controller/batchrelease/labelpatch/patcher_test.go imports
// k8s.io/utils/ptr, which the k8s.io/utils it requires (20221128) lacks,
// so tidy resolves the import to the newest k8s.io/utils (which needs Go
// 1.26 and moves every k8s.io/utils package). The minimal fix is the
// require of k8s.io/utils v0.0.0-20230726121419-3b25d923346b below, a
// 2023 version that has package ptr and that adapters/kruiseapps already
// requires; no replace is needed.

require (
	github.com/openkruise/rollouts v0.6.3
	github.com/rolloutmath/rolloutmath v0.0.0
	github.com/rolloutmath/rolloutmath/adapters/kruiserollouts v0.0.0-00010101000000-000000000000
	k8s.io/apimachinery v0.26.3
	k8s.io/klog/v2 v2.100.1
	pgregory.net/rapid v1.3.0
	sigs.k8s.io/gateway-api v0.7.1
)

require (
	github.com/go-logr/logr v1.2.3 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/google/gofuzz v1.1.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/openkruise/kruise-api v1.3.0 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/text v0.7.0 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	k8s.io/api v0.26.3 // indirect
	k8s.io/utils v0.0.0-20230726121419-3b25d923346b // indirect
	sigs.k8s.io/controller-runtime v0.14.6 // indirect
	sigs.k8s.io/json v0.0.0-20220713155537-f223a00ba0e2 // indirect
	sigs.k8s.io/structured-merge-diff/v4 v4.2.3 // indirect
	sigs.k8s.io/yaml v1.3.0 // indirect
)

replace (
	github.com/rolloutmath/rolloutmath => ../../..
	github.com/rolloutmath/rolloutmath/adapters/kruiserollouts => ..
)
