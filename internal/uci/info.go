package uci

import (
	"strconv"
	"strings"
	"time"
)

// Score is a UCI score: "score cp X" (centipawns, side to move's view) or "score mate M" (mate
// in M moves, negative when the side to move is mated), optionally a lower or upper bound.
type Score struct {
	CP         int  // centipawns; meaningless when Mate != 0
	Mate       int  // moves to mate, ±; 0: not a mate score
	IsMate     bool // "score mate" (Mate may be 0 for "mate 0": the side to move is mated)
	LowerBound bool // "lowerbound"
	UpperBound bool // "upperbound"
}

// String writes the score the way PGN comments of cutechess do: "+0.35", "-1.20", "+M5", "-M3".
func (s Score) String() string {
	if s.IsMate {
		if s.Mate > 0 {
			return "+M" + strconv.Itoa(s.Mate)
		}
		return "-M" + strconv.Itoa(-s.Mate)
	}
	v := float64(s.CP) / 100
	if s.CP >= 0 {
		return "+" + strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// Centipawns returns the score in centipawns with mates mapped to ±(mateCP − moves), so that
// mate scores compare beyond every centipawn score (mateCP = 100,000).
func (s Score) Centipawns() int {
	const mateCP = 100000
	if !s.IsMate {
		return s.CP
	}
	if s.Mate > 0 {
		return mateCP - s.Mate
	}
	return -mateCP - s.Mate
}

// Info is one parsed "info" line (UCI protocol, "info" command). Fields absent from the line
// are zero.
type Info struct {
	Depth, SelDepth int
	MultiPV         int // 0 when absent (= 1)
	HasScore        bool
	Score           Score
	Nodes           int64
	NPS             int64
	Time            time.Duration
	PV              []string
}

// ParseInfo parses an "info …" line. It reports false for lines that are not info lines or
// whose depth, multipv, score, nodes, nps or time value is not an integer. "info string …" is
// an info line without fields; "pv" takes the rest of the line.
func ParseInfo(line string) (Info, bool) {
	f := strings.Fields(line)
	var in Info
	if len(f) == 0 || f[0] != "info" {
		return in, false
	}
	num := func(i int) (int64, bool) {
		if i >= len(f) {
			return 0, false
		}
		v, err := strconv.ParseInt(f[i], 10, 64)
		return v, err == nil
	}
	for i := 1; i < len(f); i++ {
		var v int64
		ok := true
		switch f[i] {
		case "string":
			return in, true
		case "depth":
			v, ok = num(i + 1)
			in.Depth = int(v)
			i++
		case "seldepth":
			v, ok = num(i + 1)
			in.SelDepth = int(v)
			i++
		case "multipv":
			v, ok = num(i + 1)
			in.MultiPV = int(v)
			i++
		case "nodes":
			v, ok = num(i + 1)
			in.Nodes = v
			i++
		case "nps":
			v, ok = num(i + 1)
			in.NPS = v
			i++
		case "time":
			v, ok = num(i + 1)
			in.Time = time.Duration(v) * time.Millisecond
			i++
		case "score":
			if i+2 >= len(f) {
				return Info{}, false
			}
			v, ok = num(i + 2)
			switch f[i+1] {
			case "cp":
				in.Score = Score{CP: int(v)}
			case "mate":
				in.Score = Score{Mate: int(v), IsMate: true}
			default:
				ok = false
			}
			in.HasScore = ok
			i += 2
			for i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
				i++
				in.Score.LowerBound = in.Score.LowerBound || f[i] == "lowerbound"
				in.Score.UpperBound = in.Score.UpperBound || f[i] == "upperbound"
			}
		case "pv":
			in.PV = append([]string(nil), f[i+1:]...)
			return in, true
		}
		if !ok {
			return Info{}, false
		}
	}
	return in, true
}
