#!/usr/bin/env bash
# Downloads the eight public DTR training traces (Kirisame et al., ICLR 2021) from the
# uwsampl/dtr-prototype repository at commit eff53cc4 (simrd/logs.zip), checks each trace's
# SHA-256 and unpacks them where RematLens's open dialog looks:
#   ${XDG_DATA_HOME:-~/.local/share}/RematLens/traces/dtr-2020
# The address and the checksums are in dtr-2020.sha256 beside this script. `rematlens traces
# download` does the same without curl, wget or Python.
# Usage: traces/download-dtr-traces.sh [DESTINATION]
set -euo pipefail

manifest="$(dirname "$0")/dtr-2020.sha256"
[ -r "$manifest" ] || { echo "error: $manifest is missing" >&2; exit 1; }
# REMATLENS_TRACES_URL overrides the address (a mirror, or a local file:// copy).
url="${REMATLENS_TRACES_URL:-$(sed -n 's/^# source: //p' "$manifest")}"
destination="${1:-${XDG_DATA_HOME:-$HOME/.local/share}/RematLens/traces/dtr-2020}"
checksums="$(grep -v '^#' "$manifest")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "Downloading $url"
if command -v curl >/dev/null; then
  curl --fail --location --silent --show-error --output "$work/logs.zip" "$url"
elif command -v wget >/dev/null; then
  wget --quiet --output-document "$work/logs.zip" "$url"
else
  echo "error: neither curl nor wget is installed" >&2
  exit 1
fi

# Unpack only the .log files, flat, with Python's zipfile (no unzip needed).
python3 - "$work/logs.zip" "$work/unpacked" <<'PY'
import os, sys, zipfile
archive, target = sys.argv[1], sys.argv[2]
os.makedirs(target, exist_ok=True)
with zipfile.ZipFile(archive) as z:
    for info in z.infolist():
        name = os.path.basename(info.filename)
        if name.endswith(".log") and not name.startswith("."):
            with z.open(info) as src, open(os.path.join(target, name), "wb") as dst:
                dst.write(src.read())
PY

(cd "$work/unpacked" && echo "$checksums" | sha256sum --check --quiet) || {
  echo "error: the downloaded traces do not match their checksums; nothing was installed" >&2
  exit 1
}
mkdir -p "$destination"
echo "$checksums" | while read -r _ name; do cp "$work/unpacked/$name" "$destination/$name"; done
echo "Installed $(echo "$checksums" | wc -l) traces in $destination"
