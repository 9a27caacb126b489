package cmd

import (
	"fmt"
	"io"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/record"
)

// openRecorder starts the flight recorder for a run that talks to the
// service of sess, or returns nil (with the reason on errOut when it is a
// trouble) to run without it: off by --no-record or the config's
// [record] enabled = false, or a folder that cannot be made. The
// recording says where its answers come from (the sandbox or the
// service's URL, as the store of past days keeps them apart).
func openRecorder(getenv func(string) string, off bool, rc config.Record, sess *session, errOut io.Writer) *record.Recorder {
	if off || !rc.On() {
		return nil
	}
	dir, err := config.RecordDir(getenv)
	if err == nil {
		var r *record.Recorder
		if r, err = record.Open(dir, record.WithMaxBytes(rc.MaxBytes()), record.WithSource(recordSource(sess))); err == nil {
			return r
		}
	}
	fmt.Fprintf(errOut, "chainwatch: warning: %v; running without recording\n", err)
	return nil
}

// withRecorder is the client option for r, none for nil (a nil recorder
// must not become a non-nil api.Recorder).
func withRecorder(r *record.Recorder) []api.Option {
	if r == nil {
		return nil
	}
	return []api.Option{api.WithRecorder(r)}
}

// closeRecorder writes what is queued and says why recording stopped, if
// it did.
func closeRecorder(r *record.Recorder, errOut io.Writer) {
	if r == nil {
		return
	}
	err := r.Close()
	if n := r.Notice(); n != "" {
		fmt.Fprintf(errOut, "chainwatch: warning: %s\n", n)
	}
	if err != nil {
		fmt.Fprintf(errOut, "chainwatch: warning: recording: %v\n", err)
	}
}

// recordSource is where sess's answers come from, for the recording.
func recordSource(sess *session) string {
	if sess.source == fromEmbeddedSandbox {
		return record.SandboxSource
	}
	return historyService(sess)
}
