package cmd

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/record"
	"chainwatch/text"
)

// replayBaseURL is a replaying client's base URL: never dialled, since a
// client with a replay source answers every request from it and sends
// nothing (api.WithReplay).
const replayBaseURL = "http://127.0.0.1/"

// parseMoment reads --replay's moment: RFC 3339 with its offset, or a
// date and time without one, taken as Eastern (the market's clock).
func parseMoment(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, api.Eastern); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--replay %s: want a moment such as 2026-11-24T10:00:20-05:00 (or 2026-11-24T10:00:20, Eastern)", text.Quote(s))
}

// executeReplay runs j on the recording as at h.replayAt: nothing is
// sent, nothing spent; a moment with nothing recorded is exit status 3
// naming the nearest recorded moments.
func (h *headless) executeReplay(format Format, fc config.File, mode api.Mode, j job) error {
	if h.WatchSet {
		return badInput(errors.New("--replay answers as at one moment; --watch cannot run with it"))
	}
	dir, err := config.RecordDir(h.Getenv)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	day, err := record.OpenDay(dir, api.Today(h.replayAt))
	if errors.Is(err, record.ErrNoDay) {
		return noData(&api.NotRecordedError{At: h.replayAt, What: "that day", Nearest: nearestDays(dir, h.replayAt)})
	}
	if err != nil {
		return err
	}
	defer day.Close()
	for _, p := range day.Problems {
		fmt.Fprintf(h.ErrOut, "chainwatch: warning: recording of %s: %s\n", day.Date, text.OneLine(p, 0))
	}
	now := h.Now
	client, err := api.NewClient(api.WithBaseURL(replayBaseURL), api.WithMode(mode), api.WithClock(now), api.WithReplay(day.At(now)))
	if err != nil {
		return err
	}
	fmt.Fprintf(h.ErrOut, "chainwatch: replaying the recording%s as at %s: nothing is sent, 0 points\n", sandboxNote(day), h.replayAt.Format(time.RFC3339))
	err = h.run(client, mode, format, fc, j)
	if api.IsNotRecorded(err) && !errors.As(err, new(noDataError)) {
		return noData(err)
	}
	return err
}

// nearestDays are the recorded moments closest to at on other days: the
// last of the day before it and the first of the day after.
func nearestDays(dir string, at time.Time) []time.Time {
	days, err := record.List(dir)
	if err != nil {
		return nil
	}
	var before, after time.Time
	for _, d := range days {
		if d.Answers == 0 {
			continue
		}
		if !d.Last.After(at) {
			before = d.Last
		} else if after.IsZero() && d.First.After(at) {
			after = d.First
		}
	}
	var out []time.Time
	for _, t := range []time.Time{before, after} {
		if !t.IsZero() {
			out = append(out, t.In(api.Eastern))
		}
	}
	return out
}

// sandboxNote marks a replay of a day recorded from a sandbox, so that
// its simulated market never passes for a real one.
func sandboxNote(day *record.Day) string {
	if day.Sandbox() {
		return " of the sandbox's simulated market"
	}
	return ""
}
