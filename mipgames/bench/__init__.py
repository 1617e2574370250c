"""Benchmark campaigns: every (instance, formulation, solver, repeat) job, stored in SQLite, reported fairly."""
