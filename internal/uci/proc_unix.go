//go:build unix

package uci

import (
	"os/exec"
	"syscall"
)

// detach puts the engine in its own process group, so that a Ctrl-C meant for the program
// driving it (SIGINT to the terminal's foreground group) does not kill the engine in the middle
// of a game: the driver decides what to do with the games in progress.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
