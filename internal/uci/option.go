package uci

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OptionSpec is an option an engine declares in reply to "uci" (UCI protocol, "option"
// command): "option name <id> type <t> [default <x>] [min <x>] [max <x>] [var <x>]*".
type OptionSpec struct {
	Name    string   // as the engine spells it; may contain spaces
	Type    string   // check, spin, combo, button or string (other words are kept as sent)
	Default string   // "" when absent
	Min     int64    // spin only
	Max     int64    // spin only
	HasMin  bool     // a "min" was given
	HasMax  bool     // a "max" was given
	Vars    []string // combo values
}

// ParseOptionSpec parses an "option name … type …" line. Values run to the next keyword
// (name, type, default, min, max, var), so names and defaults may contain spaces. It reports
// false for other lines, a missing name or type, and a min or max that is not an integer.
func ParseOptionSpec(line string) (OptionSpec, bool) {
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "option" || f[1] != "name" {
		return OptionSpec{}, false
	}
	var o OptionSpec
	key := ""
	var val []string
	hasType := false
	flush := func() bool {
		v := strings.Join(val, " ")
		val = val[:0]
		var err error
		switch key {
		case "name":
			o.Name = v
		case "type":
			o.Type, hasType = v, true
		case "default":
			o.Default = v
		case "min":
			o.Min, err = strconv.ParseInt(v, 10, 64)
			o.HasMin = true
		case "max":
			o.Max, err = strconv.ParseInt(v, 10, 64)
			o.HasMax = true
		case "var":
			o.Vars = append(o.Vars, v)
		}
		return err == nil
	}
	for _, w := range f[1:] {
		switch w {
		case "name", "type", "default", "min", "max", "var":
			if key == "name" && w == "name" {
				val = append(val, w) // a name may contain the word "name"
				continue
			}
			if key != "" && !flush() {
				return OptionSpec{}, false
			}
			key = w
		default:
			val = append(val, w)
		}
	}
	if key != "" && !flush() {
		return OptionSpec{}, false
	}
	if o.Name == "" || !hasType || o.Type == "" {
		return OptionSpec{}, false
	}
	return o, true
}

// networkFileOptions are the string options whose value names a network file the engine
// loads (Stockfish's and our engine's): a value other than the declared default must name an
// existing regular file.
var networkFileOptions = []string{"EvalFile", "EvalFileSmall"}

// CheckOption checks name and value against the options the engine declared: the name must be
// declared (compared without regard to case, as the UCI protocol asks), a spin value an
// integer within min … max, a check value true or false, a combo value one of its vars (any
// case), a button no value. For EvalFile and EvalFileSmall a value other than the declared
// default and other than an engine-defined name in angle brackets ("<default>", "<empty>")
// must name an existing regular file, relative to Spec.Dir. It returns the declared option
// and an error wrapping ErrOption.
func (e *Engine) CheckOption(name, value string) (OptionSpec, error) {
	var o OptionSpec
	found := false
	for _, d := range e.Declared {
		if strings.EqualFold(d.Name, name) {
			o, found = d, true
			break
		}
	}
	if !found {
		names := make([]string, len(e.Declared))
		for i, d := range e.Declared {
			names[i] = d.Name
		}
		return o, fmt.Errorf("%w: %q is not an option of this engine (it declares: %s)", ErrOption, name, strings.Join(names, ", "))
	}
	bad := func(format string, a ...any) (OptionSpec, error) {
		return o, fmt.Errorf("%w: %s = %q: "+format, append([]any{ErrOption, o.Name, value}, a...)...)
	}
	switch strings.ToLower(o.Type) {
	case "spin":
		v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return bad("not an integer (type spin)")
		}
		if (o.HasMin && v < o.Min) || (o.HasMax && v > o.Max) {
			return bad("outside the declared range %d … %d", o.Min, o.Max)
		}
	case "check":
		if value != "true" && value != "false" {
			return bad("a check option takes true or false")
		}
	case "combo":
		ok := false
		for _, v := range o.Vars {
			ok = ok || strings.EqualFold(v, value)
		}
		if !ok {
			return bad("not one of %s", strings.Join(o.Vars, ", "))
		}
	case "button":
		if value != "" {
			return bad("a button takes no value")
		}
	case "string":
		if !isNetworkFileOption(o.Name) || value == o.Default || (strings.HasPrefix(value, "<") && strings.HasSuffix(value, ">")) {
			break
		}
		path := value
		if !filepath.IsAbs(path) && e.spec.Dir != "" {
			path = filepath.Join(e.spec.Dir, path)
		}
		st, err := os.Stat(path)
		if err != nil {
			return bad("%v", err)
		}
		if !st.Mode().IsRegular() {
			return bad("%s is not a regular file", path)
		}
	}
	return o, nil
}

func isNetworkFileOption(name string) bool {
	for _, n := range networkFileOptions {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}
