package alert

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"chainwatch/api"
	"chainwatch/config"
)

// Log is the fired-event log: a file of JSON lines in the state
// directory, appended to and never rewritten in place, so that a restart
// knows what fired (nothing fires twice for one event) and whether each
// rule is armed. Several chainwatch processes may share it (a screen and
// `chainwatch alerts --watch`): each append holds the file's lock and
// first reads what the others appended, so an event one of them fired is
// not fired again by the other. Past max lines the file is rewritten,
// atomically, with its newest half and each rule's last state.
//
// A Log with no path keeps the same account in memory only.
type Log struct {
	path   string
	max    int
	mu     sync.Mutex
	keys   map[string]struct{}
	state  map[string]Record // each rule's last record
	recent []Record          // the newest records, oldest first, at most recentMax
	offset int64             // bytes of the file read
	lines  int               // lines in the file
}

// recentMax is how many records the page and `alerts --log` may show.
const recentMax = 1000

// lockWait bounds the wait for another process's append.
const lockWait = 5 * time.Second

// OpenLog reads the log at path ("" for none: in memory), keeping at most
// max lines (config.AlertLogMax when 0). A missing file is an empty log;
// a torn last line (a crash mid-write) is skipped.
func OpenLog(path string, max int) (*Log, error) {
	if max <= 0 {
		max = config.AlertLogMax
	}
	l := &Log{path: path, max: max, keys: map[string]struct{}{}, state: map[string]Record{}}
	if path == "" {
		return l, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l, l.readNew()
}

// readNew reads what was appended since the last read (another process's
// lines), or the whole file again when it was rewritten meanwhile.
func (l *Log) readNew() error {
	f, err := os.Open(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < l.offset { // rewritten by another process
		l.offset, l.lines, l.recent = 0, 0, nil
		clear(l.keys)
		clear(l.state)
	}
	if _, err := f.Seek(l.offset, io.SeekStart); err != nil {
		return err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[len(line)-1] != '}' {
			break // a line being written: read it next time
		}
		l.offset += int64(len(line)) + 1
		l.lines++
		var r Record
		if json.Unmarshal(line, &r) == nil {
			l.note(r)
		}
	}
	return sc.Err()
}

// note takes a record into the account.
func (l *Log) note(r Record) {
	if r.Type == Fired {
		l.keys[r.Key()] = struct{}{}
	}
	if r.Type == Fired || r.Type == Rearmed {
		l.state[r.Rule] = r
	}
	l.recent = append(l.recent, r)
	if len(l.recent) > recentMax {
		l.recent = append(l.recent[:0:0], l.recent[len(l.recent)-recentMax/2:]...)
	}
}

// Armed is what the log says of a rule defined as def: fired (not armed)
// or re-armed; known is false when it says nothing of that definition.
func (l *Log) Armed(rule, def string) (armed, known bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.state[rule]
	if !ok || r.Def != def {
		return true, false
	}
	return r.Type == Rearmed, true
}

// Append writes recs, dropping the fired ones whose event is in the log
// already (fired before a restart, or by another process), and returns
// those it kept. A write that fails still keeps them in memory: the
// session does not fire them twice, and the error says the log is behind.
func (l *Log) Append(recs []Record) ([]Record, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var unlock func()
	var err error
	if l.path != "" {
		ctx, cancel := context.WithTimeout(context.Background(), lockWait)
		unlock, err = api.LockFile(ctx, l.path+".lock")
		cancel()
		if err == nil {
			defer unlock()
			err = l.readNew()
		}
	}
	kept := recs[:0:0]
	var buf bytes.Buffer
	for _, r := range recs {
		if _, dup := l.keys[r.Key()]; r.Type == Fired && dup {
			continue
		}
		l.note(r)
		kept = append(kept, r)
		buf.Write(r.JSON())
		buf.WriteByte('\n')
	}
	if l.path == "" || len(kept) == 0 || err != nil {
		return kept, err
	}
	if err := l.write(buf.Bytes(), len(kept)); err != nil {
		return kept, err
	}
	if l.lines > l.max {
		return kept, l.compact()
	}
	return kept, nil
}

// write appends b (n lines) in one write: a reader sees whole lines.
func (l *Log) write(b []byte, n int) error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	l.offset += int64(len(b))
	l.lines += n
	return nil
}

// compact rewrites the file with its newest max/2 records and the last
// record of every rule not among them, so the log stays bounded and a
// restart still knows each rule's state. It holds the lock (Append).
func (l *Log) compact() error {
	data, err := os.ReadFile(l.path)
	if err != nil {
		return err
	}
	var lines [][]byte
	for _, ln := range bytes.Split(data, []byte("\n")) {
		if len(ln) > 0 {
			lines = append(lines, ln)
		}
	}
	keep := l.max / 2
	cut := max(len(lines)-keep, 0)
	var out bytes.Buffer
	last := map[string]int{}
	for i, ln := range lines[:cut] {
		var r Record
		if json.Unmarshal(ln, &r) == nil && (r.Type == Fired || r.Type == Rearmed) {
			last[r.Rule] = i
		}
	}
	for i, ln := range lines {
		var r Record
		if i < cut && (json.Unmarshal(ln, &r) != nil || last[r.Rule] != i) {
			continue
		}
		out.Write(ln)
		out.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(l.path), "."+filepath.Base(l.path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(out.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), l.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	// The account is the file's again: the keys of events gone from it
	// go from memory too, so the session stays bounded as the file does.
	l.offset, l.lines, l.recent = 0, 0, nil
	clear(l.keys)
	clear(l.state)
	return l.readNew()
}

// Recent are the newest n records, newest first.
func (l *Log) Recent(n int) []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	n = min(n, len(l.recent))
	out := make([]Record, 0, n)
	for i := len(l.recent) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, l.recent[i])
	}
	return out
}
