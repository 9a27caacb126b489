package api

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// LoginOptions says how Login reaches the user.
type LoginOptions struct {
	// OpenBrowser opens the authorize URL in the user's browser. Nil, or
	// an error, leaves the user to open the printed URL by hand.
	OpenBrowser func(url string) error
	// Out receives the instructions: the URL, and what to paste. Required.
	Out io.Writer
	// Paste, when set, is read line by line for the address the browser
	// was finally sent to. It is for a browser on another machine (an SSH
	// session): that browser cannot reach our loopback listener, fails to
	// load the last page, and shows the address with the code in it.
	Paste io.Reader
}

// ErrPasteEnded is Login's answer when the pasted input ends (stdin at
// EOF: `login --no-browser < /dev/null`) and no browser was opened, so
// nothing can end the login but the timeout.
var ErrPasteEnded = errors.New("the input ended before the address was pasted")

// callbackPath is where the loopback listener expects the browser back.
const callbackPath = "/callback"

// redirectMsg carries one redirect to the waiting Login: the query, and
// where to report how it ended (nil for a pasted one).
type redirectMsg struct {
	raw  string
	done chan<- error
}

// Login signs the user in with the authorization code flow and PKCE
// (RFC 8252, OAuth for native apps). It listens on 127.0.0.1 at a free port
// and uses http://127.0.0.1:PORT/callback as the redirect URI (registered
// loopback redirects may use any port), opens the browser, and waits until
// the browser comes back or, with opts.Paste, until the user pastes the
// address; whichever comes first wins. ctx bounds the whole wait.
//
// A request to the listener whose state is not this login's is answered
// with an error page and otherwise ignored, so a stray or forged request
// cannot end the login. A pasted address is checked just the same.
func (c AuthConfig) Login(ctx context.Context, opts LoginOptions) (*oauth2.Token, error) {
	if opts.Out == nil {
		return nil, errors.New("auth: login: no output for the instructions")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("auth: login: cannot listen on 127.0.0.1 for the browser's answer: %w", err)
	}
	c.RedirectURL = "http://" + ln.Addr().String() + callbackPath
	req, err := c.StartAuthCode()
	if err != nil {
		ln.Close()
		return nil, err
	}
	redirects := make(chan redirectMsg)
	finished := make(chan struct{})
	srv := &http.Server{Handler: callbackHandler(req.State, redirects, finished), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx) // lets the browser's page finish
	}()
	defer close(finished) // runs first: late browser requests get their page at once

	opened := c.printLoginHelp(opts, req.URL)
	pasted := make(chan string)
	if opts.Paste != nil {
		go readPasted(ctx, opts.Paste, pasted)
	}
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("auth: login: gave up waiting for the browser: %w", ctx.Err())
		case m := <-redirects:
			tok, err := c.ExchangeRedirect(ctx, req, m.raw)
			m.done <- err
			return tok, err
		case line, ok := <-pasted:
			if !ok {
				if !opened {
					// No browser of ours to come back, and nothing more
					// to read: waiting would only run out the clock.
					return nil, fmt.Errorf("auth: login: %w; paste it into a terminal, or let chainwatch open a browser (without --no-browser)", ErrPasteEnded)
				}
				pasted = nil // input closed: keep waiting for the browser
				continue
			}
			if q, err := redirectQuery(line); err != nil || (q.Get("code") == "" && q.Get("state") == "" && q.Get("error") == "") {
				fmt.Fprintln(opts.Out, "That is not the address the browser was sent to; paste the whole address (it contains code= and state=):")
				continue
			}
			return c.ExchangeRedirect(ctx, req, line)
		}
	}
}

// printLoginHelp prints the instructions and reports whether a browser
// was opened.
func (c AuthConfig) printLoginHelp(opts LoginOptions, authURL string) bool {
	w := opts.Out
	opened := false
	if opts.OpenBrowser != nil {
		opened = opts.OpenBrowser(authURL) == nil
	}
	if opened {
		fmt.Fprintf(w, "Opened your browser to sign in. If it did not open, visit:\n\n  %s\n\n", authURL)
	} else {
		fmt.Fprintf(w, "Open this address in a browser to sign in:\n\n  %s\n\n", authURL)
	}
	if opts.Paste != nil {
		fmt.Fprintln(w, "If that browser is on another machine, it will fail to load the last page after you")
		fmt.Fprintln(w, "sign in. Copy that page's address from the address bar and paste it here:")
	} else {
		fmt.Fprintln(w, "Waiting for the browser...")
	}
	return opened
}

// readPasted sends each non-empty line of r, and closes out at the end of
// r. It may stay blocked in a read after Login returns (a terminal cannot
// be un-read); it then exits at the next line or at the end of input.
func readPasted(ctx context.Context, r io.Reader, out chan<- string) {
	defer close(out)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		select {
		case out <- line:
		case <-ctx.Done():
			return
		}
	}
}

// callbackHandler receives the browser at the redirect URI. Only a request
// with this login's state goes on to the exchange; its page then says how
// the login ended, so the user knows whether to go back to the terminal.
func callbackHandler(state string, redirects chan<- redirectMsg, finished <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Referrer-Policy", "no-referrer") // the URL holds the code
		if r.URL.Path != callbackPath {
			http.NotFound(w, r)
			return
		}
		got := r.URL.Query().Get("state")
		if subtle.ConstantTimeCompare([]byte(got), []byte(state)) != 1 {
			loginPage(w, http.StatusBadRequest, "This sign-in answer does not belong to the login chainwatch is waiting for. Start the login again from the terminal.")
			return
		}
		done := make(chan error, 1)
		select {
		case redirects <- redirectMsg{raw: r.URL.RawQuery, done: done}:
		case <-r.Context().Done():
			return
		case <-finished:
			loginPage(w, http.StatusGone, "This login has already finished. You can close this tab.")
			return
		}
		if err := <-done; err != nil {
			loginPage(w, http.StatusBadRequest, "Sign-in failed: "+err.Error()+". Return to the terminal for details.")
			return
		}
		loginPage(w, http.StatusOK, "Signed in to chainwatch. You can close this tab and return to the terminal.")
	})
}

func loginPage(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><html lang=en><meta charset=utf-8><title>chainwatch</title>"+
		"<body style=\"font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto\"><p>%s</p></body></html>\n",
		html.EscapeString(msg))
}
