//go:build !unix

package uci

import "os/exec"

func detach(cmd *exec.Cmd) {}
