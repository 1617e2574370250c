"""Merge War hero selection: set-cover MIP, CP-SAT, exhaustive and greedy baselines."""
