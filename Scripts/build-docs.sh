#!/usr/bin/env bash
# Builds the DocC catalogs of the three library products (BridgeCore, InspectorAgent,
# GBGBridgeInspector) with warnings as errors, so a stale symbol link, an undocumented parameter
# or a broken article fails here rather than on an app developer's screen; and type-checks every
# ```swift block in their articles against the modules as built. Run by .ci/run; on its own:
#   bash Scripts/build-docs.sh                 # check, and keep the archives in .build/docs
# Symbol graphs are read from a debug build's modules (`swift build`, run here first), so no
# documentation plugin is needed and nothing is added to the package an app depends on.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
modules_to_document=(BridgeCore InspectorAgent GBGBridgeInspector)

echo "== Building the library modules"
swift build --target GBGBridgeInspector 2>&1 | grep -E "error|warning: " || true
bin=$(swift build --show-bin-path)
modules=$bin/Modules
shims=$bin/CSocketShims.build/module.modulemap
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
for needed in "$modules/GBGBridgeInspector.swiftmodule" "$shims"; do
  [ -e "$needed" ] || { echo "error: $needed is missing after swift build" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$root/.build/docs
mkdir -p "$out"
failed=0

for module in "${modules_to_document[@]}"; do
  catalog=$root/Sources/$module/$module.docc
  [ -d "$catalog" ] || { echo "error: $catalog is missing: every library product has a DocC catalog" >&2; exit 1; }
  echo "== $module: symbol graph, catalog, article code"
  mkdir -p "$work/graphs/$module"
  swift symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" -minimum-access-level public \
    -output-dir "$work/graphs/$module" -Xcc "-fmodule-map-file=$shims" -I "$root/Sources/CSocketShims/include"
  if ! docc convert "$catalog" --additional-symbol-graph-dir "$work/graphs/$module" --warnings-as-errors \
      --fallback-display-name "$module" --fallback-bundle-identifier "bridge-inspector.$module" \
      --output-path "$out/$module.doccarchive" > "$work/$module.log" 2>&1; then
    cat "$work/$module.log" >&2
    echo "error: $module's documentation has the problems above" >&2
    failed=1
  fi

  # Every ```swift block in the articles compiles as printed (```text blocks are not code).
  python3 - "$work/snippets/$module" "$catalog"/*.md <<'PY'
import os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    i, count = 0, 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            indent = len(lines[i]) - len(lines[i].lstrip())
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            count += 1
            name = os.path.basename(path).replace(".md", "") + f"-{count}.swift"
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write("\n".join(l[indent:] for l in lines[i + 1:j]) + "\n")
            i = j
        i += 1
PY
  for snippet in "$work/snippets/$module"/*.swift; do
    [ -e "$snippet" ] || continue
    if ! swiftc -typecheck -swift-version 6 -D DEBUG -I "$modules" -Xcc "-fmodule-map-file=$shims" \
        -I "$root/Sources/CSocketShims/include" "$snippet" > "$work/snippet.log" 2>&1; then
      echo "error: a code block in $module.docc ($(basename "$snippet")) does not compile:" >&2
      cat "$snippet" "$work/snippet.log" >&2
      failed=1
    fi
  done
  echo "   $(ls "$work/snippets/$module" | wc -l) code blocks type-checked"
done

[ "$failed" = 0 ] || exit 1
echo "Documentation built without warnings: ${modules_to_document[*]} (archives in .build/docs)"
