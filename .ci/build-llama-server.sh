#!/usr/bin/env bash
# Build llama.cpp's `llama-server` (CPU only, statically linked against ggml/llama)
# from the llama.cpp source that the npm package node-llama-cpp ships as a git
# bundle, and cache the binary in the user's cache folder.
#
# Prints ONLY the absolute path of the binary on stdout; progress goes to stderr.
# A second run finds the cached binary and prints its path without building.
#
# Env:
#   ROUNDTABLE_LLAMA_SERVER  use this llama-server binary as is (no build)
#   XDG_CACHE_HOME           cache root (default: $HOME/.cache)
#   ROUNDTABLE_BUILD_JOBS    parallel build jobs (default: 2)
set -euo pipefail

NODE_LLAMA_CPP_VERSION="3.21.1"
# Bump BUILD_REV when the CMake flags below change, so old caches are not reused.
BUILD_REV="1"
VERSION="node-llama-cpp-${NODE_LLAMA_CPP_VERSION}-r${BUILD_REV}"
JOBS="${ROUNDTABLE_BUILD_JOBS:-2}"

log() { printf '[build-llama-server] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# An explicitly given binary wins.
if [[ -n "${ROUNDTABLE_LLAMA_SERVER:-}" ]]; then
    [[ -x "$ROUNDTABLE_LLAMA_SERVER" ]] || die "ROUNDTABLE_LLAMA_SERVER=$ROUNDTABLE_LLAMA_SERVER is not an executable file"
    printf '%s\n' "$ROUNDTABLE_LLAMA_SERVER"
    exit 0
fi

CACHE_ROOT="${XDG_CACHE_HOME:-${HOME:-$(cd ~ && pwd)}/.cache}/roundtable"
DEST_DIR="${CACHE_ROOT}/llama-server-${VERSION}"
DEST_BIN="${DEST_DIR}/llama-server"

cached_ok() {
    [[ -x "$DEST_BIN" ]] && "$DEST_BIN" --version >/dev/null 2>&1
}

if cached_ok; then
    log "using cached $DEST_BIN"
    printf '%s\n' "$DEST_BIN"
    exit 0
fi

mkdir -p "$DEST_DIR"

# Serialise concurrent builds (e.g. two shells starting the server at once).
exec 9>"${DEST_DIR}/.lock"
if command -v flock >/dev/null 2>&1; then
    log "taking build lock ${DEST_DIR}/.lock"
    flock 9
    if cached_ok; then
        log "built by a concurrent run: $DEST_BIN"
        printf '%s\n' "$DEST_BIN"
        exit 0
    fi
fi

# --- tools --------------------------------------------------------------------
as_root() {
    if [[ "$(id -u)" == 0 ]]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else die "need root (or sudo) to run: $*"
    fi
}

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
{ command -v gcc >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1; } || missing+=(build-essential)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v tar >/dev/null 2>&1 || missing+=(tar)
if ((${#missing[@]})); then
    command -v apt-get >/dev/null 2>&1 || die "missing tools (${missing[*]}) and no apt-get to install them"
    log "installing with apt: ${missing[*]}"
    as_root apt-get update >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi

# --- source -------------------------------------------------------------------
WORK="$(mktemp -d "${TMPDIR:-/tmp}/roundtable-llama-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

start_ts=$(date +%s)
log "fetching node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (llama.cpp source bundle) with npm pack"
(cd "$WORK" && npm pack --silent "node-llama-cpp@${NODE_LLAMA_CPP_VERSION}" >/dev/null) >&2
tgz="$WORK/node-llama-cpp-${NODE_LLAMA_CPP_VERSION}.tgz"
[[ -f "$tgz" ]] || die "npm pack did not produce $tgz"
tar -xzf "$tgz" -C "$WORK" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json
bundle="$WORK/package/llama/gitRelease.bundle"

# The bundle holds one squashed commit, advertised only as HEAD (no branch, no
# tags), so the clone ends on a detached HEAD at that commit.
log "bundle heads: $(git bundle list-heads "$bundle" | tr '\n' ' ')"
git -c advice.detachedHead=false clone --quiet "$bundle" "$WORK/llama.cpp" >&2
commit="$(git -C "$WORK/llama.cpp" rev-parse HEAD)"
log "llama.cpp commit ${commit} ($(tr -d '\n ' <"$WORK/package/llama/llama.cpp.info.json"))"
rm -f "$tgz"

# --- build --------------------------------------------------------------------
# No network during configure/build:
#   LLAMA_USE_PREBUILT_UI=OFF / LLAMA_BUILD_UI=OFF: no web UI download / npm build
#   LLAMA_OPENSSL=OFF (and no BoringSSL/LibreSSL fetch): plain-HTTP server only
#   LLAMA_CURL=OFF: deprecated & ignored in this version, kept for older trees
# Self-contained, host-independent binary:
#   BUILD_SHARED_LIBS=OFF: libllama/libggml linked in statically
#   GGML_NATIVE=OFF: no -march=native, so the cached binary runs on any x86-64
#   GGML_OPENMP=OFF: ggml's own thread pool, no libgomp at run time
cmake_flags=(
    -DCMAKE_BUILD_TYPE=Release
    -DBUILD_SHARED_LIBS=OFF
    -DGGML_NATIVE=OFF
    -DGGML_OPENMP=OFF
    -DGGML_BACKEND_DL=OFF
    -DGGML_CUDA=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF -DGGML_BLAS=OFF -DGGML_RPC=OFF
    -DLLAMA_USE_PREBUILT_UI=OFF
    -DLLAMA_BUILD_UI=OFF
    -DLLAMA_OPENSSL=OFF
    -DLLAMA_BUILD_BORINGSSL=OFF
    -DLLAMA_BUILD_LIBRESSL=OFF
    -DLLAMA_CURL=OFF
    -DLLAMA_LLGUIDANCE=OFF
    -DLLAMA_BUILD_SERVER=ON
    -DLLAMA_BUILD_TOOLS=ON
    -DLLAMA_BUILD_TESTS=OFF
    -DLLAMA_BUILD_EXAMPLES=OFF
    -DLLAMA_BUILD_APP=OFF
)
log "configuring: cmake ${cmake_flags[*]}"
cmake -S "$WORK/llama.cpp" -B "$WORK/build" "${cmake_flags[@]}" >&2
log "building target llama-server with -j${JOBS} (several minutes on 2 cores)"
cmake --build "$WORK/build" --config Release --target llama-server -j "$JOBS" >&2

built="$WORK/build/bin/llama-server"
[[ -x "$built" ]] || built="$(find "$WORK/build" -type f -name llama-server -perm -u+x | head -n1)"
[[ -n "$built" && -x "$built" ]] || die "build finished but no llama-server binary found"
"$built" --version >&2 || die "built llama-server does not run"

# Atomic install into the cache.
cp "$built" "${DEST_BIN}.tmp.$$"
chmod 0755 "${DEST_BIN}.tmp.$$"
mv -f "${DEST_BIN}.tmp.$$" "$DEST_BIN"
{
    echo "node-llama-cpp ${NODE_LLAMA_CPP_VERSION}"
    echo "llama.cpp commit ${commit}"
    echo "cmake ${cmake_flags[*]}"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - start_ts)) s"
} >"${DEST_DIR}/BUILD-INFO"
log "built in $(($(date +%s) - start_ts)) s -> $DEST_BIN"

printf '%s\n' "$DEST_BIN"
