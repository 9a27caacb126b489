package api

import (
	"context"
	"net/http"
	"time"
)

// The service's clock says what "today" is (service-conventions.md, "Whose
// clock says today"): every answer carries the HTTP Date header, and the
// client takes the session day from the last one, and from its own clock
// only before the first. A client whose clock is off by a day, or a
// sandbox replaying a past day (`chainwatch sandbox --clock`), then agree
// with the service: without it a replay of Nov 24 answered a client on
// Nov 26 with 400 "date must not be after today".

// skewTolerance is how far the Date header (whole seconds, and read a
// moment after it was written) may lag the client's clock and still count
// as the same clock: within it Now is the client's own clock, exactly.
const skewTolerance = 2 * time.Second

// heardDate takes the service's clock from a Date header; one that is
// missing or malformed changes nothing.
func (c *Client) heardDate(h string) {
	if h == "" {
		return
	}
	t, err := http.ParseTime(h)
	if err != nil {
		return
	}
	skew := t.Sub(c.now())
	if skew > -skewTolerance && skew < skewTolerance {
		skew = 0
	}
	c.skew.Store(int64(skew))
	c.heard.Store(true)
}

// Now is the time by the service's clock: the client's own clock moved by
// the difference the last answer's Date header showed (none before the
// first answer). Today, and every day a caller computes from Now, follow it.
func (c *Client) Now() time.Time {
	t := c.now()
	if c.heard.Load() {
		t = t.Add(time.Duration(c.skew.Load()))
	}
	return t
}

// HeardClock reports whether an answer has told the service's clock yet.
func (c *Client) HeardClock() bool { return c.heard.Load() }

// SyncClock asks the service for its clock with the one request that
// costs nothing (reference/exchanges), so that a caller computing a day
// before its first data request (the date parameter, DTE, the session)
// computes it by the service's clock. A failure is returned but changes
// nothing: the client keeps its own clock, and the data request that
// follows reports the service's trouble itself.
func (c *Client) SyncClock(ctx context.Context) error {
	_, _, err := c.Exchanges(ctx, ReferenceParams{})
	return err
}
