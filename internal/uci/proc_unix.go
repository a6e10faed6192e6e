//go:build unix

package uci

import (
	"os/exec"
	"syscall"
)

// detach puts the engine in its own process group: a Ctrl-C meant for the program driving it
// (SIGINT to the terminal's foreground group) does not kill the engine in the middle of a
// game (the driver decides what to do with the games in progress), and killGroup can kill
// the engine together with every process it started (a shell wrapper's engine, helpers).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the engine's process group (its leader's pid is the group id)
// and to the leader itself.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
