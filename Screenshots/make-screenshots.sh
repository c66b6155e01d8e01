#!/usr/bin/env bash
# Makes the README's screenshots from a real run: a real `bridge-inspector host` with the demo
# journey, the real TUI attached to it, shown in a real terminal (xterm) on a virtual X display
# (Xvfb), driven through tmux and captured with ImageMagick's `import`.
#
#   bash Screenshots/make-screenshots.sh          # writes Screenshots/*.png
#
# Needs (Debian): xvfb xterm imagemagick tmux fonts-dejavu-core; installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Screenshots
need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xterm >/dev/null || need+=(xterm)
command -v import >/dev/null || need+=(imagemagick)
command -v tmux >/dev/null || need+=(tmux)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

swift build --product bridge-inspector >/dev/null
bin="$(swift build --show-bin-path)/bridge-inspector"
work=$(mktemp -d /tmp/bi-shots.XXXX)
socket="$work/demo.sock"
display=":$((90 + RANDOM % 9))"
cleanup() {
  tmux -L bishots kill-server 2>/dev/null || true
  [ -n "${xterm_pid:-}" ] && kill "$xterm_pid" 2>/dev/null || true
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
  [ -n "${host_pid:-}" ] && kill "$host_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$bin" host --name demo --socket "$socket" >"$work/host.log" 2>&1 &
host_pid=$!
for _ in $(seq 1 100); do [ -S "$socket" ] && break; sleep 0.1; done

Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1
cols=150 rows=44
tmux -L bishots new-session -d -s shots -x "$cols" -y "$rows" "TERM=xterm-256color $bin --socket $socket"
# Only the inspector in the picture: no tmux status line.
tmux -L bishots set-option -t shots status off
DISPLAY="$display" xterm -geometry "${cols}x${rows}+0+0" -fa 'DejaVu Sans Mono' -fs 10 -bg '#1e1e1e' -fg '#d4d4d4' \
  -e tmux -L bishots attach -t shots &
xterm_pid=$!
sleep 8  # let the demo journey produce traffic: BUSY slot, pending requests, lastError

shot() {
  sleep 1.5
  local window
  window=$(DISPLAY="$display" xwininfo -root -tree | awk '/xterm/ {print $1; exit}')
  DISPLAY="$display" import -window "${window:-root}" "$out/$1.png"
  echo "wrote $out/$1.png"
}
keys() { tmux -L bishots send-keys -t shots "$@"; }

shot main
keys k k k Enter
shot detail
keys Escape Tab
keys Enter
shot respond
keys Escape Escape
keys '?'
shot help
keys Escape
keys D
shot doctor
keys Escape
