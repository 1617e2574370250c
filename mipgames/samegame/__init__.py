"""SameGame move sequencing: time-indexed MIP, CP-SAT, exact search and beam baselines."""
