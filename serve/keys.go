package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/api"
)

// maxKeyFile bounds what is read of the host key and authorized_keys: a
// desk's keys are a small fraction of it.
const maxKeyFile = 1 << 20

// HostKey is the server's host key at path, made once (ed25519, 0600, in a
// 0700 directory) when there is none yet, so that clients see the same key
// on every start. Like ssh with a private key, one that group or others
// may read or write is refused. made reports that it was made now.
func HostKey(path string) (signer gossh.Signer, made bool, err error) {
	data, err := api.ReadPrivateFile("the host key", path, maxKeyFile)
	if errors.Is(err, fs.ErrNotExist) {
		if data, err = newHostKey(path); err != nil {
			return nil, false, fmt.Errorf("cannot make the host key %s: %w", path, err)
		}
		made = true
	}
	if err != nil {
		return nil, false, err
	}
	signer, err = gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("the host key %s is not a private key ssh can read: %w", path, err)
	}
	return signer, made, nil
}

func newHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "chainwatch serve host key")
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(block)
	return data, api.WriteFileAtomic(path, data) // 0600 from its first byte
}

// User is who a session is: the authorized key's name (its comment up to
// an "@", else a name made from its fingerprint), which names the state
// kept for it, the key's fingerprint, what its line lets it do, and how
// many keys the file held at its login, and where it connected from.
type User struct {
	Name        string
	Fingerprint string
	NoPty       bool // no-pty or restrict: commands only, no screen
	Keys        int
	Addr        string // the client's IP, without the port ("" when unknown): its device in the usage ledger
}

// authorizedKeys is the authorized_keys file, read again at every login
// so that a key added or removed counts from the next connection, without
// a restart.
type authorizedKeys struct{ path string }

// lookup finds key in the file and says whether it may log in from addr
// at now: the first of its lines whose options admit it, as sshd does;
// refusal says why not ("" with ok false: the key is not in the file). A
// file that group or others may read or write is refused, as the token
// and config files are: who may log in is the desk's secret, and not
// theirs to change.
func (a authorizedKeys) lookup(key gossh.PublicKey, addr netip.Addr, now time.Time) (u User, ok bool, refusal string, err error) {
	data, err := api.ReadPrivateFile("the authorized keys file", a.path, maxKeyFile)
	if err != nil {
		return User{}, false, "", err
	}
	keys := parseAuthorized(data)
	fp := gossh.FingerprintSHA256(key)
	var why []string
	for i := range keys {
		k := &keys[i]
		if k.fp != fp {
			continue
		}
		if r := k.admits(addr, now); r != "" {
			why = append(why, r)
			continue
		}
		return User{Name: k.name, Fingerprint: fp, NoPty: k.noPty, Keys: countKeys(keys)}, true, "", nil
	}
	return User{}, false, strings.Join(why, "; "), nil
}

// countKeys is how many keys (not lines) the file holds.
func countKeys(keys []authorizedKey) int {
	seen := map[string]bool{}
	for _, k := range keys {
		seen[k.fp] = true
	}
	return len(seen)
}

// CheckAuthorizedKeys reads the file once at start: a missing, unreadable
// or world-readable file, one without a key, a line with an option serve
// does not honour, or two keys of one name, is said before the server
// listens rather than at the first refused login. It returns the number
// of keys.
func CheckAuthorizedKeys(path string) (int, error) {
	data, err := api.ReadPrivateFile("the authorized keys file", path, maxKeyFile)
	if err != nil {
		return 0, err
	}
	keys := parseAuthorized(data)
	if len(keys) == 0 {
		return 0, fmt.Errorf("%s holds no public key: add one line per trader (ssh-ed25519 AAAA... name@host)", path)
	}
	for _, k := range keys {
		if k.problem != "" {
			return 0, fmt.Errorf("%s: %s", path, k.problem)
		}
	}
	return countKeys(keys), nil
}

// nameOf is the state name of a key: its comment up to an "@" in letters,
// digits, ".", "_" and "-", else "key-" and the start of its fingerprint.
func nameOf(comment, fingerprint string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(comment), "@")
	ok := name != "" && len(name) <= 64 && name[0] != '.'
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			ok = false
		}
	}
	if ok {
		return name
	}
	fp := strings.TrimPrefix(fingerprint, "SHA256:")
	fp = strings.NewReplacer("/", "_", "+", "-").Replace(fp)
	return "key-" + fp[:min(16, len(fp))]
}
