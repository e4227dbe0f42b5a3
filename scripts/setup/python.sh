#!/usr/bin/env bash
# Makes .venv/ with the official Python SDK, pinned in test/interop/python/requirements.txt, for the
# interoperability tests (test/interop/python-sdk.e2e.test.ts). Does nothing when it is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."
requirements=test/interop/python/requirements.txt
stamp=.venv/.requirements
if [ -x .venv/bin/python ] && cmp -s "$requirements" "$stamp"; then
  exit 0
fi
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  echo "python3 with venv is needed (Debian: apt-get install python3 python3-venv)" >&2
  exit 1
fi
rm -rf .venv
python3 -m venv .venv
# One retry: where only a local mirror is reachable, the default five retries per package cost minutes.
.venv/bin/pip install --quiet --disable-pip-version-check --retries "${PIP_RETRIES:-1}" -r "$requirements"
cp "$requirements" "$stamp"
