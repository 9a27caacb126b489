package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"chainwatch/api"
)

// DayInfo is what `chainwatch record list` says of a recorded day.
type DayInfo struct {
	Date    string    `json:"date"`
	Symbols []string  `json:"symbols"`
	Answers int       `json:"answers"`
	Bytes   int64     `json:"bytes"`
	First   time.Time `json:"first"`
	Last    time.Time `json:"last"`
	// Sources say where the answers came from (SandboxSource, a
	// service's URL); none for a recording of the first format.
	Sources  []string `json:"sources"`
	Problems []string `json:"problems,omitempty"`
}

// days lists the day folders under dir, oldest first.
func days(dir string) ([]api.Date, error) {
	list, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []api.Date
	for _, e := range list {
		if d, err := api.ParseDate(e.Name()); err == nil && e.IsDir() {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out, nil
}

// List says what each recorded day holds, oldest first.
func List(dir string) ([]DayInfo, error) {
	ds, err := days(dir)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	out := make([]DayInfo, 0, len(ds))
	for _, d := range ds {
		s, err := scanDay(filepath.Join(dir, d.String()))
		if err != nil {
			return nil, fmt.Errorf("recording: %w", err)
		}
		info := DayInfo{Date: d.String(), Answers: len(s.answers), Bytes: s.bytes, Problems: s.problems, Symbols: []string{},
			Sources: append([]string{}, s.sources...)}
		for i, a := range s.answers {
			t := a.at()
			if i == 0 || t.Before(info.First) {
				info.First = t
			}
			if t.After(info.Last) {
				info.Last = t
			}
			if a.Symbol != "" && !slices.Contains(info.Symbols, a.Symbol) {
				info.Symbols = append(info.Symbols, a.Symbol)
			}
		}
		slices.Sort(info.Symbols)
		out = append(out, info)
	}
	return out, nil
}

// Prune removes the days before day and returns them.
func Prune(dir string, before api.Date) ([]string, error) {
	ds, err := days(dir)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	var gone []string
	for _, d := range ds {
		if d >= before {
			break
		}
		if err := os.RemoveAll(filepath.Join(dir, d.String())); err != nil {
			return gone, fmt.Errorf("recording: %w", err)
		}
		gone = append(gone, d.String())
	}
	return gone, nil
}

// pruneToCap removes the oldest days while the recording is over max
// bytes; keep (the day being recorded) is never removed.
func pruneToCap(dir string, max int64, keep api.Date) error {
	ds, err := days(dir)
	if err != nil {
		return err
	}
	sizes := make([]int64, len(ds))
	var total int64
	for i, d := range ds {
		sizes[i] = dirSize(filepath.Join(dir, d.String()))
		total += sizes[i]
	}
	for i, d := range ds {
		if total <= max || d == keep {
			break
		}
		if err := os.RemoveAll(filepath.Join(dir, d.String())); err != nil {
			return err
		}
		total -= sizes[i]
	}
	return nil
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
