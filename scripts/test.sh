#!/usr/bin/env bash
# Installs the workspace, builds every package, then runs every package's checks and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/pnpm.sh install --frozen-lockfile
bash scripts/pnpm.sh exec turbo run build typecheck lint test --concurrency=2 --continue --output-logs=errors-only "$@"
