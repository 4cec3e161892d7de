#!/usr/bin/env bash
# The main job from a fresh clone: installs the workspace, builds the `ankole` CLI and what it needs,
# and runs one turn with the offline demo model (a scripted local model that drives the real tools)
# in a new temporary agent home. Extra arguments go to `ankole run` (e.g. `npm run demo -- --json`).
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp "${TMPDIR:-/tmp}/ankole-demo-build.XXXXXX")"
echo "Installing and building the ankole CLI (the first time takes a few minutes; log: $log)" >&2
if ! { bash scripts/pnpm.sh install --frozen-lockfile && bash scripts/pnpm.sh exec turbo run build --filter=@core/cli... --output-logs=errors-only; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "npm run demo: the install or the build failed (output above)." >&2
  exit 1
fi
home="$(mktemp -d "${TMPDIR:-/tmp}/ankole-demo.XXXXXX")"
exec node apps/cli/dist/ankole.cjs run --demo --home "$home" "$@"
