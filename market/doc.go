// Package market is the exchange's calendar and its sessions, as the
// client and the sandbox both need them: which days the NYSE trades, when
// each session opens and closes (13:00 on an early close), what the data
// of a mode shows at an instant, when an option expires, and how many
// trading hours are left. It has no terminal in it and imports only api's
// types (and the holiday rules' library); the feed paces by it, the pages and commands say what it says,
// and the sandbox lists its days and expiries by it.
package market
