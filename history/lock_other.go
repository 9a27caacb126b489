//go:build !unix

package history

import "os"

// flock is a no-op where flock(2) does not exist: two backfills there may
// both buy a day (SQLite still keeps the store whole).
func flock(*os.File, bool) (bool, error) { return false, nil }
