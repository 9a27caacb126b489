package bus

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"chainwatch/api"
)

// UnavailableError is a request the host cannot answer from the bus: the
// bus or the source is away, the source's last fetch of it failed, or the
// source has not answered it yet. The host's monitor books it as a failed
// fetch: the screen says STALE and keeps what it shows.
type UnavailableError struct{ Reason string }

func (e *UnavailableError) Error() string { return "the bus: " + e.Reason }

// IsUnavailable reports whether err is the bus's refusal.
func IsUnavailable(err error) bool {
	var u *UnavailableError
	return errors.As(err, &u)
}

// Replay answers a request with the source's latest answer to it (the
// first of keys it has). A key never answered yet waits a moment for the
// source's first answer (the host's want just went out).
func (h *Host) Replay(ctx context.Context, keys []string) (api.Answer, error) {
	mode := h.modeOf(ctx)
	var a api.Answer
	err := h.wait(ctx, func() (bool, error) {
		for _, k := range keys {
			got, ok := h.answers[mode][k]
			if !ok {
				continue
			}
			if f, failed := h.failedSince(mode, got); failed {
				return true, &UnavailableError{Reason: "the source's last fetch failed: " + f}
			}
			a = got.Answer
			return true, nil
		}
		if f, failed := h.failedBefore(mode, keys); failed {
			return true, &UnavailableError{Reason: "the source's fetch failed: " + f}
		}
		return false, nil
	})
	return a, err
}

// failedBefore is the source's failure of the endpoint and symbol of a
// request never answered (an unknown symbol: the source will not ask
// again), when no answer of them came after it.
func (h *Host) failedBefore(mode api.Mode, keys []string) (string, bool) {
	if len(keys) == 0 {
		return "", false
	}
	f := strings.SplitN(keys[0], " ", 3)
	if len(f) < 3 {
		return "", false
	}
	p, rawq, _ := strings.Cut(f[2], "?")
	q, _ := url.ParseQuery(rawq)
	ep := path.Base(p)
	for _, k := range []string{failKey(ep, symbolOf(q)), failKey(ep, "")} {
		if fail, ok := h.fails[mode][k]; ok && fail.At.After(h.okAt[mode][k]) {
			return fail.Err, true
		}
	}
	return "", false
}

// ReplayFamily answers a tape's request with every page of its family the
// source fetched within the window, oldest first.
func (h *Host) ReplayFamily(ctx context.Context, family string) ([]api.Answer, error) {
	mode := h.modeOf(ctx)
	var pages []api.Answer
	err := h.wait(ctx, func() (bool, error) {
		ps := h.pages[mode][family]
		if len(ps) == 0 {
			return false, nil
		}
		if f, failed := h.failedSince(mode, ps[len(ps)-1]); failed {
			return true, &UnavailableError{Reason: "the source's last fetch failed: " + f}
		}
		// Pages kept from a source's earlier run on an earlier clock (a
		// sandbox's --sandbox-clock starts its day again) lie ahead of
		// the source's clock now: a tape never shows prints from after it.
		late := time.Now().Add(h.offset + futureSlack)
		pages = make([]api.Answer, 0, len(ps))
		for _, p := range ps {
			if !p.At.After(late) {
				pages = append(pages, p.Answer)
			}
		}
		return len(pages) > 0, nil
	})
	return pages, err
}

func (h *Host) modeOf(ctx context.Context) api.Mode {
	if m, ok := api.ReplayMode(ctx); ok {
		return m
	}
	return api.Live
}

// wait calls found under the lock until it finds an answer (or an error)
// while the bus and the source are up, at most answerWait.
func (h *Host) wait(ctx context.Context, found func() (bool, error)) error {
	deadline := time.NewTimer(answerWait)
	defer deadline.Stop()
	for {
		h.mu.Lock()
		down := h.downLocked()
		var ok bool
		var err error
		if down == "" {
			ok, err = found()
		}
		ch := h.changed
		h.mu.Unlock()
		if ok {
			return err
		}
		select {
		case <-ch:
			continue
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
		case <-h.ctx.Done():
		}
		if down != "" {
			return &UnavailableError{Reason: down}
		}
		return &UnavailableError{Reason: "waiting for the source's first answer"}
	}
}

// downLocked says why nothing can be answered now: the bus is away, or
// the source is silent; "" when both are up.
func (h *Host) downLocked() string {
	switch {
	case !h.nc.IsConnected():
		return "disconnected, reconnecting"
	case h.beatAt.IsZero():
		return "no source on the bus yet"
	case h.source.Gone:
		return fmt.Sprintf("the source (%s) stopped", h.source.Host)
	case time.Since(h.beatAt) > sourceLost:
		return fmt.Sprintf("the source (%s) is silent since %s", h.source.Host, h.beatAt.Add(h.offset).In(api.Eastern).Format("15:04:05"))
	}
	return ""
}

// failedSince is the source's failure of a's endpoint and symbol newer
// than a, if any.
func (h *Host) failedSince(mode api.Mode, a held) (string, bool) {
	for _, k := range []string{failKey(a.Endpoint.String(), a.symbol), failKey(a.Endpoint.String(), "")} {
		if f, ok := h.fails[mode][k]; ok && f.At.After(a.At) {
			return f.Err, true
		}
	}
	return "", false
}
