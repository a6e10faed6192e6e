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
