"""0/1 knapsack: the toy problem added by following docs/ADDING_A_PROBLEM.md step by step."""
