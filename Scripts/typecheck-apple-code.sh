#!/usr/bin/env bash
# Type-checks, on Linux, the code that needs Apple's SDKs or GBG's closed GBGBridge:
#   - BridgeCore's Apple branch (`#if canImport(Combine)`), against the Combine stub;
#   - the app integration package, Integrations/GBGBridgeApp (every Swift file in it), in Swift 6;
#   - every app snippet in docs/real-apps.md and README.md (each ```swift block preceded by the
#     line <!-- typecheck: app snippet -->), in Swift 5 and Swift 6 language modes, with and
#     without DEBUG;
# against the interface stubs in Integrations/AppleStubs (WebKit, UIKit, SwiftUI, Combine as
# Apple's headers declare them; GBGBridge as GBG's docs describe it), under every reading of GBG's
# docs (Integrations/AppleStubs/README.md). Fails on any error. Run by .ci/run; on its own:
#   bash Scripts/typecheck-apple-code.sh            # every reading
#   bash Scripts/typecheck-apple-code.sh baseline   # the first reading only
# It builds the portable modules it needs with `swift build` first.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stubs=$root/Integrations/AppleStubs
app=$root/Integrations/GBGBridgeApp/Sources

echo "== Building the portable modules the app integration imports"
swift build --target GBGBridgeInspector 2>&1 | grep -E "error|warning: .*(GBGBridgeInspector|InspectorAgent)" || true
bin=$(swift build --show-bin-path)
modules=$bin/Modules
shims=$bin/CSocketShims.build/module.modulemap
for needed in "$modules/GBGBridgeInspector.swiftmodule" "$modules/InspectorAgent.swiftmodule" "$shims"; do
  [ -e "$needed" ] || { echo "error: $needed is missing after swift build" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The app snippets: every ```swift block right after a marker line, one file each.
python3 - "$work/snippets" "$root/docs/real-apps.md" "$root/README.md" <<'PY'
import os, re, sys
out = sys.argv[1]
os.makedirs(out)
marker = "<!-- typecheck: app snippet -->"
count = 0
unmarked = []
for path in sys.argv[2:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    name = os.path.basename(path).replace(".md", "")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("```swift"):
            marked = i > 0 and lines[i - 1].strip() == marker
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            body = "\n".join(l[len(lines[i]) - len(lines[i].lstrip()):] if l.strip() else "" for l in lines[i + 1:j])
            if marked:
                count += 1
                with open(os.path.join(out, f"{name}-{count}.swift"), "w", encoding="utf-8") as f:
                    f.write(body + "\n")
            elif "GBGBridgeInspector.start(host" in body or "gbgBridgeInspector(" in body:
                unmarked.append(f"{path}:{i + 1}")
            i = j
        i += 1
if unmarked:
    sys.exit("error: app snippets without the typecheck marker (they must compile as printed): " + ", ".join(unmarked))
if count == 0:
    sys.exit("error: no app snippet found to type-check")
print(f"{count} app snippets")
PY

# The readings of GBG's docs: the first (no switch), each switch alone, every switch together.
switches=(GBG_DELEGATE_NONISOLATED GBG_STATUS_RESPONSE_STATUS GBG_CAPTURE_MORE_CASES GBG_IMAGE_SIZE_CGFLOAT
  GBG_TYPE_NAMED_LIKE_MODULE GBG_SEND_DATA_OPTIONAL GBG_DELEGATE_EXTRA_REQUIREMENTS GBG_MESSAGE_DECODABLE_ONLY
  GBG_PERMISSION_MORE_CASES)
readings=("baseline")
if [ "${1:-}" != "baseline" ]; then
  readings+=("${switches[@]}" "all")
fi

failures=0
check() { # label, command...
  local label=$1; shift
  if ! "$@" >"$work/log" 2>&1; then
    echo "FAILED: $label" >&2
    sed 's/^/    /' "$work/log" >&2
    failures=$((failures + 1))
    return 1
  fi
}

# BridgeCore's Apple branch (`#if canImport(Combine)`: `BridgeHost` is an `ObservableObject` whose
# diagnostic surfaces are `@Published`), type-checked against the Combine stub: on Linux the
# package builds the other branch. It does not depend on GBG's docs, so once.
echo "== BridgeCore with Combine"
mkdir -p "$work/combine"
check "stub Combine (for BridgeCore)" swiftc -parse-as-library -emit-module -module-name Combine \
  -emit-module-path "$work/combine/Combine.swiftmodule" -swift-version 6 "$stubs/Combine.swift" \
  && check "BridgeCore (canImport(Combine))" swiftc -typecheck -parse-as-library -module-name BridgeCore \
    -package-name bridge_inspector -enable-upcoming-feature ExistentialAny -swift-version 6 -warnings-as-errors \
    -I "$work/combine" -I "$modules" $(find "$root/Sources/BridgeCore" -name '*.swift' | sort) || true

for reading in "${readings[@]}"; do
  flags=()
  case $reading in
    baseline) ;;
    all) for s in "${switches[@]}"; do flags+=(-D "$s"); done ;;
    *) flags=(-D "$reading") ;;
  esac
  out=$work/$reading
  mkdir -p "$out"
  echo "== Reading: $reading"
  emit() { # module, source, extra flags...
    local module=$1 source=$2; shift 2
    swiftc -parse-as-library -emit-module -module-name "$module" -emit-module-path "$out/$module.swiftmodule" \
      -I "$out" -swift-version 6 "$@" "$source"
  }
  check "stub Combine" emit Combine "$stubs/Combine.swift" || continue
  check "stub UIKit" emit UIKit "$stubs/UIKit.swift" || continue
  check "stub WebKit" emit WebKit "$stubs/WebKit.swift" || continue
  check "stub SwiftUI" emit SwiftUI "$stubs/SwiftUI.swift" || continue
  check "stub GBGBridge ($reading)" emit GBGBridge "$stubs/GBGBridge.swift" "${flags[@]}" || continue
  ours=(-I "$out" -I "$modules" -Xcc -fmodule-map-file="$shims" -swift-version 6 -warnings-as-errors)
  check "GBGBridgeNames ($reading)" swiftc -parse-as-library -emit-module -module-name GBGBridgeNames \
    -emit-module-path "$out/GBGBridgeNames.swiftmodule" "${ours[@]}" "$app"/GBGBridgeNames/*.swift || continue
  check "GBGBridgeAppInspector ($reading)" swiftc -parse-as-library -emit-module -module-name GBGBridgeAppInspector \
    -emit-module-path "$out/GBGBridgeAppInspector.swiftmodule" "${ours[@]}" "$app"/GBGBridgeAppInspector/*.swift || continue
  for snippet in "$work"/snippets/*.swift; do
    for mode in 5 6; do
      defines=(-D DEBUG)
      [ "$reading" = baseline ] && defines_list=("-D DEBUG" "") || defines_list=("-D DEBUG")
      for defines in "${defines_list[@]}"; do
        # shellcheck disable=SC2086
        check "$(basename "$snippet") (Swift $mode${defines:+, DEBUG}, $reading)" swiftc -typecheck -parse-as-library \
          -I "$out" -I "$modules" -Xcc -fmodule-map-file="$shims" -swift-version "$mode" $defines "$snippet" || true
      done
    done
  done
done

if [ $failures -gt 0 ]; then
  echo "Apple-only code: $failures check(s) failed against the interface stubs" >&2
  exit 1
fi
echo "Apple-only code: every check passed against the interface stubs (${#readings[@]} readings)"
