package sandbox

import (
	"chainwatch/sandbox/faults"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// exactExpiresIn sets expires_in of a token response to the access-token
// lifetime. The library computes it as the token's expiry, which is on the
// sandbox clock, minus the real time, truncated to whole seconds: 3599
// instead of the service's 3600, and off by however far a test has moved
// the sandbox clock. Every access token lives exactly AccessTokenTTL from
// its issue on the sandbox clock, so that is the value.
func (s *Server) exactExpiresIn(next http.Handler) http.Handler {
	ttl, _ := json.Marshal(int64(s.store.accessTTL / time.Second))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := faults.Buffer(next, r, w.Header())
		status, body := buf.Status(), buf.Body()
		var fields map[string]json.RawMessage
		if status == http.StatusOK && json.Unmarshal(body, &fields) == nil && fields["expires_in"] != nil {
			fields["expires_in"] = ttl
			s.profileTokens(fields)
			if fixed, err := json.Marshal(fields); err == nil {
				body = fixed
				w.Header().Del("Content-Length")
			}
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
}

// profileTokens signs the tokens of a token answer again, for two reasons.
//
// RFC 9068 (the JWT profile of access tokens) wants header typ "at+jwt"
// and the token's scope as a claim. zitadel/oidc fixes the type to "JWT"
// (op.CreateJWT) and puts no scope in the token; a resource server that
// follows RFC 9068 checks both.
//
// RFC 9068 section 3 also wants aud to name the resource server the token
// is for: here the data service, {base_url}. The library puts the client
// there (op.TokenRequest.GetAudience, which the ID token's aud also comes
// from); the data endpoints refuse a token for anyone else.
//
// Every time in a token is on the sandbox clock, the one the Date header
// of every answer tells (docs/sandbox.md, "The token service"). The library takes
// exp from the store (the sandbox clock) but iat and nbf, and the ID
// token's exp, from the real one: on `--clock` a day in the past a token
// was issued after it expired. iat and nbf become the record's issue time
// and the ID token lives AccessTokenTTL from it, as the library meant.
//
// The ID token's at_hash names the access token, so it is signed again
// with the new hash. A token that does not check out is left as the
// library made it.
func (s *Server) profileTokens(fields map[string]json.RawMessage) {
	var at, idt string
	if json.Unmarshal(fields["access_token"], &at) != nil {
		return
	}
	var rec accessToken
	profiled, err := s.resign(at, "at+jwt", func(c map[string]any) bool {
		jti, _ := c["jti"].(string)
		var ok bool
		if rec, ok = s.store.liveAccess(jti); !ok {
			return false
		}
		c["scope"] = strings.Join(rec.scopes, " ")
		c["aud"] = s.store.audience
		c["iat"], c["nbf"], c["exp"] = rec.issued.Unix(), rec.issued.Unix(), rec.expiry.Unix()
		return true
	})
	if err != nil {
		return
	}
	fields["access_token"], _ = json.Marshal(profiled)
	if json.Unmarshal(fields["id_token"], &idt) != nil {
		return
	}
	hash, err := oidc.ClaimHash(profiled, s.store.keys.rsa.alg)
	if err != nil {
		return
	}
	if re, err := s.resign(idt, "JWT", func(c map[string]any) bool {
		if _, ok := c["at_hash"]; ok {
			c["at_hash"] = hash
		}
		c["iat"], c["exp"] = rec.issued.Unix(), rec.issued.Add(s.store.accessTTL).Unix()
		if _, ok := c["nbf"]; ok {
			c["nbf"] = rec.issued.Unix()
		}
		return true
	}); err == nil {
		fields["id_token"], _ = json.Marshal(re)
	}
}

// resign checks a token the library signed with the RSA key, lets edit
// change its claims, and signs it again with header type typ. An edit
// that returns false leaves the token as it was (errNotResigned).
func (s *Server) resign(raw, typ string, edit func(map[string]any) bool) (string, error) {
	k := s.store.keys.rsa
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{k.alg})
	if err != nil {
		return "", err
	}
	var claims map[string]any
	if err := tok.Claims(k.key.Public(), &claims); err != nil {
		return "", err
	}
	if !edit(claims) {
		return "", errNotResigned
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: k.alg, Key: jose.JSONWebKey{Key: k.key, KeyID: k.id}},
		(&jose.SignerOptions{}).WithType(jose.ContentType(typ)))
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

var errNotResigned = errors.New("token left as the library made it")
