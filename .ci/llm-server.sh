#!/usr/bin/env bash
# Start/stop a local llama.cpp `llama-server` serving the tiny test model, for
# end-to-end tests of the OpenAI-compatible provider.
#
#   .ci/llm-server.sh start    build-or-reuse llama-server, start it on a free
#                              loopback port, wait until GET /health is 200
#   .ci/llm-server.sh url      print http://127.0.0.1:PORT/v1
#   .ci/llm-server.sh stop     stop it and wait for it to exit (idempotent)
#   .ci/llm-server.sh status   exit 0 if running and healthy
#
# Env:
#   ROUNDTABLE_LLM_MODEL          model file (default: <repo>/../shared/models/tiny-apache-q8_0.gguf)
#   ROUNDTABLE_LLM_STATE          state dir for pid/port/log (default: /tmp/roundtable-llm)
#   ROUNDTABLE_LLM_START_TIMEOUT  seconds to wait for /health (default: 60)
#   ROUNDTABLE_LLM_CTX            context size in tokens (default: 2048)
#   ROUNDTABLE_LLAMA_SERVER       use this llama-server binary instead of building one
#   ROUNDTABLE_LLM_PREDICT        cap every reply at this many tokens (-n; default: none)
#   ROUNDTABLE_LLM_EOS_TOKEN      override the model's end-of-turn token id (default: the model's)
#
# Coding agents (design/agents.md) need ROUNDTABLE_LLM_CTX=65536 (their system
# prompts are 2-9k tokens), ROUNDTABLE_LLM_PREDICT=256 and
# ROUNDTABLE_LLM_EOS_TOKEN=13 (a newline ends a turn; otherwise the tiny model
# never stops and some agents treat the cap as an error).
#
# Note: the tiny model's GGUF says its training context is 256 tokens, and this
# llama-server caps each slot's context at the training context whatever -c
# says (requests over 256 tokens then get HTTP 400 exceed_context_size_error).
# We override the model's llama.context_length so that -c really applies.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
STATE="${ROUNDTABLE_LLM_STATE:-/tmp/roundtable-llm}"
PID_FILE="$STATE/pid"
PORT_FILE="$STATE/port"
LOG_FILE="$STATE/server.log"
START_TIMEOUT="${ROUNDTABLE_LLM_START_TIMEOUT:-60}"
HOST=127.0.0.1
ALIAS=tiny
CTX="${ROUNDTABLE_LLM_CTX:-2048}"
[[ "$CTX" =~ ^[0-9]+$ ]] || { echo "ROUNDTABLE_LLM_CTX must be a number" >&2; exit 2; }
EXTRA=()
if [[ -n "${ROUNDTABLE_LLM_PREDICT:-}" ]]; then
    [[ "$ROUNDTABLE_LLM_PREDICT" =~ ^[0-9]+$ ]] || { echo "ROUNDTABLE_LLM_PREDICT must be a number" >&2; exit 2; }
    EXTRA+=(-n "$ROUNDTABLE_LLM_PREDICT")
fi
if [[ -n "${ROUNDTABLE_LLM_EOS_TOKEN:-}" ]]; then
    [[ "$ROUNDTABLE_LLM_EOS_TOKEN" =~ ^[0-9]+$ ]] || { echo "ROUNDTABLE_LLM_EOS_TOKEN must be a number" >&2; exit 2; }
    EXTRA+=(--override-kv "tokenizer.ggml.eos_token_id=int:$ROUNDTABLE_LLM_EOS_TOKEN")
fi

log() { printf '[llm-server] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

model_path() {
    local m="${ROUNDTABLE_LLM_MODEL:-$REPO_ROOT/../shared/models/tiny-apache-q8_0.gguf}"
    [[ -f "$m" ]] || die "model not found: $m (set ROUNDTABLE_LLM_MODEL)"
    (cd "$(dirname "$m")" && printf '%s/%s\n' "$(pwd)" "$(basename "$m")")
}

# running PID: the process exists and is not a zombie.
running() {
    local pid="$1" state
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    if [[ -r "/proc/$pid/stat" ]]; then
        state="$(sed -E 's/^.*\) ([A-Za-z]).*$/\1/' "/proc/$pid/stat" 2>/dev/null || true)"
        [[ "$state" != Z && "$state" != X ]] || return 1
    fi
    return 0
}

# alive PID: running, and it is our server (guards against a recycled pid).
alive() {
    running "$1" || return 1
    if [[ -r "/proc/$1/cmdline" ]]; then
        tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q -- "--alias $ALIAS" || return 1
    fi
    return 0
}

read_pid() { cat "$PID_FILE" 2>/dev/null || true; }
read_port() { cat "$PORT_FILE" 2>/dev/null || true; }

# http_status PORT PATH: prints the HTTP status code (000 if no answer).
http_status() {
    local port="$1" path="$2"
    if command -v curl >/dev/null 2>&1; then
        curl -s -o /dev/null -w '%{http_code}' --max-time 3 "http://$HOST:$port$path" 2>/dev/null || echo 000
    else
        # shellcheck disable=SC2016 # expanded by the inner bash
        timeout 3 bash -c '
            exec 3<>"/dev/tcp/$0/$1" || exit 1
            printf "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" "$2" "$0" >&3
            read -r _ code _ <&3 && printf "%s" "$code"' "$HOST" "$port" "$path" 2>/dev/null || echo 000
    fi
}

port_in_use() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' && return 0
    fi
    local p i
    for i in $(seq 1 200); do
        p=$((20000 + RANDOM % 30000))
        port_in_use "$p" || { echo "$p"; return 0; }
    done
    die "no free loopback port found"
}

log_tail() {
    if [[ -f "$LOG_FILE" ]]; then
        log "last lines of $LOG_FILE:"
        tail -n 30 "$LOG_FILE" | sed 's/^/    /' >&2
    fi
}

# stop_pid PID: TERM, wait up to 15 s, then KILL and wait.
stop_pid() {
    local pid="$1" i
    alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
        running "$pid" || return 0
        sleep 0.1
    done
    log "pid $pid did not exit after SIGTERM, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        running "$pid" || return 0
        sleep 0.1
    done
    die "pid $pid is still running"
}

cmd_start() {
    local pid port
    pid="$(read_pid)"
    port="$(read_port)"
    if [[ -n "$pid" ]] && alive "$pid"; then
        if [[ -n "$port" && "$(http_status "$port" /health)" == 200 ]]; then
            log "already running (pid $pid, port $port)"
            printf 'http://%s:%s/v1\n' "$HOST" "$port"
            return 0
        fi
        log "stale server (pid $pid) is not healthy; restarting it"
        stop_pid "$pid"
    fi
    rm -f "$PID_FILE" "$PORT_FILE"

    local model bin
    model="$(model_path)"
    bin="$("$SCRIPT_DIR/build-llama-server.sh")"
    [[ -x "$bin" ]] || die "build-llama-server.sh did not give an executable: $bin"
    mkdir -p "$STATE"

    local attempt deadline code=000
    for attempt in 1 2 3; do
        port="$(free_port)"
        log "starting $bin on $HOST:$port (model $model, log $LOG_FILE)"
        # stdin/stdout/stderr all detached so callers capturing our output
        # (e.g. $(...)) don't wait for the server.
        nohup "$bin" -m "$model" --alias "$ALIAS" --host "$HOST" --port "$port" \
            -c "$CTX" -np 1 -t 2 --override-kv "llama.context_length=int:$CTX" ${EXTRA[@]+"${EXTRA[@]}"} \
            </dev/null >"$LOG_FILE" 2>&1 &
        pid=$!
        echo "$pid" >"$PID_FILE"
        echo "$port" >"$PORT_FILE"

        deadline=$((SECONDS + START_TIMEOUT))
        code=000
        while ((SECONDS < deadline)); do
            if ! running "$pid"; then
                break
            fi
            code="$(http_status "$port" /health)"
            if [[ "$code" == 200 ]]; then
                log "ready after $((SECONDS + START_TIMEOUT - deadline)) s (pid $pid)"
                printf 'http://%s:%s/v1\n' "$HOST" "$port"
                return 0
            fi
            sleep 0.2
        done

        if running "$pid"; then
            log "error: /health did not answer 200 within ${START_TIMEOUT} s (last status $code)"
            log_tail
            stop_pid "$pid" || true
            rm -f "$PID_FILE" "$PORT_FILE"
            exit 1
        fi
        # The server exited early. Retry only if it lost a race for the port.
        if grep -qiE 'address already in use|couldn.t bind|failed to bind' "$LOG_FILE" 2>/dev/null && ((attempt < 3)); then
            log "port $port was taken, retrying with another port"
            continue
        fi
        log "error: llama-server exited during start-up"
        log_tail
        rm -f "$PID_FILE" "$PORT_FILE"
        exit 1
    done
    rm -f "$PID_FILE" "$PORT_FILE"
    die "could not start llama-server"
}

cmd_stop() {
    local pid
    pid="$(read_pid)"
    if [[ -n "$pid" ]] && alive "$pid"; then
        log "stopping pid $pid"
        stop_pid "$pid"
        log "stopped"
    else
        log "not running"
    fi
    rm -f "$PID_FILE" "$PORT_FILE"
}

cmd_url() {
    local pid port
    pid="$(read_pid)"
    port="$(read_port)"
    if [[ -z "$port" || -z "$pid" ]] || ! alive "$pid"; then
        die "server is not running (run: $0 start)"
    fi
    printf 'http://%s:%s/v1\n' "$HOST" "$port"
}

cmd_status() {
    local pid port
    pid="$(read_pid)"
    port="$(read_port)"
    if [[ -n "$pid" && -n "$port" ]] && alive "$pid" && [[ "$(http_status "$port" /health)" == 200 ]]; then
        log "running (pid $pid) at http://$HOST:$port/v1"
        return 0
    fi
    log "not running"
    return 1
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    url) cmd_url ;;
    status) cmd_status ;;
    *) echo "usage: $0 start|stop|url|status" >&2; exit 2 ;;
esac
