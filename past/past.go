// Package past is what the store of past days says of a symbol, as plain
// data: its figures against its stored year and its earnings moves. vol
// computes them, the store (chainwatch/history) reads what they need and
// hands them over, and the feed carries them in its replies without
// importing the figures.
package past

import "chainwatch/api"

// Figures are a symbol's figures against its own year: is its vol rich or
// cheap, and how much has it moved. Each is NaN when the store holds too
// little of the symbol's past to say (see MinSessions).
//
//   - IVRank: where the current IV30 stands in the range of the 252
//     sessions ending with the current one: 100 x (IV30 - low) / (high -
//     low); 0 at the year's low, 100 at its high.
//   - IVPercentile: the share of the sessions before the current one (up
//     to 251) whose IV30 was below the current IV30, in percent.
//   - HV10, HV20, HV30: realized vol, close to close: the sample standard
//     deviation of the last N daily log returns ln(C_t / C_t-1) of
//     consecutive sessions, annualised by sqrt(252); a fraction, as IV.
//   - IVHV: the current IV30 over HV30, both as fractions (above 1 the
//     options price more movement than the stock has shown).
type Figures struct {
	Sessions     int // sessions before the current one with an IV30
	IVRank       float64
	IVPercentile float64
	HV10         float64
	HV20         float64
	HV30         float64
	IVHV         float64
}

// Move is one report's move: for the next report the move the
// options price in (the ATM straddle of the first expiry after it, as a
// share of spot), for a past one the move the stock made: the close of
// the first session that traded on the news against the close before it.
type Move struct {
	Date api.Date
	When api.ReportTime
	// Next: the implied move of the report to come; else a past report's
	// realized move.
	Next bool
	// Expiry is the expiry whose straddle prices the next report.
	Expiry api.Date
	// Move is the implied move (points) or the realized one (signed,
	// points); MovePct the same as a share of the price before (fraction).
	Move, MovePct float64
}
