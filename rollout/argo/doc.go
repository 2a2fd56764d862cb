// Package argo computes what the Argo Rollouts controller v1.10.1 does
// with a Rollout's ReplicaSets: the canary and blue-green replica math,
// in one sync and over a whole rollout.
//
// The package imports only the standard library and the module's own
// packages.
package argo
