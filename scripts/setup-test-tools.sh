#!/usr/bin/env bash
# Installs what `npm test` needs beyond npm, on Debian or Ubuntu, as root:
#   - Neovim, an LSP client for test/e2e/nvim.test.ts;
#   - Chromium, which drives code-server in test/e2e/codeserver.test.ts;
#   - pre-commit, for test/package/precommit.test.ts (the hooks of .pre-commit-hooks.yaml);
#   - the compilers and Kerberos headers code-server's native modules build from source with;
#   - code-server itself (scripts/setup-code-server.sh), into .tmp/code-server/ (git-ignored).
#
#   sudo bash scripts/setup-test-tools.sh     # or as root: bash scripts/setup-test-tools.sh
#
# .ci/run calls it on a fresh machine; the README's "What the tests need" points here. Every step
# is skipped when what it installs is already there, so running it again costs nothing.
# Needs Node 20 and npm on PATH (code-server 4.100.3 is fetched from the npm registry).
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
APT_PACKAGES=(neovim chromium g++ make python3 libkrb5-dev pre-commit)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup-test-tools: apt-get needs root to install ${missing[*]}: run this script with sudo" >&2
    exit 1
  fi
  echo "apt-get install ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

bash scripts/setup-code-server.sh
