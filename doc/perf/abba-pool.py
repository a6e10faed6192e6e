#!/usr/bin/env python3
# abba-pool.py rounds-old-*.log rounds-new-*.log: pools the rounds of several ../shared/perf/run.sh
# runs (copies of <work>/logs/rounds.log named rounds-<old|new>-<time>.log) per code version:
# per cell, the median over all rounds of the within-round ratio Go cpu-ns / Stockfish cpu-ns,
# and new/old (doc/perf/issue24-abba.md, doc/benchmarks.md "Third session").
import re, sys, statistics as S, collections
go_re = re.compile(r'BenchmarkStockfish/(\S+?)/(\w+)/(\S+?)-\d+\s+\d+\s+[\d.]+ ns/op\s+([\d.]+) cpu-ns/eval')
sf_re = re.compile(r'^(sf[\d.]+) cpu (.*)$')
data = collections.defaultdict(lambda: collections.defaultdict(list))  # who -> cell -> [ratio]
gocpu = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1:]:
    who = f.split('rounds-')[1].split('-')[0]
    rounds = open(f).read().split('=== round ')[1:]
    # group by round number: go block and sf blocks share a number
    byr = collections.defaultdict(str)
    for blk in rounds:
        n = blk.split()[0]
        byr[n] += blk
    for n, txt in byr.items():
        g = {}
        for m in go_re.finditer(txt):
            g[(m.group(1), m.group(3))] = float(m.group(4))
        for line in txt.splitlines():
            m = sf_re.match(line.strip())
            if not m: continue
            net = m.group(1)
            kv = m.group(2).split()
            for k, v in zip(kv[::2], kv[1::2]):
                try: sv = float(v)
                except: continue
                cells = [k] + (['king-table'] if k == 'king' else [])
                for c in cells:
                    if (net, c) in g:
                        data[who][(net, c)].append(g[(net, c)] / sv)
        for k, v in g.items():
            gocpu[who][k].append(v)
cells = sorted(set(data['old']) | set(data['new']))
print(f"{'cell':24} {'old ratio med (n)':>18} {'new ratio med (n)':>18} {'new/old':>8}   {'Go cpu-ns old':>13} {'new':>8}")
for c in cells:
    o, n = data['old'].get(c, []), data['new'].get(c, [])
    if not o or not n: continue
    mo, mn = S.median(o), S.median(n)
    print(f"{c[0]+' '+c[1]:24} {mo:12.3f} ({len(o):2d}) {mn:12.3f} ({len(n):2d}) {mn/mo:8.3f}   {S.median(gocpu['old'][c]):13.0f} {S.median(gocpu['new'][c]):8.0f}")
