package sandbox

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"chainwatch/api"
	"chainwatch/sandbox/sim"
	"chainwatch/sandbox/wire"
)

// negotiate picks the response format from every Accept header line.
func negotiate(accept []string) (api.Format, bool) {
	return wire.Negotiate(strings.Join(accept, ", "))
}

// invalid answers 400 with the first problem of the query or of the
// params' own rules, and reports whether it did.
func invalid(w http.ResponseWriter, q *query, validateErr error) bool {
	switch {
	case q.bad != nil:
		plainError(w, http.StatusBadRequest, q.bad.Param+" "+q.bad.Rule)
	case validateErr != nil:
		plainError(w, http.StatusBadRequest, firstRule(validateErr))
	default:
		return false
	}
	return true
}

// readQuery parses the query string, answering 400 when it is malformed.
func readQuery(w http.ResponseWriter, r *http.Request) (*query, bool) {
	q, err := newQuery(r.URL.RawQuery)
	if err != nil {
		plainError(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	return q, true
}

// optionMoment is moment for an option trades endpoint: live and delayed
// need the OPRA subscription, a past day does not.
func (d *dataService) optionMoment(w http.ResponseWriter, c *call, date string) (sim.Moment, bool) {
	at, ok := d.moment(w, c, date)
	if ok && !at.Historical && !d.ent.opra {
		plainError(w, http.StatusBadRequest, requires(c.path, OPRA))
		return at, false
	}
	return at, ok
}

// moment resolves the requested date (already validated) to what the
// market shows for it, answering 400 for a day that has not come yet.
func (d *dataService) moment(w http.ResponseWriter, c *call, date string) (sim.Moment, bool) {
	day, err := api.ParseDate(date)
	if err != nil { // validated before; kept as a guard
		plainError(w, http.StatusBadRequest, "date must be a date of the form yyyy-MM-dd")
		return sim.Moment{}, false
	}
	at, err := d.market.Moment(c.mode, day)
	switch {
	case errors.Is(err, sim.ErrFutureDate):
		plainError(w, http.StatusBadRequest, "date must not be after today ("+api.Today(d.now()).String()+", Eastern)")
		return sim.Moment{}, false
	case err != nil:
		plainError(w, http.StatusInternalServerError, "the market simulator failed: "+err.Error())
		return sim.Moment{}, false
	}
	return at, true
}

// bufPool holds response buffers. A chain of SPX is the largest answer
// there is, so reusing them saves most of the garbage a request makes; buffers above maxPooled
// are left to the collector so one huge answer does not pin memory.
type bufPool struct{ p sync.Pool }

const maxPooled = 32 << 20

func (p *bufPool) get() *[]byte {
	if b, ok := p.p.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 64<<10)
	return &b
}

func (p *bufPool) put(b *[]byte) {
	if cap(*b) <= maxPooled {
		*b = (*b)[:0]
		p.p.Put(b)
	}
}

// encoder appends the response body to b; ok false means no data (204).
type encoder func(b []byte) (body []byte, ok bool)

// reply is an answer's body in parts written one after the other: head
// (in the pooled buffer), then shared, bytes another request may be
// writing too (a tick's encoded contracts), never modified, then tail.
// owner keeps what shared belongs to alive until it is written.
type reply struct {
	head, tail []byte
	shared     [][]byte
	owner      *chainBody
}

func (r *reply) len() int {
	n := len(r.head) + len(r.tail)
	for _, p := range r.shared {
		n += len(p)
	}
	return n
}

// respond charges cost and answers with what enc produces.
func (d *dataService) respond(w http.ResponseWriter, c *call, cost int, enc encoder) {
	d.respondParts(w, c, cost, func(b []byte) (reply, bool) {
		body, ok := enc(b)
		return reply{head: body}, ok
	})
}

// respondParts charges cost and answers with the parts enc produces. The
// points are reserved before any work is done, so a client over its
// limits costs the server nothing, and settled when the answer is known:
// charged for 200 and 204, released otherwise (a panic included).
func (d *dataService) respondParts(w http.ResponseWriter, c *call, cost int, enc func(b []byte) (reply, bool)) {
	res, refusal := d.ledger.Reserve(c.client, cost)
	if refusal != nil {
		w.Header().Set("Retry-After", refusal.RetryAfterHeader())
		plainError(w, refusal.Status, refusal.Message)
		return
	}
	settled := false
	defer func() {
		if !settled {
			used, left := res.Cancel()
			setPoints(w.Header(), used, left)
		}
	}()
	bp := d.bufs.get()
	r, ok := enc((*bp)[:0])
	used, left := res.Commit()
	settled = true
	h := w.Header()
	setPoints(h, used, left)
	h.Set("Vary", "Accept")
	if !ok {
		w.WriteHeader(http.StatusNoContent)
	} else {
		h.Set("Content-Type", wire.ContentType(c.format))
		h.Set("Content-Length", strconv.Itoa(r.len()))
		w.WriteHeader(http.StatusOK)
		parts := append(append([][]byte{r.head}, r.shared...), r.tail)
		for _, part := range parts {
			if _, err := w.Write(part); err != nil {
				break // the client has gone
			}
		}
	}
	*bp = r.head
	d.bufs.put(bp)
}

// cost is the price of a call to ep, by mode and whether it is historical.
func (c *call) cost(ep api.Endpoint, historical bool) int { return api.Cost(ep, c.mode, historical) }
