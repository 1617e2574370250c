"""Power of queens reduction: capture-forest models and level search."""
