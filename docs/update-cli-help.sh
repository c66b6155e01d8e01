#!/usr/bin/env bash
# Regenerates every "$ bridge-inspector ... --help" block in docs/cli.md from the built binary,
# so the page always shows exactly what --help prints (a test checks that they agree).
# Usage: swift build && docs/update-cli-help.sh
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${BRIDGE_INSPECTOR_BINARY:-$(swift build --show-bin-path)/bridge-inspector}"
python3 - "$binary" docs/cli.md <<'PY'
import re, subprocess, sys
binary, path = sys.argv[1], sys.argv[2]
text = open(path).read()
def regenerate(match):
    command = match.group(1)
    args = command.split()[1:]
    out = subprocess.run([binary] + args, capture_output=True, text=True, env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"}).stdout.rstrip("\n")
    return "```text\n$ " + command + "\n" + out + "\n```"
text = re.sub(r"```text\n\$ (bridge-inspector[^\n]* --help)\n.*?\n```", regenerate, text, flags=re.S)
open(path, "w").write(text)
PY
echo "docs/cli.md: help blocks regenerated from $binary"
