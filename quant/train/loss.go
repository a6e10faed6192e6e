package train

import (
	"math"

	"github.com/nnuekit/nnuekit/quant"
)

// scoreLoss returns |W(y) − W(out)|^p and its derivative with respect to out (thesis §5.2.2).
func scoreLoss(w quant.WDLModel, p, y, out float64) (loss, grad float64) {
	t := w.Win(y)
	o := w.Win(out)
	d := o - t
	ad := math.Abs(d)
	if ad == 0 {
		return 0, 0
	}
	loss = math.Pow(ad, p)
	grad = p * loss / d * o * (1 - o) / w.B // p·|d|^(p−1)·sign(d)·W'(out)
	return loss, grad
}

// logSigmoidNeg returns −log σ(x), computed stably.
func logSigmoidNeg(x float64) float64 {
	if x > 0 {
		return math.Log1p(math.Exp(-x))
	}
	return -x + math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// pqrLoss returns the PQR loss of thesis §5.3.1 for the outputs fp, fq, fr (centipawns, each
// from its own side to move) and its derivatives with respect to them:
//
//	p, q, r = 2W(f) − 1
//	L = −log σ(r − q) − log σ(p + q) − log σ(−(p + q))
func pqrLoss(w quant.WDLModel, fp, fq, fr float64) (loss, gp, gq, gr float64) {
	wp, wq, wr := w.Win(fp), w.Win(fq), w.Win(fr)
	p, q, r := 2*wp-1, 2*wq-1, 2*wr-1
	u := p + q
	loss = logSigmoidNeg(r-q) + logSigmoidNeg(u) + logSigmoidNeg(-u)
	dr := sigmoid(r-q) - 1                                               // dL/dr
	du := 2*sigmoid(u) - 1                                               // dL/du
	dp, dq := du, du-dr                                                  // dL/dp, dL/dq
	deriv := func(wx float64) float64 { return 2 * wx * (1 - wx) / w.B } // d(2W−1)/df
	return loss, dp * deriv(wp), dq * deriv(wq), dr * deriv(wr)
}

// wdlLoss returns Karhan's cross-entropy loss (seed 001 §4.2.2) for the output out against the
// target t = λ·W(y) + (1 − λ)·r (r < 0: unknown, then t = W(y)), minus the target's entropy so
// that the loss is 0 at the optimum, and its derivative (W(out) − t)/b.
func wdlLoss(w quant.WDLModel, lambda, y, r, out float64) (loss, grad float64) {
	t := w.Win(y)
	if r >= 0 {
		t = lambda*t + (1-lambda)*r
	}
	x := (out - w.A) / w.B
	// −log W = −log σ(x), −log(1 − W) = −log σ(−x)
	loss = t*logSigmoidNeg(x) + (1-t)*logSigmoidNeg(-x)
	if t > 0 && t < 1 {
		loss += t*math.Log(t) + (1-t)*math.Log(1-t)
	}
	return max(loss, 0), (sigmoid(x) - t) / w.B
}
