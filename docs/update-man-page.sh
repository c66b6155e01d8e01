#!/usr/bin/env bash
# Regenerates docs/man/bridge-inspector.1 from the command definitions with
# swift-argument-parser's GenerateManual plugin, so the man page always lists exactly the
# subcommands and options the binary has (a test checks that they agree).
# Usage: bash docs/update-man-page.sh
# Read it with: man docs/man/bridge-inspector.1   (or install it: see README.md)
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/plugins/GenerateManual/outputs/BridgeInspectorCLI
rm -rf "$out"
log=$(mktemp)
swift package generate-manual --configuration debug --authors "the bridge-inspector developers" >"$log" 2>&1 || { cat "$log"; exit 1; }
rm -f "$log"
# The generator copies blank lines of the help's discussions into the page; mdoc wants a
# paragraph macro there (man warns "Empty input line" otherwise).
sed 's/^$/.Pp/' "$out/bridge-inspector.1" | sed '/^\.Dd /c\.Dd '"$(date -u +"%B %-d, %Y")" > docs/man/bridge-inspector.1
echo "wrote docs/man/bridge-inspector.1"
