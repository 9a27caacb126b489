package cmd

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/record"
	"chainwatch/text"
)

// sourceReplay is the badge of a screen on the recording.
const sourceReplay = "REPLAY"

// replaySpec is `chainwatch replay`'s day, start and speed.
type replaySpec struct {
	date  string
	at    string
	speed float64
	clock *replayClock
}

// NewCmdReplay runs the watch screen on a recorded day.
func NewCmdReplay(deps Deps) *cobra.Command {
	o := &WatchOptions{Getenv: deps.getenv, Now: deps.now, RunWatch: deps.runWatch, Panics: deps.panics}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Flags.sandboxSpeed = 1 // no sandbox: the replay has a clock of its own
	spec := &replaySpec{}
	cmd := &cobra.Command{
		Use:   "replay [SYMBOL] --date D [--at HH:MM[:SS]] [--speed N]",
		Short: "Watch a recorded day again: the screen and every page on the recording",
		Long: `replay opens the watch screen on the flight recorder's recording of a day
(chainwatch record list shows the days): every page (the ladder, the tape, the vol
page, positioning, the contract page, alerts, strategies) is answered from the
recording as at the replay's clock, through the same data monitor, so it shows
what it showed then. Nothing is sent and no point spent; the header's badge says
REPLAY and the clock is the recording's.

--at sets the start (default the day's first recorded answer), --speed how many
times as fast as real time the clock runs (default 1).`,
		Example: `  chainwatch replay SPY --date 2026-11-24 --at 10:00:05
  chainwatch replay --date 2026-11-24 --speed 10`,
		Args: rootArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ErrOut, o.Args, o.Changed = cmd.ErrOrStderr(), args, cmd.Flags().Changed
			o.CommandPath = cmd.CommandPath()
			o.SuggestFor = func(string) []string { return nil }
			o.replay = spec
			return watchRun(o)
		},
		SilenceUsage: true,
	}
	fl := cmd.Flags()
	fl.StringVar(&spec.date, "date", "", "the recorded day, YYYY-MM-DD (required)")
	fl.StringVar(&spec.at, "at", "", "the moment to start at, HH:MM or HH:MM:SS Eastern (default the day's first recorded answer)")
	fl.Float64Var(&spec.speed, "speed", 1, "how many times as fast as real time the replay's clock runs (0.1 to 1000)")
	fl.StringVar(&o.Flags.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	fl.StringVar(&o.Flags.theme, "theme", config.DefaultTheme, "colours: auto (from the terminal's background), dark or light")
	fl.BoolVar(&o.Flags.noColor, "no-color", false, "no colours at all (also when NO_COLOR is set)")
	_ = cmd.MarkFlagRequired("date")
	return cmd
}

// open reads the day and makes the client that answers from it on the
// replay's clock, which becomes the screen's (o.Now).
func (r *replaySpec) open(o *WatchOptions, set watchSettings) (*watchConn, error) {
	day, err := api.ParseDate(r.date)
	if err != nil || !day.Valid() {
		return nil, badInput(fmt.Errorf("--date %s: want a recorded day YYYY-MM-DD", text.Quote(r.date)))
	}
	if math.IsNaN(r.speed) || r.speed < 0.1 || r.speed > 1000 {
		return nil, badInput(fmt.Errorf("--speed %v: want 0.1 to 1000", r.speed))
	}
	dir, err := config.RecordDir(o.Getenv)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	rec, err := record.OpenDay(dir, day)
	if errors.Is(err, record.ErrNoDay) {
		return nil, noData(fmt.Errorf("%w; chainwatch record list shows the recorded days", err))
	}
	if err != nil {
		return nil, err
	}
	for _, p := range rec.Problems {
		fmt.Fprintf(o.ErrOut, "chainwatch: warning: recording of %s: %s\n", day, text.OneLine(p, 0))
	}
	first, last := rec.Span()
	start := first
	if r.at != "" {
		if start, err = atOn(day, r.at); err != nil {
			rec.Close()
			return nil, badInput(err)
		}
	}
	if start.Before(first) || start.After(last) {
		rec.Close()
		return nil, noData(fmt.Errorf("--at %s: %s is recorded from %s to %s", r.at, day,
			first.In(api.Eastern).Format("15:04:05"), last.In(api.Eastern).Format("15:04:05")))
	}
	r.clock = newReplayClock(start, r.speed)
	r.clock.first, r.clock.last = first, last
	if rec.Sandbox() {
		r.clock.badge = "REPLAY SANDBOX"
	}
	o.Now = r.clock.Now
	client, err := api.NewClient(api.WithBaseURL(replayBaseURL), api.WithMode(set.mode), api.WithClock(o.Now), api.WithReplay(rec.At(o.Now)))
	if err != nil {
		rec.Close()
		return nil, err
	}
	return &watchConn{client: client, source: sourceReplay, baseURL: "recording of " + day.String() + sandboxNote(rec), closers: []func(){rec.Close}}, nil
}

// atOn is --at on day, Eastern.
func atOn(day api.Date, at string) (time.Time, error) {
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.ParseInLocation(layout, at, api.Eastern); err == nil {
			y, m, d := day.Year(), day.Month(), day.Day()
			return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, api.Eastern), nil
		}
	}
	return time.Time{}, fmt.Errorf("--at %s: want HH:MM or HH:MM:SS (Eastern)", text.Quote(at))
}

// replayClock is the replay's clock: the recording's moment, running at
// speed from start, which pause, a change of speed and a jump move.
type replayClock struct {
	mu     sync.Mutex
	base   time.Time // the moment at wall
	wall   time.Time
	speed  float64
	paused bool
	// first and last bound a jump: the recorded span.
	first, last time.Time
	badge       string // REPLAY, or REPLAY SANDBOX for a sandbox's day
}

func newReplayClock(start time.Time, speed float64) *replayClock {
	return &replayClock{base: start, wall: time.Now(), speed: speed, badge: sourceReplay}
}

// Now is the replay's moment.
func (c *replayClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *replayClock) nowLocked() time.Time {
	if c.paused {
		return c.base
	}
	return c.base.Add(time.Duration(float64(time.Since(c.wall)) * c.speed))
}

// rebase starts the clock again from its present moment, so a change of
// speed or a pause does not move the moment already reached.
func (c *replayClock) rebase() {
	c.base, c.wall = c.nowLocked(), time.Now()
}

// TogglePause stops the clock or starts it again.
func (c *replayClock) TogglePause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rebase()
	c.paused = !c.paused
}

// Scale multiplies the speed by factor, within 0.1 to 1000.
func (c *replayClock) Scale(factor float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rebase()
	c.speed = min(max(c.speed*factor, 0.1), 1000)
}

// Jump moves the moment by d, within the recorded span.
func (c *replayClock) Jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rebase()
	t := c.base.Add(d)
	if !c.first.IsZero() && t.Before(c.first) {
		t = c.first
	}
	if !c.last.IsZero() && t.After(c.last) {
		t = c.last
	}
	c.base = t
}

// State is the moment and the speed, for the status bar.
func (c *replayClock) State() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.badge + " " + c.nowLocked().In(api.Eastern).Format("15:04:05")
	if c.paused {
		return s + " paused"
	}
	return s + " x" + strconv.FormatFloat(c.speed, 'g', 4, 64)
}
