// Package train trains the float NNUE models of package quant on encoded chess positions and
// exports them as quantized nnue networks. It is pure Go (float32, no cgo) and uses all cores.
//
// Architectures (Arch):
//
//   - ArchThesis: the thesis network (F→L1)×2→L2→1 with ClippedReLU (thesis §4.3), exported
//     with the thesis quantization scheme (quant.Thesis, §4.4.1) to the thesis .nn and native
//     formats.
//   - ArchCPW: the Chess Programming Wiki's basic network F→N→1 with SCReLU and output buckets
//     chosen by piece count (CPW: NNUE), exported with QA=255, QB=64, SCALE=400 (quant.CPW) to
//     the native format.
//
// Losses (Loss):
//
//   - LossScore: the score target in WDL space, mean |W(y) − W(f(x))|^2.6 with
//     W(x) = σ((x − 1.28)/297.21) (thesis §5.2).
//   - LossPQR: the PQR triplet loss of thesis §5.3 on (P, Q = P after the best move,
//     R = P after a random other legal move). Trainer.FineTune switches a trained model (e.g.
//     a score checkpoint) to PQR at a chosen learning rate (thesis §6.5 B); PQRDiagnose and
//     PQRDiagnostics.PlotPQR give the f(P) vs −f(Q) scatter and the f(R) − f(Q) histogram of
//     Figures 14 and 17. The per-turn move-count filter M is dataset.MFilter.
//   - LossWDL: cross-entropy in WDL space against t = λ·W(y) + (1 − λ)·r, the evaluation target
//     interpolated with the game result r by Config.Lambda (thesis §5.2.1's λ; Karhan, seed 001
//     §4.2.2); Encoder.AddResult supplies r.
//
// Training: the first layer is sparse — a position touches only the rows of its active
// features, and only those rows get gradients and Adam updates (lazy Adam, as PyTorch's
// SparseAdam); the other tensors use Adam (β = 0.9, 0.999). The learning rate starts at LR
// (5e-4) and is multiplied by Decay (0.99) after every epoch (thesis §6.1). After every step the
// weights are clipped to the ranges the quantization scheme can represent (hidden ±127/64).
// Each batch is split into contiguous shards, one per worker goroutine, and the shard gradients
// are summed in worker order, so runs are reproducible for a fixed worker count.
//
// Data: an Encoder turns positions (board.Position, target score, best move) into a Data with
// the active feature indices of both perspectives, side to move first; Data.Split holds out the
// tail for validation. Reading sample files and filtering them is package quant/dataset's job.
//
// Trainer.Train runs the epochs with progress lines, a validation loss per epoch, and a
// checkpoint after every epoch and on cancellation (Load resumes, mid-epoch included);
// PlotLoss draws the loss curves; Trainer.Export quantizes and reports the WDL-space
// quantization error against the float model. See doc/trainer.md and examples/train.
package train
