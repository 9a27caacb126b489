package market

import (
	"slices"

	"chainwatch/api"
)

// The reference tables behind exchange_id and condition_id: the US option
// exchanges (the OPRA participants) and the stock exchanges and trade
// reporting facilities of the consolidated tape. Ids are stable: they are
// the row number, and rows are only ever appended.

var exchanges = []api.Exchange{
	{ID: 1, Code: "AMEX", Name: "NYSE American Options"},
	{ID: 2, Code: "BOX", Name: "BOX Options Exchange"},
	{ID: 3, Code: "CBOE", Name: "Cboe Options Exchange"},
	{ID: 4, Code: "C2", Name: "Cboe C2 Options Exchange"},
	{ID: 5, Code: "EDGO", Name: "Cboe EDGX Options Exchange"},
	{ID: 6, Code: "BZXO", Name: "Cboe BZX Options Exchange"},
	{ID: 7, Code: "ISE", Name: "Nasdaq ISE"},
	{ID: 8, Code: "GEMX", Name: "Nasdaq GEMX"},
	{ID: 9, Code: "MRX", Name: "Nasdaq MRX"},
	{ID: 10, Code: "MIAX", Name: "MIAX Options Exchange"},
	{ID: 11, Code: "PEARL", Name: "MIAX Pearl Options"},
	{ID: 12, Code: "EMLD", Name: "MIAX Emerald"},
	{ID: 13, Code: "SPHR", Name: "MIAX Sapphire"},
	{ID: 14, Code: "NOM", Name: "Nasdaq Options Market"},
	{ID: 15, Code: "BXO", Name: "Nasdaq BX Options"},
	{ID: 16, Code: "PHLX", Name: "Nasdaq PHLX"},
	{ID: 17, Code: "MXOP", Name: "MEMX Options"},
	{ID: 18, Code: "ARCO", Name: "NYSE Arca Options"},
	{ID: 19, Code: "NYSE", Name: "New York Stock Exchange"},
	{ID: 20, Code: "NSDQ", Name: "Nasdaq Stock Market"},
	{ID: 21, Code: "ARCA", Name: "NYSE Arca"},
	{ID: 22, Code: "XASE", Name: "NYSE American"},
	{ID: 23, Code: "BZX", Name: "Cboe BZX Exchange"},
	{ID: 24, Code: "BYX", Name: "Cboe BYX Exchange"},
	{ID: 25, Code: "EDGA", Name: "Cboe EDGA Exchange"},
	{ID: 26, Code: "EDGX", Name: "Cboe EDGX Exchange"},
	{ID: 27, Code: "IEX", Name: "Investors Exchange"},
	{ID: 28, Code: "MEMX", Name: "Members Exchange"},
	{ID: 29, Code: "EPRL", Name: "MIAX Pearl Equities"},
	{ID: 30, Code: "XCIS", Name: "NYSE National"},
	{ID: 31, Code: "XCHI", Name: "NYSE Chicago"},
	{ID: 32, Code: "XBOS", Name: "Nasdaq BX"},
	{ID: 33, Code: "XPSX", Name: "Nasdaq PSX"},
	{ID: 34, Code: "LTSE", Name: "Long-Term Stock Exchange"},
	{ID: 35, Code: "FINRA", Name: "FINRA Trade Reporting Facility (off-exchange)"},
}

// OptionExchanges and StockExchanges are the ids of Exchanges() by
// market; callers must not modify them.
var (
	OptionExchanges = []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
	StockExchanges  = []uint8{19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35}
)

// Exchanges returns the exchange table, ids 1 to 35 (a copy).
func Exchanges() []api.Exchange { return slices.Clone(exchanges) }

// Condition ids of MessageConditions().
const (
	CondRegular     uint8 = 1  // regular sale
	CondSweep       uint8 = 2  // intermarket sweep order (ISO)
	CondBlock       uint8 = 3  // block trade (single-leg cross)
	CondMultiLeg    uint8 = 4  // multi-leg electronic (spread) trade
	CondLate        uint8 = 5  // reported late, out of sequence
	CondCanceled    uint8 = 6  // canceled trade
	CondOpening     uint8 = 7  // opening trade or opening cross
	CondClosing     uint8 = 8  // closing print (stocks)
	CondAuction     uint8 = 9  // single-leg auction
	CondFloor       uint8 = 10 // floor trade
	CondOddLot      uint8 = 11 // odd-lot trade (stocks)
	CondStockOption uint8 = 12 // option leg of a stock-option trade
	QuoteRegular    uint8 = 20 // regular two-sided quote
	QuoteFast       uint8 = 21 // fast market
	QuoteNonFirm    uint8 = 22 // non-firm quote
	QuoteOpening    uint8 = 23 // opening quote
	QuoteClosing    uint8 = 24 // closing quote
	QuoteHalted     uint8 = 25 // trading halt
)

var conditions = []api.MessageCondition{
	{ID: CondRegular, Code: "REG", Description: "Regular sale", Type: api.ConditionTrade},
	{ID: CondSweep, Code: "ISO", Description: "Intermarket sweep order", Type: api.ConditionTrade},
	{ID: CondBlock, Code: "SLCN", Description: "Block trade (single-leg cross, non-ISO)", Type: api.ConditionTrade},
	{ID: CondMultiLeg, Code: "MLET", Description: "Multi-leg electronic trade", Type: api.ConditionTrade},
	{ID: CondLate, Code: "OSEQ", Description: "Late report, out of sequence", Type: api.ConditionTrade},
	{ID: CondCanceled, Code: "CANC", Description: "Canceled trade", Type: api.ConditionTrade},
	{ID: CondOpening, Code: "OPEN", Description: "Opening trade", Type: api.ConditionTrade},
	{ID: CondClosing, Code: "CLSE", Description: "Closing print", Type: api.ConditionTrade},
	{ID: CondAuction, Code: "SLAN", Description: "Single-leg auction, non-ISO", Type: api.ConditionTrade},
	{ID: CondFloor, Code: "SLFT", Description: "Single-leg floor trade", Type: api.ConditionTrade},
	{ID: CondOddLot, Code: "ODD", Description: "Odd-lot trade", Type: api.ConditionTrade},
	{ID: CondStockOption, Code: "TLET", Description: "Stock-option trade, option leg", Type: api.ConditionTrade},
	{ID: QuoteRegular, Code: "R", Description: "Regular quote", Type: api.ConditionQuote},
	{ID: QuoteFast, Code: "F", Description: "Fast market", Type: api.ConditionQuote},
	{ID: QuoteNonFirm, Code: "N", Description: "Non-firm quote", Type: api.ConditionQuote},
	{ID: QuoteOpening, Code: "O", Description: "Opening quote", Type: api.ConditionQuote},
	{ID: QuoteClosing, Code: "C", Description: "Closing quote", Type: api.ConditionQuote},
	{ID: QuoteHalted, Code: "H", Description: "Trading halted", Type: api.ConditionQuote},
}

// MessageConditions returns the trade and quote condition table (a copy).
// Trade conditions have ids from 1, quote conditions from 20.
func MessageConditions() []api.MessageCondition { return slices.Clone(conditions) }
