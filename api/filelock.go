package api

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// LockFile takes an exclusive lock on the file at path (flock on unix,
// this process's own elsewhere, as the token file's lock), creating it
// 0600 and its directory 0700, and waits for it until ctx ends. Files
// that several chainwatch processes append to (the alerts' log) hold it
// while they read what the others wrote and add their own.
func LockFile(ctx context.Context, path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	unlock, waited, err := waitLock(ctx, f)
	switch {
	case waited:
		return nil, fmt.Errorf("waiting for the lock of %s: %w", path, err)
	case err != nil:
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	return unlock, nil
}

// waitLock takes f's lock, trying again every lockPoll until ctx ends:
// the one wait of every lock file (LockFile's, the token file's). On an
// error f is closed; waited says the error is ctx's (the wait ran out),
// not the lock's.
func waitLock(ctx context.Context, f *os.File) (unlock func(), waited bool, err error) {
	for {
		busy, err := tryLock(f)
		switch {
		case err != nil:
			f.Close()
			return nil, false, err
		case !busy:
			return func() { unlockFile(f); f.Close() }, false, nil
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, true, ctx.Err()
		case <-t.C:
		}
	}
}
