package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/internal/elo"
	"github.com/nnuekit/nnuekit/internal/uci"
)

// splitList splits "k=v,k=v" at commas not preceded by a backslash ("\," is a literal comma).
func splitList(s string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(out, cur.String())
}

// parseEngine parses an -engine value: comma-separated key=value items
//
//	name=N        display name (PGN tags, tables); default: the engine's id name
//	cmd=PATH ARGS executable and arguments (split at spaces)
//	arg=A         one more argument (may contain spaces; repeatable)
//	dir=D         working directory
//	env.K=V       environment variable
//	option.N=V    UCI option (setoption name N value V), in order after the -each options
//
// A literal comma in a value is written "\,".
func parseEngine(s string, each []uci.Option) (uci.Spec, error) {
	spec := uci.Spec{Options: append([]uci.Option(nil), each...)}
	for _, item := range splitList(s) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return spec, fmt.Errorf("-engine %q: item %q is not key=value", s, item)
		}
		switch {
		case k == "name":
			spec.Name = v
		case k == "cmd":
			f := strings.Fields(v)
			if len(f) == 0 {
				return spec, fmt.Errorf("-engine %q: empty cmd", s)
			}
			spec.Cmd = f[0]
			spec.Args = append(spec.Args, f[1:]...)
		case k == "arg":
			spec.Args = append(spec.Args, v)
		case k == "dir":
			spec.Dir = v
		case strings.HasPrefix(k, "env."):
			spec.Env = append(spec.Env, k[4:]+"="+v)
		case strings.HasPrefix(k, "option."):
			name := k[len("option."):]
			if name == "" {
				return spec, fmt.Errorf("-engine %q: option without a name", s)
			}
			// A later value replaces an earlier one (per-engine options override -each).
			replaced := false
			for i := range spec.Options {
				if spec.Options[i].Name == name {
					spec.Options[i].Value, replaced = v, true
				}
			}
			if !replaced {
				spec.Options = append(spec.Options, uci.Option{Name: name, Value: v})
			}
		default:
			return spec, fmt.Errorf("-engine %q: unknown key %q (name, cmd, arg, dir, env.K, option.N)", s, k)
		}
	}
	if spec.Cmd == "" {
		return spec, fmt.Errorf("-engine %q: no cmd", s)
	}
	if strings.ContainsAny(spec.Name, "\"\\\n") {
		return spec, fmt.Errorf("-engine %q: the name may not contain quotes, backslashes or newlines", s)
	}
	return spec, nil
}

// parseEach parses -each: option.N=V items applied to every engine.
func parseEach(s string) ([]uci.Option, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	spec, err := parseEngine(s+",cmd=x", nil)
	if err != nil {
		return nil, fmt.Errorf("-each: %w", err)
	}
	if spec.Name != "" || len(spec.Args) > 0 || spec.Dir != "" || len(spec.Env) > 0 {
		return nil, errors.New("-each takes option.N=V items only")
	}
	return spec.Options, nil
}

// defaultName is the name of an engine without name=: its id name, else the executable's base
// name.
func defaultName(spec uci.Spec, idName string) string {
	if idName != "" {
		return strings.NewReplacer("\"", "'", "\\", "/").Replace(idName)
	}
	return filepath.Base(spec.Cmd)
}

// timeControl is how long engines may think.
type timeControl struct {
	moveTime  time.Duration // fixed time per move (-st); 0 if unused
	base, inc time.Duration // clock (-tc base+inc)
	nodes     int64         // go nodes N (-nodes), no clock
	depth     int           // go depth N (-depth), no clock
	margin    time.Duration // lateness tolerated before a time forfeit
	timeout   time.Duration // answer deadline for node/depth searches and isready
}

// parseTC parses "-tc BASE+INC" with seconds (decimals allowed) or "BASE" alone, as cutechess
// and the PGN TimeControl tag write them ("10+0.1", "60").
func parseTC(s string) (base, inc time.Duration, err error) {
	b, i, hasInc := strings.Cut(s, "+")
	sec := func(x string) (time.Duration, error) {
		v, err := strconv.ParseFloat(x, 64)
		if err != nil || v < 0 || v > 1e6 {
			return 0, fmt.Errorf("-tc %q: bad number of seconds %q", s, x)
		}
		return time.Duration(v * float64(time.Second)), nil
	}
	if base, err = sec(b); err != nil {
		return
	}
	if hasInc {
		if inc, err = sec(i); err != nil {
			return
		}
	}
	if base <= 0 {
		err = fmt.Errorf("-tc %q: base time must be > 0", s)
	}
	return
}

// pgnTag is the PGN TimeControl tag (PGN standard §9.6.1: "base+inc" in seconds; "-" for no
// clock; a fixed time per move is written as cutechess does, "N/move" — not a standard form).
func (tc timeControl) pgnTag() string {
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	switch {
	case tc.base > 0 && tc.inc > 0:
		return sec(tc.base) + "+" + sec(tc.inc)
	case tc.base > 0:
		return sec(tc.base)
	case tc.moveTime > 0:
		return sec(tc.moveTime) + "/move"
	}
	return "-"
}

func (tc timeControl) String() string {
	var parts []string
	switch {
	case tc.base > 0:
		parts = append(parts, "clock "+tc.pgnTag()+" s")
	case tc.moveTime > 0:
		parts = append(parts, fmt.Sprintf("%s per move", tc.moveTime))
	}
	if tc.nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", tc.nodes))
	}
	if tc.depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", tc.depth))
	}
	if tc.base > 0 || tc.moveTime > 0 {
		parts = append(parts, fmt.Sprintf("margin %s", tc.margin))
	}
	return strings.Join(parts, ", ")
}

// resignRule: a side whose engine scores ≤ −score cp for movecount consecutive own moves
// loses, if (twosided) the opponent scored ≥ +score over its last movecount moves as well
// (cutechess-cli -resign).
type resignRule struct {
	moveCount int
	score     int
	twoSided  bool
}

// drawRule: from game move number moveNumber on (counted from the opening position's end),
// when both engines' last moveCount scores are within ±score cp, the game is drawn
// (cutechess-cli -draw).
type drawRule struct {
	moveNumber, moveCount, score int
}

func parseKV(flagName, s string, keys map[string]*int) error {
	for _, item := range splitList(s) {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		p, known := keys[k]
		if !ok || !known {
			return fmt.Errorf("-%s %q: bad item %q", flagName, s, item)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("-%s %q: %s must be a non-negative integer", flagName, s, k)
		}
		*p = n
	}
	return nil
}

func parseResign(s string) (resignRule, error) {
	r := resignRule{twoSided: true}
	if s == "" {
		return r, nil
	}
	two := 1
	err := parseKV("resign", s, map[string]*int{"movecount": &r.moveCount, "score": &r.score, "twosided": &two})
	r.twoSided = two != 0
	if err == nil && (r.moveCount == 0 || r.score == 0) {
		err = fmt.Errorf("-resign %q: movecount and score must be > 0", s)
	}
	return r, err
}

func parseDraw(s string) (drawRule, error) {
	var d drawRule
	if s == "" {
		return d, nil
	}
	err := parseKV("draw", s, map[string]*int{"movenumber": &d.moveNumber, "movecount": &d.moveCount, "score": &d.score})
	if err == nil && d.moveCount == 0 {
		err = fmt.Errorf("-draw %q: movecount must be > 0", s)
	}
	return d, err
}

func parseSPRT(s string) (*elo.SPRT, error) {
	if s == "" {
		return nil, nil
	}
	t := elo.SPRT{Alpha: 0.05, Beta: 0.05}
	for _, item := range splitList(s) {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("-sprt %q: bad item %q", s, item)
		}
		switch k {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return nil, fmt.Errorf("-sprt %q: unknown key %q (elo0, elo1, alpha, beta)", s, k)
		}
	}
	if err := t.Valid(); err != nil {
		return nil, fmt.Errorf("-sprt %q: %w", s, err)
	}
	return &t, nil
}
