#!/usr/bin/env bash
# Runs the workspace's pinned pnpm (see packageManager in package.json) through npx, so a machine
# with only Node.js and npm needs nothing installed beforehand.
set -euo pipefail
exec npx --yes pnpm@12.4.2 "$@"
