//go:build !unix

package api

import "os"

// Without flock the lock is this process's own: the re-read of the token
// file before a refresh still finds what another process saved earlier.
func tryLock(*os.File) (busy bool, err error) { return false, nil }

func unlockFile(*os.File) {}
