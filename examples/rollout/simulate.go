package main

import "errors"

// simulate runs the rollout cfg describes and returns its trace.
func simulate(cfg *config) (*trace, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return nil, errors.New("rollout.Simulate has not landed yet")
}
