package sandbox

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"

	"github.com/go-jose/go-jose/v4"

	"chainwatch/api"
)

// A key file (Config.KeyFile) keeps the token service's two signing keys
// between starts, so that a sandbox started in every chainwatch process
// does not make an RSA key each time (a search for two large primes,
// slower than all the rest of its start). It holds only the keys: two PKCS #8
// "PRIVATE KEY" PEM blocks, the RSA key and the P-256 key. Each start
// still gives them new key ids, as it has its own issuer and tokens.
//
// The file is written 0600 in a 0700 directory, atomically, and read only
// when it is a regular file that no one else may read or write; a file
// that is not one this sandbox wrote is refused too (ErrKeyFile), rather
// than overwritten: someone put it there.

// ErrKeyFile is wrapped by Start's refusals of Config.KeyFile.
var ErrKeyFile = errors.New("sandbox key file refused")

// maxKeyFile bounds what is read: the file holds two keys, far less.
const maxKeyFile = 64 << 10

// keyFileError is a refusal of the key file, saying why and what to do.
type keyFileError struct{ msg string }

func (e keyFileError) Error() string { return e.msg }
func (e keyFileError) Unwrap() error { return ErrKeyFile }

// keysFromFile reads the key pair in path, or makes one and writes it
// there when there is no file yet. The file only saves time: keys that
// cannot be written, or a path that cannot be read (its directory is a
// file, or not ours), cost a new key pair and a logged warning, not the
// start. A file that is there but wrong is refused.
func keysFromFile(path string, log *slog.Logger) (keyPair, error) {
	data, fi, err := api.ReadRegularFile(path, maxKeyFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		keys := newKeyPair()
		if err := keys.write(path); err != nil {
			log.Warn("sandbox keys not saved; the next start makes new ones", "file", path, "error", err)
		}
		return keys, nil
	case errors.Is(err, api.ErrNotRegular):
		return keyPair{}, keyFileError{fmt.Sprintf("sandbox keys: %v; remove it, and a new one is made", err)}
	case errors.Is(err, api.ErrTooLarge):
		return keyPair{}, keyFileError{fmt.Sprintf("sandbox keys %s is not a key file the sandbox wrote (too large); move it away, and a new one is made", path)}
	case err != nil:
		log.Warn("sandbox keys not read; new ones made for this start", "file", path, "error", err)
		return newKeyPair(), nil
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return keyPair{}, keyFileError{fmt.Sprintf("sandbox keys %s are open to others (mode %04o): they are private keys; run chmod 600 %s", path, perm, path)}
	}
	keys, ok := parseKeys(data)
	if !ok {
		return keyPair{}, keyFileError{fmt.Sprintf("sandbox keys %s is not a key file the sandbox wrote, or is damaged; move it away, and a new one is made", path)}
	}
	return keys, nil
}

// parseKeys reads the two PEM blocks of a key file: an RSA key of at
// least 2048 bits, then a P-256 key. The contents never reach a message.
func parseKeys(data []byte) (keyPair, bool) {
	var signers []any
	for range 2 {
		var b *pem.Block
		if b, data = pem.Decode(data); b == nil || b.Type != "PRIVATE KEY" {
			return keyPair{}, false
		}
		k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
		if err != nil {
			return keyPair{}, false
		}
		signers = append(signers, k)
	}
	rk, ok1 := signers[0].(*rsa.PrivateKey)
	ek, ok2 := signers[1].(*ecdsa.PrivateKey)
	if !ok1 || !ok2 || rk.N.BitLen() < 2048 || ek.Curve.Params().Name != "P-256" {
		return keyPair{}, false
	}
	return keyPair{
		rsa: &signingKey{id: newID(), alg: jose.RS256, key: rk},
		ec:  &signingKey{id: newID(), alg: jose.ES256, key: ek},
	}, true
}

// write saves the key pair to path as parseKeys reads it.
func (k keyPair) write(path string) error {
	var out []byte
	for _, s := range []*signingKey{k.rsa, k.ec} {
		der, err := x509.MarshalPKCS8PrivateKey(s.key)
		if err != nil {
			return err
		}
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})...)
	}
	return writePrivate(path, out)
}

// writePrivate replaces path with data atomically: a new file, 0600 from
// the start, in the same directory (made 0700), flushed and renamed over
// the old one, so that a crash leaves the old file or the new one and no
// one else can read either.
func writePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*") // created 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	_, err = tmp.Write(data)
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
