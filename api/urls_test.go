package api

import (
	"strings"
	"testing"
)

func TestCheckServiceURL(t *testing.T) {
	ok := map[string]string{
		"https://auth.example.com":          "https://auth.example.com",
		"https://auth.example.com/":         "https://auth.example.com",
		"https://auth.example.com/oauth//":  "https://auth.example.com/oauth",
		" https://auth.example.com:8443/x ": "https://auth.example.com:8443/x",
		"http://127.0.0.1:8080":             "http://127.0.0.1:8080",
		"http://127.1.2.3/":                 "http://127.1.2.3",
		"http://localhost":                  "http://localhost",
		"http://LOCALHOST:9000/api":         "http://LOCALHOST:9000/api",
		"http://[::1]:1":                    "http://[::1]:1",
		"HTTPS://Auth.Example.com/Path":     "https://Auth.Example.com/Path",
	}
	for in, want := range ok {
		u, err := checkServiceURL(in, "base URL")
		if err != nil {
			t.Errorf("%q: %v", in, err)
		} else if u.String() != want {
			t.Errorf("%q -> %q, want %q", in, u, want)
		}
	}
	bad := map[string]string{
		"http://example.com":             "must use https unless the host is loopback",
		"http://127.0.0.1.example.com":   "must use https unless the host is loopback",
		"http://[::2]":                   "must use https unless the host is loopback",
		"ftp://example.com":              "scheme",
		"https://":                       "host",
		"http://:8080":                   "host",
		"example.com":                    "absolute URL",
		"":                               "empty",
		"https://user:pa55word@host.com": "user name or password",
		"https://host.com/?token=abc123": "query",
		"https://host.com/#xyzzy":        "fragment",
		"https://host.com:99999999x/":    "not a valid URL",
	}
	for in, want := range bad {
		_, err := checkServiceURL(in, "base URL")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "base URL") {
			t.Errorf("%q: err = %v, want it to mention %q", in, err, want)
			continue
		}
		for _, secret := range []string{"pa55word", "abc123", "xyzzy"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%q: error %q repeats %q", in, err, secret)
			}
		}
	}
}

func TestURLLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost.": true, "127.0.0.1": true, "127.255.0.9": true,
		"::1": true, "[::1]": true, "::ffff:127.0.0.1": true,
		"128.0.0.1": false, "example.com": false, "localhost.example.com": false, "::": false, "": false, "0.0.0.0": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v", host, got)
		}
	}
}
