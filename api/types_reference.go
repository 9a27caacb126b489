package api

// Exchange is an entry of the reference exchanges table, which maps the
// exchange_id of trades and quotes. XML: exchanges/exchange.
type Exchange struct {
	ID   uint8  `json:"id" xml:"id"`
	Code string `json:"code" xml:"code"`
	Name string `json:"name" xml:"name"`
}

// ConditionType says whether a message condition applies to trades or quotes.
type ConditionType string

// The two condition types.
const (
	ConditionTrade ConditionType = "trade"
	ConditionQuote ConditionType = "quote"
)

// MessageCondition is an entry of the reference message-conditions table,
// which maps condition_id. XML: message_conditions/message_condition.
type MessageCondition struct {
	ID          uint8         `json:"id" xml:"id"`
	Code        string        `json:"code" xml:"code"`
	Description string        `json:"description" xml:"description"`
	Type        ConditionType `json:"type" xml:"type"`
}
