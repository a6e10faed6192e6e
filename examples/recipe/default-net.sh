#!/usr/bin/env bash
# default-net.sh: a default network from nothing, with nnuekit's own pipeline (issue 29;
# doc/default-network.md "Recipe"): positions from in-process self-play, labels from a network,
# training, export, a quick strength check against the embedded network.
#
#   examples/recipe/default-net.sh OUTDIR            # the full recipe (82 min measured on 2 idle cores; 12 GB RAM)
#   SCALE=smoke examples/recipe/default-net.sh OUTDIR   # the same steps at toy sizes (≈ 1 min)
#
# Run it from the repository root. Everything is written under OUTDIR (never into the
# repository): bin/ (the built programs), data.binpack, net.* (the trainer's outputs; net.nnue is
# the network), match.pgn and match.json. Every step resumes: re-running the command after an
# interruption continues the data (datagen -append), keeps a finished training and continues the
# match (its -pgn). Settings come from the environment:
#
#   LABEL_NET    the labelling network (default ../shared/nets/nn-ad9b42354671.nnue, Stockfish 15.1,
#                GPL-3.0: the licence of the labels is the user's to state)
#   GAMES NODES SEED   self-play games, nodes per move, seed (default 360000, 200, 1)
#   EPOCHS L1    training epochs and feature transformer width (default 10, 256)
#   MATCH_GAMES MATCH_NODES   strength check: games against the embedded network, nodes per move
#                (default 200, 20000)
set -euo pipefail
out=${1:?usage: examples/recipe/default-net.sh OUTDIR (see the comment at the top)}
[ -f go.mod ] && [ -d examples/datagen ] || { echo "default-net.sh: run it from the repository root" >&2; exit 2; }
label=${LABEL_NET:-../shared/nets/nn-ad9b42354671.nnue}
if [ "${SCALE:-}" = smoke ]; then
  : "${GAMES:=20}" "${NODES:=300}" "${EPOCHS:=1}" "${L1:=32}" "${MATCH_GAMES:=2}" "${MATCH_NODES:=2000}"
fi
games=${GAMES:-360000} nodes=${NODES:-200} seed=${SEED:-1} epochs=${EPOCHS:-10} l1=${L1:-256}
mgames=${MATCH_GAMES:-200} mnodes=${MATCH_NODES:-20000}
mkdir -p "$out/bin"
step() { echo "== $(date -u +%H:%M:%S) $*" >&2; }

step "build"
for p in datagen train engine match; do go build -o "$out/bin/$p" "./examples/$p"; done

step "positions and labels: $games games at $nodes nodes, labelled by $label"
resume=()
[ -e "$out/data.binpack" ] && resume=(-append)
"$out/bin/datagen" -out "$out/data.binpack" "${resume[@]}" -engine internal -nodes "$nodes" -games "$games" \
  -workers 2 -seed "$seed" -quiet-only -label-net "$label" -progress 10s
"$out/bin/datagen" -stats "$out/data.binpack"

step "training: CPW architecture (768→$l1)×2→1×8 SCReLU, $epochs epochs"
if [ ! -e "$out/net.nnue" ]; then
  resume=()
  [ -e "$out/net.ckpt" ] && resume=(-resume)
  "$out/bin/train" -data "$out/data.binpack" "${resume[@]}" -set all -arch cpw -l1 "$l1" -buckets 8 -loss score \
    -epochs "$epochs" -batch 4096 -lr 1e-3 -decay 0.9 -val 0.02 -workers 2 -seed "$seed" -pawn-value 361 -mirror \
    -out "$out/net"
fi

step "strength check: $mgames games at $mnodes nodes against the embedded network"
"$out/bin/match" -engine "name=new,cmd=$out/bin/engine,option.EvalFile=$(cd "$out" && pwd)/net.nnue" \
  -engine "name=default,cmd=$out/bin/engine" -each 'option.Threads=1,option.Hash=16' \
  -openings examples/match/openings/balanced.epd -games "$mgames" -nodes "$mnodes" -concurrency 2 \
  -pgn "$out/match.pgn" -json-out "$out/match.json" -force
step "done: $out/net.nnue"
