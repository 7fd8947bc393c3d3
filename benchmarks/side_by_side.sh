#!/usr/bin/env bash
# The deep profile before and after, measured side by side (issue 16 section 2): two
# checkouts run `bench_papers.py --profile deep --jobs 1` paper by paper at the same time,
# each pinned to its own core (taskset) with one torch/BLAS thread, each paper from an empty
# cache, so whatever else loads the machine loads both alike.
#
# Usage: bash benchmarks/side_by_side.sh BEFORE_COMMIT AFTER_COMMIT OUTDIR [PAPER...]
#   (default papers: toef sih gda nfa pegr). Needs 2 free cores; the run takes hours (pegr's
#   Table 2 alone is 176 INR trainings). Per paper it writes OUTDIR/{before,after}_PAPER.json
#   (bench_papers' record: wall time, every claim's time) and OUTDIR/{before,after}.log.
set -u
before=$1 after=$2 out=$3
shift 3
papers=${*:-toef sih gda nfa pegr}
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$(git rev-parse --show-toplevel)
py=${PYTHON:-$repo/.venv/bin/python}

side() {  # side NAME COMMIT CPU: one checkout, its papers one after another, on one core
    local name=$1 commit=$2 cpu=$3 tree
    tree=$(mktemp -d "/tmp/verify-$name.XXXX")
    git -C "$repo" worktree add --detach "$tree" "$commit" >/dev/null
    # the claims that read the papers' text find ../shared beside the checkout
    [ -e "$tree/../shared" ] || ln -sfn "$repo/../shared" "$(dirname "$tree")/shared"
    for p in $papers; do
        echo "== $p start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
        (cd "$tree" && PYTHONPATH=$tree OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \
            OPENBLAS_NUM_THREADS=1 taskset -c "$cpu" "$py" benchmarks/bench_papers.py \
            --profile deep --jobs 1 --paper "$p")
        cp "$tree/benchmarks/results/papers_deep.json" "$out/${name}_$p.json"
        echo "== $p end $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
    done >>"$out/$name.log" 2>&1
}

side before "$before" 0 &
side after "$after" 1 &
wait
