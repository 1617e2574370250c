"""Edge-matching puzzles (Eternity II style): placement with rotations, all edges matched."""
