#!/usr/bin/env bash
# Downloads the eight public DTR training traces (Kirisame et al., ICLR 2021) from the
# uwsampl/dtr-prototype repository at commit eff53cc4 (simrd/logs.zip), checks each trace's
# SHA-256 and unpacks them where RematLens's open dialog looks:
#   ${XDG_DATA_HOME:-~/.local/share}/RematLens/traces/dtr-2020
# Usage: traces/download-dtr-traces.sh [DESTINATION]
set -euo pipefail

# REMATLENS_TRACES_URL overrides the address (a mirror, or a local file:// copy).
url="${REMATLENS_TRACES_URL:-https://github.com/uwsampl/dtr-prototype/raw/eff53cc4/simrd/logs.zip}"
destination="${1:-${XDG_DATA_HOME:-$HOME/.local/share}/RematLens/traces/dtr-2020}"

checksums="439a2b9a7a080faabfbc2c751d66d2838664882e3b603196d1c2f41ac64ee9df  inceptionv4-64-10000000000.0-2020-10-1-10-55-0-default.log
f17c569c87bcd1368cc1d1eb0ad79cc75ac8eea0985755c6cd437d7faff2a31f  lstm-128-11000000000.0-2020-10-1-16-38-52-default.log
38c94cada99aca654ad9589d99eabc2267a51835593b598085f9f8221a7bacaf  resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log
cdcac0e9f4af95ccf30cacb28f9edcc2f194c31653946f9ddde424f926fcb7d1  transformer-10-8000000000.0-2020-10-1-10-56-5-default.log
4ec05ef5a1bd81a0c47a4eb13fa708e015333c2568c26f8cdfa1e8c9f2de5902  treelstm-6-8000000000.0-2020-10-1-12-54-1-default.log
4d9e8bd06f6b76c894dfbef4743f714177665dee9e883aa245c2770fe48e45de  tv_densenet121-84-10000000000.0-2020-10-1-13-41-18-default.log
cf985d2ca964c89988e931ee1978302deb22ffb17bc518da0f39344b66d23476  unet-6-8000000000.0-2020-10-1-10-57-18-default.log
0947d26a48e6677b6d437b1415245aa7bb1c638207e8420e4a1e52a094137120  unroll_gan-512-10000000000.0-2020-10-1-18-43-42-default.log"

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
echo "Installed 8 traces in $destination"
