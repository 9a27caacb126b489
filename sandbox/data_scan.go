package sandbox

import (
	"errors"
	"io"
	"net/http"

	"chainwatch/api"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/scan"
	"chainwatch/sandbox/wire"
)

// maxScanBody bounds a scanner request body. Fifty formulas of at most
// 1,000 characters each, in XML with escaping, stay far below it.
const maxScanBody = 1 << 20

// scan serves a custom scan (POST): the formulas of the body, compiled
// with the scanner's limits, run over the current row of every optionable
// symbol. The scanner has no date: it is live or delayed only, so it is
// never historical.
func (d *dataService) scan(w http.ResponseWriter, r *http.Request, c *call) {
	f, ok := wire.RequestFormat(r.Header.Get("Content-Type"))
	if !ok {
		plainError(w, http.StatusUnsupportedMediaType, "Content-Type must be one of application/json, text/json, application/xml, text/xml")
		return
	}
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	all := q.boolean("all_results")
	if invalid(w, q, nil) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxScanBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			plainError(w, http.StatusRequestEntityTooLarge, "the request body must be at most 1 MiB")
			return
		}
		plainError(w, http.StatusBadRequest, "reading the request body failed: "+err.Error())
		return
	}
	fields, err := wire.DecodeScanParams(body, f)
	if err != nil {
		plainError(w, http.StatusBadRequest, err.Error())
		return
	}
	p := api.ScanParams{Fields: fields, AllResults: all, Mode: c.mode}
	if invalid(w, q, p.Validate()) {
		return
	}
	compiled, err := d.compiler.Compile(fields)
	if err != nil {
		plainError(w, http.StatusBadRequest, err.Error())
		return
	}
	at, err := d.market.Moment(c.mode, api.Today(d.now()))
	if err != nil {
		plainError(w, http.StatusInternalServerError, "the market simulator failed: "+err.Error())
		return
	}
	ep := api.EndpointScan
	if all {
		ep = api.EndpointScanAllResults
	}
	d.respond(w, c, c.cost(ep, false), func(b []byte) ([]byte, bool) {
		res := compiled.Run(d.market.ScanQuotes(at, compiled.Parts()), all, at.Time.On(at.Date))
		return wire.AppendScanResult(b, c.format, res), true
	})
}

// scannerMetadata serves GET on the scanner's path: the fields and
// operators a formula may use. It is free but counts toward the rate.
func (d *dataService) scannerMetadata(w http.ResponseWriter, _ *http.Request, c *call) {
	d.respond(w, c, c.cost(api.EndpointScannerMetadata, false), func(b []byte) ([]byte, bool) {
		m := scan.Metadata()
		return wire.AppendScannerMetadata(b, c.format, &m), true
	})
}

// exchanges serves reference/exchanges, the table exchange_id refers to.
// Free, in every mode, for any token; it counts toward the rate.
func (d *dataService) exchanges(w http.ResponseWriter, _ *http.Request, c *call) {
	d.respond(w, c, c.cost(api.EndpointExchanges, false), func(b []byte) ([]byte, bool) {
		return wire.AppendExchanges(b, c.format, market.Exchanges()), true
	})
}

// messageConditions serves reference/message-conditions, the table
// condition_id refers to. Free like exchanges.
func (d *dataService) messageConditions(w http.ResponseWriter, _ *http.Request, c *call) {
	d.respond(w, c, c.cost(api.EndpointMessageConditions, false), func(b []byte) ([]byte, bool) {
		return wire.AppendMessageConditions(b, c.format, market.MessageConditions()), true
	})
}
