package faults

import (
	"bytes"
	"net/http"
)

// Buffered is a handler's whole answer, held before anything is sent:
// truncate needs its length to announce it, the token endpoint's answer
// is looked at and fixed first. It offers Flush (a no-op) so handlers
// that stream still run.
type Buffered struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Buffer runs next on r into a Buffered whose header map is header (the
// real response's, to write through it; nil: a map of its own).
func Buffer(next http.Handler, r *http.Request, header http.Header) *Buffered {
	if header == nil {
		header = http.Header{}
	}
	b := &Buffered{header: header}
	next.ServeHTTP(b, r)
	return b
}

// Status is the status the handler wrote, 200 when it wrote none.
func (b *Buffered) Status() int {
	if b.status == 0 {
		return http.StatusOK
	}
	return b.status
}

// Body is what the handler wrote.
func (b *Buffered) Body() []byte { return b.body.Bytes() }

func (b *Buffered) Header() http.Header { return b.header }

func (b *Buffered) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *Buffered) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

func (b *Buffered) Flush() {}
