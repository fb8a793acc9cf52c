#!/usr/bin/env bash
# Sourced by the other scripts: puts a Node 22/24 and the committed yarn release on PATH
# without any global install. Node < 22 is replaced by Node 24 from the npm registry's
# platform package, kept in .tools/ (git-ignored); yarn is the release under .yarn/releases.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="$REPO_ROOT/.tools"
export REPO_ROOT TOOLS_DIR

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

use_private_node() {
  local os arch pkg dir
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "unsupported OS $(uname -s)" >&2; exit 1 ;; esac
  case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) echo "unsupported CPU $(uname -m)" >&2; exit 1 ;; esac
  pkg="node-$os-$arch"
  dir="$TOOLS_DIR/node"
  if [ ! -x "$dir/node_modules/$pkg/bin/node" ]; then
    command -v npm >/dev/null || { echo "npm is needed to fetch Node 24" >&2; exit 1; }
    echo "toolchain: installing Node 24 ($pkg) into .tools/node" >&2
    mkdir -p "$dir"
    npm install --no-save --no-package-lock --prefix "$dir" "$pkg@24" >&2
  fi
  export PATH="$dir/node_modules/$pkg/bin:$PATH"
  # Native addons (better-sqlite3) build against this Node's own headers.
  export npm_config_nodedir="$dir/node_modules/$pkg"
}

case "$(node_major)" in
  22|24) ;;
  *) use_private_node ;;
esac

YARN_RELEASE="$(ls "$REPO_ROOT"/.yarn/releases/yarn-*.cjs | head -n 1)"
mkdir -p "$TOOLS_DIR/bin"
printf '#!/bin/sh\nexec node "%s" "$@"\n' "$YARN_RELEASE" > "$TOOLS_DIR/bin/yarn"
chmod +x "$TOOLS_DIR/bin/yarn"
export PATH="$TOOLS_DIR/bin:$PATH"
export YARN_ENABLE_TELEMETRY=0

install_dependencies() {
  (cd "$REPO_ROOT" && yarn install --immutable 2>&1 | tail -n 20) || {
    echo "yarn install failed" >&2
    return 1
  }
}
