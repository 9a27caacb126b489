package record

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"chainwatch/api"
)

// Day is one recorded day, read for replaying: its answers by request,
// in time order, and where their bodies are.
type Day struct {
	Date     api.Date
	Problems []string // damaged or cut-off segments (skipped)
	Sources  []string // where the answers came from (DayInfo.Sources)
	byKey    map[string][]entry
	byFamily map[string][]entry
	bodies   map[uint64]bodyLoc
	times    []time.Time // every answer's moment, sorted

	mu    sync.Mutex // guards what follows: reading bodies back
	dec   *zstd.Decoder
	cache []readBody       // the latest bodies read, oldest first
	bad   map[uint64]error // bodies that did not read back
}

// ErrNoDay is a day with nothing recorded.
var ErrNoDay = errors.New("nothing recorded that day")

// OpenDay reads day's recording under dir.
func OpenDay(dir string, day api.Date) (*Day, error) {
	s, err := scanDay(filepath.Join(dir, day.String()))
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(s.answers) == 0) {
		return nil, fmt.Errorf("%s: %w", day, ErrNoDay)
	}
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	d := &Day{Date: day, Problems: s.problems, Sources: s.sources, byKey: map[string][]entry{}, byFamily: map[string][]entry{}, bodies: s.bodies, dec: dec,
		bad: map[uint64]error{}}
	for _, a := range s.answers {
		d.byKey[a.Key] = append(d.byKey[a.Key], a)
		if a.Family != "" {
			d.byFamily[a.Family] = append(d.byFamily[a.Family], a)
		}
		d.times = append(d.times, a.at())
	}
	for _, m := range []map[string][]entry{d.byKey, d.byFamily} {
		for _, list := range m {
			sort.SliceStable(list, func(i, j int) bool { return list[i].At < list[j].At })
		}
	}
	slices.SortFunc(d.times, func(a, b time.Time) int { return a.Compare(b) })
	return d, nil
}

// Sandbox reports whether some of the day's answers came from a
// sandbox's simulated market.
func (d *Day) Sandbox() bool { return slices.Contains(d.Sources, SandboxSource) }

// Span is the first and the last recorded moment.
func (d *Day) Span() (first, last time.Time) { return d.times[0], d.times[len(d.times)-1] }

// Close lets go of the decoder.
func (d *Day) Close() { d.dec.Close() }

// At is a replay source answering as at the moment now returns.
func (d *Day) At(now func() time.Time) *Source { return &Source{day: d, now: now} }

// Source answers requests from a day's recording as at its clock's
// moment (api.Replay).
type Source struct {
	day *Day
	now func() time.Time
}

// Replay returns the last answer to one of keys at or before the moment;
// an answer whose body is damaged gives way to the one before it.
func (s *Source) Replay(ctx context.Context, keys []string) (api.Answer, error) {
	at := s.now()
	var near []time.Time
	for _, k := range keys {
		list := s.day.byKey[k]
		i := sort.Search(len(list), func(i int) bool { return list[i].at().After(at) })
		for j := i - 1; j >= 0; j-- {
			body, err := s.day.body(list[j].meta)
			if err == nil {
				return answerOf(list[j].meta, body), nil
			}
		}
		if i < len(list) {
			near = append(near, list[i].at())
		}
	}
	if len(near) == 0 {
		near = s.day.nearest(at)
	}
	slices.SortFunc(near, func(a, b time.Time) int { return a.Compare(b) })
	return api.Answer{}, &api.NotRecordedError{At: at, What: keys[0], Nearest: near[:min(len(near), 2)]}
}

// ReplayFamily returns every answer of family at or before the moment
// whose body reads back, oldest first.
func (s *Source) ReplayFamily(ctx context.Context, family string) ([]api.Answer, error) {
	at := s.now()
	list := s.day.byFamily[family]
	i := sort.Search(len(list), func(i int) bool { return list[i].at().After(at) })
	var out []api.Answer
	for _, e := range list[:i] {
		if body, err := s.day.body(e.meta); err == nil {
			out = append(out, answerOf(e.meta, body))
		}
	}
	if len(out) == 0 {
		near := s.day.nearest(at)
		if i < len(list) {
			near = []time.Time{list[i].at()}
		}
		return nil, &api.NotRecordedError{At: at, What: family, Nearest: near}
	}
	return out, nil
}

// nearest are the recorded moments of any answer on either side of at.
func (d *Day) nearest(at time.Time) []time.Time {
	i := sort.Search(len(d.times), func(i int) bool { return d.times[i].After(at) })
	var out []time.Time
	if i > 0 {
		out = append(out, d.times[i-1])
	}
	if i < len(d.times) {
		out = append(out, d.times[i])
	}
	return out
}

func answerOf(m meta, body []byte) api.Answer {
	return api.Answer{Key: m.Key, Status: m.Status, Body: body, At: m.at(), Cost: m.Cost,
		Endpoint: api.Endpoint(m.Endpoint), Mode: api.Mode(m.Mode)}
}
