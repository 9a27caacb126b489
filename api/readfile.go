package api

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// ErrNotRegular and ErrTooLarge are ReadRegularFile's refusals.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
)

// ReadRegularFile reads a small file chainwatch keeps (the config file, the
// token file, the recent symbols) and refuses anything else before reading
// it: a device (/dev/zero would be read until memory runs out), a FIFO (it
// would block forever), a directory, or more than limit bytes. The file is
// opened without blocking (a FIFO without a writer opens at once), checked
// with fstat on the open descriptor (no race with a rename), and read
// through a reader capped at limit+1 bytes. A missing file is
// fs.ErrNotExist, so callers tell "none" from "unreadable"; the errors
// wrap ErrNotRegular and ErrTooLarge and never hold the contents.
func ReadRegularFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		what := "a " + fileKind(fi.Mode())
		return nil, fi, fmt.Errorf("%s is %s, %w", path, what, ErrNotRegular)
	}
	if fi.Size() > limit {
		return nil, fi, fmt.Errorf("%s is %d bytes, more than the %d it may hold: %w", path, fi.Size(), limit, ErrTooLarge)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fi, err
	}
	if int64(len(data)) > limit {
		return nil, fi, fmt.Errorf("%s holds more than the %d bytes it may: %w", path, limit, ErrTooLarge)
	}
	return data, fi, nil
}

// ReadPrivateFile is ReadRegularFile for a file that holds a secret (a
// client secret): like ssh with a private key, one that group or others
// may read or write is refused, since the secret may already be someone
// else's, or theirs to replace. what names the file in the errors, which
// never hold its contents.
func ReadPrivateFile(what, path string, limit int64) ([]byte, error) {
	data, fi, err := ReadRegularFile(path, limit)
	if err != nil {
		return nil, err
	}
	if err := checkPrivate(what, path, fi); err != nil {
		return nil, err
	}
	return data, nil
}

// checkPrivate refuses a file that group or others may read or write,
// saying which and the chmod to run. Windows has no such bits.
func checkPrivate(what, path string, fi fs.FileInfo) error {
	perm := fi.Mode().Perm()
	if perm&0o077 == 0 || runtime.GOOS == "windows" {
		return nil
	}
	how := "readable"
	if perm&0o044 == 0 {
		how = "writable"
	}
	return fmt.Errorf("%s %s is %s by others (mode %04o); run: chmod 600 %s", what, path, how, perm, path)
}

// fileKind names a file that is not a regular one, for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
