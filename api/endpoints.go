package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
)

// The data paths after /v1/{mode}/, as the spec gives them.
const (
	pathOptionQuotes      = "allaccess/market/option-and-underlying-quotes"
	pathUnderlyingQuotes  = "allaccess/market/underlying-quotes"
	pathOptionTrades      = "allaccess/time-and-sales/option-trades"
	pathTradesAndQuotes   = "allaccess/time-and-sales/trades-and-quotes"
	pathTradesWithGreeks  = "time-and-sales/option-trades-with-greeks"
	pathCustomScanner     = "allaccess/scans-and-alerts/custom-scanner"
	pathExchanges         = "reference/exchanges"
	pathMessageConditions = "reference/message-conditions"
)

// params is what every params struct provides to the request path.
type params interface {
	Validate() error
	query() url.Values
	date() Date
}

// get validates p and sends a priced GET. Nothing is sent when p is invalid.
func (c *Client) get(ctx context.Context, p params, m Mode, ep Endpoint, path string) ([]byte, *Response, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	return c.remembered(ctx, call{
		method: http.MethodGet, path: path, query: p.query(),
		mode: c.modeOr(m), endpoint: ep, historical: IsHistorical(p.date(), c.Today()),
	}, p.date())
}

// decoded runs a decoder on a body unless the request failed.
func decoded[T any](body []byte, resp *Response, err error, f Format, dec func([]byte, Format) (T, error)) (T, *Response, error) {
	var zero T
	if err != nil {
		return zero, resp, err
	}
	v, err := dec(body, f)
	if err != nil {
		return zero, resp, fmt.Errorf("api: decoding the %s response: %w", resp.Endpoint, err)
	}
	return v, resp, nil
}

// OptionAndUnderlyingQuotes returns the chain snapshot of an underlying
// (the whole chain without filters; SPX is about 20,000 contracts).
func (c *Client) OptionAndUnderlyingQuotes(ctx context.Context, p OptionQuotesParams) (*SymbolWithOptions, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointOptionQuotes, pathOptionQuotes)
	ch, resp, err := decoded(body, resp, err, c.format, decodeChain)
	if err == nil && resp.FromRecording {
		narrowChain(ch, p)
	}
	return ch, resp, err
}

// UnderlyingQuotes returns the quotes of several underlyings.
func (c *Client) UnderlyingQuotes(ctx context.Context, p UnderlyingQuotesParams) ([]Symbol, *Response, error) {
	if c.history != nil && p.SeqNo == nil && p.Validate() == nil && IsHistorical(p.date(), c.Today()) {
		return c.historicalQuotes(ctx, p)
	}
	body, resp, err := c.get(ctx, p, p.Mode, EndpointUnderlyingQuotes, pathUnderlyingQuotes)
	return decoded(body, resp, err, c.format, decodeSymbols)
}

// OptionTrades returns one page of option time and sales from p.SeqNo on.
// OptionTradesAll pages through them.
func (c *Client) OptionTrades(ctx context.Context, p OptionTradesParams) ([]OptionTrade, *Response, error) {
	if c.replay != nil {
		return c.replayedTrades(ctx, p)
	}
	body, resp, err := c.get(ctx, p, p.Mode, EndpointOptionTrades, pathOptionTrades)
	return decoded(body, resp, err, c.format, decodeOptionTrades)
}

// TradesAndQuotes returns one page of trades and quotes of a stock or option.
func (c *Client) TradesAndQuotes(ctx context.Context, p TradesAndQuotesParams) ([]TAQRecord, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointTradesAndQuotes, pathTradesAndQuotes)
	return decoded(body, resp, err, c.format, decodeTAQ)
}

// OptionTradesWithGreeks returns one page of an option's trades with greeks.
func (c *Client) OptionTradesWithGreeks(ctx context.Context, p OptionTradesWithGreeksParams) ([]OptionTradeWithGreeks, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointTradesWithGreeks, pathTradesWithGreeks)
	return decoded(body, resp, err, c.format, decodeTradesWithGreeks)
}

// CustomScan runs a custom scan (30 or 150 points live, 50 or 250 delayed).
// It is a POST, retried only on 429, so a scan is never charged twice.
func (c *Client) CustomScan(ctx context.Context, p ScanParams) (*ScanResult, *Response, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	body, err := p.body(c.format)
	if err != nil {
		return nil, nil, err
	}
	ep := EndpointScan
	if p.AllResults {
		ep = EndpointScanAllResults
	}
	out, resp, err := c.do(ctx, call{method: http.MethodPost, path: pathCustomScanner, query: p.query(),
		body: body, mode: c.modeOr(p.Mode), endpoint: ep})
	return decoded(out, resp, err, c.format, func(b []byte, f Format) (*ScanResult, error) {
		if f == XML {
			return xmlScanResult(b)
		}
		var r ScanResult
		return &r, jsonUnmarshal(b, &r)
	})
}

// ScannerMetadata lists the fields and operators formulas may use (free).
func (c *Client) ScannerMetadata(ctx context.Context, p ReferenceParams) (*ScannerMetadata, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointScannerMetadata, pathCustomScanner)
	return decoded(body, resp, err, c.format, func(b []byte, f Format) (*ScannerMetadata, error) {
		var m ScannerMetadata
		return &m, decodeJSONOrXML(b, f, &m)
	})
}

// Calendar returns earnings and dividend events.
func (c *Client) Calendar(ctx context.Context, p CalendarParams) ([]CalendarEvent, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointCalendar, "market/symbols/"+p.pathSymbols()+"/calendar")
	return decoded(body, resp, err, c.format, func(b []byte, f Format) ([]CalendarEvent, error) {
		if f == XML {
			return xmlEvents(b)
		}
		var ev []CalendarEvent
		if err := jsonUnmarshal(b, &ev); err != nil {
			return nil, err
		}
		return slices.DeleteFunc(ev, func(e CalendarEvent) bool { return e.Kind == 0 }), nil
	})
}

// Exchanges returns the exchange table that maps exchange_id (free).
func (c *Client) Exchanges(ctx context.Context, p ReferenceParams) ([]Exchange, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointExchanges, pathExchanges)
	return decoded(body, resp, err, c.format, decodeList[Exchange])
}

// MessageConditions returns the condition table that maps condition_id (free).
func (c *Client) MessageConditions(ctx context.Context, p ReferenceParams) ([]MessageCondition, *Response, error) {
	body, resp, err := c.get(ctx, p, p.Mode, EndpointMessageConditions, pathMessageConditions)
	return decoded(body, resp, err, c.format, decodeList[MessageCondition])
}

// IsNoData reports whether err is the 204 of a request that matched nothing.
func IsNoData(err error) bool { return errors.Is(err, ErrNoData) }
