// Package dataset reads, writes, filters and encodes NNUE training samples in the text formats of
// M. E. Lombardo's thesis "Feature set analysis for chess NNUE networks" (§5.1, App. A.6).
//
// Formats (one line each; ParseLine documents them exactly):
//
//	FEN,score,best                          plain (Stockfish's emitPlainEntry, thesis App. A.6)
//	FEN,score,best(,played,score,best)*     compact: consecutive positions of one game, where an
//	                                        empty played field means the previous best move was played
//	…,result                                nnuekit: optional trailing game result, 1-0 / 0-1 / 1/2-1/2
//
// Scores are from the side to move's point of view in Stockfish internal units (the thesis's
// score-space); examples/datagen writes games in the compact format with results
// (doc/datagen.md).
//
// What the package provides:
//
//   - Sample and Result; Reader (streaming: Next/Sample/Err, or NextLine per game) and Writer,
//     ParseLine/AppendGame/AppendPlain, with *ParseError naming line, field and column.
//   - Stockfish's formats: BinpackReader/BinpackWriter for the binpack of Stockfish's training
//     data (chains of positions with moves and scores, src/extra/nnue_data_binpack_format.h on
//     Stockfish's tools branch) and StockfishPlainReader/StockfishPlainWriter for its ".plain"
//     text (fen, move, score, ply, result, e). Byte-identical to Stockfish's own `convert`
//     on the fixtures in testdata/binpack. Bad input gives a *FormatError with the byte offset;
//     the binpack reader checks each chunk whole (optional CRC-32C trailer, BinpackWriter.
//     SetChecksums, then every record) before it delivers any of its samples.
//   - BulletWriter/AppendBulletRecord: bullet's 32-byte ChessBoard training records.
//   - MoveCountStats/MFilter: the legal-move-count distribution per turn and side to move, and
//     the thesis's PQR sample filter M built on it (§6.5).
//   - SampleReader/SampleWriter, the stream interfaces all formats share (TextWriter writes a
//     stream in the compact format, one line per game), so any format converts into any other
//     (examples/convert).
//   - Filter: the thesis filters (§2.2, §5.1) — skip positions in check, whose best move is a
//     capture, or with |score| > 5000 — and seeded random skipping (ThesisFilter, Quiet).
//   - Encoder/Batch: sparse inputs for any featureset.Set — index lists per perspective (side to
//     move first) and the thesis's packed bitsets (one uint64 per 64 features, both perspectives),
//     with score, result and side-to-move targets.
//   - WDLFitter/FitWDL: the fit of σ((score − a)/b) to game results (thesis §5.2.1, Fig. 9).
//   - Stockfish151Scale/UnscaleStockfish151: Stockfish 15.1's material and fifty-move scaling of
//     its NNUE output (evaluate.cpp), to turn its search scores into NNUE-output units.
package dataset
