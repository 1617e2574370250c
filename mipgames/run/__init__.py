"""Running solves: the runner, the supervised solver process, deadlines and process trees."""
