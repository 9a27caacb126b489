package cmd

import "errors"

// Exit statuses, documented in docs/scripting.md and kept: a
// script branches on them, so each means one thing.
const (
	ExitOK      = 0 // the answer is on stdout
	ExitService = 1 // the service or the network failed (or anything unforeseen)
	ExitInput   = 2 // a flag, an argument, a symbol or the config file is wrong
	ExitNoData  = 3 // the question was fine and the answer is empty: an unknown symbol, nothing in the window
	// ExitInternal is a bug: the screen panicked, its terminal restored
	// and a crash report written (sysexits.h's EX_SOFTWARE; Go's own
	// exit status for a panic, 2, would read as bad input).
	ExitInternal = 70
	// ExitInterrupted is Ctrl-C while --jq or --template ran (128 + SIGINT,
	// what a shell reports for a process Ctrl-C ended at any other moment).
	ExitInterrupted = 130
)

// usageError is a mistake in how chainwatch was called (a flag, its
// value, a symbol, a malformed URL): exit status 2, as shells and scripts
// expect, apart from 1 for what went wrong while running.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// badInput marks err as the caller's mistake (exit status 2).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// noDataError is an answer with nothing in it: exit status 3, so that a
// script can tell "no such symbol" or "no trades yet" from a failure.
type noDataError struct{ error }

func (e noDataError) Unwrap() error { return e.error }

// noData marks err as an empty answer (exit status 3).
func noData(err error) error {
	if err == nil {
		return nil
	}
	return noDataError{err}
}

// interruptedError is a run stopped by Ctrl-C: exit status 130.
type interruptedError struct{ error }

func (e interruptedError) Unwrap() error { return e.error }

func interrupted(err error) error { return interruptedError{err} }

// exitCode is the status of a command's error.
func exitCode(err error) int {
	var ue usageError
	var nd noDataError
	var ie interruptedError
	var ce crashError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		return ExitInput
	case errors.As(err, &nd):
		return ExitNoData
	case errors.As(err, &ie):
		return ExitInterrupted
	case errors.As(err, &ce):
		return ExitInternal
	}
	return ExitService
}
