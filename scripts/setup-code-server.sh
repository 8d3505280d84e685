#!/usr/bin/env bash
# Installs code-server (VS Code's server and web workbench) for the end-to-end test
# test/e2e/codeserver.test.ts, from the npm registry alone: no other host is reached.
#
#   bash scripts/setup-code-server.sh            # into .tmp/code-server/ (git-ignored)
#   CODE_SERVER_DIR=/elsewhere bash scripts/setup-code-server.sh
#
# Idempotent: a finished install leaves a marker file and the script then does nothing.
# An interrupted install never looks finished: the work happens in a staging folder that is
# renamed into place only at the end.
#
# Why 4.100.3: it is the newest code-server whose package asks for Node 20 (later ones want 22
# or 24), and its VS Code (1.100.3) matches the extension's `engines.vscode`.
# Why not `npm install -g code-server`: the global install's nested npm runs break on npm 11.
# So: `npm pack`, unpack, and run the steps of its postinstall.sh ourselves, with two changes
# that keep everything on the npm registry:
#   - @vscode/ripgrep 1.15 downloads `rg` from GitHub in its postinstall; 1.17 and later get it
#     from a platform package in the registry, so that dependency is pinned to 1.18.0;
#   - node-pty's postinstall calls `npx node-gyp`, which needs npm_config_yes without a terminal.
# Native modules whose prebuilt downloads fail (argon2, kerberos) fall back to a source build:
# that needs g++, make, python3 and the Kerberos headers (libkrb5-dev), installed below if missing.
set -euo pipefail

VERSION=4.100.3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=${CODE_SERVER_DIR:-$ROOT/.tmp/code-server}
TARGET=$DEST/code-server-$VERSION
MARKER=$TARGET/.tool-lens-installed

if [ -f "$MARKER" ]; then
  echo "code-server $VERSION is already installed in $TARGET"
  exit 0
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "code-server $VERSION runs on Node 20; this is Node $(node -v)" >&2
  exit 1
fi

# Build dependencies of the native modules.
missing=()
for pkg in g++ make python3 libkrb5-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing build packages: ${missing[*]} (install them with apt-get as root)" >&2
    exit 1
  fi
  echo "installing build packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

started=$(date +%s)
mkdir -p "$DEST"
# What an install killed before its trap could run left behind.
rm -rf "$DEST"/.staging.*
STAGE=$(mktemp -d "$DEST/.staging.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT

cd "$STAGE"
echo "fetching code-server $VERSION from the npm registry"
tarball=$(npm pack "code-server@$VERSION" --silent)
tar xzf "$tarball"
rm "$tarball"
cd package

# Top-level dependencies. --ignore-scripts skips postinstall.sh, which demands npm's removed
# --unsafe-perm when run as root; its steps follow below.
npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
# argon2's only native step: its prebuilt download fails offline, then node-gyp builds it.
npm rebuild argon2 --loglevel=error

cd lib/vscode
node -e '
const fs = require("node:fs");
const manifest = JSON.parse(fs.readFileSync("package.json", "utf8"));
const wanted = "1.18.0";
if (manifest.dependencies && manifest.dependencies["@vscode/ripgrep"] !== wanted) {
  manifest.dependencies["@vscode/ripgrep"] = wanted;
  manifest.overrides = { ...(manifest.overrides ?? {}), "@vscode/ripgrep": wanted };
  fs.writeFileSync("package.json", JSON.stringify(manifest, null, 2) + "\n");
  console.log("pinned @vscode/ripgrep to " + wanted + " (ships rg in a registry package)");
}'
npm_config_yes=true npm install --omit=dev --no-audit --no-fund --loglevel=error
# The rest of postinstall.sh: the links VS Code's server expects, and the built-in extensions' deps.
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
# (its postinstall lists every file it trims: stdout is dropped, errors still show)
(cd extensions && npm install --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)
cd ../..

# code-server writes a default config.yaml under XDG_CONFIG_HOME on any start: keep it in the stage.
reported=$(XDG_CONFIG_HOME="$STAGE/config" XDG_DATA_HOME="$STAGE/data" node out/node/entry.js --version | tail -n 1)
case "$reported" in
  "$VERSION "*) ;;
  *) echo "the installed code-server reports '$reported', expected $VERSION" >&2; exit 1 ;;
esac

cd "$DEST"
rm -rf "$TARGET"
mv "$STAGE/package" "$TARGET"
echo "$reported" > "$MARKER"
echo "code-server $VERSION installed in $TARGET in $(( $(date +%s) - started )) s"
