// Command docgen writes the documentation that is made from the program
// itself, so that it cannot drift from it: docs/reference/ (a Markdown page
// and a man page for every command, from the cobra command tree),
// docs/watch-screen.svg (the watch screen's golden frame, with its colours)
// and docs/watch.md's key table (from the key map). Its tests make each
// again and fail when the committed files differ; they also hold README.md
// and docs/ to their rules (links, length, the packages named, the
// performance table, no measured figures in code comments).
//
//	go generate ./docgen   (or: go run ./docgen)
package main

//go:generate go run . -root ..

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "the module's root folder")
	flag.Parse()
	if err := generate(*root); err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

// generate writes every generated file under root, replacing the old ones.
func generate(root string) error {
	ref := filepath.Join(root, referenceDir)
	// A removed command's pages must go too: the folder is made anew.
	if err := os.RemoveAll(ref); err != nil {
		return err
	}
	if err := writeReference(ref); err != nil {
		return err
	}
	if err := writeKeys(root); err != nil {
		return err
	}
	svg, err := screenPicture(root)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, pictureFile), svg, 0o644)
}
