#!/usr/bin/env bash
# The action's first step: the CLI bundle of the action's own checkout ($TOOL_LENS_HOME, the
# runner's github.action_path), built there once when the checkout has none (dist/ is not
# committed): `npm ci` of the checkout's lock file, then `npm run build`.
set -euo pipefail
cd "$TOOL_LENS_HOME"
if [ -f dist/cli.js ]; then
  echo "Tool Lens $(node dist/cli.js --version)"
  exit 0
fi
echo "::group::Build Tool Lens"
npm ci --no-audit --no-fund
npm run build
echo "::endgroup::"
echo "Tool Lens $(node dist/cli.js --version)"
