package market

import (
	"sync/atomic"

	"chainwatch/api"
	"chainwatch/market"
)

// The calendar is api's (the NYSE rules the client uses too), kept here
// as one bit per day number so that the paths and expiries, which ask it
// for every day they walk, do integer lookups. Each 64 days are looked up
// when a day among them is first asked for: a process that shows one
// symbol walks a few years of the horizon's 179.

// calendar holds one bit per day number for the trading days, a word of
// 64 days at a time, and one bit per word once it is filled.
type calendar struct {
	trading [horizon / 64]atomic.Uint64
	filled  [horizon / 64 / 64]atomic.Uint64
}

var cal calendar

// isTrading reports whether day number n is a trading day.
func isTrading(n int) bool {
	if n < 0 || n >= horizon {
		return false
	}
	w := n / 64
	if cal.filled[w/64].Load()&(1<<(w%64)) == 0 {
		var bits uint64
		for i := range 64 {
			if market.IsTradingDay(dateOf(w*64 + i)) {
				bits |= 1 << i
			}
		}
		cal.trading[w].Store(bits) // the same bits whoever fills it
		cal.filled[w/64].Or(1 << (w % 64))
	}
	return cal.trading[w].Load()&(1<<(n%64)) != 0
}

// prevTrading returns the trading day number before n, or -1.
func prevTrading(n int) int {
	if n > horizon {
		n = horizon
	}
	for n--; n >= 0; n-- {
		if isTrading(n) {
			return n
		}
	}
	return -1
}

// sessionOnOrBefore is n when it is a trading day, else the trading day
// before it: where an expiry moves when its day is a holiday.
func sessionOnOrBefore(n int) int {
	if isTrading(n) {
		return n
	}
	return prevTrading(n)
}

// rates holds the continuous risk-free rate by year from 2000: roughly the
// average three-month Treasury bill yield of that year. Later years keep
// the last level.
var rates = []float64{
	0.058, 0.034, 0.016, 0.011, 0.014, 0.031, 0.047, 0.044, 0.014, 0.0015, // 2000-2009
	0.0014, 0.0005, 0.0009, 0.0006, 0.0003, 0.0005, 0.0032, 0.0093, 0.019, 0.022, // 2010-2019
	0.0037, 0.0005, 0.020, 0.052, 0.052, 0.042, 0.038, 0.036, // 2020-2027
}

// Rate returns the continuous risk-free rate in force on d, by year: the
// level traders saw then (near zero from 2009 to 2015, 5.2 % in 2023-24).
func Rate(d api.Date) float64 {
	i := d.Year() - 2000
	switch {
	case i < 0:
		i = 0
	case i >= len(rates):
		i = len(rates) - 1
	}
	return rates[i]
}

// nextTrading returns the trading day number after n, or -1.
func nextTrading(n int) int {
	if n < -1 {
		n = -1
	}
	for n++; n < horizon; n++ {
		if isTrading(n) {
			return n
		}
	}
	return -1
}
