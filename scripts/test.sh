#!/usr/bin/env bash
# Installs the workspace, builds every package, then runs every package's checks and tests, and closes
# with one summary line of all test counts.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/pnpm.sh install --frozen-lockfile || exit 1
rm -f packages/*/.vitest-results.json apps/*/.vitest-results.json bench/*/.vitest-results.json
bash scripts/pnpm.sh exec turbo run build typecheck lint test --concurrency=2 --continue --output-logs=errors-only "$@"
status=$?
node scripts/test-summary.mjs || status=1
exit "$status"
