package feed

import (
	"time"

	"chainwatch/api"
)

// Reply is what one fetch of a feed brings, posted to each subscriber:
// the query it answers, the response it took, when it arrived and its
// error (last), which waiting reply it replaces in a lagging mailbox, and
// how it folds into that one. Every feed's message implements it (the
// chain's, the tape's, ..., a job's run), so the monitor books, stamps and
// folds them alike; only what a feed does after its reply (monitor_feeds.go
// after) is told apart by type. The unexported methods keep the set
// closed: a reply is made here.
type Reply interface {
	// Asked is the query the reply answers (a contract feed's is its
	// page's query, the contract aside); a job's is the zero Query.
	Asked() Query
	// Answer is the response the fetch took and when it arrived, its
	// error last (nil: an answer).
	Answer() (resp *api.Response, at time.Time, err error)
	// stamped is the reply as the subscriber that wants w sees it.
	stamped(w Want) Reply
	// slot is which waiting message of k the reply replaces.
	slot(k Key) slot
	// foldInto is what waits in the reply's slot once it arrives behind
	// old: the reply itself, except for pages that continue old.
	foldInto(old Reply) Reply
}

// paged is a reply that is a page of records from a sequence number
// (0: the first page): one that does not start the feed applies only
// where the subscriber's last page ended.
type paged interface{ first() int64 }

func (r ChainMsg) Asked() Query                                 { return r.Query }
func (r ChainMsg) Answer() (*api.Response, time.Time, error)    { return r.Resp, r.At, r.Err }
func (r ChainMsg) stamped(w Want) Reply                         { r.Query = w.Query; return r }
func (r ChainMsg) slot(k Key) slot                              { return slot{key: k, expiry: r.Expiry} }
func (r ChainMsg) foldInto(Reply) Reply                         { return r }
func (r TermMsg) stamped(w Want) Reply                          { r.Query = w.Query; return r }
func (r TermMsg) slot(k Key) slot                               { return slot{key: k} }
func (r TermMsg) foldInto(Reply) Reply                          { return r }
func (r CalendarMsg) Asked() Query                              { return r.Query }
func (r CalendarMsg) Answer() (*api.Response, time.Time, error) { return r.Resp, r.At, r.Err }
func (r CalendarMsg) stamped(w Want) Reply                      { r.Query = w.Query; return r }
func (r CalendarMsg) slot(k Key) slot                           { return slot{key: k} }
func (r CalendarMsg) foldInto(Reply) Reply                      { return r }
func (r QuotesMsg) Asked() Query                                { return r.Query }
func (r QuotesMsg) Answer() (*api.Response, time.Time, error)   { return r.Resp, r.At, r.Err }
func (r QuotesMsg) stamped(w Want) Reply                        { r.Query = w.Query; return r }
func (r QuotesMsg) slot(k Key) slot                             { return slot{key: k} }
func (r QuotesMsg) foldInto(Reply) Reply                        { return r }
func (r EventsMsg) Asked() Query                                { return r.Query }
func (r EventsMsg) Answer() (*api.Response, time.Time, error)   { return r.Resp, r.At, r.Err }
func (r EventsMsg) stamped(w Want) Reply                        { r.Query = w.Query; return r }
func (r EventsMsg) slot(k Key) slot                             { return slot{key: k} }
func (r EventsMsg) foldInto(Reply) Reply                        { return r }

func (r ContractQuoteMsg) Asked() Query { return r.Query.Query }
func (r ContractQuoteMsg) Answer() (*api.Response, time.Time, error) {
	return r.Resp, r.At, r.Err
}
func (r ContractQuoteMsg) stamped(w Want) Reply { r.Query = contractOf(w); return r }
func (r ContractQuoteMsg) slot(k Key) slot      { return slot{key: k} }
func (r ContractQuoteMsg) foldInto(Reply) Reply { return r }

func contractOf(w Want) ContractQuery { return ContractQuery{Query: w.Query, OSI: w.OSI} }

// The pages: the tape, a contract's trades and NBBO changes, the tape's
// greeks. Pages that continue one another are joined when they fold,
// since each applies only where the one before it ended and a dropped
// page would stop the subscriber's tape for good.

func (r TapeMsg) Asked() Query                              { return r.Query }
func (r TapeMsg) Answer() (*api.Response, time.Time, error) { return r.Resp, r.At, r.Err }
func (r TapeMsg) stamped(w Want) Reply                      { r.Query = w.Query; return r }
func (r TapeMsg) slot(k Key) slot                           { return slot{key: k} }
func (r TapeMsg) first() int64                              { return r.From }

func (r TapeMsg) foldInto(old Reply) Reply {
	if o, ok := old.(TapeMsg); ok {
		return foldTape(o, r)
	}
	return r
}

func (r ContractTradesMsg) Asked() Query { return r.Query.Query }
func (r ContractTradesMsg) Answer() (*api.Response, time.Time, error) {
	return r.Resp, r.At, r.Err
}
func (r ContractTradesMsg) stamped(w Want) Reply { r.Query = contractOf(w); return r }
func (r ContractTradesMsg) slot(k Key) slot      { return slot{key: k} }
func (r ContractTradesMsg) first() int64         { return r.From }

func (r ContractTradesMsg) foldInto(old Reply) Reply {
	if o, ok := old.(ContractTradesMsg); ok && joins(o.From, r.From, o.Err, r.Query.Gen == o.Query.Gen) {
		j := r
		j.From, j.Trades = o.From, concat(o.Trades, r.Trades)
		return keepOld(o, j, r.Err)
	}
	return r
}

func (r ContractTAQMsg) Asked() Query { return r.Query.Query }
func (r ContractTAQMsg) Answer() (*api.Response, time.Time, error) {
	return r.Resp, r.At, r.Err
}
func (r ContractTAQMsg) stamped(w Want) Reply { r.Query = contractOf(w); return r }
func (r ContractTAQMsg) slot(k Key) slot      { return slot{key: k} }
func (r ContractTAQMsg) first() int64         { return r.From }

func (r ContractTAQMsg) foldInto(old Reply) Reply {
	if o, ok := old.(ContractTAQMsg); ok && joins(o.From, r.From, o.Err, r.Query.Gen == o.Query.Gen) {
		j := r
		j.From, j.Records = o.From, concat(o.Records, r.Records)
		return keepOld(o, j, r.Err)
	}
	return r
}

// The tape's greeks are pages too, though any contract's page may come
// first: it is not paged in the replay's sense.
func (r TapeGreeksMsg) Asked() Query                              { return r.Query }
func (r TapeGreeksMsg) Answer() (*api.Response, time.Time, error) { return r.Resp, r.At, r.Err }
func (r TapeGreeksMsg) stamped(w Want) Reply                      { r.Query = w.Query; return r }
func (r TapeGreeksMsg) slot(k Key) slot                           { return slot{key: k, osi: r.OSI} }

func (r TapeGreeksMsg) foldInto(old Reply) Reply {
	if o, ok := old.(TapeGreeksMsg); ok && joins(o.From, r.From, o.Err, r.Query.Gen == o.Query.Gen) {
		j := r
		j.From, j.Trades = min(o.From, r.From), concat(o.Trades, r.Trades)
		return keepOld(o, j, r.Err)
	}
	return r
}

// A job's run answers no query; its responses are Resps (all booked
// when it is dropped), and the first is its Answer's.
func (r JobMsg) Asked() Query { return Query{} }
func (r JobMsg) Answer() (*api.Response, time.Time, error) {
	var resp *api.Response
	if len(r.Resps) > 0 {
		resp = r.Resps[0]
	}
	return resp, r.At, r.Err
}
func (r JobMsg) stamped(Want) Reply   { return r }
func (r JobMsg) slot(k Key) slot      { return slot{key: k} }
func (r JobMsg) foldInto(Reply) Reply { return r }

// The replies, checked: a message that stopped being one would not compile.
var _ = [...]Reply{ChainMsg{}, TermMsg{}, TapeMsg{}, CalendarMsg{}, ContractQuoteMsg{}, ContractTradesMsg{},
	ContractTAQMsg{}, TapeGreeksMsg{}, QuotesMsg{}, EventsMsg{}, JobMsg{}}
