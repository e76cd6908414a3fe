#!/usr/bin/env bash
# Each file in examples/demo/ is one step of `make demo`, run in name order.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "genlint $(.venv/bin/genlint --version | awk '{print $NF}') — demo on bundled example data"
