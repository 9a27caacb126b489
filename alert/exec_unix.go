//go:build unix

package alert

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in a process group of its own and kills the whole
// group at the timeout: a script's children die with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
