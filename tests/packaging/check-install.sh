#!/usr/bin/env bash
# Installs the build into a scratch prefix and checks what a desktop needs is there and valid.
#   check-install.sh BUILD_DIR PREFIX APP_ID png|svg-only
set -euo pipefail
build=$1 prefix=$2 id=$3 icons=$4
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null

expected=(
  bin/ridgepoint
  "share/applications/$id.desktop"
  "share/metainfo/$id.metainfo.xml"
  "share/mime/packages/$id.xml"
  "share/icons/hicolor/scalable/apps/$id.svg"
  share/man/man1/ridgepoint.1
  share/bash-completion/completions/ridgepoint
)
if [ "$icons" = png ]; then
  for size in 16 32 48 64 128 256; do
    expected+=("share/icons/hicolor/${size}x${size}/apps/$id.png")
  done
fi
for f in "${expected[@]}"; do
  [ -s "$prefix/$f" ] || bad "not installed: $f"
done
[ -x "$prefix/bin/ridgepoint" ] || bad "bin/ridgepoint is not executable"

# Each PNG is the size its folder says (the PNG header's IHDR width and height).
if [ "$icons" = png ]; then
  for size in 16 32 48 64 128 256; do
    png="$prefix/share/icons/hicolor/${size}x${size}/apps/$id.png"
    dims=$(od -An -tu1 -j16 -N8 "$png" | tr -s ' ' | sed 's/^ //')
    want="0 0 $((size >> 8)) $((size & 255)) 0 0 $((size >> 8)) $((size & 255))"
    [ "$dims" = "$want" ] || bad "$png: IHDR says '$dims', want '$want'"
  done
fi

# The installed program runs and names the version CMake's project() gives.
version=$(sed -n 's/^project(Ridgepoint VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../../CMakeLists.txt")
got=$("$prefix/bin/ridgepoint" --version)
[ "$got" = "ridgepoint $version" ] || bad "--version says '$got', want 'ridgepoint $version'"

desktop="$prefix/share/applications/$id.desktop"
grep -qx 'Exec=ridgepoint %F' "$desktop" || bad "the desktop entry's Exec does not pass %F"
grep -q '^MimeType=.*application/x-ridgepoint-session;' "$desktop" || bad "session MIME type missing"
grep -qx "Icon=$id" "$desktop" || bad "the desktop entry's Icon is not $id"
if command -v desktop-file-validate >/dev/null; then
  out=$(desktop-file-validate "$desktop" 2>&1) || bad "desktop-file-validate: $out"
  if grep -q 'error:' <<<"$out"; then bad "desktop-file-validate: $out"; fi
  [ -z "$out" ] || echo "desktop-file-validate (not errors): $out"
else
  echo "SKIP: desktop-file-validate not installed (desktop-file-utils)"
fi
metainfo="$prefix/share/metainfo/$id.metainfo.xml"
grep -q "<release version=\"$version\"" "$metainfo" || bad "metainfo has no release $version"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$metainfo" || bad "appstreamcli validate failed"
else
  echo "SKIP: appstreamcli not installed (appstream)"
fi

# The MIME package: compiled with the desktop's own tool, *.ridgepoint.json is a session.
mime="$prefix/share/mime/packages/$id.xml"
if command -v update-mime-database >/dev/null; then
  update-mime-database "$prefix/share/mime" || bad "update-mime-database failed"
  grep -q 'application/x-ridgepoint-session:\*\.ridgepoint\.json' "$prefix/share/mime/globs2" ||
    bad "globs2 has no *.ridgepoint.json"
else
  echo "SKIP: update-mime-database not installed (shared-mime-info)"
  grep -q 'pattern="\*\.ridgepoint\.json"' "$mime" || bad "$mime has no *.ridgepoint.json"
fi

# The man page renders without a warning.
man1="$prefix/share/man/man1/ridgepoint.1"
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$man1" 2>&1)
  [ -z "$warnings" ] || bad "groff warns: $warnings"
  text=$(MANWIDTH=80 man -l "$man1" 2>/dev/null || groff -man -Tutf8 "$man1")
  for section in NAME SYNOPSIS WINDOW COMMANDS "EXIT STATUS" EXAMPLES; do
    grep -q "^$section" <<<"$text" || bad "the man page has no $section section"
  done
else
  echo "SKIP: groff not installed"
fi
exit $fail
