package market

// The indices and exchange-traded funds of the universe. Prices are
// plausible closes for 2026-11-20; vols are typical 30-day ATM implied
// vols; yields and dividend frequencies are the funds' real habits
// (bond funds pay monthly, international funds twice a year). Trackers
// (SPY, XSP, QQQ, IWM, DIA, VOO) follow their index by a fixed ratio, so
// SPY stays about SPX/10 on every day and second.
//
// Columns: symbol, name, sector, kind, listing, price, vol, beta, yield,
// dividends a year, average volume (millions), EPS, since, roots, options.

var indexRows = []row{
	{"SPX", "S&P 500 Index", "Index", Index, Cboe, 7050.00, .16, 1.00, .0125, 0, 0, 0, 0, "SPX SPXW", ""},
	{"NDX", "Nasdaq-100 Index", "Index", Index, Nasdaq, 26400.00, .20, 1.20, .0065, 0, 0, 0, 0, "NDX NDXP", ""},
	{"RUT", "Russell 2000 Index", "Index", Index, Cboe, 2560.00, .22, 1.15, .012, 0, 0, 0, 0, "RUT RUTW", ""},
	{"VIX", "Cboe Volatility Index", "Volatility", Index, Cboe, 16.50, .85, 0, 0, 0, 0, 0, 0, "VIX VIXW", "vix opt=20060224"},
	{"XSP", "Mini-SPX Index", "Index", Index, Cboe, 705.00, .16, 1.00, .0125, 0, 0, 0, 0, "", "track=SPX opt=20051024"},
	{"DJX", "Dow Jones Industrial Average (1/100)", "Index", Index, Cboe, 490.00, .15, .90, .017, 0, 0, 0, 0, "", ""},
	{"OEX", "S&P 100 Index", "Index", Index, Cboe, 3400.00, .17, 1.02, .012, 0, 0, 0, 0, "OEX XEO", ""},
}

var etfRows = []row{
	{"SPY", "SPDR S&P 500 ETF Trust", "Broad Market", ETF, Arca, 704.50, .16, 1.00, .0115, 4, 70, 0, 0, "", "track=SPX"},
	{"VOO", "Vanguard S&P 500 ETF", "Broad Market", ETF, Arca, 648.20, .16, 1.00, .0118, 4, 7, 0, 20100909, "", "track=SPX"},
	{"QQQ", "Invesco QQQ Trust, Series 1", "Broad Market", ETF, Nasdaq, 644.00, .20, 1.20, .005, 4, 45, 0, 0, "", "track=NDX"},
	{"IWM", "iShares Russell 2000 ETF", "Broad Market", ETF, Arca, 253.50, .22, 1.15, .011, 4, 35, 0, 20000526, "", "track=RUT"},
	{"DIA", "SPDR Dow Jones Industrial Average ETF Trust", "Broad Market", ETF, Arca, 489.20, .15, .90, .016, 12, 3.5, 0, 0, "", "track=DJX"},
	{"TQQQ", "ProShares UltraPro QQQ", "Broad Market", ETF, Nasdaq, 110.00, .60, 3.60, .01, 4, 55, 0, 20100211, "", ""},
	{"ARKK", "ARK Innovation ETF", "Information Technology", ETF, Arca, 78.00, .42, 1.70, 0, 0, 12, 0, 20141031, "", ""},
	{"XLF", "Financial Select Sector SPDR Fund", "Financials", ETF, Arca, 55.00, .19, 1.10, .014, 4, 40, 0, 0, "", ""},
	{"XLE", "Energy Select Sector SPDR Fund", "Energy", ETF, Arca, 92.00, .24, .80, .033, 4, 17, 0, 0, "", ""},
	{"XLK", "Technology Select Sector SPDR Fund", "Information Technology", ETF, Arca, 300.00, .23, 1.25, .006, 4, 8, 0, 0, "", ""},
	{"XLV", "Health Care Select Sector SPDR Fund", "Health Care", ETF, Arca, 155.00, .16, .70, .016, 4, 9, 0, 0, "", ""},
	{"XLI", "Industrial Select Sector SPDR Fund", "Industrials", ETF, Arca, 160.00, .18, 1.05, .013, 4, 10, 0, 0, "", ""},
	{"XLY", "Consumer Discretionary Select Sector SPDR Fund", "Consumer Discretionary", ETF, Arca, 245.00, .21, 1.20, .007, 4, 4, 0, 0, "", ""},
	{"XLP", "Consumer Staples Select Sector SPDR Fund", "Consumer Staples", ETF, Arca, 80.00, .13, .50, .027, 4, 10, 0, 0, "", ""},
	{"XLU", "Utilities Select Sector SPDR Fund", "Utilities", ETF, Arca, 88.00, .17, .50, .028, 4, 12, 0, 0, "", ""},
	{"SMH", "VanEck Semiconductor ETF", "Information Technology", ETF, Nasdaq, 360.00, .33, 1.50, .004, 1, 9, 0, 20111221, "", ""},
	{"KRE", "SPDR S&P Regional Banking ETF", "Financials", ETF, Arca, 64.00, .28, 1.10, .025, 4, 12, 0, 20060622, "", ""},
	{"XBI", "SPDR S&P Biotech ETF", "Health Care", ETF, Arca, 110.00, .32, 1.00, 0, 0, 10, 0, 20060206, "", ""},
	{"XOP", "SPDR S&P Oil & Gas Exploration & Production ETF", "Energy", ETF, Arca, 135.00, .30, .90, .025, 4, 4, 0, 20060622, "", ""},
	{"EEM", "iShares MSCI Emerging Markets ETF", "International", ETF, Arca, 56.00, .19, .80, .022, 2, 30, 0, 20030414, "", ""},
	{"EFA", "iShares MSCI EAFE ETF", "International", ETF, Arca, 96.00, .15, .80, .030, 2, 15, 0, 20010817, "", ""},
	{"FXI", "iShares China Large-Cap ETF", "International", ETF, Arca, 40.00, .30, .70, .020, 2, 35, 0, 20041008, "", ""},
	{"EWZ", "iShares MSCI Brazil ETF", "International", ETF, Arca, 31.00, .28, .90, .060, 2, 25, 0, 20000712, "", ""},
	{"GLD", "SPDR Gold Shares", "Precious Metals", ETF, Arca, 395.00, .19, .10, 0, 0, 9, 0, 20041118, "", ""},
	{"SLV", "iShares Silver Trust", "Precious Metals", ETF, Arca, 46.00, .33, .20, 0, 0, 25, 0, 20060428, "", ""},
	{"GDX", "VanEck Gold Miners ETF", "Precious Metals", ETF, Arca, 80.00, .40, .50, .006, 1, 20, 0, 20060522, "", ""},
	{"USO", "United States Oil Fund, LP", "Commodities", ETF, Arca, 75.00, .35, .50, 0, 0, 5, 0, 20060410, "", ""},
	{"UNG", "United States Natural Gas Fund, LP", "Commodities", ETF, Arca, 14.00, .55, .20, 0, 0, 12, 0, 20070418, "", ""},
	{"TLT", "iShares 20+ Year Treasury Bond ETF", "Fixed Income", ETF, Nasdaq, 91.00, .14, -.20, .043, 12, 35, 0, 20020730, "", ""},
	{"HYG", "iShares iBoxx $ High Yield Corporate Bond ETF", "Fixed Income", ETF, Arca, 80.50, .07, .30, .058, 12, 35, 0, 20070411, "", ""},
	{"LQD", "iShares iBoxx $ Investment Grade Corporate Bond ETF", "Fixed Income", ETF, Arca, 110.00, .08, .10, .045, 12, 25, 0, 20020730, "", ""},
	{"IBIT", "iShares Bitcoin Trust ETF", "Digital Assets", ETF, Nasdaq, 62.00, .50, 1.20, 0, 0, 45, 0, 20240111, "", "opt=20241119"},
	{"VXX", "iPath Series B S&P 500 VIX Short-Term Futures ETN", "Volatility", ETF, Cboe, 35.00, .65, -3.00, 0, 0, 5, 0, 20180119, "", ""},
}
