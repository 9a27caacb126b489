package config

import "chainwatch/api"

// SavedScan is a custom scan as the config file keeps it, one [[scan]]
// table: what the user saved, nothing derived. Package scan turns it into
// a runnable scan.Scan (scan.FromSaved) and back (Scan.Saved); config
// does not import scan, so that scan and feed may read config's defaults.
type SavedScan struct {
	Name        string
	Description string
	Fields      []api.ScanFieldParam
	AllResults  bool
}
