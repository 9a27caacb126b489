package common

import "chainwatch/strategy"

// TicketMsg is the ladder's cursor for the strategy page: Add (when Qty
// is not 0) is a leg to add to the ticket, bought (Qty above 0, at the
// ask) or sold (below, at the bid); Cursor is where templates are built.
// The watch screen sends it as a message, not an Action, so that adding
// a leg leaves the screen where it is; the root hands it to every page.
type TicketMsg struct {
	Cursor strategy.Cursor
	Add    strategy.Leg
}

// LoadTicketMsg replaces the ticket with Strategy (a position rolled:
// its legs to move and save again), RollOf naming the position.
type LoadTicketMsg struct {
	Strategy strategy.Strategy
	RollOf   int
}

// PositionsChangedMsg tells the positions page to read the positions
// file again (a position saved, the page opened).
type PositionsChangedMsg struct{}
