package cmd

import (
	"context"
	"errors"
	"fmt"
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

func newLoginCmd(deps cliDeps) *cobra.Command {
	var (
		f         serviceFlags
		noBrowser bool
		scopes    []string
	)
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
			authURL := pick(f.authURL, deps.getenv, envAuthURL)
			if authURL == "" {
				return fmt.Errorf("login needs the token service's address: pass --auth-url or set %s (to try chainwatch locally, run `chainwatch sandbox` in another terminal and use the auth_url and base_url it prints)", envAuthURL)
			}
			clientID := pick(f.clientID, deps.getenv, envClientID)
			if clientID == "" {
				clientID = sandbox.NativeClientID
			}
			path, err := tokenPath(f, deps.getenv)
			if err != nil {
				return err
			}
			cfg := api.AuthConfig{AuthURL: authURL, ClientID: clientID, ClientSecret: deps.getenv(envClientSecret), Scopes: scopes}
			opts := api.LoginOptions{Out: cmd.OutOrStdout()}
			if !noBrowser {
				opts.OpenBrowser = deps.openBrowser
			}
			if noBrowser || deps.stdinIsTerminal {
				opts.Paste = cmd.InOrStdin()
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), loginTimeout)
			defer cancel()
			tok, err := cfg.Login(ctx, opts)
			if err != nil {
				return err
			}
			svc := &api.LoginService{AuthURL: authURL, BaseURL: pick(f.baseURL, deps.getenv, envBaseURL), ClientID: clientID, Scopes: scopes}
			if err := (api.FileTokenStore{Path: path}).SaveLogin(tok, svc); err != nil {
				return err
			}
			who := ""
			if u, err := cfg.UserInfo(ctx, cfg.NewRefreshingSource(tok, nil)); err == nil {
				who = " as " + u.Display() // a courtesy: a service may not offer userinfo for these scopes
			}
			fmt.Fprintf(cmd.OutOrStdout(), "\nLogged in to %s%s. The login is kept in %s.\n", authURL, who, path)
			if tok.RefreshToken == "" {
				fmt.Fprintln(cmd.OutOrStdout(), "The service issued no refresh token, so you will need to log in again when the access token expires.")
			}
			return nil
		},
	}
	addServiceFlags(cmd, &f)
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "do not open a browser; print the address and read the pasted answer (for SSH sessions)")
	cmd.Flags().StringSliceVar(&scopes, "scope", nil, "scopes to ask for (default api.allaccess,offline_access)")
	return cmd
}

func newLogoutCmd(deps cliDeps) *cobra.Command {
	var f serviceFlags
	cmd := &cobra.Command{
		Use:   "logout",
		Short: "Revoke the stored login at the service and forget it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := tokenPath(f, deps.getenv)
			if err != nil {
				return err
			}
			store := api.FileTokenStore{Path: path}
			tok, svc, loadErr := store.LoadLogin()
			if loadErr == nil && tok == nil {
				fmt.Fprintln(cmd.OutOrStdout(), "Not logged in.")
				return nil
			}
			revokeErr := loadErr
			if loadErr == nil {
				revokeErr = revokeLogin(cmd.Context(), tok, svc, deps.getenv(envClientSecret))
			}
			if err := store.Delete(); err != nil {
				return err
			}
			if revokeErr != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: could not revoke the login at the service (%v); it stays valid there until it expires\n", revokeErr)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Logged out; %s is deleted.\n", path)
			return nil
		},
	}
	cmd.Flags().StringVar(&f.tokenFile, "token-file", "", "where the login is kept (env "+envTokenFile+")")
	return cmd
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
	var errs []error
	if tok.RefreshToken != "" {
		errs = append(errs, cfg.Revoke(ctx, tok.RefreshToken, "refresh_token"))
	}
	if tok.AccessToken != "" {
		errs = append(errs, cfg.Revoke(ctx, tok.AccessToken, "access_token"))
	}
	return errors.Join(errs...)
}
