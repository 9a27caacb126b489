package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/history"
)

// historyService names the market a session's answers belong to in the
// store: the embedded sandbox's simulated market is "sandbox" (its
// address changes on every start, its market does not); any other
// service is its base URL, so a sandbox's answers never answer a real
// service's requests.
func historyService(sess *session) string {
	if sess.source == fromEmbeddedSandbox {
		return "sandbox"
	}
	return sess.baseURL
}

// openHistory opens the store of past days for the session, or returns
// nil (with the reason on errOut) to run without it: off (--no-history),
// a directory that cannot be written, a file that is not a chainwatch
// store (never touched: `chainwatch history --move-aside` moves it on the
// user's word). The database itself opens at its first use (a live chain
// never asks it), so a session that never looks at a past day pays
// nothing for it; what is found wrong only then, the store's Notice says.
func openHistory(ctx context.Context, getenv func(string) string, off bool, sess *session, errOut io.Writer, opts ...history.Option) *history.Store {
	if off {
		return nil
	}
	path, err := config.HistoryPath(getenv)
	if err == nil {
		var st *history.Store
		if st, err = history.OpenLazy(ctx, path, historyService(sess), opts...); err == nil {
			return st
		}
	}
	fmt.Fprintf(errOut, "chainwatch: warning: %s; running without history%s\n", historyProblem(err), moveAsideHint(err))
	return nil
}

// historyProblem words a store that could not be opened.
func historyProblem(err error) string {
	var bad *history.BadFileError
	if errors.As(err, &bad) {
		return bad.Error()
	}
	return fmt.Sprintf("history: %v", err)
}

// storeError is a store that does not open, with its remedy: a file that
// is not a chainwatch store (corrupt, another program's, zero-filled) is a
// local file that does not load, exit status 2 as for the config and
// positions files; anything else (a directory that cannot be read) 1.
func storeError(err error) error {
	e := fmt.Errorf("%s%s", historyProblem(err), moveAsideHint(err))
	var bad *history.BadFileError
	if errors.As(err, &bad) {
		return badInput(e)
	}
	return e
}

func moveAsideHint(err error) string {
	var bad *history.BadFileError
	if errors.As(err, &bad) {
		return " (`chainwatch history --move-aside` moves it aside; nothing is deleted)"
	}
	return ""
}

// historyLog is the store's option that logs its saving troubles to l
// (serve's log); none without one: a screen's stderr is the screen, and
// its status bar says them instead.
func historyLog(l *slog.Logger) []history.Option {
	if l == nil {
		return nil
	}
	return []history.Option{history.WithLog(l)}
}

// withHistory is the client option for st, none for nil (a nil store must
// not become a non-nil api.History).
func withHistory(st *history.Store) []api.Option {
	if st == nil {
		return nil
	}
	return []api.Option{api.WithHistory(st)}
}

// closeHistory closes st and says why it stopped saving, if it did, and
// which answers its last try at closing could not save.
func closeHistory(st *history.Store, errOut io.Writer) {
	if st == nil {
		return
	}
	err := st.Close() // its last try may save what was kept: the notice follows
	if n := st.Notice(); n != "" {
		fmt.Fprintf(errOut, "chainwatch: warning: %s\n", n)
	}
	if err != nil {
		fmt.Fprintf(errOut, "chainwatch: warning: %v\n", err)
	}
}
