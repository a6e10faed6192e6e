// Package quant converts between float32 NNUE models, as a trainer produces them, and the
// integer networks of package nnue, and measures what the conversion costs.
//
// It provides:
//
//   - Float models: FloatThesis, the thesis network (F→L1)×2→L2→1 with ClippedReLU (thesis §4.3),
//     and FloatCPW, the Chess Programming Wiki's 768→N→1 network with SCReLU and output buckets
//     (CPW: NNUE). Each has a float forward pass that mirrors the integer one: the side to move's
//     accumulator half comes first, and the output is in the units of the quantized network's
//     final integer (≈ centipawns for the thesis nets, Scale-based centipawns for CPW nets).
//   - Quantization schemes: Thesis (the Stockfish scheme of thesis §4.4.1: activation scale 127,
//     hidden weight scale 64, bias scale 127·64, output weights ×16/127 and output bias ×16, as
//     the thesis trainer's serialize.py writes them) and CPW (QA=255, QB=64, SCALE=400).
//     Values are rounded half to even (torch.round) and saturated to the integer range; a
//     ClipReport lists the saturated values per tensor.
//   - The quantization error in WDL space (thesis §4.5.1, §5.2.1): W(x) = σ((x − a)/b) with
//     a = 1.28, b = 297.21, the per-position error |W(float) − W(quantized)|, and a histogram.
//
// Package quant imports nnue; nnue never imports quant. See doc/quant.md for the design
// decisions and the measured error of the thesis networks.
package quant
