package cmd

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// openBrowser opens url in the user's browser: $BROWSER if set, else the
// platform's opener. It refuses when there is plainly no display (an SSH
// session on Linux), so login prints the address instead of a confusing
// error from xdg-open. No library: the well-known ones (pkg/browser,
// cli/browser) are these same few lines plus output plumbing we do not need.
func openBrowser(url string) error {
	var name string
	var args []string
	if b := strings.TrimSpace(os.Getenv("BROWSER")); b != "" {
		name = b
	} else {
		switch runtime.GOOS {
		case "darwin":
			name = "open"
		case "windows":
			name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
		default:
			if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
				return errors.New("no graphical display")
			}
			name = "xdg-open"
		}
	}
	cmd := exec.Command(name, append(args, url)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil // keep its chatter off our terminal
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reap it; it may outlive the login
	return nil
}

// stdinIsTerminal reports whether standard input is an interactive
// terminal (a character device), where a user can paste.
func stdinIsTerminal() bool {
	fi, err := os.Stdin.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
