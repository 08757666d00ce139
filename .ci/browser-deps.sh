#!/bin/sh
# System packages for the browser test (tests/yaksa/test_serve_browser.py): Debian's chromium, driven by the
# playwright Python package with executable_path=/usr/bin/chromium, and a Korean font so screenshots show Hangul.
# Nothing here downloads a browser build (no `playwright install`).
set -eu
apt-get update
apt-get install -y --no-install-recommends chromium fonts-nanum
