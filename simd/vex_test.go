package simd

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"
)

// vecOperand matches an X, Y or Z register operand in Go assembler syntax.
var vecOperand = regexp.MustCompile(`[ ,(][XYZ][0-9]+\b`)

// wideOperand matches a Y or Z register operand.
var wideOperand = regexp.MustCompile(`[ ,(][YZ][0-9]+\b`)

// TestKernelsVEXOnly: every instruction of kernels_amd64.s that touches a vector register is
// VEX- or EVEX-encoded (its mnemonic starts with V, or it is a K-mask move). A legacy SSE
// instruction, such as the SSE2 MOVQ from a general register to an XMM register, executed
// while a YMM register's upper half is dirty costs about 130 ns on the 2-core AMD EPYC VM of
// doc/benchmarks.md (SqrClippedReLU32 on 32 elements: 145 ns with one such MOVQ after the
// first YMM load, 17 ns without); the generator (simd/_asm) emits VMOVQ, VMOVD and VMOVSS.
// Every RET after a Y or Z register is used follows a VZEROUPPER, so the Go code after a
// kernel (SSE only) never runs with a dirty upper half either.
func TestKernelsVEXOnly(t *testing.T) {
	f, err := os.Open("kernels_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	fn, line := "", 0
	dirty := false // a Y or Z register written since the last VZEROUPPER
	for sc.Scan() {
		line++
		s := sc.Text()
		if strings.HasPrefix(s, "TEXT ") {
			fn, dirty = strings.Fields(s)[1], false
			continue
		}
		if !strings.HasPrefix(s, "\t") {
			continue
		}
		fields := strings.Fields(s)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "//") {
			continue
		}
		op, args := fields[0], " "+strings.Join(fields[1:], " ")
		switch {
		case op == "VZEROUPPER":
			dirty = false
		case op == "RET" && dirty:
			t.Errorf("kernels_amd64.s:%d (%s): RET with a dirty upper half (no VZEROUPPER)", line, fn)
		case wideOperand.MatchString(args):
			dirty = true
		}
		if !strings.HasPrefix(op, "V") && !strings.HasPrefix(op, "K") && vecOperand.MatchString(args) {
			t.Errorf("kernels_amd64.s:%d (%s): legacy SSE instruction %q", line, fn, strings.TrimSpace(s))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if line == 0 {
		t.Fatal("kernels_amd64.s is empty")
	}
}
