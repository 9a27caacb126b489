package cmd

import (
	"context"
	"strconv"

	"chainwatch/api"
	"chainwatch/text"
)

// exchangeNames names the exchanges of trades and quotes by their codes
// (CBOE, ISE...), as the watch screen's tape does, from the service's
// reference table (0 points). Without it (an error, an id it does not
// list) a row keeps the id alone: the id is always printed beside the name.
type exchangeNames map[uint8]string

// fetchExchanges asks for the reference table; a failure leaves no names.
func fetchExchanges(ctx context.Context, c *api.Client, mode api.Mode) exchangeNames {
	list, _, err := c.Exchanges(ctx, api.ReferenceParams{Mode: mode})
	if err != nil {
		return nil
	}
	n := make(exchangeNames, len(list))
	for _, x := range list {
		n[x.ID] = text.OneLine(x.Code, 16) // the service's text: cleaned
	}
	return n
}

// value is the name for JSON and CSV: null when unknown.
func (n exchangeNames) value(id uint8) any {
	if s, ok := n[id]; ok && s != "" {
		return s
	}
	return nil
}

// text is the name for the table, else the id.
func (n exchangeNames) text(id uint8) string {
	if s, ok := n[id]; ok && s != "" {
		return s
	}
	return strconv.Itoa(int(id))
}
