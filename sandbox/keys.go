package sandbox

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"sync"

	"github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// The token service's keys. ID and access tokens are signed RS256: OpenID
// Connect Discovery requires RS256 of every provider, and relying parties
// with default settings (openid-client, zitadel's rp) accept nothing else.
// An ES256 key is published beside it and listed as supported, for clients
// that pin ES256.

// signingKey is one key pair with its id.
type signingKey struct {
	id  string
	alg jose.SignatureAlgorithm
	key crypto.Signer
}

func (k *signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return k.alg }
func (k *signingKey) Key() any                                    { return k.key }
func (k *signingKey) ID() string                                  { return k.id }

// publicKey is the JWKS entry of a signingKey.
type publicKey struct{ k *signingKey }

func (p publicKey) ID() string                         { return p.k.id }
func (p publicKey) Algorithm() jose.SignatureAlgorithm { return p.k.alg }
func (p publicKey) Use() string                        { return "sig" }
func (p publicKey) Key() any                           { return p.k.key.Public() }

// keyPair is the RSA key that signs and the EC key that is offered.
type keyPair struct{ rsa, ec *signingKey }

// processRSA is the RSA key of the sandboxes of this process that were
// given none (no --state, no key file yet): making an RSA key is a search
// for two large primes, slower than all the rest of a start, which every
// test that starts a sandbox would pay. Each sandbox still has its own key
// id, issuer and token records, so a token of one is refused by another.
var processRSA = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic("sandbox: crypto/rand failed: " + err.Error()) // cannot happen: rand.Reader does not fail
	}
	return k
})

// newKeyPair makes a sandbox's keys: the process's RSA key under a new id
// and a new P-256 key.
func newKeyPair() keyPair {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic("sandbox: crypto/rand failed: " + err.Error())
	}
	return keyPair{
		rsa: &signingKey{id: newID(), alg: jose.RS256, key: processRSA()},
		ec:  &signingKey{id: newID(), alg: jose.ES256, key: ec},
	}
}

func (s *store) SigningKey(context.Context) (op.SigningKey, error) { return s.keys.rsa, nil }

// SignatureAlgorithms is what discovery lists for ID tokens: RS256 first,
// the default, and ES256.
func (s *store) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256, jose.ES256}, nil
}

func (s *store) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{publicKey{s.keys.rsa}, publicKey{s.keys.ec}}, nil
}
