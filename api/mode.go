package api

// Mode is the data path a request takes: live or delayed (15 minutes behind).
// A historical request is not a third mode: it is a live or delayed request
// whose date is before today (Eastern), answered with that day's end-of-day
// state; see IsHistorical.
type Mode string

// The two modes of the data path /v1/{mode}/...
const (
	Live    Mode = "live"
	Delayed Mode = "delayed"
)

// Valid reports whether m is live or delayed.
func (m Mode) Valid() bool { return m == Live || m == Delayed }

// Format is the wire format of responses (and of the scanner's request body).
type Format int

// JSON is the default; XML is the service's other format.
const (
	JSON Format = iota
	XML
)

func (f Format) String() string {
	if f == XML {
		return "xml"
	}
	return "json"
}

// contentType is the media type sent in Accept and Content-Type.
func (f Format) contentType() string {
	if f == XML {
		return "application/xml"
	}
	return "application/json"
}

// IsHistorical reports whether a request for date is historical: a date
// before today in Eastern time. Historical answers never change and cost the
// historical price.
func IsHistorical(date, today Date) bool { return date != 0 && date < today }
