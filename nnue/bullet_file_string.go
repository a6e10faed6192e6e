package nnue

import (
	"fmt"
	"strconv"
	"strings"
)

// String prints the file layout in the form ParseBulletFile reads: comma-separated keys
// "header=N", "transposed", "float=QA/QB", "wrap", in that order; "" for a plain quantised
// file with no header.
func (f BulletFile) String() string {
	var keys []string
	if f.Header != 0 {
		keys = append(keys, fmt.Sprintf("header=%d", f.Header))
	}
	if f.Transposed {
		keys = append(keys, "transposed")
	}
	if f.Float {
		keys = append(keys, fmt.Sprintf("float=%d/%d", f.QA, f.QB))
	}
	if f.Wrap {
		keys = append(keys, "wrap")
	}
	return strings.Join(keys, ",")
}

// ParseBulletFile reads a bullet file layout as BulletFile.String prints it: "" (a plain
// quantised file), or comma-separated keys header=N (0 ≤ N ≤ 1 MiB), transposed,
// float=QA/QB (1 ≤ QA, QB ≤ 32767: unquantised float32 parameters quantised at load) and wrap
// (only with float). It is how a program that takes a declaration as text (the engine's
// EvalLayout option) names the layout that examples/evaluate gives by flags. Errors name the
// key that is unknown, repeated or out of range.
func ParseBulletFile(s string) (BulletFile, error) {
	var f BulletFile
	if strings.TrimSpace(s) == "" {
		return f, nil
	}
	seen := map[string]bool{}
	for _, key := range strings.Split(s, ",") {
		key = strings.TrimSpace(key)
		name, val, hasVal := strings.Cut(key, "=")
		if seen[name] {
			return BulletFile{}, fmt.Errorf("nnue: bullet layout %q: %s given twice", s, name)
		}
		seen[name] = true
		switch {
		case name == "header" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > maxBulletHeader {
				return BulletFile{}, fmt.Errorf("nnue: bullet layout %q: header=%s: want 0…%d bytes", s, val, maxBulletHeader)
			}
			f.Header = n
		case name == "transposed" && !hasVal:
			f.Transposed = true
		case name == "float" && hasVal:
			qa, qb, ok := strings.Cut(val, "/")
			a, err1 := strconv.ParseInt(qa, 10, 16)
			b, err2 := strconv.ParseInt(qb, 10, 16)
			if !ok || err1 != nil || err2 != nil || a <= 0 || b <= 0 {
				return BulletFile{}, fmt.Errorf("nnue: bullet layout %q: float=%s: want QA/QB, two integers in 1…32767", s, val)
			}
			f.Float, f.QA, f.QB = true, int32(a), int32(b)
		case name == "wrap" && !hasVal:
			f.Wrap = true
		default:
			return BulletFile{}, fmt.Errorf("nnue: bullet layout %q: unknown key %q (want header=N, transposed, float=QA/QB, wrap)", s, key)
		}
	}
	if f.Wrap && !f.Float {
		return BulletFile{}, fmt.Errorf("nnue: bullet layout %q: wrap applies to a float file", s)
	}
	return f, nil
}
