#!/usr/bin/env bash
# Mutation testing of the library's engines: go run ./internal/mutate with
# the arguments given (see `go doc ./internal/mutate` for the mutants and
# the flags). Without packages it samples ./rollout/cloneset and ./rollout.
# Mutants are applied with `go test -overlay`, so the work tree is never
# written. Each mutant of rollout/cloneset costs a build and a test run
# (tens of seconds on a loaded 2-core machine): budget -n accordingly.
#
#   scripts/mutate.sh -n 60 -seed 1 ./rollout/cloneset
#   scripts/mutate.sh -list ./rollout | grep diffs.go
#   scripts/mutate.sh -n 25 -skip 27 -seed 1 ./rollout/cloneset   # the rest of a split sample
#   scripts/mutate.sh -match 'diffs.go:403:18 cmp' -run TestUpdateNumTie ./rollout/cloneset
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./internal/mutate "$@"
