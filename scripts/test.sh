#!/usr/bin/env bash
# Runs every test of the repository, in the order a failure is cheapest to
# read: the library, then the adapters, then the conformance modules that
# compare both with the real controllers.
#
#   library      go test ./... in the root module (the library packages and
#                the examples), then again under the race detector, then on
#                Go 1.24, the lowest release go.mod claims (the go command
#                fetches that toolchain through the module proxy)
#   release      the release rehearsal (docs/releasing.md): every module
#                published into a local proxy, and a consumer without
#                replace lines that gets, tidies, builds and installs them
#   adapters     adapters/kubeapps (apps/v1), adapters/kruiseapps
#                (OpenKruise's apps.kruise.io) and adapters/argorollouts
#                (argoproj.io Rollouts), with their planning commands
#   conformance  adapters/*/conformance: test-only modules that run
#                k8s.io/kubernetes v1.36, openkruise/kruise v1.9.1 and
#                argo-rollouts v1.10.1
#
# Each part prints a line before it starts. The first run compiles the
# Kubernetes and kruise packages the conformance modules import; README.md
# gives the time it takes.
set -euo pipefail
cd "$(dirname "$0")/.."

lowest_go=go1.24.11

echo "== library"
go test ./...
echo "== library, race detector"
go test -short -race ./...
echo "== library, $lowest_go"
GOTOOLCHAIN=$lowest_go go test -short ./...

echo "== release rehearsal"
go test -timeout 30m ./internal/release -rehearse

for m in adapters/*/; do
	[ -f "$m/go.mod" ] || continue
	echo "== $m"
	go -C "$m" test ./...
done

for m in adapters/*/conformance/; do
	echo "== $m"
	go -C "$m" test ./...
done
