package simd

import "fmt"

var (
	reason string // why level was chosen (LevelReason)
	envErr error  // a bad NNUEKIT_SIMD value (EnvError)
)

// levelFromEnv chooses the level from the best supported one and the NNUEKIT_SIMD value
// env (set: the variable is non-empty; an empty value counts as unset). A value that is not a level name is
// reported (the error names the variable, the value and the accepted names) and ignored;
// a level above best is reported and capped at best.
func levelFromEnv(best ISA, env string, set bool) (ISA, string, error) {
	if !set {
		return best, fmt.Sprintf("best level this CPU and build support (%s unset)", EnvVar), nil
	}
	l, err := ParseISA(env)
	switch {
	case err != nil:
		return best, fmt.Sprintf("%s=%q is not a level and was ignored; using the best supported", EnvVar, env),
			fmt.Errorf("simd: %s=%q ignored: %w", EnvVar, env, err)
	case l > best:
		return best, fmt.Sprintf("%s=%s is above the best this CPU and build support (%s); capped", EnvVar, l, best),
			fmt.Errorf("simd: %s=%s not supported here (best is %s); using %s", EnvVar, l, best, best)
	case l < best:
		return l, fmt.Sprintf("capped by %s=%s (best supported: %s)", EnvVar, l, best), nil
	}
	return l, fmt.Sprintf("%s=%s, the best supported", EnvVar, l), nil
}

// LevelReason explains the current Level: the best supported level, a cap by
// NNUEKIT_SIMD, a bad NNUEKIT_SIMD value that was ignored, or a SetLevel call.
func LevelReason() string { return reason }

// EnvError returns the problem with the NNUEKIT_SIMD value read at init (not a level
// name, or a level this CPU or build does not support), or nil. The value is not fatal:
// the level falls back as LevelReason says, and programs should print this error as a
// warning (examples/evaluate does).
func EnvError() error { return envErr }
