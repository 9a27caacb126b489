package config

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// positionsChildEnv makes this test binary one of the saving processes.
const positionsChildEnv = "CHAINWATCH_TEST_POSITIONS_FILE"

// saveEight adds eight positions to path, each a new one.
func saveEight(path, who string) error {
	for i := range 8 {
		p := Position{Name: fmt.Sprintf("%s %d", who, i), Symbol: "SPY", Opened: time.Now(),
			Legs: []string{"+1xSPY261218C00700000@10.69"}}
		if _, err := AddPosition(path, p, 0); err != nil {
			return err
		}
	}
	return nil
}

// checkSixteen: every save is in the file, each with an id of its own.
func checkSixteen(t *testing.T, path string) {
	t.Helper()
	got, err := LoadPositions(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, p := range got {
		ids = append(ids, p.ID)
	}
	slices.Sort(ids)
	if len(slices.Compact(ids)) != 16 || len(got) != 16 {
		t.Fatalf("%d positions with ids %v, want 16 with 16 ids", len(got), ids)
	}
}

// TestTwoProcessesSavingKeepEveryPosition: two processes saving at once
// lost 4 of 70 positions and were handed the same ids; each save now
// holds the file's lock from its read to its write, ids taken under it.
func TestTwoProcessesSavingKeepEveryPosition(t *testing.T) {
	if path := os.Getenv(positionsChildEnv); path != "" {
		if err := saveEight(path, fmt.Sprint(os.Getpid())); err != nil {
			t.Fatal(err)
		}
		return
	}
	path := filepath.Join(t.TempDir(), "positions.toml")
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for range 2 {
		c := exec.Command(os.Args[0], "-test.run", "^TestTwoProcessesSavingKeepEveryPosition$", "-test.count=1")
		c.Env = append(os.Environ(), positionsChildEnv+"="+path)
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		cmds, outs = append(cmds, c), append(outs, &out)
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("saving process %d: %v\n%s", i, err, outs[i])
		}
	}
	checkSixteen(t, path)
}

// TestTwoScreensSavingKeepEveryPosition: two screens of one served key
// are two goroutines of one process saving to one file.
func TestTwoScreensSavingKeepEveryPosition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "positions.toml")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { errs[i] = saveEight(path, fmt.Sprint("screen ", i)) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkSixteen(t, path)
}
