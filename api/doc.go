// Package api is the client of the market-data service described in
// shared/spec/market-data-service.md, following shared/spec/service-conventions.md.
// It has no terminal or UI code: the TUI, the headless commands and the
// tests all stand on it.
//
// # Requests
//
// NewClient(opts...) takes the base URL (https, or http on a loopback host),
// an HTTP client, a TokenSource, the default Mode (live or delayed) and the
// Format (JSON by default, or XML). Each endpoint is one method taking ctx
// first and a params struct; Validate runs before anything is sent, so a
// broken rule is a *ValidationError naming the parameter and costs no points.
// A date before today in Eastern time makes a request historical: an
// end-of-day answer at the historical price.
//
// Every method returns a *Response with the points the request cost (Cost,
// from the spec's table and the conventions) and the month's counters from
// the X-Monthly-Points-* headers, which are null when absent: unknown is not
// zero.
//
// # Nulls
//
// The service sends null for fields the caller has no subscription for and
// for prices that do not exist. Such fields are Null values (Float, Int,
// String): value types, so a null bid is told from a 0.00 bid without an
// allocation per field.
//
// # Decoding
//
// The chain (about 20,000 contracts for SPX), the underlying quotes and the
// trade arrays are decoded by a table-driven scanner built from the struct
// tags (jsonscan.go, jsoncodec.go): measured here, no JSON library was both
// five times faster than encoding/json and under two allocations per
// contract. Smaller responses, and all XML, go through the standard library
// into the same types.
//
// # XML shapes the spec does not show
//
// Decided here, and followed by the sandbox: the chain's contracts are
// symbol/options/option; trades-and-quotes is trades_and_quotes with items
// trade, quote and option_quote (or any item with i:type naming the kind);
// scanner metadata is scans_metadata/fields/field and operators/operator;
// the reference lists are exchanges/exchange and
// message_conditions/message_condition. List items are read by position
// whatever their element name, so a renamed item does not break the client.
//
// # Errors and retries
//
// *APIError carries the status and the message read from the body;
// *RateLimitError adds Retry-After; ErrNoData is a 204 (still charged); a
// refused token unwraps to ErrUnauthorized; token-service failures are
// *AuthError. GET requests are retried on 429, 502, 503, 504 and network
// errors with capped, jittered exponential backoff that honours Retry-After
// and ctx; the scanner's POST only on 429. On a 401 the token is dropped and
// the request sent once more. No secret or token appears in an error.
package api
