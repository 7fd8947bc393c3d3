#!/usr/bin/env bash
# The GPU checks in one run, on a machine with a CUDA build of torch and verify installed
# (`pip install -e .[test]` over the CUDA wheel of the pinned release; e3nn beside it for the
# e3nn anchor). Writes everything under OUTDIR (default gpu-out):
#   gpu.txt                  the card, the driver, torch's CUDA
#   bench.log                the anchor and throughput benchmarks on cuda (cpu beside it where
#                            the script measures both), each under its own time limit
#   quick_cuda.jsonl         the quick profile run with --device cuda
#   quick_diff.txt           its verdicts against the committed CPU run (verify diff)
#   pytest.txt               the test suite with the GPU present (CUDA is the default device)
#   results.tar.gz           the benchmarks' JSON records
# Usage: bash benchmarks/gpu_checks.sh [OUTDIR] [JOBS]
set -u
out=${1:-gpu-out}
jobs=${2:-8}  # worker processes for the quick run and for pytest
mkdir -p "$out"
export PYTHONUNBUFFERED=1
py=${PYTHON:-python3}

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    "$py" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda,
          torch.cuda.get_device_name(0), torch.cuda.get_device_capability(0))"
    nproc
    git rev-parse --short HEAD 2>/dev/null
} >"$out/gpu.txt" 2>&1

step() {  # step SECONDS NAME COMMAND...: one check, its time limit, its exit status logged
    local limit=$1 name=$2
    shift 2
    echo "== $name (limit ${limit}s) $(date -u +%T)"
    timeout "$limit" "$@"
    echo "== $name: exit $? $(date -u +%T)"
}

{
    step 100 anchor_falsify "$py" benchmarks/bench_anchor_falsify.py --device cuda \
        --examples 100 --repeat 2 --hypothesis-examples 1000 \
        --batch 8192 65536 262144 1048576
    step 45 anchor_e3nn "$py" benchmarks/bench_anchor_e3nn.py --device cuda --calls 30 \
        --repeat 2 --batch 256
    step 45 anchor_e3nn_large "$py" benchmarks/bench_anchor_e3nn.py --device cuda \
        --calls 20 --repeat 2 --batch 8192
    step 40 falsify_batches "$py" benchmarks/bench_falsify.py --budget 20 --batches 1 1024 65536
    step 60 gda_step "$py" benchmarks/bench_gda_step.py --T 2000 --repeat 3
} >"$out/bench.log" 2>&1
tar -czf "$out/results.tar.gz" -C benchmarks results 2>/dev/null

{
    step 140 quick_cuda "$py" -m verify run --device cuda --jobs "$jobs" \
        --json "$out/quick_cuda.jsonl" --quiet
    "$py" -m verify diff docs/report/results.jsonl "$out/quick_cuda.jsonl"
} >"$out/quick_diff.txt" 2>&1

step 150 pytest "$py" -m pytest -q -p no:cacheprovider -n "$jobs" --timeout 120 \
    >"$out/pytest.txt" 2>&1
exit 0
