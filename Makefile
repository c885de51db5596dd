# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint typecheck layers pytest slow bench clean audit constraints translations

# setup.py builds the compiled replay of .mat files: a change to it reinstalls too.
# constraints.txt pins every installed package to the exact version `make audit` checks.
$(STAMP): pyproject.toml setup.py tourney/rules/records/_fastmat.c constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# The message catalogues: every committed .po is compiled to the .mo the app reads.
TRANSLATIONS := tourney/translations
CATALOGUES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/*.po)
COMPILED := $(CATALOGUES:.po=.mo)

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

run: $(STAMP) $(COMPILED)
	$(BIN)/tourney db upgrade
	$(BIN)/tourney demo
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
