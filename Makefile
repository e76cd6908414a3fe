# The two commands: `make demo` and `make test`. Each sets up everything it needs on a fresh
# machine: the virtualenv (.venv), Debian packages and npm packages (cached under .cache/).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CACHE := .cache
PROMPTFOO_VERSION := 0.121.20
PROMPTFOO := $(CACHE)/promptfoo/node_modules/.bin/promptfoo

.PHONY: demo test lint typecheck pytest docs fuzz bench install system-deps promptfoo clean dist

demo: $(STAMP)
	@for step in examples/demo/*.sh; do bash "$$step" || exit $$?; done

test: $(STAMP) system-deps promptfoo lint typecheck docs pytest

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

# Headless Chromium renders the eval HTML report in its test; the CJK font lets it show Chinese
# and Japanese claims instead of boxes.
system-deps:
	@{ command -v chromium >/dev/null 2>&1 && test -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc; } || { \
	  echo "installing Debian chromium and fonts-noto-cjk (for the HTML report test)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium fonts-noto-cjk >/dev/null; }
	@# LibreOffice without a GUI converts an annotated DOCX review copy to PDF in its test
	@command -v soffice >/dev/null 2>&1 || { \
	  echo "installing Debian libreoffice-writer-nogui (for the review copy test)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends libreoffice-writer-nogui >/dev/null; }

# promptfoo from the npm registry for the promptfoo integration test (0.121.20 runs on Node 20).
promptfoo: $(PROMPTFOO)

$(PROMPTFOO):
	@mkdir -p $(CACHE)/promptfoo $(CACHE)/npm
	cd $(CACHE)/promptfoo && npm install --no-audit --no-fund --loglevel=error \
	  --cache ../npm promptfoo@$(PROMPTFOO_VERSION) >/dev/null
	@test -x $(PROMPTFOO)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# The repository's own documentation (docs/, mkdocs.yml); strict, so a broken link fails.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --quiet --strict

# Runs from a background job too (`nohup make test &`, where SIGINT arrives ignored): the tests
# that send Ctrl-C give their child processes the default SIGINT back (tests/support/signals.py).
pytest: $(STAMP)
	PROMPTFOO_BIN=$(abspath $(PROMPTFOO)) $(VENV)/bin/pytest

# Property tests with many more examples than CI's fixed set (tests/conftest.py profiles).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(VENV)/bin/pytest -q -p no:randomly tests -k "propert or fuzz"

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) "$$b" || exit $$?; done

# The wheel to install elsewhere (docs/install.md): genlint alone (--no-deps); installing it
# with its extras, `pip install "dist/genlint-0.1.0-py3-none-any.whl[docs,ocr]"`, fetches the rest.
dist: $(STAMP)
	rm -rf dist
	$(PY) -m pip wheel --quiet --no-deps --wheel-dir dist .
	@ls dist/*.whl

clean:
	rm -rf $(VENV) $(CACHE) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
