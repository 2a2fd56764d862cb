module github.com/rolloutmath/rolloutmath/adapters/argorollouts/conformance

go 1.26.1

require (
	github.com/argoproj/argo-rollouts v1.10.1
	github.com/google/go-cmp v0.7.0
	github.com/rolloutmath/rolloutmath v0.0.0
	github.com/rolloutmath/rolloutmath/adapters/argorollouts v0.0.0
	github.com/sirupsen/logrus v1.9.3
	k8s.io/api v0.36.3
	k8s.io/apimachinery v0.36.3
	k8s.io/klog/v2 v2.140.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/emicklei/go-restful/v3 v3.12.2 // indirect
	github.com/fxamacker/cbor/v2 v2.9.0 // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/go-openapi/jsonpointer v0.21.0 // indirect
	github.com/go-openapi/jsonreference v0.20.2 // indirect
	github.com/go-openapi/swag v0.23.0 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/google/gnostic-models v0.7.0 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.3-0.20250322232337-35a7c28c31ee // indirect
	github.com/rogpeppe/go-internal v1.14.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/net v0.56.0 // indirect
	golang.org/x/sys v0.46.0 // indirect
	golang.org/x/text v0.38.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
	k8s.io/kube-openapi v0.0.0-20260317180543-43fb72c5454a // indirect
	k8s.io/utils v0.0.0-20260210185600-b8788abfbbc2 // indirect
	sigs.k8s.io/json v0.0.0-20250730193827-2d320260d730 // indirect
	sigs.k8s.io/randfill v1.0.0 // indirect
	sigs.k8s.io/structured-merge-diff/v6 v6.3.3 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)

// argo-rollouts v1.10.1's own replace block: it requires k8s.io/kubernetes
// v1.34.5, whose go.mod names its staging modules at v0.0.0.
replace (
	github.com/go-check/check => github.com/go-check/check v0.0.0-20180628173108-788fd7840127
	github.com/go-telegram-bot-api/telegram-bot-api/v5 => github.com/OvyFlash/telegram-bot-api/v5 v5.0.0-20240108230938-63e5c59035bf
	k8s.io/api => k8s.io/api v0.34.5
	k8s.io/apiextensions-apiserver => k8s.io/apiextensions-apiserver v0.34.5
	k8s.io/apimachinery => k8s.io/apimachinery v0.34.5
	k8s.io/apiserver => k8s.io/apiserver v0.34.5
	k8s.io/cli-runtime => k8s.io/cli-runtime v0.34.5
	k8s.io/client-go => k8s.io/client-go v0.34.5
	k8s.io/cloud-provider => k8s.io/cloud-provider v0.34.5
	k8s.io/cluster-bootstrap => k8s.io/cluster-bootstrap v0.34.5
	k8s.io/code-generator => k8s.io/code-generator v0.34.5
	k8s.io/component-base => k8s.io/component-base v0.34.5
	k8s.io/component-helpers => k8s.io/component-helpers v0.34.5
	k8s.io/controller-manager => k8s.io/controller-manager v0.34.5
	k8s.io/cri-api => k8s.io/cri-api v0.34.5
	k8s.io/cri-client => k8s.io/cri-client v0.34.5
	k8s.io/csi-translation-lib => k8s.io/csi-translation-lib v0.34.5
	k8s.io/dynamic-resource-allocation => k8s.io/dynamic-resource-allocation v0.34.5
	k8s.io/endpointslice => k8s.io/endpointslice v0.34.5
	k8s.io/externaljwt => k8s.io/externaljwt v0.34.5
	k8s.io/kms => k8s.io/kms v0.34.5
	k8s.io/kube-aggregator => k8s.io/kube-aggregator v0.34.5
	k8s.io/kube-controller-manager => k8s.io/kube-controller-manager v0.34.5
	k8s.io/kube-proxy => k8s.io/kube-proxy v0.34.5
	k8s.io/kube-scheduler => k8s.io/kube-scheduler v0.34.5
	k8s.io/kubectl => k8s.io/kubectl v0.34.5
	k8s.io/kubelet => k8s.io/kubelet v0.34.5
	k8s.io/legacy-cloud-providers => k8s.io/legacy-cloud-providers v0.30.14
	k8s.io/metrics => k8s.io/metrics v0.34.5
	k8s.io/mount-utils => k8s.io/mount-utils v0.34.5
	k8s.io/pod-security-admission => k8s.io/pod-security-admission v0.34.5
	k8s.io/sample-apiserver => k8s.io/sample-apiserver v0.34.5
	k8s.io/sample-cli-plugin => k8s.io/sample-cli-plugin v0.34.5
	k8s.io/sample-controller => k8s.io/sample-controller v0.34.5
)

// This repository's library and adapter module, as they are on this commit.
replace (
	github.com/rolloutmath/rolloutmath => ../../..
	github.com/rolloutmath/rolloutmath/adapters/argorollouts => ..
)
