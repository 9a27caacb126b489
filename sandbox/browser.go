package sandbox

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Browse plays the user's browser against a sandbox's login page, for tests
// and scripts: it opens authorizeURL, follows the redirect to the login
// page, fills in user and password, presses Allow (accept) or Deny, and
// returns where the token service then sends the browser (the redirect URI
// with code and state, or with error). It does not follow that last
// redirect: the caller decides whether the "browser" can reach it.
func Browse(ctx context.Context, authorizeURL, user, password string, accept bool) (*url.URL, error) {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := get(ctx, hc, authorizeURL)
	if err != nil {
		return nil, err
	}
	loc, err := location(resp, authorizeURL)
	if err != nil {
		return nil, err
	}
	if loc.Path != authPrefix+"/login" { // authorize answered at once (an error redirect)
		return loc, nil
	}
	page, err := get(ctx, hc, loc.String())
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(io.LimitReader(page.Body, 1<<20))
	page.Body.Close()
	if page.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sandbox login page: status %d: %s", page.StatusCode, strings.TrimSpace(string(body)))
	}
	id, action, err := parseLoginForm(string(body))
	if err != nil {
		return nil, err
	}
	form := url.Values{"id": {id}, "username": {user}, "password": {password}, "action": {"deny"}}
	if accept {
		form.Set("action", "accept")
	}
	post, err := loc.Parse(action)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, post.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = hc.Do(req)
	if err != nil {
		return nil, err
	}
	return location(resp, post.String())
}

func get(ctx context.Context, hc *http.Client, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return hc.Do(req)
}

// location reads a 302's target, or reports the page that came instead.
func location(resp *http.Response, base string) (*url.URL, error) {
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("sandbox login: status %d, not a redirect: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	b, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	return b.Parse(resp.Header.Get("Location"))
}

var (
	hiddenID   = regexp.MustCompile(`<input type="hidden" name="id" value="([^"]*)">`)
	formAction = regexp.MustCompile(`<form method="post" action="([^"]*)">`)
)

func parseLoginForm(page string) (id, action string, err error) {
	m, a := hiddenID.FindStringSubmatch(page), formAction.FindStringSubmatch(page)
	if m == nil || a == nil {
		return "", "", errors.New("sandbox login page: no login form found")
	}
	return html.UnescapeString(m[1]), html.UnescapeString(a[1]), nil
}
