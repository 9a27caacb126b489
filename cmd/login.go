package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/oauth2"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// loginTimeout bounds the wait for the browser: long enough to find a
// password, short enough that a forgotten login does not hold a port.
const loginTimeout = 10 * time.Minute

func addServiceFlags(cmd *cobra.Command, f *serviceFlags) {
	cmd.Flags().StringVar(&f.authURL, "auth-url", "", "token service URL, {auth_url} (env "+envAuthURL+")")
	cmd.Flags().StringVar(&f.baseURL, "base-url", "", "data service URL, {base_url} (env "+envBaseURL+")")
	cmd.Flags().StringVar(&f.clientID, "client-id", "", "OAuth client ID (env "+envClientID+"; default "+sandbox.NativeClientID+")")
	cmd.Flags().StringVar(&f.tokenFile, "token-file", "", "where the login is kept (env "+envTokenFile+"; default in the user config directory)")
}

// LoginOptions are `chainwatch login`'s inputs.
type LoginOptions struct {
	In          io.Reader
	Out         io.Writer
	Getenv      func(string) string
	Context     context.Context
	OpenBrowser func(url string) error
	// StdinIsTerminal: a pasted address is also read while a browser is
	// open, since a user may have signed in elsewhere.
	StdinIsTerminal bool
	Service         serviceFlags
	NoBrowser       bool
	Scopes          []string
}

// NewCmdLogin signs in with the authorization code flow and keeps the
// login; runF replaces loginRun in tests of the flags.
func NewCmdLogin(deps Deps, runF func(*LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{Getenv: deps.getenv, OpenBrowser: deps.openBrowser, StdinIsTerminal: deps.stdinIsTerminal}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in to the service in a browser and keep the login",
		Long: `Sign in with the OAuth 2.0 authorization code flow and PKCE. chainwatch
listens on 127.0.0.1 for the browser's answer and opens the system browser.

On a machine without a browser (an SSH session), use --no-browser: open the
printed address in a browser anywhere, sign in, and paste back the address of
the page the browser lands on (it fails to load; its address holds the code).

The login (a refresh token) is kept in a file only you can read, and later
runs of chainwatch use it. ` + "`chainwatch logout`" + ` revokes and forgets it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.In, opts.Out, opts.Context = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return loginRun(opts)
		},
	}
	addServiceFlags(cmd, &opts.Service)
	cmd.Flags().BoolVar(&opts.NoBrowser, "no-browser", false, "do not open a browser; print the address and read the pasted answer (for SSH sessions)")
	cmd.Flags().StringSliceVar(&opts.Scopes, "scope", nil, "scopes to ask for (default api.allaccess,offline_access)")
	return cmd
}

func loginRun(o *LoginOptions) error {
	f := o.Service
	authURL := pick(f.authURL, o.Getenv, envAuthURL)
	if authURL == "" {
		return badInput(fmt.Errorf("login needs the token service's address: pass --auth-url or set %s (to try chainwatch locally, run `chainwatch sandbox` in another terminal and use the auth_url and base_url it prints)", envAuthURL))
	}
	baseURL := pick(f.baseURL, o.Getenv, envBaseURL)
	for _, u := range []struct{ flag, val string }{{"--auth-url", authURL}, {"--base-url", baseURL}} {
		if u.val == "" {
			continue
		}
		if err := api.CheckServiceURL(u.val, u.flag); err != nil {
			return badInput(err) // before a browser opens or a port is taken
		}
	}
	clientID := pick(f.clientID, o.Getenv, envClientID)
	if clientID == "" {
		clientID = sandbox.NativeClientID
	}
	path, err := tokenPath(f, o.Getenv)
	if err != nil {
		return err
	}
	cfg := api.AuthConfig{AuthURL: authURL, ClientID: clientID, ClientSecret: o.Getenv(envClientSecret), Scopes: o.Scopes}
	lo := api.LoginOptions{Out: o.Out}
	if !o.NoBrowser {
		lo.OpenBrowser = o.OpenBrowser
	}
	if o.NoBrowser || o.StdinIsTerminal {
		lo.Paste = o.In
	}
	ctx, cancel := context.WithTimeout(o.Context, loginTimeout)
	defer cancel()
	tok, err := cfg.Login(ctx, lo)
	if errors.Is(err, api.ErrPasteEnded) {
		return badInput(err) // stdin at its end: nothing to paste from
	}
	if err != nil {
		return err
	}
	svc := &api.LoginService{AuthURL: authURL, BaseURL: baseURL, ClientID: clientID, Scopes: o.Scopes}
	store := api.FileTokenStore{Path: path}
	if err := store.SaveLogin(tok, svc); err != nil {
		return err
	}
	who := ""
	// With the store: if this call refreshes (an access token that lives
	// seconds), the rotated refresh token is the one kept, not the dead one.
	if u, err := cfg.UserInfo(ctx, cfg.NewRefreshingSource(tok, store)); err == nil {
		who = " as " + u.Display() // a courtesy: a service may not offer userinfo for these scopes
	}
	fmt.Fprintf(o.Out, "\nLogged in to %s%s. The login is kept in %s.\n", authURL, who, path)
	if tok.RefreshToken == "" {
		fmt.Fprintln(o.Out, "The service issued no refresh token, so you will need to log in again when the access token expires.")
	}
	return nil
}

// LogoutOptions are `chainwatch logout`'s inputs.
type LogoutOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Context     context.Context
	Service     serviceFlags
}

// NewCmdLogout revokes the stored login and forgets it; runF replaces
// logoutRun in tests of the flags.
func NewCmdLogout(deps Deps, runF func(*LogoutOptions) error) *cobra.Command {
	opts := &LogoutOptions{Getenv: deps.getenv}
	cmd := &cobra.Command{
		Use:   "logout",
		Short: "Revoke the stored login at the service and forget it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Out, opts.ErrOut, opts.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return logoutRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Service.tokenFile, "token-file", "", "where the login is kept (env "+envTokenFile+")")
	return cmd
}

func logoutRun(o *LogoutOptions) error {
	path, err := tokenPath(o.Service, o.Getenv)
	if err != nil {
		return err
	}
	store := api.FileTokenStore{Path: path}
	tok, svc, loadErr := store.LoadLogin()
	if loadErr == nil && tok == nil {
		fmt.Fprintln(o.Out, "Not logged in.")
		return nil
	}
	if loadErr != nil {
		// Not a token file chainwatch wrote (or no longer readable as one):
		// --token-file may point anywhere, and logout must never delete a
		// file it does not understand.
		return badInput(fmt.Errorf("%w; %s is kept: logout deletes only a chainwatch token file (remove it yourself if it is one)", loadErr, path))
	}
	revokeErr := revokeLogin(o.Context, tok, svc, o.Getenv(envClientSecret))
	if err := store.Delete(); err != nil {
		return err
	}
	if revokeErr != nil {
		fmt.Fprintf(o.ErrOut, "warning: could not revoke the login at the service (%s); it stays valid there until it expires\n", revokeErr)
	}
	fmt.Fprintf(o.Out, "Logged out; %s is deleted.\n", path)
	return nil
}

// revokeLogin revokes the refresh token (which ends the whole grant, its
// access tokens included) and the access token as well, for a server that
// does not tie the two together.
func revokeLogin(ctx context.Context, tok *oauth2.Token, svc *api.LoginService, secret string) error {
	if svc == nil || svc.AuthURL == "" || svc.ClientID == "" {
		return errors.New("the token file does not say which service issued it")
	}
	cfg := api.AuthConfig{AuthURL: svc.AuthURL, ClientID: svc.ClientID, ClientSecret: secret}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// Both revocations usually fail for the same reason (the service is
	// down): say it once.
	var msgs []string
	for _, t := range []struct{ tok, hint string }{{tok.RefreshToken, "refresh_token"}, {tok.AccessToken, "access_token"}} {
		if t.tok == "" {
			continue
		}
		if err := cfg.Revoke(ctx, t.tok, t.hint); err != nil && !slices.Contains(msgs, err.Error()) {
			msgs = append(msgs, err.Error())
		}
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; "))
	}
	return nil
}
