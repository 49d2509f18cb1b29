"""Simulation: seeded games between bots, in parallel, with statistics, reports and tournaments."""
