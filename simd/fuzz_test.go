package simd

import (
	"strings"
	"testing"
)

// FuzzParseISA: ParseISA accepts exactly the level names (any case); levelFromEnv never
// picks a level above the best one and reports an error exactly for a non-empty value
// that is not a level or is above the best one.
func FuzzParseISA(f *testing.F) {
	for _, s := range []string{"generic", "AVX2", "avx512", "avx512vnni", "bogus", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, perr := ParseISA(s)
		if perr == nil && !strings.EqualFold(l.String(), s) {
			t.Fatalf("ParseISA(%q) = %v", s, l)
		}
		for best := Generic; best <= AVX512VNNI; best++ {
			got, reason, err := levelFromEnv(best, s, s != "")
			wantErr := s != "" && (perr != nil || l > best)
			if got > best || reason == "" || (err != nil) != wantErr {
				t.Fatalf("levelFromEnv(%v, %q) = %v, %q, %v", best, s, got, reason, err)
			}
		}
	})
}
