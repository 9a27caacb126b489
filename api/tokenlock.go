package api

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Several chainwatch processes may share one token file (a screen, a cron
// line, a --watch). Refresh tokens rotate, so if two of them refresh with
// the same refresh token, one wins and the other's is dead (invalid_grant).
// A refresh therefore runs under an exclusive lock on a file beside the
// token file (the token file itself is replaced by rename on every save,
// so it cannot carry the lock), and re-reads the token file once it holds
// the lock: a process that waited finds the token the other one saved
// and uses it instead of refreshing with a dead one.

// tokenLocker is a TokenStore that can be locked across processes.
type tokenLocker interface {
	// Lock waits for the store's lock until ctx ends; unlock releases it.
	Lock(ctx context.Context) (unlock func(), err error)
}

// lockPoll is how often a waiting Lock tries again.
const lockPoll = 20 * time.Millisecond

// LockPath is the lock file beside the token file.
func (s FileTokenStore) LockPath() string { return s.Path + ".lock" }

// Lock takes the token file's lock (flock on unix; nothing elsewhere),
// waiting until ctx ends. The lock file is created 0600 and left in place
// until logout (Delete): removing it while the login lives would let two
// processes lock two different files.
func (s FileTokenStore) Lock(ctx context.Context) (func(), error) {
	if s.Path == "" {
		return nil, errors.New("token file path is empty")
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot create token directory: %w", err)
	}
	f, err := os.OpenFile(s.LockPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the token file: %w", err)
	}
	unlock, waited, err := waitLock(ctx, f)
	switch {
	case waited:
		return nil, fmt.Errorf("waiting for another chainwatch to renew the login: %w", err)
	case err != nil:
		return nil, fmt.Errorf("cannot lock the token file: %w", err)
	}
	return unlock, nil
}
