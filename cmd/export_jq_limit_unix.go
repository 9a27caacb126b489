//go:build unix && !race

package cmd

import "syscall"

// dataLimited: the kernel bounds a --jq child's data segment.
const dataLimited = true

// limitData caps the process's data segment (its heap among it), so that
// the kernel refuses a value too large at the moment it is asked for,
// before a byte of it is written: the Go runtime then ends the process
// ("out of memory"). The race detector's shadow memory counts as data,
// so a -race build goes without (the heap watch still holds).
func limitData(bytes int64) {
	lim := &syscall.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	_ = syscall.Setrlimit(syscall.RLIMIT_DATA, lim)
}
