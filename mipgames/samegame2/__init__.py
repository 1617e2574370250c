"""Same Game 2: the sparse-plane command interpreter that also verifies SameGame."""
