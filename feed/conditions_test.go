package feed

import (
	"reflect"
	"slices"
	"testing"
)

// TestConditionsNameNoPage holds feed.Conditions to what is not about
// pages: a page's flag here (the vol page shows, the contract page
// covers the ladder) is how a page forgotten here came to be polled
// under another. Which page shows a feed is the subscriber's to say, by
// Want.Hidden; a new field belongs here only if it is about the feeds.
func TestConditionsNameNoPage(t *testing.T) {
	var got []string
	for f := range reflect.TypeFor[Conditions]().Fields() {
		got = append(got, f.Name)
	}
	if want := []string{"Mode", "Historical", "Focused", "Idle", "Shown"}; !slices.Equal(got, want) {
		t.Errorf("Conditions has %v, want %v", got, want)
	}
}
