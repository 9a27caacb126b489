package sim

// Before an earnings report the market bids up the near-dated vol beyond
// the event's own variance: traders pay for the move early, and the whole
// short end of the surface lifts over the weeks before the report, then
// drops with the event once it is out. runUp is that lift, a multiple of
// the ATM vol: 1 until runUpDays before the report, rising linearly to
// 1+runUpMax at it. With the event's variance it makes IV30 climb into a
// report and fall after it, as the history figures (IV rank, the earnings
// moves) expect of a real name.
const (
	runUpDays = 21   // calendar days before the report the lift starts
	runUpMax  = 0.12 // the lift at the report, a share of the ATM vol
)

// runUp is the ATM multiple ms milliseconds before a report.
func runUp(ms float64) float64 {
	window := float64(runUpDays * dayMs)
	if ms <= 0 || ms >= window {
		return 1
	}
	return 1 + runUpMax*(1-ms/window)
}
