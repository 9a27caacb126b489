package api

import (
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to a temporary file beside path and renames
// it over path, creating the directory 0700: a reader sees the old file or
// the new one, never half of one, and the file is 0600 from its first
// byte whatever the umask (`sandbox --print-credentials` writes a secret
// with it).
func WriteFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp") // created 0600
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
