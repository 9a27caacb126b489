// Package ui draws chainwatch's panes: given data, a size and the Styles,
// each renderer returns lines of exactly the width asked for. It keeps no
// state and does no I/O; package model owns the state and calls in here
// from View.
//
// Conventions of the data types: a float64 that is NaN is null (the
// service sent null, or there is no such value) and shows as a dash; an
// int64 below zero is null likewise. Renderers never see api.Null, so the
// hot path is plain numbers.
package ui

import (
	"math"

	"chainwatch/api"
)

// NaN is the null of every float field here.
var NaN = math.NaN()

// Col is a column of the strike ladder.
type Col uint8

// Ladder columns.
const (
	ColBid Col = iota
	ColAsk
	ColMid
	ColLast
	ColVolume
	ColOI
	ColIV
	ColDelta
	ColGamma
	ColTheta
	ColVega
	ColBidSize
	ColAskSize
	ColChange // last against the previous day's close
	ColVolOI  // the day's volume over open interest: new positions at a glance
	NumCols
)

// ColMask is a set of columns.
type ColMask uint32

// Has reports whether c is in the set.
func (m ColMask) Has(c Col) bool { return m&(1<<c) != 0 }

// With returns the set with c added.
func (m ColMask) With(c Col) ColMask { return m | 1<<c }

// Contract is one side (call or put) of a strike row: what the ladder and
// the details pane show of one option.
type Contract struct {
	OSI string // empty: no such contract at this strike

	Bid, Ask, Mid, Last                  float64
	Open, High, Low, PrevClose           float64
	IV                                   float64 // a fraction: 0.2208 is 22.08 %
	Delta, Gamma, Theta, Vega, Rho       float64
	BidSize, AskSize, Volume, OI, Trades int64

	// Changed holds the columns whose value changed in the snapshot applied
	// at ChangedAt (unix nanoseconds); Rose those among them that went up.
	// The ladder flashes them for a moment after ChangedAt.
	Changed, Rose ColMask
	ChangedAt     int64
}

// Listed reports whether the contract exists.
func (c *Contract) Listed() bool { return c.OSI != "" }

// StrikeRow is one line of the ladder: a strike's call and put.
type StrikeRow struct {
	Strike    float64
	Call, Put Contract
}

// ExpiryKind tells expiries apart on the tabs.
type ExpiryKind uint8

// Expiry kinds.
const (
	ExpiryDaily     ExpiryKind = iota // any other listed day (SPXW dailies)
	ExpiryWeekly                      // a Friday that is not the monthly
	ExpiryMonthly                     // the third Friday (the standard monthly)
	ExpiryQuarterly                   // a quarter-end expiry
)

// ExpiryTab is one expiry on the tab bar.
type ExpiryTab struct {
	Date api.Date
	DTE  int // calendar days from the data's date
	Kind ExpiryKind
	// Earnings marks an expiry after the next earnings report: its options
	// carry the event's vol.
	Earnings bool
	// Root names the tab's option root when several roots list the expiry
	// (SPX's AM monthly and SPXW's PM on one Friday); "" when one does.
	Root string
	// ATMIV (a fraction), Move (the ATM straddle's mid, in points) and
	// MovePct (Move over spot, a fraction) for the expiry strip; zero or
	// NaN is not known and shows a dash.
	ATMIV, Move, MovePct float64
}
