# The two commands: `make demo` and `make test`. Each sets up everything it needs on a fresh
# machine: the virtualenv (.venv) from the committed lock (uv.lock), Debian packages and npm
# packages (cached under .cache/). docs/install.md "Development environment" says why uv.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CACHE := .cache
# uv itself comes from PyPI with the hashes the lock recorded (requirements/uv.txt, made by
# `make lock`); its cache and the interpreter it uses stay on this machine
UV_HOME := $(CACHE)/uv-tool
UV := $(UV_HOME)/bin/uv
UV_CACHE_DIR ?= $(abspath $(CACHE)/uv)
export UV_CACHE_DIR
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(abspath $(VENV))
PROMPTFOO_VERSION := 0.121.20
PROMPTFOO := $(CACHE)/promptfoo/node_modules/.bin/promptfoo

.PHONY: demo test lint typecheck pytest docs fuzz bench install system-deps promptfoo clean dist \
	lock test-latest

demo: $(STAMP)
	@for step in examples/demo/*.sh; do bash "$$step" || exit $$?; done

test: $(STAMP) system-deps promptfoo lint typecheck docs pytest

install: $(STAMP)

# Exact versions and hashes of every package of every extra, for every platform uv.lock covers;
# a lock that no longer matches pyproject.toml stops here with one line, before any install.
$(STAMP): pyproject.toml uv.lock | $(UV)
	@$(UV) lock --check --quiet --python $(PYTHON) 2>/dev/null || { \
	  echo "uv.lock does not match pyproject.toml: run 'make lock'" >&2; exit 2; }
	@$(UV) sync --locked --quiet --extra dev --python $(PYTHON)
	@touch $@

$(UV): requirements/uv.txt
	@$(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --require-hashes \
	  --upgrade --target $(UV_HOME) -r requirements/uv.txt
	@touch $@

# Regenerate the lock from pyproject.toml's ranges (newest versions they allow), and the pinned
# uv it bootstraps with. Commit both; `make test` then installs exactly that.
lock: | $(UV)
	$(UV) lock --upgrade --python $(PYTHON)
	@mkdir -p requirements
	@{ echo "# uv for the Makefile's bootstrap, with its hashes from uv.lock (written by make lock)"; \
	  $(UV) export --frozen --quiet --extra dev --no-emit-project --no-header --no-annotate \
	  | awk '/^uv==/{p=1; print; next} p && /^    /{print; next} {p=0}'; } > requirements/uv.txt

# The suite against the newest releases pyproject.toml's ranges allow, in its own venv, so that
# a release that changes a result is seen on purpose (docs/install.md "Tested ranges").
test-latest: system-deps promptfoo | $(UV)
	$(UV) venv --quiet --allow-existing --python $(PYTHON) .venv-latest
	VIRTUAL_ENV=$(abspath .venv-latest) $(UV) pip install --quiet --upgrade -e '.[dev]'
	PROMPTFOO_BIN=$(abspath $(PROMPTFOO)) .venv-latest/bin/pytest

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

# The wheel and sdist to install elsewhere (docs/install.md), built by PEP 517 in an isolated
# environment of the build backend alone: no development environment is needed or made.
# Installing the wheel with its extras, `pip install "dist/genlint-0.1.0-py3-none-any.whl[docs]"`,
# fetches the rest.
dist: | $(UV)
	rm -rf dist
	$(UV) build --quiet --out-dir dist
	@ls dist/*.whl dist/*.tar.gz

clean:
	rm -rf $(VENV) .venv-latest $(CACHE) build dist src/*.egg-info .pytest_cache .mypy_cache \
	  .ruff_cache
