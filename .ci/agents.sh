#!/usr/bin/env bash
# Install the real coding agents the end-to-end tests drive over ACP, from npm
# at the exact versions of design/agents.md, into the user's cache folder, and
# reuse them when present (like build-llama-server.sh does for llama-server).
#
# Prints ONLY the agents' bin directories on stdout, one a line, in the order
# installed; progress and timings go to stderr. Join them with ':' for PATH:
#
#   PATH="$(.ci/agents.sh | paste -sd: -):$PATH"
#
# Each package lives in its own prefix:
#   ${XDG_CACHE_HOME:-~/.cache}/roundtable/agents/<pkg>@<ver>/node_modules/.bin
# installed into a temporary folder first and renamed into place, so a run
# killed half-way never leaves a cache entry that looks complete.
#
# Env:
#   ROUNDTABLE_AGENTS   which agents (default "qwen opencode codex claude gemini"):
#                       qwen, opencode, codex (codex + codex-acp),
#                       claude (claude-code + claude-agent-acp), gemini
#   XDG_CACHE_HOME      cache root (default: $HOME/.cache)
set -euo pipefail

log() { printf '[agents] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

command -v npm >/dev/null 2>&1 || die "npm is not installed (apt-get install -y nodejs npm)"
command -v node >/dev/null 2>&1 || die "node is not installed (apt-get install -y nodejs)"

# agent -> "package@version command" pairs; command is the executable that
# must be in node_modules/.bin once installed.
packages_of() {
    case "$1" in
        qwen) echo "@qwen-code/qwen-code@0.24.4 qwen" ;;
        opencode) echo "opencode-ai@1.18.33 opencode" ;;
        codex)
            echo "@openai/codex@0.169.0 codex"
            echo "@zed-industries/codex-acp@0.16.0 codex-acp"
            ;;
        claude)
            echo "@anthropic-ai/claude-code@2.1.328 claude"
            echo "@zed-industries/claude-agent-acp@0.23.1 claude-agent-acp"
            ;;
        gemini) echo "@google/gemini-cli@0.61.0 gemini" ;;
        *) die "unknown agent '$1' in ROUNDTABLE_AGENTS (known: qwen opencode codex claude gemini)" ;;
    esac
}

CACHE_ROOT="${XDG_CACHE_HOME:-${HOME:-$(cd ~ && pwd)}/.cache}/roundtable/agents"
mkdir -p "$CACHE_ROOT"

# One run at a time per cache (two shells running e2e-llm at once).
exec 9>"$CACHE_ROOT/.lock"
if command -v flock >/dev/null 2>&1; then
    flock 9
fi

# install PKG@VER CMD: prints the bin dir.
install_one() {
    local spec="$1" cmd="$2"
    local dest="$CACHE_ROOT/$spec"
    local bin="$dest/node_modules/.bin"
    if [[ -f "$dest/.installed" && -x "$bin/$cmd" ]]; then
        log "using cached $spec"
        printf '%s\n' "$bin"
        return 0
    fi
    local t0=$SECONDS tmp
    mkdir -p "$(dirname "$dest")"
    tmp="$(mktemp -d "$(dirname "$dest")/.tmp.XXXXXX")"
    log "installing $spec (npm i --prefix)"
    if ! npm i --prefix "$tmp" --no-audit --no-fund --no-save --loglevel=error "$spec" >&2; then
        rm -rf "$tmp"
        die "npm could not install $spec"
    fi
    [[ -x "$tmp/node_modules/.bin/$cmd" ]] || { rm -rf "$tmp"; die "$spec installed but has no $cmd"; }
    echo "$spec installed $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - t0)) s" >"$tmp/.installed"
    rm -rf "$dest"
    mv "$tmp" "$dest"
    log "installed $spec in $((SECONDS - t0)) s ($(du -sm "$dest" | cut -f1) MB)"
    printf '%s\n' "$bin"
}

# The packages install in parallel (each in its own prefix; npm's cache is
# safe to share): the download dominates, ~100 s one after another with an
# empty npm cache. The bin folders print in the order of ROUNDTABLE_AGENTS.
start=$SECONDS
results="$(mktemp -d "$CACHE_ROOT/.run.XXXXXX")"
trap 'rm -rf "$results"' EXIT
n=0
pids=()
for agent in ${ROUNDTABLE_AGENTS:-qwen opencode codex claude gemini}; do
    specs="$(packages_of "$agent")" || exit 1
    while read -r spec cmd; do
        install_one "$spec" "$cmd" >"$results/$n" &
        pids+=($!)
        n=$((n + 1))
    done <<<"$specs"
done
failed=0
for pid in ${pids[@]+"${pids[@]}"}; do
    wait "$pid" || failed=1
done
((failed == 0)) || die "some agents could not be installed (see above)"
for ((i = 0; i < n; i++)); do
    cat "$results/$i"
done
log "agents ready in $((SECONDS - start)) s"
