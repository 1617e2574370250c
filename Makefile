# mipgames — see README.md.  Everything runs inside .venv/ (made by `make install`).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SOLVER ?=
TIME   ?= 60
INSTANCE ?=
# Small bundled instances of every problem: the quick benchmark campaign and the example models use them.
SMALL := instances/edge_matching/coursework_4x4.txt instances/edge_matching/planted_5x5_frame.txt \
	instances/queens/spec_example.txt instances/queens/planted_n8_k1_q13_s1.txt \
	instances/samegame/random-4x4-k3-seed4.txt instances/merge_game/two-types.txt instances/merge_game/choice.txt

.PHONY: install lint test stress solve bench bench-edge bench-samegame models clean

install: $(BIN)/mipgames

$(BIN)/mipgames: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[cluster,test]"
	$(BIN)/mipgames solvers
	$(BIN)/mipgames warmup
	touch $@

# ruff (lint and format) and mypy, configured in pyproject.toml; `make test` runs it first.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy mipgames

test: install lint
	$(BIN)/python -m pytest tests

# Every property test with STRESS times its examples, drawn afresh (a new hypothesis seed each run): tens of
# minutes, not for CI.  Failures print the falsifying example and the seed to reproduce it.
STRESS ?= 6
stress: install
	MIPGAMES_STRESS=$(STRESS) $(BIN)/python -m pytest tests $(if $(SEED),--hypothesis-seed=$(SEED))

solve: install
	@test -n "$(INSTANCE)" || { echo "usage: make solve INSTANCE=path [SOLVER=name] [TIME=$(TIME)]"; exit 4; }
	$(BIN)/mipgames solve "$(INSTANCE)" $(if $(SOLVER),--solver $(SOLVER)) --time-limit $(TIME)

bench: install
	$(BIN)/mipgames bench $(SMALL) --solvers cbc,glpk,highs,cpsat,scip --time-limit 10 --db bench-results/results.sqlite --report bench-results/report --resume

# The issues' long benchmarks (bench-edge about 2.5 h, bench-samegame about 45 min; run them on a quiet machine): results land beside the scripts.
bench-edge: install
	$(BIN)/python benchmarks/edge_matching/bench_search.py --time-limit 60 --big-time-limit 600 --e2-time-limit 3600 --threads 2

bench-samegame: install
	$(BIN)/python benchmarks/samegame/standard.py --time-limit 60 --threads 2 --kernel-speed
	$(BIN)/python benchmarks/samegame/standard.py --time-limit 10 --threads 2
	$(BIN)/python benchmarks/samegame/exact_reach.py --seeds 3 --time-limit 60

models: install
	@for f in $(SMALL); do \
		$(BIN)/mipgames export "$$f" -d models/$$(basename $$(dirname "$$f")) --max-size 5 || exit $$?; \
	done

clean:
	rm -rf $(VENV) out bench-results .pytest_cache .hypothesis
