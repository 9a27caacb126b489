//go:build !unix || race

package cmd

// dataLimited: no data-segment limit here; the heap watch holds alone.
const dataLimited = false

// limitData does nothing here.
func limitData(int64) {}
