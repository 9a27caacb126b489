package history

import (
	"fmt"
	"os"
)

// BackfillLock is held by one backfill at a time, across processes: two
// backfills at once would each buy the days the other is buying. The
// second waits for the first, then finds those days stored and buys only
// what is still missing.
type BackfillLock struct{ f *os.File }

// LockBackfill takes the lock beside the store at path; busy reports that
// another process held it (and that this call waited for it, when wait).
func LockBackfill(path string, wait bool) (l *BackfillLock, busy bool, err error) {
	f, err := os.OpenFile(path+".backfill.lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("history: %w", err)
	}
	busy, err = flock(f, false)
	if err == nil && busy && wait {
		_, err = flock(f, true)
	}
	if err != nil || busy && !wait {
		f.Close()
		return nil, busy, err
	}
	return &BackfillLock{f: f}, busy, nil
}

// Unlock releases the lock (closing the file releases the flock).
func (l *BackfillLock) Unlock() {
	if l != nil && l.f != nil {
		l.f.Close()
	}
}
