//go:build !unix

package uci

import "os/exec"

func detach(cmd *exec.Cmd) {}

// killGroup kills the engine process (process groups are a Unix notion).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
