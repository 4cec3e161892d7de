#!/usr/bin/env bash
# The main job from a fresh clone: installs the workspace, builds the `ankole` CLI and what it needs,
# and runs one turn with the offline demo model (a scripted local model that drives the real tools)
# in a new temporary agent home. Extra arguments go to `ankole run` (e.g. `npm run demo -- --json`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/pnpm.sh install --frozen-lockfile
bash scripts/pnpm.sh exec turbo run build --filter=@core/worker... --output-logs=errors-only
home="$(mktemp -d "${TMPDIR:-/tmp}/ankole-demo.XXXXXX")"
echo
exec node apps/worker/dist/cli.js run --demo --home "$home" "$@"
