#!/usr/bin/env bash
# Installs retie from this checkout of the action as a `retie` command, with the permission flags
# of the shipped CLI (loopback allowed: nothing here talks to a model). Used by action.yml.
set -euo pipefail
root="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set (run this from action.yml)}"
bin="${DENO_INSTALL_ROOT:-$HOME/.deno}/bin"
mapfile -t flags < <(grep -v '^\s*$' "$root/permissions/base.flags")
deno install --global --force --quiet --name retie --config "$root/deno.json" \
  "${flags[@]}" "$root/main.ts"
if [[ -n "${GITHUB_PATH:-}" ]]; then echo "$bin" >>"$GITHUB_PATH"; fi
"$bin/retie" --version
