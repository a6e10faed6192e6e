package simd

import (
	"strings"
	"testing"
)

// TestLevelFromEnv: a misspelled NNUEKIT_SIMD value is reported, not silently ignored;
// every outcome has a reason.
func TestLevelFromEnv(t *testing.T) {
	for _, c := range []struct {
		best    ISA
		env     string
		set     bool
		want    ISA
		wantErr bool
		reason  string
	}{
		{AVX512VNNI, "", false, AVX512VNNI, false, "unset"},
		{AVX512VNNI, "bogus", true, AVX512VNNI, true, "ignored"},
		{AVX2, "AVX2", true, AVX2, false, "best supported"},
		{AVX512, "generic", true, Generic, false, "capped by NNUEKIT_SIMD=generic"},
		{AVX2, "avx512vnni", true, AVX2, true, "capped"},
		{Generic, "avx2", true, Generic, true, "capped"},
	} {
		l, reason, err := levelFromEnv(c.best, c.env, c.set)
		if l != c.want || (err != nil) != c.wantErr || !strings.Contains(reason, c.reason) {
			t.Errorf("best %v, %q: level %v, reason %q, err %v", c.best, c.env, l, reason, err)
		}
		if err != nil && !strings.Contains(err.Error(), EnvVar) {
			t.Errorf("error %q does not name %s", err, EnvVar)
		}
	}
	if LevelReason() == "" {
		t.Error("no reason for the current level")
	}
}
