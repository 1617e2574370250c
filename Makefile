# mipgames — see README.md.  Everything runs inside .venv/ (made by `make install`).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SOLVER ?= cpsat
TIME   ?= 60
INSTANCE ?=

.PHONY: install test solve bench models clean

install: $(BIN)/mipgames

$(BIN)/mipgames: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	$(BIN)/mipgames solvers
	touch $@

test: install
	$(BIN)/python -m pytest tests

solve: install
	@test -n "$(INSTANCE)" || { echo "usage: make solve INSTANCE=path [SOLVER=$(SOLVER)] [TIME=$(TIME)]"; exit 4; }
	$(BIN)/mipgames solve "$(INSTANCE)" --solver $(SOLVER) --time-limit $(TIME)

bench: install
	$(BIN)/mipgames bench instances/edge_matching/coursework_4x4.txt --solvers cbc,glpk,highs,cpsat \
		--time-limit 30 --db bench-results/results.sqlite --report bench-results/report

models: install
	@for f in instances/*/*; do \
		case "$$f" in *.md) continue;; esac; \
		$(BIN)/mipgames export "$$f" -d models/$$(basename $$(dirname "$$f")) || exit $$?; \
	done

clean:
	rm -rf $(VENV) out bench-results .pytest_cache .hypothesis
