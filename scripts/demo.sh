#!/usr/bin/env bash
# The main job from a fresh clone: installs the workspace, builds the `ankole` CLI and what it needs,
# and runs one turn with the offline demo model (a scripted local model that drives the real tools)
# in a temporary agent home the CLI removes afterwards. Extra arguments go to `ankole run` (e.g. `npm run demo -- --json`).
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp "${TMPDIR:-/tmp}/ankole-demo-build.XXXXXX")"
trap 'rm -f "$log"' EXIT
fail() {
  cat "$log" >&2
  echo "npm run demo: $1 failed (output above)." >&2
  exit 1
}
# Only a fresh clone (no packages installed or no CLI built yet) takes long: say so then, and show each step's progress
# (scripts/relay-progress.mjs: a line per package built and one every few seconds, or one line redrawn on a terminal).
if [ ! -d node_modules ] || [ ! -f apps/cli/dist/ankole.cjs ]; then
  echo "First run: installing the packages and building the ankole CLI takes a few minutes." >&2
  echo "  1/2 installing the packages…" >&2
  node scripts/relay-progress.mjs --log "$log" -- bash scripts/pnpm.sh install --frozen-lockfile --reporter=append-only || fail "the install"
  : >"$log"
  echo "  2/2 building the CLI…" >&2
  node scripts/relay-progress.mjs --log "$log" -- bash scripts/pnpm.sh exec turbo run build --filter=@core/cli... --output-logs=new-only --log-order=grouped --log-prefix=task || fail "the build"
else
  { bash scripts/pnpm.sh install --frozen-lockfile && bash scripts/pnpm.sh exec turbo run build --filter=@core/cli... --output-logs=errors-only; } >"$log" 2>&1 || fail "the install or the build"
fi
rm -f "$log"
trap - EXIT
exec node apps/cli/dist/ankole.cjs run --demo "$@"
