# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint typecheck layers pytest slow bench clean audit constraints \
	translations translations-core

# setup.py builds the compiled replay of .mat files: a change to it reinstalls too.
# constraints.txt pins every installed package to the exact version `make audit` checks.
$(STAMP): pyproject.toml setup.py tourney/rules/records/_fastmat.c constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev,analysis,oracles]'
	touch $(STAMP)

# The message catalogues: every committed .po is compiled to the .mo the app reads.
TRANSLATIONS := tourney/translations
CATALOGUES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/*.po)
COMPILED := $(CATALOGUES:.po=.mo)

# The core catalogue (domain "core"): what the rules, match, formats, store and exports
# say, marked with Message(...), PluralMessage(...) and N_(...). translations-core
# extracts the template and merges it into every language's core.po (make install then
# compiles it with the others; the app compiles a missing or older .mo itself too).
CORE_SOURCES := tourney/rules tourney/match.py tourney/formats tourney/store tourney/exports \
	tourney/cli.py tourney/i18n.py tourney/web/filters.py
CORE_KEYWORDS := --no-default-keywords -k N_ -k Message -k PluralMessage:1,2

translations-core: $(STAMP)
	$(BIN)/pybabel extract -F babel-core.cfg $(CORE_KEYWORDS) --no-location --sort-output \
		--project tourney --copyright-holder "tourney" \
		-o tourney/translations/core.pot $(CORE_SOURCES)
	$(BIN)/pybabel update -D core -i tourney/translations/core.pot -d tourney/translations \
		--no-fuzzy-matching --ignore-obsolete
	$(MAKE) install

$(TRANSLATIONS)/%.mo: $(TRANSLATIONS)/%.po | $(STAMP)
	$(BIN)/pybabel compile --input-file $< --output-file $@

install: $(STAMP) $(COMPILED)

# Extract the web pages' words anew into messages.pot and merge them into every
# language's messages.po (new words arrive untranslated, for a translator to fill in).
translations: $(STAMP)
	$(BIN)/pybabel extract --mapping-file babel.cfg --no-location --sort-output --width 100 \
		--keywords lazy_gettext --keywords lazy_ngettext:1,2 \
		--project tourney --copyright-holder "tourney" \
		--output-file $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update --domain messages --input-file $(TRANSLATIONS)/messages.pot \
		--output-dir $(TRANSLATIONS) --no-fuzzy-matching --ignore-obsolete --width 100
	$(MAKE) install

# The analysis worker runs beside the server for as long as it does (requests only queue
# analyses); without the analysis extra it says so and stops, and the app still serves.
run: $(STAMP) $(COMPILED)
	$(BIN)/tourney db upgrade
	$(BIN)/tourney demo
	$(BIN)/tourney worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
		$(BIN)/tourney serve

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict tourney

layers: $(STAMP)
	$(BIN)/lint-imports

# The suite runs on up to four processes (as many as the machine has cores).
pytest: $(STAMP) $(COMPILED)
	$(BIN)/pytest --numprocesses=auto --maxprocesses=4

test: lint typecheck layers pytest

slow: $(STAMP) $(COMPILED)
	$(BIN)/pytest -m slow --numprocesses=auto --maxprocesses=4

# -P: a script's folder is not put on the path (bench/http.py would hide the http module).
bench: $(STAMP)
	$(BIN)/python -P bench/movegen.py
	$(BIN)/python -P bench/validate.py
	$(BIN)/python -P bench/swiss.py
	$(BIN)/python -P bench/results.py
	$(BIN)/python -P bench/ratings.py
	$(BIN)/python -P bench/exports.py
	$(BIN)/python -P bench/http.py
	$(BIN)/python -P bench/load.py
	$(BIN)/python -P bench/scale.py
	$(BIN)/python -P bench/analyse.py

# Known vulnerabilities in the exact versions installed (needs the vulnerability service:
# --strict fails when a package could not be checked rather than passing it unseen).
audit: $(STAMP)
	$(BIN)/pip-audit --strict --no-deps --disable-pip --progress-spinner off -r constraints.txt

# Write constraints.txt anew from a working .venv (after changing a dependency).
constraints: $(STAMP)
	{ sed -n '1,2p' constraints.txt; $(BIN)/python -m pip freeze --all --exclude-editable \
		| grep -v -i -E '^(pip|setuptools|wheel|tourney)=='; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
