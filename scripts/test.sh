#!/usr/bin/env bash
# The project's one test command: lint, type-check and test against a real Neo4j — the full
# suite on Neo4j 2026.08 (the default server), then the Neo4j store's suites on 5.26 LTS.
#
#   scripts/test.sh                      # everything
#   scripts/test.sh tests/unit -q        # extra arguments go to pytest (no 5.26 pass then)
#
# Steps: make .venv (pip install -e '.[dev]') if missing or pyproject.toml changed; find a
# Neo4j; ruff check; mypy; pytest; then the LTS pass: the store contract suite and the Neo4j
# store's integration tests again on Neo4j 5.26 (tools/neo4j-local with NEO4J_LOCAL_VERSION,
# Bolt port $GRAPHMEM_TEST_LTS_BOLT_PORT, default 7688), unless GRAPHMEM_TEST_LTS=0 or pytest
# arguments were given (GRAPHMEM_TEST_LTS=1 forces it). GRAPHMEM_TEST_NEO4J_LTS_URI points it
# at a 5.26 server of your own instead. Every step runs; the exit code is non-zero if any failed.
#
# Which Neo4j, first match wins:
#   1. GRAPHMEM_TEST_NEO4J_URI already set (+ _USER / _PASSWORD): used as is.
#   2. A Docker engine (with the compose plugin) answers: `docker compose up -d --wait`
#      (docker-compose.yml), user neo4j, password $GRAPHMEM_NEO4J_PASSWORD (default
#      graphmem-local-only).
#   3. Otherwise tools/neo4j-local/neo4j-local (Neo4j from Maven jars, no auth).
# A server this script started is stopped again on exit; one that was already running is left.
# GRAPHMEM_TEST_STRICT=1 is exported (set it to 0 to let Neo4j tests skip instead of fail).
set -uo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$ROOT" || exit 1
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
NEO4J_LOCAL="$ROOT/tools/neo4j-local/neo4j-local"

log() { echo "==> $*" >&2; }

# --- virtual environment -----------------------------------------------------------------------

find_python() {
    local c
    for c in "${PYTHON:-}" python3.11 python3.12 python3.13 python3; do
        [[ -n "$c" ]] && command -v "$c" >/dev/null 2>&1 || continue
        if "$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

ensure_venv() {
    if [[ ! -x "$PY" ]]; then
        local base
        base="$(find_python)" || { log "error: Python >= 3.11 not found"; return 1; }
        log "creating $VENV with $base"
        "$base" -m venv "$VENV" || return 1
    fi
    local stamp="$VENV/.graphmem-dev-install" want
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] &&
        "$PY" -c 'import graphmem, pytest, ruff, mypy, neo4j' >/dev/null 2>&1; then
        return 0
    fi
    log "installing graphmem[dev] into $VENV"
    if "$PY" -m pip install -q -e '.[dev]'; then
        echo "$want" >"$stamp"
        return 0
    fi
    # e.g. offline, with a venv that already has everything: go on, but say so.
    if "$PY" -c 'import graphmem, pytest, ruff, mypy, neo4j' >/dev/null 2>&1; then
        log "warning: pip install -e '.[dev]' failed; using $VENV as it is"
        return 0
    fi
    return 1
}

# --- Neo4j -------------------------------------------------------------------------------------
# Neo4j is looked for / started in a background job while ruff and mypy run (a cold local start
# takes tens of seconds). The job reports through files in $STATE: "started" (compose|local) is
# written *before* starting anything, so even an interrupted start is cleaned up on exit.

STATE="$(mktemp -d)"
NEO4J_JOB=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "${STEP_PID:-}" ]] && kill -0 "$STEP_PID" 2>/dev/null; then
        kill -TERM "$STEP_PID" 2>/dev/null
        wait "$STEP_PID" 2>/dev/null
    fi
    if [[ -n "$NEO4J_JOB" ]] && kill -0 "$NEO4J_JOB" 2>/dev/null; then
        pkill -TERM -P "$NEO4J_JOB" 2>/dev/null # its `neo4j-local start` / `docker compose`
        kill -TERM "$NEO4J_JOB" 2>/dev/null
        wait "$NEO4J_JOB" 2>/dev/null
    fi
    if [[ -f "$STATE/started_lts" ]]; then
        log "stopping the Neo4j LTS server this script started"
        env "${lts_env[@]}" "$NEO4J_LOCAL" stop >&2 || true
    fi
    case "$(cat "$STATE/started" 2>/dev/null)" in
        compose)
            log "stopping the Neo4j container this script started"
            docker compose stop neo4j >/dev/null 2>&1 || true
            ;;
        local)
            log "stopping the local Neo4j this script started"
            "$NEO4J_LOCAL" stop >&2 || true
            ;;
    esac
    rm -rf "$STATE"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

docker_engine_answers() { # and `docker compose` is there to use it
    command -v docker >/dev/null 2>&1 && timeout 5 docker info >/dev/null 2>&1 &&
        docker compose version >/dev/null 2>&1
}

find_neo4j() { # prints shell assignments for the GRAPHMEM_TEST_NEO4J_* variables
    if [[ -n "${GRAPHMEM_TEST_NEO4J_URI:-}" ]]; then
        log "Neo4j: using GRAPHMEM_TEST_NEO4J_URI=$GRAPHMEM_TEST_NEO4J_URI"
        return 0
    fi
    if docker_engine_answers; then
        if [[ -z "$(docker compose ps -q --status running neo4j 2>/dev/null)" ]]; then
            log "Neo4j: docker compose up -d --wait"
            echo compose >"$STATE/started"
            docker compose up -d --wait neo4j >&2 || return 1
        else
            log "Neo4j: using the running docker compose service"
        fi
        echo "GRAPHMEM_TEST_NEO4J_URI=bolt://localhost:7687"
        echo "GRAPHMEM_TEST_NEO4J_USER=neo4j"
        printf 'GRAPHMEM_TEST_NEO4J_PASSWORD=%q\n' "${GRAPHMEM_NEO4J_PASSWORD:-graphmem-local-only}"
        return 0
    fi
    if "$NEO4J_LOCAL" status >/dev/null 2>&1; then
        log "Neo4j: using the running tools/neo4j-local server"
    else
        log "Neo4j: no Docker engine answers; starting tools/neo4j-local"
        echo local >"$STATE/started"
        "$NEO4J_LOCAL" start >&2 || return 1
    fi
    echo "GRAPHMEM_TEST_NEO4J_URI=$("$NEO4J_LOCAL" uri)"
    echo "unset GRAPHMEM_TEST_NEO4J_USER GRAPHMEM_TEST_NEO4J_PASSWORD" # no auth
}

# --- steps -------------------------------------------------------------------------------------

FAILED=()
STEP_PID=""
step() { # step NAME COMMAND...
    local name="$1"
    shift
    log "$name"
    # In the background + wait, so that a TERM/INT reaches the EXIT trap at once.
    "$@" <&0 &
    STEP_PID=$!
    wait "$STEP_PID"
    local rc=$?
    STEP_PID=""
    if ((rc != 0)); then
        log "$name FAILED (exit $rc)"
        FAILED+=("$name")
    fi
}

if ! ensure_venv; then
    log "error: could not set up $VENV"
    exit 1
fi

(
    trap - EXIT INT TERM
    find_neo4j >"$STATE/env" 2>"$STATE/log" || echo failed >"$STATE/failed"
) &
NEO4J_JOB=$!

export GRAPHMEM_TEST_STRICT="${GRAPHMEM_TEST_STRICT:-1}"
step "ruff check graphmem tests bench" "$PY" -m ruff check graphmem tests bench
step "mypy" "$PY" -m mypy

log "waiting for Neo4j"
wait "$NEO4J_JOB"
NEO4J_JOB=""
cat "$STATE/log" >&2
if [[ -f "$STATE/failed" ]]; then
    log "Neo4j could not be found or started (Neo4j tests fail in strict mode)"
    FAILED+=("neo4j")
else
    # shellcheck disable=SC1091
    source "$STATE/env"
    export GRAPHMEM_TEST_NEO4J_URI
    [[ -n "${GRAPHMEM_TEST_NEO4J_USER+x}" ]] && export GRAPHMEM_TEST_NEO4J_USER
    [[ -n "${GRAPHMEM_TEST_NEO4J_PASSWORD+x}" ]] && export GRAPHMEM_TEST_NEO4J_PASSWORD
    log "Neo4j at $GRAPHMEM_TEST_NEO4J_URI"
fi

step "pytest $*" "$PY" -m pytest "$@"

# --- the LTS pass: the Neo4j store on 5.26 -----------------------------------------------------
LTS_VERSION="${GRAPHMEM_TEST_LTS_VERSION:-5.26.4}"
LTS_TESTS=(tests/contract tests/integration/test_neo4j_store.py
    tests/integration/test_neo4j_index_paths.py tests/integration/test_index_recall.py)
lts_env=(NEO4J_LOCAL_VERSION="$LTS_VERSION" NEO4J_LOCAL_RUN_DIR=run-lts NEO4J_LOCAL_BROWSER=0
    NEO4J_LOCAL_BOLT_PORT="${GRAPHMEM_TEST_LTS_BOLT_PORT:-7688}"
    NEO4J_LOCAL_HTTP_PORT="${GRAPHMEM_TEST_LTS_HTTP_PORT:-7475}")

lts_pass() {
    local uri="${GRAPHMEM_TEST_NEO4J_LTS_URI:-}"
    if [[ -z "$uri" ]]; then
        # one server at a time on a small machine: the 2026 one this script started goes first
        if [[ "$(cat "$STATE/started" 2>/dev/null)" == local ]]; then
            "$NEO4J_LOCAL" stop >&2 || true
            rm -f "$STATE/started"
        fi
        echo lts >"$STATE/started_lts"
        env "${lts_env[@]}" "$NEO4J_LOCAL" start >&2 || return 1
        uri="$(env "${lts_env[@]}" "$NEO4J_LOCAL" uri)"
        unset GRAPHMEM_TEST_NEO4J_USER GRAPHMEM_TEST_NEO4J_PASSWORD
    fi
    log "Neo4j $LTS_VERSION (LTS) at $uri"
    GRAPHMEM_TEST_NEO4J_URI="$uri" "$PY" -m pytest -m neo4j "${LTS_TESTS[@]}"
}

stop_lts() {
    if [[ -f "$STATE/started_lts" ]]; then
        env "${lts_env[@]}" "$NEO4J_LOCAL" stop >&2 || true
        rm -f "$STATE/started_lts"
    fi
}

if [[ "${GRAPHMEM_TEST_LTS:-}" == 1 || ( -z "${GRAPHMEM_TEST_LTS:-}" && $# -eq 0 ) ]]; then
    step "pytest on Neo4j $LTS_VERSION (the store contract and Neo4j store suites)" lts_pass
    stop_lts
fi

if ((${#FAILED[@]})); then
    log "FAILED: ${FAILED[*]}"
    exit 1
fi
log "all steps passed"
exit 0
