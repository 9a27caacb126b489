package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// UserInfo is the OpenID Connect userinfo answer: who a token speaks for.
type UserInfo struct {
	Subject           string `json:"sub"`
	Name              string `json:"name,omitempty"`
	PreferredUsername string `json:"preferred_username,omitempty"`
}

// Display is the best name to show for the user.
func (u UserInfo) Display() string {
	switch {
	case u.PreferredUsername != "":
		return u.PreferredUsername
	case u.Name != "":
		return u.Name
	}
	return u.Subject
}

// UserInfo asks {auth_url}/connect/userinfo who ts's token belongs to. It
// is how `chainwatch status` proves a stored login still works: the call
// refreshes the token if needed and the server checks it is not revoked.
func (c AuthConfig) UserInfo(ctx context.Context, ts TokenSource) (UserInfo, error) {
	if err := c.validate(); err != nil {
		return UserInfo{}, err
	}
	// An access token the server refuses (expired by its clock, revoked)
	// is renewed once with the refresh token before the login is called
	// dead: `status` said "run chainwatch login" for a login that one
	// refresh would have kept.
	u, refused, err := c.userInfoOnce(ctx, ts)
	if refused {
		ts.Invalidate()
		u, refused, err = c.userInfoOnce(ctx, ts)
		if refused {
			ts.Invalidate()
		}
	}
	return u, err
}

// userInfoOnce asks once; refused is a 401 or 403 for the token sent.
func (c AuthConfig) userInfoOnce(ctx context.Context, ts TokenSource) (_ UserInfo, refused bool, _ error) {
	const op = "userinfo"
	tok, err := ts.Token(ctx)
	if err != nil {
		return UserInfo{}, false, err
	}
	secrets := []string{c.ClientSecret, tok.AccessToken, tok.RefreshToken}
	url := strings.TrimSuffix(c.Endpoint().TokenURL, "/token") + "/userinfo"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return UserInfo{}, false, redactError(op, err, secrets...)
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "application/json")
	hc := c.HTTPClient
	if hc == nil {
		hc = defaultAuthHTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		return UserInfo{}, false, redactError(op, err, secrets...)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		return UserInfo{}, true, errors.New("auth: userinfo: the server no longer accepts this login (expired or revoked); " + loginAgain)
	}
	if resp.StatusCode != http.StatusOK {
		return UserInfo{}, false, newAuthError(op, "", cleanServerText(string(body)), resp.StatusCode, secrets...)
	}
	var u UserInfo
	if err := json.Unmarshal(body, &u); err != nil || u.Subject == "" {
		return UserInfo{}, false, errors.New("auth: userinfo: the server's answer is not a userinfo document")
	}
	return u, false, nil
}
