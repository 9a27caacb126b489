package api

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// checkServiceURL validates a configured service address (the auth server,
// the data server) before any request is sent to it, and returns it in a
// canonical form with no trailing slash so that endpoint paths can be
// appended with a plain "/connect/token".
//
// The rules exist because these URLs carry credentials:
//
//   - https is required, because the client secret, authorization codes and
//     bearer tokens travel in every request. Plain http is only accepted for a
//     loopback host, where nothing leaves the machine (local test servers, a
//     local proxy).
//   - userinfo is refused: a password in a config file URL would be sent in
//     clear to anyone who can read the config, and we would have to keep it out
//     of every log and error message.
//   - a query or fragment is refused, because the endpoints are built by
//     appending paths, which would silently put the path after the query.
//
// what names the setting (for example "auth URL") so that the error tells
// the user which value to fix. The errors never echo the raw input, which
// may contain a password or token.
// CheckServiceURL is checkServiceURL for a caller that wants to refuse a
// URL before building anything with it (the command line).
func CheckServiceURL(raw, what string) error {
	_, err := checkServiceURL(raw, what)
	return err
}

func checkServiceURL(raw, what string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, fmt.Errorf("%s is empty", what)
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error repeats the input, which may contain a password: give
		// only the reason.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%s is not a valid URL: %v", what, err)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%s must not contain a user name or password", what)
	}
	if u.Scheme == "" || u.Opaque != "" || u.Host == "" {
		return nil, fmt.Errorf("%s must be an absolute URL with a host, such as https://host.example.com", what)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("%s %s has no host", what, safeURLText(u))
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !IsLoopbackHost(host) {
			return nil, fmt.Errorf("%s %s must use https unless the host is loopback", what, safeURLText(u))
		}
	default:
		return nil, fmt.Errorf("%s %s: scheme %q is not supported; it must use https (or http when the host is loopback)", what, safeURLText(u), u.Scheme)
	}
	if u.RawQuery != "" || u.ForceQuery {
		return nil, fmt.Errorf("%s %s must not have a query (?...)", what, safeURLText(u))
	}
	if u.Fragment != "" || u.RawFragment != "" {
		return nil, fmt.Errorf("%s %s must not have a fragment (#...)", what, safeURLText(u))
	}
	out := *u
	out.Path = strings.TrimRight(out.Path, "/")
	out.RawPath = strings.TrimRight(out.RawPath, "/")
	return &out, nil
}

// safeURLText renders scheme, host and path only, so that an error message
// can show which URL was refused without repeating a query, fragment or
// password that might hold a secret.
func safeURLText(u *url.URL) string {
	v := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return v.String()
}

// IsLoopbackHost reports whether host (a host name or IP literal, without a
// port; brackets around an IPv6 literal are accepted) names this machine:
// "localhost", any address in 127.0.0.0/8, or ::1 (including the IPv4-mapped
// form of a 127.x address). Only these are trusted with plain http, because
// traffic to them never reaches a network where it could be read.
// Other names that merely resolve to a loopback address are not trusted:
// resolution could change between the check and the request.
func IsLoopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSpace(host))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	h = strings.TrimSuffix(h, ".") // "localhost." is the same fully-qualified name
	if h == "localhost" {
		return true
	}
	addr, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	return addr.Unmap().IsLoopback()
}
